//===- DeviceInfoMain.cpp - llvm-offload-device-info ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prints every device of every offload plugin of this installation (the
// plugins beside libomptarget.so in <prefix>/lib), see DeviceInfo.h.
//
//===----------------------------------------------------------------------===//

#include "DeviceInfo.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

using namespace offload::deviceinfo;

static llvm::cl::opt<std::string>
    PluginDir("plugin-dir",
              llvm::cl::desc("Folder of the libomptarget.rtl.<name>.so "
                             "plugins (default: <prefix>/lib)"),
              llvm::cl::value_desc("folder"));

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "Lists the devices of every offload plugin and, for a plugin without "
      "devices, why it has none\n");
  std::string Dir = PluginDir;
  if (Dir.empty()) {
    // <prefix>/bin/<tool> -> <prefix>/lib, where libomptarget loads them.
    static int Anchor;
    llvm::SmallString<256> Path(llvm::sys::path::parent_path(
        llvm::sys::fs::getMainExecutable(argv[0], &Anchor)));
    llvm::sys::path::remove_filename(Path);
    llvm::sys::path::append(Path, "lib");
    Dir = std::string(Path);
  }
  std::vector<PluginEntry> Plugins;
  for (const std::string &Name : findPlugins(Dir)) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, "libomptarget.rtl." + Name + ".so");
    Plugins.push_back(queryPlugin(Name, std::string(Path)));
  }
  printReport(Plugins, llvm::outs());
  if (Plugins.empty()) {
    llvm::errs() << argv[0] << ": no offload plugin in '" << Dir << "'\n";
    return 1;
  }
  return 0;
}
