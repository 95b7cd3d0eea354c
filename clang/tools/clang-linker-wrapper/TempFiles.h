//===- TempFiles.h - Intermediate files of one wrapper run ----*- C++ -*-===//
//
// Extracted device objects, linked images and the registration object live
// in the system's temporary directory and are removed when the run ends, also
// on an error or a signal. With --save-temps they are instead written next to
// the output under readable names and kept.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_TEMPFILES_H
#define CLANG_LINKER_WRAPPER_TEMPFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <string>
#include <vector>

namespace wrapper {

class TempFiles {
public:
  /// \p Output names the link's output; saved temporaries are named after
  /// it. Under \p DryRun no file or directory is created.
  TempFiles(llvm::StringRef Output, bool SaveTemps, bool DryRun);
  ~TempFiles();
  TempFiles(const TempFiles &) = delete;
  TempFiles &operator=(const TempFiles &) = delete;

  /// A new file path for an intermediate named \p Stem with extension
  /// \p Extension (without the dot). Thread safe.
  llvm::Expected<std::string> create(llvm::StringRef Stem,
                                     llvm::StringRef Extension);

  /// Writes \p Contents to a new intermediate and returns its path.
  llvm::Expected<std::string> write(llvm::StringRef Stem,
                                    llvm::StringRef Extension,
                                    llvm::StringRef Contents);

private:
  std::string Output;
  bool SaveTemps;
  bool DryRun;
  std::vector<std::string> Files;
  std::mutex Mutex;
};

/// Writes \p Contents to \p Path. The error names the file.
llvm::Error writeFile(llvm::StringRef Path, llvm::StringRef Contents);

/// An intermediate of one device link (LTO output, ptxas output) next to the
/// link's output \p Model, removed when the guard is destroyed, also on an
/// error or a signal.
class ScopedTempFile {
public:
  /// A new empty file named after \p Model with \p Suffix.
  static llvm::Expected<ScopedTempFile> create(llvm::StringRef Model,
                                               llvm::StringRef Suffix);
  /// The same, holding \p Contents.
  static llvm::Expected<ScopedTempFile> create(llvm::StringRef Model,
                                               llvm::StringRef Suffix,
                                               llvm::StringRef Contents);
  ScopedTempFile(ScopedTempFile &&Other);
  ScopedTempFile &operator=(ScopedTempFile &&) = delete;
  ~ScopedTempFile();
  const std::string &path() const { return Path; }

private:
  explicit ScopedTempFile(std::string Path) : Path(std::move(Path)) {}
  std::string Path;
};

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_TEMPFILES_H
