//===- WrapperOptions.h - Command line of clang-linker-wrapper -*- C++ -*-===//
//
// The wrapper's command line is a host-linker command line with wrapper
// options mixed in. Parsing splits it into the wrapper's settings, the
// ordered list of link inputs the wrapper scans, and the host-linker
// arguments it passes on untouched.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_WRAPPEROPTIONS_H
#define CLANG_LINKER_WRAPPER_WRAPPEROPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <string>
#include <vector>

namespace wrapper {

/// One element of the host link's input list, in command-line order. The
/// positional state options matter because they change how the files after
/// them are read.
struct LinkInput {
  enum KindTy {
    File,            ///< An input file named on the command line.
    Library,         ///< `-l<name>`: searched in the library path.
    WholeArchiveOn,  ///< `--whole-archive`
    WholeArchiveOff, ///< `--no-whole-archive`
    GroupStart,      ///< `--start-group`
    GroupEnd,        ///< `--end-group`
    StaticOn,        ///< `-Bstatic` / `-static`: only archives for -l
    StaticOff,       ///< `-Bdynamic`
  };
  KindTy Kind;
  std::string Value;
};

/// An argument for device tools, possibly restricted to one triple.
struct DeviceArg {
  std::string Triple; ///< Empty: every device triple.
  std::string Value;
};

/// Everything the wrapper learns from its command line.
struct WrapperConfig {
  llvm::Triple HostTriple;
  std::string LinkerPath;
  std::string Output = "a.out";
  bool Verbose = false;
  bool DryRun = false;
  bool SaveTemps = false;
  bool PrintWrappedModule = false;
  bool Relocatable = false;
  bool PrintVersion = false;
  bool Help = false;
  /// 0: choose from the machine.
  unsigned Jobs = 0;
  /// The device-link cache (DeviceLinkCache.h): off with --no-wrapper-cache;
  /// an empty directory means the default one.
  bool UseCache = true;
  std::string CacheDir;
  std::string CachePolicy;
  std::string CudaPath;
  std::vector<DeviceArg> DeviceLinkerArgs;
  std::vector<DeviceArg> DeviceCompilerArgs;
  /// LLVM options for device code generation (-mllvm, --offload-opt=).
  std::vector<std::string> LLVMArgs;
  std::vector<std::string> ShouldExtract;

  std::vector<LinkInput> Inputs;
  std::vector<std::string> LibraryPaths;
  std::vector<std::string> UndefinedSymbols;
  std::string Sysroot;
  /// The host linker's arguments in order, without the wrapper's own options
  /// and without `-o`, which the wrapper sets itself.
  std::vector<std::string> LinkerArgs;

  /// The values of \p Args meant for \p Triple (unrestricted ones first, in
  /// command-line order).
  static std::vector<std::string> forTriple(llvm::ArrayRef<DeviceArg> Args,
                                            const llvm::Triple &Triple);
};

/// Parses the wrapper's command line (without the program name).
llvm::Expected<WrapperConfig>
parseCommandLine(llvm::ArrayRef<const char *> Args);

/// Prints `--help`.
void printHelp(llvm::raw_ostream &OS, llvm::StringRef ProgramName);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_WRAPPEROPTIONS_H
