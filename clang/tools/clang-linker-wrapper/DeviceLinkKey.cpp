//===- DeviceLinkKey.cpp - What a cached device image depends on ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceLinkKey.h"
#include "LinkerArguments.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

#include <link.h>

using namespace llvm;

namespace wrapper {
namespace {

/// Bumped when the key or the record format changes.
constexpr StringLiteral KeyVersion = "offload-device-link-cache-2";

Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(
        "cannot read '" + Path +
        "' for the device-link cache: " + Buffer.getError().message());
  return std::move(*Buffer);
}

/// The digest a record keeps of a file's contents. XXH3-128, not SHA-256:
/// a CPU link reads tens of megabytes of libraries (flang_rt alone is
/// 29 MB), and SHA-256 of them would double the time of a miss; the record
/// guards against changed files, not against crafted collisions.
std::string contentDigest(StringRef Bytes) {
  XXH128_hash_t Hash = xxh3_128bits(arrayRefFromStringRef(Bytes));
  return utohexstr(Hash.high64, /*LowerCase=*/true, 16) +
         utohexstr(Hash.low64, /*LowerCase=*/true, 16);
}

/// The identity of \p Path as the link named it (absolute): its size and
/// time, following links, and where it really is (in Digest), so a link
/// moved to another target changes it. False when it does not exist.
bool stampOf(StringRef Path, RecordedRead &Stamp) {
  SmallString<256> Real;
  sys::fs::file_status Status;
  if (Path.empty() || sys::fs::real_path(Path, Real) ||
      sys::fs::status(Real, Status))
    return false;
  Stamp.Path = absolutePath(Path);
  Stamp.Digest = Real.str().str();
  Stamp.Size = Status.getSize();
  Stamp.ModificationTime =
      Status.getLastModificationTime().time_since_epoch().count();
  return true;
}

/// Feeds length-prefixed fields, so that ("ab","c") and ("a","bc") differ.
class KeyBuilder {
public:
  void add(StringRef Field) {
    uint8_t Bytes[8];
    support::endian::write64le(Bytes, Field.size());
    Hash.update(ArrayRef<uint8_t>(Bytes, 8));
    Hash.update(Field);
  }
  void add(StringRef Name, ArrayRef<std::string> Values) {
    add(Name);
    add(std::to_string(Values.size()));
    for (const std::string &V : Values)
      add(V);
  }
  /// A file by its content (where it lies does not change the image).
  Error addContent(StringRef Path) {
    Expected<std::unique_ptr<MemoryBuffer>> Buffer = readFile(Path);
    if (!Buffer)
      return Buffer.takeError();
    add((*Buffer)->getBuffer());
    return Error::success();
  }
  /// A program or library by identity.
  void addStamp(StringRef Path) {
    RecordedRead Stamp;
    if (!stampOf(Path, Stamp)) {
      add("missing:" + Path.str());
      return;
    }
    add(Stamp.Path);
    add(Stamp.Digest);
    add(std::to_string(Stamp.Size));
    add(std::to_string(Stamp.ModificationTime));
  }
  /// Every file of a directory (the device runtime's), by identity.
  void addDirectoryStamps(StringRef Dir) {
    add(Dir);
    std::error_code EC;
    std::vector<std::string> Files;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Files.push_back(It->path());
    llvm::sort(Files);
    for (const std::string &File : Files)
      addStamp(File);
  }
  std::string hex() { return toHex(Hash.final(), /*LowerCase=*/true); }

private:
  SHA256 Hash;
};

void anchor() {}

/// The wrapper and every shared library loaded into it (libLLVM, which runs
/// the GPU links' LTO and code generation in process, the C++ runtime...).
std::vector<std::string> loadedImages() {
  std::vector<std::string> Images = {
      sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&anchor))};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        if (Info->dlpi_name && Info->dlpi_name[0] == '/')
          static_cast<std::vector<std::string> *>(Data)->push_back(
              Info->dlpi_name);
        return 0;
      },
      &Images);
  return Images;
}

} // namespace

Expected<std::string> computeDeviceLinkKey(const DeviceLinkJob &Job,
                                           const ToolchainPaths &Paths,
                                           const DeviceLinkDependencies &Deps) {
  KeyBuilder Key;
  Key.add(KeyVersion);
  Key.add(LLVM_VERSION_STRING);
  Key.add(Job.Triple.str());
  Key.add(Job.Arch);
  Key.add("inputs", {});
  if (!Job.InputContents.empty()) {
    for (StringRef Contents : Job.InputContents)
      Key.add(Contents);
  } else {
    for (const std::string &Input : Job.Inputs)
      if (Error E = Key.addContent(Input))
        return std::move(E);
  }
  Key.add("pass-plugins", {});
  for (const std::string &Plugin : Job.PassPlugins)
    if (Error E = Key.addContent(Plugin))
      return std::move(E);
  Key.add("required-symbols", Job.RequiredSymbols);
  Key.add("linker-args", Job.LinkerArgs);
  Key.add("compiler-args", Job.CompilerArgs);
  Key.add("llvm-args", Job.LLVMArgs);
  Key.add("files", {});
  for (const std::string &File : Deps.Files)
    if (Error E = Key.addContent(File))
      return std::move(E);
  Key.add("tools", {});
  for (const std::string &Tool : Deps.Tools)
    Key.addStamp(Tool);
  Key.add("environment", {});
  for (const std::string &Name : Deps.Environment) {
    std::optional<std::string> Value = sys::Process::GetEnv(Name);
    Key.add(Name + (Value ? "=" + *Value : " unset"));
  }
  Key.add("process", {});
  for (const std::string &Image : loadedImages())
    Key.addStamp(Image);
  Key.addDirectoryStamps(Paths.deviceLibDir(Job.Triple));
  return Key.hex();
}

