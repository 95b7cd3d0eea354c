//===- GPUBitcodeLinker.cpp - LTO of GPU device bitcode -------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GPUBitcodeLinker.h"
#include "LinkerArguments.h"

#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/LTO/LTO.h"
#include "llvm/Object/Archive.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"


using namespace llvm;

namespace wrapper {
namespace {

/// The device runtime's global a plugin fills in (openmp/device).
constexpr StringLiteral DeviceEnvironmentName = "__omp_rtl_device_environment";


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

} // namespace

Expected<GPULinkOptions> parseGPULinkOptions(const DeviceLinkJob &Job,
                                             const ToolchainPaths &Paths) {
  GPULinkOptions Options;
  // The same resolution keys the device-link cache (DeviceLinkCache.cpp).
  LinkerArguments Resolved =
      resolveLinkerArguments(Job.LinkerArgs, {Paths.deviceLibDir(Job.Triple)},
                             LibraryKind::StaticOnly);
  if (!Resolved.Unresolved.empty()) {
    StringRef Name = Resolved.Unresolved.front();
    return createStringError(
        "cannot find -l" + Name + " for the " + Job.Triple.str() +
        " device link (" + Job.Arch + "); searched " +
        join(Resolved.SearchDirs, ", ") +
        (Name == "ompdevice" ? "; the GPU device runtime is not installed in "
                               "this prefix"
                             : ""));
  }
  for (const std::string &Arg : Job.LinkerArgs) {
    StringRef A(Arg);
    if (A.starts_with("-L") || A.starts_with("-l"))
      continue;
    if (A.ends_with(".a") && !A.starts_with("-"))
      Options.Archives.push_back(Arg);
    else
      Options.LinkerPassThrough.push_back(Arg);
  }
  Options.Archives.insert(Options.Archives.end(), Resolved.Libraries.begin(),
                          Resolved.Libraries.end());
  for (const std::string &Arg : Job.CompilerArgs) {
    StringRef A(Arg);
    if (A == "-g" || A.starts_with("-g"))
      Options.Debug = A != "-g0";
    if (!A.consume_front("-O"))
      continue;
    if (A == "0" || A == "1" || A == "2" || A == "3")
      Options.OptLevel = unsigned(A[0] - '0');
    else if (A == "s" || A == "z" || A.empty())
      Options.OptLevel = 2;
    else if (A == "fast")
      Options.OptLevel = 3;
  }
  return Options;
}

GPUBitcodeLink prepareGPUBitcodeLink(const DeviceLinkJob &Job,
                                     const GPULinkOptions &Options,
                                     CodeGenFileType FileType,
                                     std::vector<std::string> &OtherInputs) {
  GPUBitcodeLink Link;
  Link.Triple = Job.Triple;
  Link.CPU = Job.Arch;
  Link.OptLevel = Options.OptLevel;
  Link.FileType = FileType;
  Link.Archives = Options.Archives;
  Link.PassPlugins = Job.PassPlugins;
  for (const std::string &Symbol : Job.RequiredSymbols)
    Link.ExternalReferences.insert(Symbol);
  for (const std::string &Input : Job.Inputs) {
    if (isBitcodeFile(Input))
      Link.BitcodeFiles.push_back(Input);
    else
      OtherInputs.push_back(Input);
  }
  return Link;
}

Expected<SmallString<0>> runGPUBitcodeLink(const GPUBitcodeLink &Link) {
  offload::initializeAllTargetsOnce();

  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  auto Load = [&](StringRef Path) -> Expected<MemoryBufferRef> {
    ErrorOr<std::unique_ptr<MemoryBuffer>> BufferOrErr =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!BufferOrErr)
      return createStringError("cannot read '" + Path +
                               "': " + BufferOrErr.getError().message());
    Buffers.push_back(std::move(*BufferOrErr));
    return Buffers.back()->getMemBufferRef();
  };

  std::vector<BitcodeInput> Inputs;
  for (const std::string &Path : Link.BitcodeFiles) {
    Expected<MemoryBufferRef> BufferOrErr = Load(Path);
    if (!BufferOrErr)
      return BufferOrErr.takeError();
    Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
        openBitcode(*BufferOrErr, Path, Link.Triple);
    if (!FileOrErr)
      return FileOrErr.takeError();
    Inputs.push_back({std::move(*FileOrErr), Path, true});
  }

