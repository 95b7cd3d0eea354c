//===- GPUBitcodeLTO.cpp - The LTO step of a GPU device link --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// runGPUBitcodeLink in steps: read the bitcode files and the archives'
// bitcode members, take the members something needs (as a linker does),
// find each symbol's prevailing definition, resolve every symbol for LTO
// (see GPUBitcodeLinker.h for the visibility rules) and run LTO in process.
//
//===----------------------------------------------------------------------===//

#include "GPUBitcodeLinker.h"
#include "GPULTOOptions.h"

#include "offload/Offloading/ObjectEmitter.h"
#include "offload/Transforms/DirectRegionCalls.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/LTO/LTO.h"
#include "llvm/Object/Archive.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapper {
namespace {

/// The device runtime's global a plugin fills in (openmp/device).
constexpr StringLiteral DeviceEnvironmentName = "__omp_rtl_device_environment";

/// The device runtime's entry points that link-time OpenMPOpt calls from
/// code it writes: the custom state machine of a generic kernel, the guards
/// of an SPMD-ised one. It only writes that code when they are defined, but
/// it has already folded the runtime's own reads of the kernel environment
/// as if it would: a program that uses no reduction (which would pull in
/// __kmpc_get_warp_size) then lost the generic-mode worker loop, and its
/// parallel regions ran on no thread. Like upstream, which links its whole
/// runtime as one module, we make sure they are there; what no code calls
/// is removed after the pass.
constexpr StringLiteral OpenMPOptRuntimeEntries[] = {
    "__kmpc_get_hardware_thread_id_in_block",
    "__kmpc_get_hardware_num_threads_in_block",
    "__kmpc_get_warp_size",
    "__kmpc_barrier_simple_spmd",
    "__kmpc_barrier_simple_generic",
    "__kmpc_kernel_parallel",
    "__kmpc_kernel_end_parallel",
};

/// A bitcode module taking part in the link (or a candidate archive member).
struct BitcodeInput {
  std::unique_ptr<lto::InputFile> File;
  /// "file.bc" or "libfoo.a(member.bc)", for messages.
  std::string Origin;
  bool Taken = false;
};

/// Where a symbol's prevailing definition comes from.
struct Definition {
  size_t Input;
  bool Weak;
};

/// The link's inputs, and the buffers they point into.
struct LinkInputs {
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  /// Bitcode files, then the archive members taken.
  std::vector<BitcodeInput> Inputs;
  /// Every bitcode member of the archives.
  std::vector<BitcodeInput> Members;

  Expected<MemoryBufferRef> load(StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> BufferOrErr =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!BufferOrErr)
      return createStringError("cannot read '" + Path +
                               "': " + BufferOrErr.getError().message());
    Buffers.push_back(std::move(*BufferOrErr));
    return Buffers.back()->getMemBufferRef();
  }
};

Expected<std::unique_ptr<lto::InputFile>>
openBitcode(MemoryBufferRef Buffer, StringRef Origin, const Triple &Target) {
  Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
      lto::InputFile::create(Buffer);
  if (!FileOrErr)
    return createStringError("cannot read device bitcode '" + Origin +
                             "': " + toString(FileOrErr.takeError()));
  Triple FileTriple((*FileOrErr)->getTargetTriple());
  if (FileTriple.getArch() != Target.getArch())
    return createStringError("device bitcode '" + Origin + "' is for '" +
                             FileTriple.str() + "', not '" + Target.str() +
                             "'");
  return std::move(*FileOrErr);
}

Error loadBitcodeFiles(const GPUBitcodeLink &Link, LinkInputs &In) {
  for (const std::string &Path : Link.BitcodeFiles) {
    Expected<MemoryBufferRef> BufferOrErr = In.load(Path);
    if (!BufferOrErr)
      return BufferOrErr.takeError();
    Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
        openBitcode(*BufferOrErr, Path, Link.Triple);
    if (!FileOrErr)
      return FileOrErr.takeError();
    In.Inputs.push_back({std::move(*FileOrErr), Path, true});
  }
  return Error::success();
}

