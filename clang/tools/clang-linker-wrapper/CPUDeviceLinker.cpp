//===- CPUDeviceLinker.cpp - Device link for CPU offload targets ----------===//
//
// A CPU device image is a position-independent shared object that the
// runtime's host plugin loads next to the program. It is linked by clang's
// driver for the device triple, with:
//  * -Bsymbolic, so the image's references to its own kernels and globals
//    bind inside the image and never to the host program's copies of the
//    same names;
//  * libomp, which Clang's host-style CPU kernels call (__kmpc_fork_call...);
//  * no --no-undefined: C++ device code refers to the C++ runtime
//    (__gxx_personality_v0, std::terminate...) which the image finds in the
//    host process that loads it, as it does not link the host's libraries;
//  * the CPU device runtime's link options when that runtime is installed:
//    `<prefix>/lib/<triple>/ompdevice-link.rsp`, a response file the device
//    runtime installs (contract with openmp/device).
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinker.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapper {
namespace {

class CPUDeviceLinker final : public DeviceLinker {
public:
  explicit CPUDeviceLinker(const ToolchainPaths &Paths) : Paths(Paths) {}

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    std::vector<std::string> Argv = {
        Paths.Clang,
        // Only what we pass: no user or distribution configuration file.
        "--no-default-config",
        "--target=" + Job.Triple.str(),
        "-shared",
        "-Wl,-Bsymbolic",
        "-o",
        Job.Output,
    };
    Argv.insert(Argv.end(), Job.Inputs.begin(), Job.Inputs.end());
    // Options of the device compilation (-O2, -g, -flto=full...) matter when
    // the inputs are bitcode that clang compiles here.
    Argv.insert(Argv.end(), Job.CompilerArgs.begin(), Job.CompilerArgs.end());
    for (const std::string &Plugin : Job.PassPlugins)
      Argv.push_back("-fpass-plugin=" + Plugin);
    for (const std::string &Arg : Job.LLVMArgs) {
      Argv.push_back("-mllvm");
      Argv.push_back(Arg);
    }

    std::string RuntimeDir = Paths.deviceLibDir(Job.Triple);
    Argv.push_back("-L" + RuntimeDir);
    SmallString<256> RuntimeOptions(RuntimeDir);
    sys::path::append(RuntimeOptions, "ompdevice-link.rsp");
    if (sys::fs::is_regular_file(RuntimeOptions))
      Argv.push_back(("@" + RuntimeOptions).str());
    Argv.push_back("-L" + Paths.LLVMLibDir);
    Argv.push_back("-lomp");

    for (const std::string &Arg : Job.LinkerArgs) {
      Argv.push_back("-Xlinker");
      Argv.push_back(Arg);
    }
    return Runner.run(Argv, "device link for " + Job.describe());
  }

private:
  ToolchainPaths Paths;
};

} // namespace

std::unique_ptr<DeviceLinker>
createCPUDeviceLinker(const ToolchainPaths &Paths) {
  return std::make_unique<CPUDeviceLinker>(Paths);
}

} // namespace wrapper
