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
  std::error_code EC;
  raw_fd_ostream OS(*PathOrErr, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC, "cannot write '" + *PathOrErr +
                                     "': " + EC.message());
  OS << Contents;
  OS.close();
  if (OS.has_error())
    return createStringError(OS.error(), "cannot write '" + *PathOrErr +
                                             "': " + OS.error().message());
  return PathOrErr;
}

} // namespace wrapper
