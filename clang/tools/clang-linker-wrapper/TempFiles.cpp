//===- TempFiles.cpp - Intermediate files of one wrapper run --------------===//

#include "TempFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wrapper {

TempFiles::TempFiles(StringRef Output, bool SaveTemps, bool DryRun)
    : Output(Output.str()), SaveTemps(SaveTemps), DryRun(DryRun) {}

TempFiles::~TempFiles() {
  if (SaveTemps || DryRun)
    return;
  for (const std::string &File : Files) {
    sys::fs::remove(File);
    sys::DontRemoveFileOnSignal(File);
  }
}

Expected<std::string> TempFiles::create(StringRef Stem, StringRef Extension) {
  std::lock_guard<std::mutex> Lock(Mutex);
  StringRef OutputName = sys::path::filename(Output);
  if (SaveTemps) {
    // Readable names next to the output, as users expect of -save-temps.
    std::string Path = (Output + "." + Stem + "." + Extension).str();
    Files.push_back(Path);
    return Path;
  }
  std::string Prefix = (OutputName + "." + Stem).str();
  if (DryRun) {
    SmallString<128> Model;
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
    sys::path::append(Model, Prefix + "-%%%%%%." + Extension);
    SmallString<128> Path;
    sys::fs::createUniquePath(Model, Path, /*MakeAbsolute=*/false);
    return std::string(Path);
  }
  SmallString<128> Path;
  if (std::error_code EC =
          sys::fs::createTemporaryFile(Prefix, Extension, Path))
    return createStringError(EC, "cannot create a temporary file for '" +
                                     Prefix + "': " + EC.message());
  Files.push_back(std::string(Path));
  // Removed also when the run is interrupted.
  sys::RemoveFileOnSignal(Path);
  return std::string(Path);
}

Expected<std::string> TempFiles::write(StringRef Stem, StringRef Extension,
                                       StringRef Contents) {
  Expected<std::string> PathOrErr = create(Stem, Extension);
  if (!PathOrErr || DryRun)
    return PathOrErr;
  if (Error E = writeFile(*PathOrErr, Contents))
    return std::move(E);
  return PathOrErr;
}

Error writeFile(StringRef Path, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC,
                             "cannot write '" + Path + "': " + EC.message());
  OS << Contents;
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    // A stream destroyed with its error still set aborts the process.
    OS.clear_error();
    return createStringError(EC,
                             "cannot write '" + Path + "': " + EC.message());
  }
  return Error::success();
}

Expected<ScopedTempFile> ScopedTempFile::create(StringRef Model,
                                                StringRef Suffix) {
  SmallString<256> Path;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Model + "-%%%%%%" + Suffix, Path))
    return createStringError("cannot create a temporary file next to '" +
                             Model + "': " + EC.message());
  sys::RemoveFileOnSignal(Path);
  return ScopedTempFile(Path.str().str());
}

Expected<ScopedTempFile>
ScopedTempFile::create(StringRef Model, StringRef Suffix, StringRef Contents) {
  Expected<ScopedTempFile> File = create(Model, Suffix);
  if (!File)
    return File.takeError();
  if (Error E = writeFile(File->path(), Contents))
    return std::move(E);
  return File;
}

ScopedTempFile::ScopedTempFile(ScopedTempFile &&Other)
    : Path(std::move(Other.Path)) {
  Other.Path.clear();
}

ScopedTempFile::~ScopedTempFile() {
  if (Path.empty())
    return;
  sys::fs::remove(Path);
  sys::DontRemoveFileOnSignal(Path);
}

} // namespace wrapper