/// Adds the bitcode members of the archive \p Path to In.Members; host
/// objects may share an archive with device bitcode and are skipped.
Error loadArchiveMembers(StringRef Path, const Triple &Target, LinkInputs &In) {
  Expected<MemoryBufferRef> BufferOrErr = In.load(Path);
  if (!BufferOrErr)
    return BufferOrErr.takeError();
  Expected<std::unique_ptr<object::Archive>> ArchiveOrErr =
      object::Archive::create(*BufferOrErr);
  if (!ArchiveOrErr)
    return createStringError("cannot read archive '" + Path +
                             "': " + toString(ArchiveOrErr.takeError()));
  Error Err = Error::success();
  for (const object::Archive::Child &Child : (*ArchiveOrErr)->children(Err)) {
    Expected<StringRef> NameOrErr = Child.getName();
    Expected<MemoryBufferRef> MemberOrErr = Child.getMemoryBufferRef();
    if (!NameOrErr || !MemberOrErr) {
      consumeError(NameOrErr.takeError());
      consumeError(MemberOrErr.takeError());
      consumeError(std::move(Err));
      return createStringError("cannot read a member of archive '" + Path +
                               "'");
    }
    if (identify_magic(MemberOrErr->getBuffer()) != file_magic::bitcode)
      continue;
    std::string Origin = (Path + "(" + *NameOrErr + ")").str();
    Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
        openBitcode(*MemberOrErr, Origin, Target);
    if (!FileOrErr) {
      consumeError(std::move(Err));
      return FileOrErr.takeError();
    }
    In.Members.push_back({std::move(*FileOrErr), Origin, false});
  }
  if (Err)
    return createStringError("cannot read archive '" + Path +
                             "': " + toString(std::move(Err)));
  return Error::success();
}

/// The symbols defined so far and those still undefined.
struct SymbolState {
  StringSet<> Defined, Undefined;

  void note(lto::InputFile &File) {
    for (const lto::InputFile::Symbol &Sym : File.symbols())
      if (!Sym.isUndefined())
        Defined.insert(Sym.getName());
    for (const lto::InputFile::Symbol &Sym : File.symbols())
      if (Sym.isUndefined() && !Defined.contains(Sym.getName()))
        Undefined.insert(Sym.getName());
  }

  bool satisfies(lto::InputFile &Member) const {
    return llvm::any_of(Member.symbols(), [&](const auto &Sym) {
      return !Sym.isUndefined() && Undefined.contains(Sym.getName()) &&
             !Defined.contains(Sym.getName());
    });
  }
};

/// Takes archive members while they define something still undefined.
void takeNeededMembers(std::vector<BitcodeInput> &Members, SymbolState &S) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BitcodeInput &Member : Members) {
      if (Member.Taken || !S.satisfies(*Member.File))
        continue;
      Member.Taken = true;
      S.note(*Member.File);
      Changed = true;
    }
  }
}

/// Moves the archive members the link needs into In.Inputs.
void selectMembers(const GPUBitcodeLink &Link, LinkInputs &In) {
  SymbolState S;
  for (BitcodeInput &Input : In.Inputs)
    S.note(*Input.File);
  for (const auto &Entry : Link.ExternalReferences)
    S.Undefined.insert(Entry.getKey());
  takeNeededMembers(In.Members, S);
  // An image that uses the device runtime carries the runtime's device
  // environment, which the plugin looks up and fills in after loading
  // (device number and count, indirect-call table). Nothing in the image
  // refers to it, and the runtime's parts are taken from the archive only
  // when referenced (compiled code keeps runtime calls undefined, see
  // openmp/device/gpu/CMakeLists.txt), so ask for it by name.
  bool RuntimeUsed = llvm::any_of(
      In.Members, [](const BitcodeInput &Member) { return Member.Taken; });
  if (RuntimeUsed) {
    for (StringRef Name : OpenMPOptRuntimeEntries)
      if (!S.Defined.contains(Name))
        S.Undefined.insert(Name);
    if (!S.Defined.contains(DeviceEnvironmentName))
      S.Undefined.insert(DeviceEnvironmentName);
    takeNeededMembers(In.Members, S);
  }
  for (BitcodeInput &Member : In.Members)
    if (Member.Taken)
      In.Inputs.push_back(std::move(Member));
  In.Members.clear();
}

/// The prevailing definition of each symbol: the first strong one, else
/// the first weak one. Two strong definitions are an error.
Expected<StringMap<Definition>>
findPrevailing(const std::vector<BitcodeInput> &Inputs, StringRef CPU) {
  StringMap<Definition> Prevailing;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    for (const lto::InputFile::Symbol &Sym : Inputs[I].File->symbols()) {
      if (Sym.isUndefined())
        continue;
      bool Weak = Sym.isWeak() || Sym.isCommon();
      auto [It, Inserted] =
          Prevailing.try_emplace(Sym.getName(), Definition{I, Weak});
      if (Inserted)
        continue;
      if (It->second.Weak && !Weak)
        It->second = Definition{I, Weak};
      else if (!It->second.Weak && !Weak)
        return createStringError(
            "duplicate symbol '" + Sym.getName() + "' in device code for " +
            CPU + ": defined in " + Inputs[It->second.Input].Origin +
            " and in " + Inputs[I].Origin);
    }
  }
  return Prevailing;
}