/// What PATH finds for \p Name now ("" for nothing).
std::string foundOnPath(StringRef Name) {
  ErrorOr<std::string> Found = sys::findProgramByName(Name);
  return Found ? absolutePath(*Found) : std::string();
}

std::vector<RecordedRead> recordReads(const DeviceLinkDependencies &Read) {
  std::vector<RecordedRead> Records;
  for (const std::string &Tool : Read.Tools) {
    RecordedRead Record;
    if (!stampOf(Tool, Record))
      continue;
    Record.Kind = ReadKind::Program;
    Records.push_back(std::move(Record));
    RecordedRead Lookup;
    Lookup.Kind = ReadKind::OnPath;
    Lookup.Path = sys::path::filename(Tool).str();
    Lookup.Digest = foundOnPath(Lookup.Path);
    Records.push_back(std::move(Lookup));
  }
  for (const std::string &File : Read.Files) {
    RecordedRead Record;
    Expected<std::unique_ptr<MemoryBuffer>> Buffer = readFile(File);
    if (!Buffer) {
      consumeError(Buffer.takeError());
      continue;
    }
    if (!stampOf(File, Record))
      continue;
    Record.Kind = ReadKind::File;
    Record.Digest = contentDigest((*Buffer)->getBuffer());
    Records.push_back(std::move(Record));
  }
  // A linker reports a library once per search that finds it.
  llvm::sort(Records, [](const RecordedRead &A, const RecordedRead &B) {
    return std::tie(A.Path, A.Kind) < std::tie(B.Path, B.Kind);
  });
  Records.erase(llvm::unique(Records,
                             [](const RecordedRead &A, const RecordedRead &B) {
                               return A.Path == B.Path && A.Kind == B.Kind;
                             }),
                Records.end());
  return Records;
}

std::string findChangedRead(ArrayRef<RecordedRead> Reads) {
  for (const RecordedRead &Then : Reads) {
    if (Then.Kind == ReadKind::OnPath) {
      std::string Found = foundOnPath(Then.Path);
      if (Found != Then.Digest)
        return "'" + Then.Path + "' on PATH is now " +
               (Found.empty() ? "not found" : "'" + Found + "'");
      continue;
    }
    bool ByContent = Then.Kind == ReadKind::File;
    RecordedRead Now;
    if (!stampOf(Then.Path, Now))
      return "'" + Then.Path + "' is gone";
    if (!ByContent && Now.Digest != Then.Digest)
      return "'" + Then.Path + "' changed";
    if (Now.Size == Then.Size && Now.ModificationTime == Then.ModificationTime)
      continue;
    if (!ByContent || Now.Size != Then.Size)
      return "'" + Then.Path + "' changed";
    Expected<std::unique_ptr<MemoryBuffer>> Buffer = readFile(Then.Path);
    if (!Buffer)
      return toString(Buffer.takeError());
    if (contentDigest((*Buffer)->getBuffer()) != Then.Digest)
      return "'" + Then.Path + "' changed";
  }
  return std::string();
}

// Records are NUL-separated fields, five per read; paths hold no NUL.
std::string encodeReads(ArrayRef<RecordedRead> Reads) {
  std::string Bytes;
  for (const RecordedRead &Read : Reads) {
    for (const std::string &Field :
         {Read.Path,
          std::string(Read.Kind == ReadKind::File      ? "F"
                      : Read.Kind == ReadKind::Program ? "T"
                                                       : "P"),
          std::to_string(Read.Size), std::to_string(Read.ModificationTime),
          Read.Digest}) {
      Bytes += Field;
      Bytes += '\0';
    }
  }
  return Bytes;
}

Expected<std::vector<RecordedRead>> decodeReads(StringRef Bytes) {
  SmallVector<StringRef, 40> Fields;
  if (!Bytes.empty())
    Bytes.drop_back().split(Fields, '\0');
  if (!Bytes.empty() &&
      (!Bytes.ends_with(StringRef("\0", 1)) || Fields.size() % 5 != 0))
    return createStringError("its record of the link's reads is malformed");
  std::vector<RecordedRead> Reads;
  for (size_t I = 0; I < Fields.size(); I += 5) {
    RecordedRead Read;
    Read.Path = Fields[I].str();
    StringRef Kind = Fields[I + 1];
    if (Kind != "F" && Kind != "T" && Kind != "P")
      return createStringError("its record of '" + Read.Path +
                               "' is malformed");
    Read.Kind = Kind == "F"   ? ReadKind::File
                : Kind == "T" ? ReadKind::Program
                              : ReadKind::OnPath;
    if (Fields[I + 2].getAsInteger(10, Read.Size) ||
        Fields[I + 3].getAsInteger(10, Read.ModificationTime))
      return createStringError("its record of '" + Read.Path +
                               "' is malformed");
    Read.Digest = Fields[I + 4].str();
    Reads.push_back(std::move(Read));
  }
  return Reads;
}

} // namespace wrapper