  std::vector<BitcodeInput> Members;
  for (const std::string &Path : Link.Archives) {
    Expected<MemoryBufferRef> BufferOrErr = Load(Path);
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
        return createStringError("cannot read a member of archive '" + Path +
                                 "'");
      }
      // Host objects may share an archive with device bitcode.
      if (identify_magic(MemberOrErr->getBuffer()) != file_magic::bitcode)
        continue;
      std::string Origin = (Path + "(" + *NameOrErr + ")").str();
      Expected<std::unique_ptr<lto::InputFile>> FileOrErr =
          openBitcode(*MemberOrErr, Origin, Link.Triple);
      if (!FileOrErr)
        return FileOrErr.takeError();
      Members.push_back({std::move(*FileOrErr), Origin, false});
    }
    if (Err)
      return createStringError("cannot read archive '" + Path +
                               "': " + toString(std::move(Err)));
  }

  // Archive members are taken while they define something still undefined.
  StringSet<> Defined, Undefined;
  auto Note = [&](lto::InputFile &File) {
    for (const lto::InputFile::Symbol &Sym : File.symbols())
      if (!Sym.isUndefined())
        Defined.insert(Sym.getName());
    for (const lto::InputFile::Symbol &Sym : File.symbols())
      if (Sym.isUndefined() && !Defined.contains(Sym.getName()))
        Undefined.insert(Sym.getName());
  };
  for (BitcodeInput &Input : Inputs)
    Note(*Input.File);
  for (const auto &Entry : Link.ExternalReferences)
    Undefined.insert(Entry.getKey());
  auto TakeNeededMembers = [&] {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (BitcodeInput &Member : Members) {
        if (Member.Taken)
          continue;
        for (const lto::InputFile::Symbol &Sym : Member.File->symbols()) {
          if (Sym.isUndefined() || !Undefined.contains(Sym.getName()) ||
              Defined.contains(Sym.getName()))
            continue;
          Member.Taken = true;
          break;
        }
        if (Member.Taken) {
          Note(*Member.File);
          Changed = true;
        }
      }
    }
  };
  TakeNeededMembers();
  // An image that uses the device runtime carries the runtime's device
  // environment, which the plugin looks up and fills in after loading
  // (device number and count, indirect-call table). Nothing in the image
  // refers to it, and the runtime's parts are taken from the archive only
  // when referenced (compiled code keeps runtime calls undefined, see
  // openmp/device/gpu/CMakeLists.txt), so ask for it by name.
  bool RuntimeUsed = llvm::any_of(
      Members, [](const BitcodeInput &Member) { return Member.Taken; });
  if (RuntimeUsed && !Defined.contains(DeviceEnvironmentName)) {
    Undefined.insert(DeviceEnvironmentName);
    TakeNeededMembers();
  }
  for (BitcodeInput &Member : Members)
    if (Member.Taken)
      Inputs.push_back(std::move(Member));
  if (Inputs.empty())
    return SmallString<0>();

  // The prevailing definition of each symbol: the first strong one, else
  // the first weak one. Two strong definitions are an error.
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
            Link.CPU + ": defined in " + Inputs[It->second.Input].Origin +
            " and in " + Inputs[I].Origin);
    }
  }

  std::string Errors;
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
  Conf.DiagHandler = [&Errors](const DiagnosticInfo &Info) {
    std::string Message;
    raw_string_ostream OS(Message);
    DiagnosticPrinterRawOStream Printer(OS);
    Info.print(Printer);
    if (Info.getSeverity() == DS_Error)
      Errors += (Errors.empty() ? "" : "; ") + Message;
    else if (Info.getSeverity() == DS_Warning)
      WithColor::warning(errs(), "clang-linker-wrapper") << Message << "\n";
  };
  lto::LTO Linker(std::move(Conf));

  for (size_t I = 0; I < Inputs.size(); ++I) {
    std::vector<lto::SymbolResolution> Resolutions;
    for (const lto::InputFile::Symbol &Sym : Inputs[I].File->symbols()) {
      lto::SymbolResolution Res;
      if (!Sym.isUndefined()) {
        auto It = Prevailing.find(Sym.getName());
        Res.Prevailing = It != Prevailing.end() && It->second.Input == I;
      }
      Res.FinalDefinitionInLinkageUnit = Prevailing.contains(Sym.getName());
      // A definition's visibility decides; a reference (whose declaration
      // has default visibility in compiler output) must not keep the
      // definition it binds to visible.
      bool Visible = Link.ExternalReferences.contains(Sym.getName()) ||
                     (!Sym.isUndefined() &&
                      (Sym.getVisibility() != GlobalValue::HiddenVisibility ||
                       Sym.isUsed()));
      Res.VisibleToRegularObj = Visible;
      Res.ExportDynamic = Visible;
      Resolutions.push_back(Res);
    }
    if (Error E = Linker.add(std::move(Inputs[I].File), Resolutions))
      return createStringError(
          "cannot add '" + Inputs[I].Origin +
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
    return createStringError("LTO of the " + Link.Triple.str() +
                             " device code for " + Link.CPU +
                             " failed: " + toString(std::move(E)));
  if (!Errors.empty())
    return createStringError("LTO of the " + Link.Triple.str() +
                             " device code for " + Link.CPU +
                             " failed: " + Errors);
  return Output;
}

Expected<std::string> findGPUTool(StringRef Tool,
                                  ArrayRef<std::string> Preferred,
                                  ArrayRef<std::string> Fallback,
                                  StringRef Purpose, StringRef Hint) {
  std::vector<std::string> Searched;
  auto SearchIn = [&](ArrayRef<std::string> Directories) -> std::string {
    for (const std::string &Dir : Directories) {
      if (Dir.empty())
        continue;
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, Tool);
      if (sys::fs::can_execute(Candidate))
        return Candidate.str().str();
      Searched.push_back(Dir);
    }
    return "";
  };
  std::string Found = SearchIn(Preferred);
  if (!Found.empty())
    return Found;
  if (ErrorOr<std::string> OnPath = sys::findProgramByName(Tool))
    return *OnPath;
  Searched.push_back("PATH");
  Found = SearchIn(Fallback);
  if (!Found.empty())
    return Found;
  return createStringError("cannot find '" + Tool + "', needed for " + Purpose +
                           " (searched " + join(Searched, ", ") + "); " + Hint);
}

bool isBitcodeFile(StringRef Path) {
  file_magic Magic;
  return !identify_magic(Path, Magic) && Magic == file_magic::bitcode;
}

} // namespace wrapper