/// LTO's configuration for \p Link; errors reported by LTO's diagnostics
/// are collected in \p Errors.
lto::Config makeConfig(const GPUBitcodeLink &Link, std::string &Errors) {
  lto::Config Conf;
  Conf.CPU = Link.CPU;
  Conf.MAttrs = Link.Features;
  Conf.DefaultTriple = Link.Triple.str();
  Conf.OptLevel = Link.OptLevel;
  Conf.CGOptLevel = CodeGenOpt::getLevel(int(Link.OptLevel))
                        .value_or(CodeGenOptLevel::Default);
  Conf.CGFileType = Link.FileType;
  Conf.RelocModel = Reloc::PIC_;
  Conf.PassPlugins = Link.PassPlugins;
  Conf.PreCodeGenModuleHook = Link.PreCodeGenHook;
  // After the optimizer, OpenMPOpt included: the device runtime's hidden
  // region calls become direct for code generation (DirectRegionCalls.h).
  Conf.PreCodeGenPassesHook = [](legacy::PassManager &PM) {
    PM.add(offload::createDirectRegionCallsPass());
  };
  Conf.DiagHandler = [&Errors](const DiagnosticInfo &Info) {
    std::string Message;
    raw_string_ostream OS(Message);
    DiagnosticPrinterRawOStream Printer(OS);
    Info.print(Printer);
    if (Info.getSeverity() == DS_Error)
      Errors += (Errors.empty() ? "" : "; ") + Message;
    else if (Info.getSeverity() == DS_Warning)
      WithColor::warning(errs(), "clang-linker-wrapper") << Message << "\n";
    else if (Info.getSeverity() == DS_Remark)
      // Only the remarks asked for with -pass-remarks=<regex> (through
      // -mllvm / --offload-opt) reach here, e.g. OpenMPOpt's SPMD-isation.
      WithColor::remark(errs(), "clang-linker-wrapper") << Message << "\n";
  };
  return Conf;
}

/// How LTO is to treat each symbol of input \p Index.
std::vector<lto::SymbolResolution>
resolveSymbols(const BitcodeInput &Input, size_t Index,
               const StringMap<Definition> &Prevailing,
               const StringSet<> &ExternalReferences) {
  std::vector<lto::SymbolResolution> Resolutions;
  for (const lto::InputFile::Symbol &Sym : Input.File->symbols()) {
    lto::SymbolResolution Res;
    if (!Sym.isUndefined()) {
      auto It = Prevailing.find(Sym.getName());
      Res.Prevailing = It != Prevailing.end() && It->second.Input == Index;
    }
    // Every definition is final in the image: nothing is linked against a
    // GPU image, and the AMD link binds symbols locally (-Bsymbolic).
    Res.FinalDefinitionInLinkageUnit = Prevailing.contains(Sym.getName());
    // A definition's visibility decides; a reference (whose declaration
    // has default visibility in compiler output) must not keep the
    // definition it binds to visible.
    bool Visible = ExternalReferences.contains(Sym.getName()) ||
                   (!Sym.isUndefined() &&
                    (Sym.getVisibility() != GlobalValue::HiddenVisibility ||
                     Sym.isUsed()));
    Res.VisibleToRegularObj = Visible;
    Res.ExportDynamic = Visible;
    Resolutions.push_back(Res);
  }
  return Resolutions;
}

std::string failure(const GPUBitcodeLink &Link, const Twine &Why) {
  return ("LTO of the " + Link.Triple.str() + " device code for " + Link.CPU +
          " failed: " + Why)
      .str();
}

} // namespace

Expected<SmallString<0>> runGPUBitcodeLink(const GPUBitcodeLink &Link) {
  offload::initializeAllTargetsOnce();
  if (Error E = applyGPULTOOptions(Link.LLVMArgs))
    return std::move(E);

  LinkInputs In;
  if (Error E = loadBitcodeFiles(Link, In))
    return std::move(E);
  for (const std::string &Path : Link.Archives)
    if (Error E = loadArchiveMembers(Path, Link.Triple, In))
      return std::move(E);
  selectMembers(Link, In);
  if (In.Inputs.empty())
    return SmallString<0>();
  Expected<StringMap<Definition>> Prevailing =
      findPrevailing(In.Inputs, Link.CPU);
  if (!Prevailing)
    return Prevailing.takeError();

  std::string Errors;
  lto::LTO Linker(makeConfig(Link, Errors));
  for (size_t I = 0; I < In.Inputs.size(); ++I) {
    std::vector<lto::SymbolResolution> Resolutions =
        resolveSymbols(In.Inputs[I], I, *Prevailing, Link.ExternalReferences);
    if (Error E = Linker.add(std::move(In.Inputs[I].File), Resolutions))
      return createStringError(
          "cannot add '" + In.Inputs[I].Origin +
          "' to the device link: " + toString(std::move(E)));
  }

  SmallString<0> Output;
  auto AddStream =
      [&Output](unsigned,
                const Twine &) -> Expected<std::unique_ptr<CachedFileStream>> {
    return std::make_unique<CachedFileStream>(
        std::make_unique<raw_svector_ostream>(Output));
  };
  if (Error E = Linker.run(AddStream))
    return createStringError(failure(Link, toString(std::move(E))));
  if (!Errors.empty())
    return createStringError(failure(Link, Errors));
  return Output;
}

} // namespace wrapper
