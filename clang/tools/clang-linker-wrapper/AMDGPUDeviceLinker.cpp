//===- AMDGPUDeviceLinker.cpp - Device link for AMD GPUs ------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One code object per gfx target. AMD device code arrives as bitcode (the
// compilers always defer code generation to the link), so the application's
// modules and the device-runtime members they need are linked by LTO into
// one relocatable object for the target, which ld.lld turns into the
// shared-object code object HSA loads. Undefined symbols are an error at
// this point, as HSA cannot resolve them at load time.
//
// ld.lld is taken from the LLVM installation the wrapper was built for
// (it must understand that LLVM's object files), then from PATH.
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinker.h"
#include "EmulatedGPULink.h"
#include "GPUBitcodeLinker.h"
#include "GPUDeviceLinkers.h"
#include "TempFiles.h"

#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapper {
namespace {

class AMDGPUDeviceLinker final : public DeviceLinker {
public:
  explicit AMDGPUDeviceLinker(const ToolchainPaths &Paths) : Paths(Paths) {}

  Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &Job) const override {
    Expected<std::string> Lld =
        findAMDGPULinker(Paths, "the device link of " + Job.describe());
    if (!Lld)
      return Lld.takeError();
    return gpuLinkDependencies(Job, Paths, {*Lld});
  }

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    std::string What = Job.describe();
    if (!StringRef(Job.Arch).starts_with("gfx"))
      return createStringError("the " + Job.Triple.str() +
                               " device image needs a gfx architecture, got '" +
                               Job.Arch +
                               "'; compile with --offload-arch=gfxNNN");
    Expected<GPULinkOptions> OptionsOrErr = parseGPULinkOptions(Job, Paths);
    if (!OptionsOrErr)
      return OptionsOrErr.takeError();
    GPULinkOptions &Options = *OptionsOrErr;
    if (takeEmulateOption(Options))
      return linkEmulatedGPUImage(Job, Options, Paths, Runner);

    Expected<std::string> Lld =
        findAMDGPULinker(Paths, "the device link of " + What);
    if (!Lld)
      return Lld.takeError();

    std::vector<std::string> Objects;
    GPUBitcodeLink Lto = prepareGPUBitcodeLink(
        Job, Options, CodeGenFileType::ObjectFile, Objects);

    std::optional<ScopedTempFile> LtoObject;
    std::string LtoPath = Job.Output + "-lto.o";
    if (!Runner.isDryRun() && !Lto.BitcodeFiles.empty()) {
      Expected<SmallString<0>> ObjectOrErr = runGPUBitcodeLink(Lto);
      if (!ObjectOrErr)
        return ObjectOrErr.takeError();
      Expected<ScopedTempFile> File =
          ScopedTempFile::create(Job.Output, ".o", *ObjectOrErr);
      if (!File)
        return File.takeError();
      LtoObject.emplace(std::move(*File));
      LtoPath = LtoObject->path();
    }
    if (!Lto.BitcodeFiles.empty())
      Objects.push_back(LtoPath);
    if (Objects.empty())
      return createStringError("the " + What + " device link has no input");

    // -Bsymbolic: the LTO resolution above treats every definition as final
    // in this image (dso_local, PC-relative references), and that is how the
    // HSA loader binds a code object: nothing preempts its definitions. Without
    // it ld.lld must treat default-visibility definitions of a shared object
    // as preemptible (OpenMP's `critical` lock `_gomp_critical_user_*`,
    // Flang's `_QQcl*` string constants) and rejects the PC-relative
    // references to them.
    std::vector<std::string> Argv = {*Lld, "--no-undefined", "-shared",
                                     "-Bsymbolic"};
    Argv.insert(Argv.end(), {"-o", Job.Output});
    Argv.insert(Argv.end(), Options.LinkerPassThrough.begin(),
                Options.LinkerPassThrough.end());
    Argv.insert(Argv.end(), Objects.begin(), Objects.end());
    return Runner.run(Argv, "ld.lld for " + What);
  }

private:
  ToolchainPaths Paths;
};

} // namespace

std::unique_ptr<DeviceLinker>
createAMDGPUDeviceLinker(const ToolchainPaths &Paths) {
  return std::make_unique<AMDGPUDeviceLinker>(Paths);
}

} // namespace wrapper
