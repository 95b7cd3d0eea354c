//===- DeviceLinker.cpp - Per-target device link step ---------------------===//

#include "DeviceLinker.h"
#include "GPUDeviceLinkers.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapper {

std::string ToolchainPaths::deviceLibDir(const Triple &T) const {
  SmallString<256> Dir(Prefix);
  sys::path::append(Dir, "lib", T.str());
  if (sys::fs::is_directory(Dir))
    return Dir.str().str();
  // x86_64-unknown-linux-gnu and x86_64-pc-linux-gnu name the same CPU
  // device (upstream's tests use the former; clang normalises
  // x86_64-linux-gnu to the latter): either finds the runtime installed for
  // the other.
  if (T.getVendor() == Triple::UnknownVendor || T.getVendor() == Triple::PC) {
    Triple Other(T);
    Other.setVendor(T.getVendor() == Triple::PC ? Triple::UnknownVendor
                                                : Triple::PC);
    SmallString<256> OtherDir(Prefix);
    sys::path::append(OtherDir, "lib", Other.str());
    if (sys::fs::is_directory(OtherDir))
      return OtherDir.str().str();
  }
  return Dir.str().str();
}

std::string DeviceLinkJob::describe() const {
  if (Arch.empty())
    return Triple.str();
  return Triple.str() + " (" + Arch + ")";
}

DeviceLinker::~DeviceLinker() = default;

Expected<DeviceLinkDependencies>
DeviceLinker::linkRecordingReads(const DeviceLinkJob &Job,
                                 CommandRunner &Runner) const {
  if (Error E = link(Job, Runner))
    return std::move(E);
  return DeviceLinkDependencies();
}

bool isCPUDeviceTriple(const Triple &T) {
  // The CPU triples libomptarget's host plugin runs images for.
  return T.getArch() == Triple::x86_64 || T.isAArch64() || T.isPPC64() ||
         T.getArch() == Triple::systemz || T.isRISCV64() || T.isLoongArch64();
}

Expected<std::unique_ptr<DeviceLinker>>
createDeviceLinker(const Triple &T, const ToolchainPaths &Paths) {
  if (isCPUDeviceTriple(T))
    return createCPUDeviceLinker(Paths);
  if (T.isNVPTX())
    return createNVPTXDeviceLinker(Paths);
  if (T.isAMDGCN())
    return createAMDGPUDeviceLinker(Paths);
  // Other GPU device links (SPIR-V) plug in here.
  return createStringError(inconvertibleErrorCode(),
                           "device linking for target '" + T.str() +
                               "' is not supported yet by this "
                               "clang-linker-wrapper");
}

} // namespace wrapper
