//===- EmulatedGPULink.cpp - GPU images for the GPU emulator --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EmulatedGPULink.h"
#include "TempFiles.h"

#include "offload/GPUEmulation/HostRetarget.h"
#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace llvm;

namespace wrapper {
namespace {

/// The optimised device module, as bitcode: LTO's own module dies with the
/// LTO object, and code generation for the GPU is skipped.
Expected<SmallString<0>> optimisedDeviceBitcode(GPUBitcodeLink &Lto) {
  SmallString<0> Bitcode;
  Lto.PreCodeGenHook = [&Bitcode](unsigned, const Module &M) {
    raw_svector_ostream OS(Bitcode);
    WriteBitcodeToFile(M, OS);
    return false;
  };
  Expected<SmallString<0>> Generated = runGPUBitcodeLink(Lto);
  if (!Generated)
    return Generated.takeError();
  return Bitcode;
}

/// Keeps the AMDGPU backend's module LDS lowering out of the LTO pipeline
/// (LLVM adds it at the end of full LTO). It packs each kernel's LDS
/// variables into one struct and reaches them from other functions through
/// tables of 32-bit LDS addresses indexed by llvm.amdgcn.lds.kernel.id:
/// code that only a GPU's 32-bit local address space can run. The emulator
/// gives each team-shared variable its own offset in the block's segment
/// instead (SharedMemoryLowering.cpp).
void keepLDSVariables() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("amdgpu-enable-lower-module-lds");
  if (It != Options.end())
    (void)It->second->addOccurrence(0, It->first, "false");
}

/// Retargets \p Bitcode to this host and compiles it to an object.
Expected<SmallString<0>> emulatedObject(StringRef Bitcode, StringRef What) {
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile(MemoryBufferRef(Bitcode, What), Ctx);
  if (!M)
    return M.takeError();
  if (Error E =
          offload::gpuemu::retargetToHost(**M, Triple(sys::getProcessTriple())))
    return createStringError(
        "cannot build the " + What.str() +
        " image for the GPU emulator: " + toString(std::move(E)));
  return offload::emitObject(**M);
}

/// Gives the linked image at \p Path the ELF machine of the GPU's own images
/// (\p Machine: EM_CUDA for a cubin, EM_AMDGPU for a code object). The
/// offload runtime hands images to plugins by machine number, and an x86-64
/// shared object would go to the CPU device; the emulator's loader restores
/// EM_X86_64 in its copy before loading it.
Error markAsGPUImage(StringRef Path, uint16_t Machine) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Image =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Image)
    return createStringError("cannot read the emulated image '" + Path +
                             "': " + Image.getError().message());
  std::string Bytes = (*Image)->getBuffer().str();
  if (Bytes.size() < sizeof(ELF::Elf64_Ehdr) ||
      uint8_t(Bytes[18]) != ELF::EM_X86_64 || Bytes[19] != 0)
    return createStringError("the emulated image '" + Path +
                             "' is not an x86-64 ELF file");
  Bytes[18] = char(Machine & 0xff);
  Bytes[19] = char(Machine >> 8);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC)
    OS << Bytes;
  OS.close();
  if (EC || OS.has_error())
    return createStringError("cannot write the emulated image '" + Path + "'");
  return Error::success();
}

} // namespace

bool takeEmulateOption(GPULinkOptions &Options) {
  auto &Args = Options.LinkerPassThrough;
  auto It = std::remove(Args.begin(), Args.end(), EmulateOption);
  bool Found = It != Args.end();
  Args.erase(It, Args.end());
  return Found;
}

Error linkEmulatedGPUImage(const DeviceLinkJob &Job,
                           const GPULinkOptions &Options,
                           const ToolchainPaths &Paths, CommandRunner &Runner) {
  std::string What = Job.describe();
  std::string LLVMBin = sys::path::parent_path(Paths.Clang).str();
  Expected<std::string> Lld = findGPUTool(
      "ld.lld", {LLVMBin}, {}, "the emulated device link of " + What,
      "install lld (Debian package lld-22)");
  if (!Lld)
    return Lld.takeError();

  std::vector<std::string> Others;
  GPUBitcodeLink Lto =
      prepareGPUBitcodeLink(Job, Options, CodeGenFileType::ObjectFile, Others);
  if (!Others.empty())
    return createStringError(
        "the GPU emulator needs the device code of " + What +
        " as bitcode, but '" + Others.front() + "' is compiled GPU code" +
        (Job.Triple.isNVPTX() ? "; compile with -foffload-lto" : ""));

  std::string ObjectPath = Job.Output + "-emulated.o";
  std::optional<ScopedTempFile> Object;
  if (!Runner.isDryRun()) {
    if (Job.Triple.isAMDGCN())
      keepLDSVariables();
    Expected<SmallString<0>> Bitcode = optimisedDeviceBitcode(Lto);
    if (!Bitcode)
      return Bitcode.takeError();
    if (Bitcode->empty())
      return createStringError("the " + What + " device link has no input");
    Expected<SmallString<0>> Obj = emulatedObject(*Bitcode, What);
    if (!Obj)
      return Obj.takeError();
    Expected<ScopedTempFile> File =
        ScopedTempFile::create(Job.Output, ".o", *Obj);
    if (!File)
      return File.takeError();
    Object.emplace(std::move(*File));
    ObjectPath = Object->path();
  }
  // -Bsymbolic: the image's own references bind to its own definitions;
  // what stays undefined (__gpuemu_*) is the emulator's.
  std::vector<std::string> Argv = {*Lld,  "-shared", "-Bsymbolic", "-z",
                                   "now", "-o",      Job.Output,   ObjectPath};
  if (Error E = Runner.run(Argv, "ld.lld for the emulated " + What))
    return E;
  if (Runner.isDryRun())
    return Error::success();
  return markAsGPUImage(Job.Output,
                        Job.Triple.isAMDGCN() ? ELF::EM_AMDGPU : ELF::EM_CUDA);
}

} // namespace wrapper
