//===- NVPTXDeviceLinker.cpp - Device link for NVIDIA GPUs ----------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One image per sm_XX architecture, always an executable cubin:
//  1. Bitcode inputs (-foffload-lto) and the device-runtime members that any
//     input needs are linked by LTO into one PTX module, which the CUDA
//     toolkit's ptxas assembles into a relocatable cubin. Cubin inputs (the
//     default: clang and flang run ptxas at compile time) are read for the
//     symbols they leave undefined, so a Flang object's calls into the
//     runtime pull the runtime in here.
//  2. nvlink combines all cubins into the image.
// ptxas and nvlink come from --cuda-path, $CUDA_PATH, PATH or
// /usr/local/cuda, in that order. An architecture the toolkit cannot
// assemble for (CUDA 13 starts at sm_75) is an error from ptxas, which the
// wrapper reports with the architecture and the toolkit it used.
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinker.h"
#include "EmulatedGPULink.h"
#include "GPUBitcodeLinker.h"
#include "GPUDeviceLinkers.h"
#include "TempFiles.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace wrapper {
namespace {

/// Adds the undefined symbols of the cubin \p Path to \p Undefined.
Error collectCubinReferences(StringRef Path, StringSet<> &Undefined) {
  Expected<object::OwningBinary<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(Path);
  if (!ObjOrErr)
    return createStringError("device object '" + Path + "' is not readable: " +
                             toString(ObjOrErr.takeError()));
  const object::ObjectFile &Obj = *ObjOrErr->getBinary();
  const auto *Elf = dyn_cast<object::ELFObjectFileBase>(&Obj);
  if (!Elf || Elf->getEMachine() != ELF::EM_CUDA)
    return createStringError(
        "device object '" + Path +
        "' is not an NVIDIA cubin; an nvptx64 image must be a "
        "cubin or LLVM bitcode");
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> FlagsOrErr = Sym.getFlags();
    Expected<StringRef> NameOrErr = Sym.getName();
    if (!FlagsOrErr || !NameOrErr) {
      consumeError(FlagsOrErr.takeError());
      consumeError(NameOrErr.takeError());
      continue;
    }
    // Weak undefined symbols are nvlink's own (__UFT_*, __UDT_*).
    if ((*FlagsOrErr & object::SymbolRef::SF_Undefined) &&
        !(*FlagsOrErr & object::SymbolRef::SF_Weak) && !NameOrErr->empty())
      Undefined.insert(*NameOrErr);
  }
  return Error::success();
}

/// The PTX ISA version to generate for \p Arch: the first one that knows
/// the architecture, and at least 6.3, which the device runtime needs
/// (nanosleep, activemask). Code generation does not take it from the
/// bitcode, and without it LLVM falls back to a version older than the
/// runtime's instructions.
unsigned ptxVersionFor(StringRef Arch) {
  StringRef Digits = Arch.drop_front(3);
  bool Specific = Digits.consume_back("a") || Digits.consume_back("f");
  unsigned SM = 0;
  if (Digits.getAsInteger(10, SM))
    return 88;
  unsigned Version = 63;
  if (SM >= 80)
    Version = 70;
  if (SM >= 86)
    Version = 71;
  if (SM >= 87)
    Version = 74;
  if (SM >= 89)
    Version = 78;
  if (SM >= 100)
    Version = 86;
  if (SM >= 103 || SM == 121)
    Version = 88;
  if (SM >= 110 && SM < 120)
    Version = 90;
  if (Specific)
    Version = std::max(Version, SM >= 100 ? 88u : 80u);
  return Version;
}

