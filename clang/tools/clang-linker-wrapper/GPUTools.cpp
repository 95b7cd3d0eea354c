//===- GPUTools.cpp - The tools and files of the GPU device links ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One lookup of each GPU link's external tools, which the link runs and the
// device-link cache keys: two copies of a tool search drift apart, and a
// cache keyed by the wrong copy returns images linked by another tool.
//
//===----------------------------------------------------------------------===//

#include "GPUBitcodeLinker.h"
#include "GPUDeviceLinkers.h"
#include "LinkerArguments.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace wrapper {

Expected<NVPTXTools> findNVPTXTools(const ToolchainPaths &Paths,
                                    StringRef Purpose) {
  std::vector<std::string> CudaBins;
  if (!Paths.CudaPath.empty())
    CudaBins.push_back(Paths.CudaPath + "/bin");
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_PATH"))
    CudaBins.push_back(*Env + "/bin");
  std::string Hint = "install the CUDA toolkit or pass --cuda-path=<dir>";
  NVPTXTools Tools;
  Expected<std::string> Ptxas =
      findGPUTool("ptxas", CudaBins, {"/usr/local/cuda/bin"}, Purpose, Hint);
  if (!Ptxas)
    return Ptxas.takeError();
  Expected<std::string> Nvlink =
      findGPUTool("nvlink", CudaBins, {"/usr/local/cuda/bin"}, Purpose, Hint);
  if (!Nvlink)
    return Nvlink.takeError();
  return NVPTXTools{*Ptxas, *Nvlink};
}

Expected<std::string> findAMDGPULinker(const ToolchainPaths &Paths,
                                       StringRef Purpose) {
  // The lld of the LLVM the wrapper was built for understands its objects.
  std::string LLVMBin = sys::path::parent_path(Paths.Clang).str();
  return findGPUTool("ld.lld", {LLVMBin}, {}, Purpose,
                     "install lld (Debian package lld-22)");
}

Expected<DeviceLinkDependencies>
gpuLinkDependencies(const DeviceLinkJob &Job, const ToolchainPaths &Paths,
                    std::vector<std::string> Tools) {
  Expected<GPULinkOptions> Options = parseGPULinkOptions(Job, Paths);
  if (!Options)
    return Options.takeError();
  DeviceLinkDependencies Deps;
  Deps.Files = Options->Archives;
  // Objects and linker scripts passed through to nvlink or ld.lld.
  for (const std::string &Arg : Options->LinkerPassThrough)
    if (!StringRef(Arg).starts_with("-") && sys::fs::is_regular_file(Arg))
      Deps.Files.push_back(absolutePath(Arg));
  Deps.Tools = std::move(Tools);
  return Deps;
}

} // namespace wrapper
