//===- InputScanner.h - Find the device images of a host link -*- C++ -*-===//
//
// Walks the host link's inputs the way the host linker will: objects are
// always linked, an archive member only when it defines a symbol that is
// still undefined at that point (or under --whole-archive), shared libraries
// contribute no device code. The device images of every object the link
// will contain are collected.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_INPUTSCANNER_H
#define CLANG_LINKER_WRAPPER_INPUTSCANNER_H

#include "WrapperOptions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
class MemoryBufferRef;
namespace object {
class Archive;
class ObjectFile;
class SymbolicFile;
} // namespace object
} // namespace llvm

namespace wrapper {

/// A device image and the input it came from.
struct InputImage {
  llvm::object::OffloadFile File;
  /// `file.o` or `libx.a(member.o)`.
  std::string Origin;
};

/// What the scan learnt about one host object of the link.
struct HostObject {
  std::string Origin;
  bool HasCurrentEntries = false;
  bool HasLegacyEntries = false;
  /// Triples this object carries images for.
  std::set<std::string> ImageTriples;
};

struct ScanResult {
  std::vector<InputImage> Images;
  std::vector<HostObject> Objects;
};

class InputScanner {
public:
  explicit InputScanner(const WrapperConfig &Config);
  ~InputScanner();

  /// Scans the configured inputs. Errors name the file (and member).
  llvm::Expected<ScanResult> scan();

private:
  struct LoadedArchive;

  std::optional<std::string> findLibrary(llvm::StringRef Name,
                                         bool StaticOnly) const;
  llvm::Error addFile(llvm::StringRef Path, bool WholeArchive,
                      std::vector<LoadedArchive *> *Group);
  llvm::Error addObject(llvm::MemoryBufferRef Buffer, llvm::StringRef Origin);
  llvm::Error addSymbols(const llvm::object::SymbolicFile &File,
                         llvm::StringRef Origin);
  /// \p Parsed, when given, is \p Buffer already read as an object file.
  llvm::Error addImages(llvm::MemoryBufferRef Buffer, llvm::StringRef Origin,
                        HostObject &Object, bool OnlyShouldExtract,
                        const llvm::object::ObjectFile *Parsed = nullptr);
  llvm::Expected<bool> pullMembers(LoadedArchive &Archive);
  llvm::Error addWholeArchive(LoadedArchive &Archive);
  llvm::Error addShouldExtractImages(LoadedArchive &Archive);

  const WrapperConfig &Config;
  ScanResult Result;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
  std::vector<std::unique_ptr<LoadedArchive>> Archives;
  llvm::StringSet<> Defined;
  llvm::StringSet<> Undefined;
};

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_INPUTSCANNER_H