class NVPTXDeviceLinker final : public DeviceLinker {
public:
  explicit NVPTXDeviceLinker(const ToolchainPaths &Paths) : Paths(Paths) {}

  Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &Job) const override {
    Expected<NVPTXTools> Tools =
        findNVPTXTools(Paths, "the device link of " + Job.describe());
    if (!Tools)
      return Tools.takeError();
    return gpuLinkDependencies(Job, Paths, {Tools->Ptxas, Tools->Nvlink});
  }

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    std::string What = Job.describe();
    if (!StringRef(Job.Arch).starts_with("sm_"))
      return createStringError(
          "the " + Job.Triple.str() +
          " device image needs an sm_XX architecture, got '" + Job.Arch +
          "'; compile with --offload-arch=sm_XX");
    Expected<GPULinkOptions> OptionsOrErr = parseGPULinkOptions(Job, Paths);
    if (!OptionsOrErr)
      return OptionsOrErr.takeError();
    GPULinkOptions &Options = *OptionsOrErr;
    if (takeEmulateOption(Options))
      return linkEmulatedGPUImage(Job, Options, Paths, Runner);

    Expected<NVPTXTools> Tools =
        findNVPTXTools(Paths, "the device link of " + What);
    if (!Tools)
      return Tools.takeError();

    std::vector<std::string> Cubins;
    GPUBitcodeLink Lto = prepareGPUBitcodeLink(
        Job, Options, CodeGenFileType::AssemblyFile, Cubins);
    Lto.Features = {"+ptx" + std::to_string(ptxVersionFor(Job.Arch))};
    if (!Runner.isDryRun())
      for (const std::string &Cubin : Cubins)
        if (Error E = collectCubinReferences(Cubin, Lto.ExternalReferences))
          return E;

    // Step 1: LTO and ptxas for what is still bitcode.
    std::optional<ScopedTempFile> Ptx, Cubin;
    std::string PtxPath = Job.Output + "-lto.s";
    std::string CubinPath = Job.Output + "-lto.cubin";
    bool Assemble = !Lto.BitcodeFiles.empty() || !Lto.Archives.empty();
    if (!Runner.isDryRun() && Assemble) {
      Expected<SmallString<0>> PtxOrErr = runGPUBitcodeLink(Lto);
      if (!PtxOrErr)
        return PtxOrErr.takeError();
      Assemble = !PtxOrErr->empty();
      if (Assemble) {
        Expected<ScopedTempFile> PtxFile =
            ScopedTempFile::create(Job.Output, ".s", *PtxOrErr);
        if (!PtxFile)
          return PtxFile.takeError();
        Ptx.emplace(std::move(*PtxFile));
        Expected<ScopedTempFile> CubinFile =
            ScopedTempFile::create(Job.Output, ".cubin");
        if (!CubinFile)
          return CubinFile.takeError();
        Cubin.emplace(std::move(*CubinFile));
        PtxPath = Ptx->path();
        CubinPath = Cubin->path();
      }
    }
    if (Assemble) {
      std::vector<std::string> Argv = {
          Tools->Ptxas,
          "-m64",
          "-O" + std::to_string(std::min(Options.OptLevel, 3u)),
          "--gpu-name",
          Job.Arch,
          "--output-file",
          CubinPath,
          PtxPath,
          "-c"};
      if (Options.Debug)
        Argv.push_back("-lineinfo");
      if (Error E = Runner.run(Argv, "ptxas for " + What))
        return createStringError(
            toString(std::move(E)) +
            "; if ptxas says the architecture is not defined, "
            "the CUDA toolkit it belongs to cannot build " +
            Job.Arch +
            " (CUDA 13 supports sm_75 and newer): use a newer "
            "--offload-arch or an older toolkit (--cuda-path)");
      Cubins.push_back(CubinPath);
    }
    if (Cubins.empty())
      return createStringError("the " + What + " device link has no input");

    // Step 2: one executable cubin.
    std::vector<std::string> Argv = {Tools->Nvlink, "-m64",
                                     "--arch=" + Job.Arch, "-o", Job.Output};
    if (Options.Debug)
      Argv.push_back("-g");
    Argv.insert(Argv.end(), Options.LinkerPassThrough.begin(),
                Options.LinkerPassThrough.end());
    Argv.insert(Argv.end(), Cubins.begin(), Cubins.end());
    return Runner.run(Argv, "nvlink for " + What);
  }

private:
  ToolchainPaths Paths;
};

} // namespace

std::unique_ptr<DeviceLinker>
createNVPTXDeviceLinker(const ToolchainPaths &Paths) {
  return std::make_unique<NVPTXDeviceLinker>(Paths);
}

} // namespace wrapper
