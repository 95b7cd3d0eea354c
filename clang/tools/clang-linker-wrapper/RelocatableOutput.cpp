//===- RelocatableOutput.cpp - Finish a `-r` link -------------------------===//

#include "RelocatableOutput.h"

#include "offload/Offloading/OffloadSection.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace wrapper {

std::string getPrivateEntriesSection(StringRef EntriesSection,
                                     ArrayRef<StringRef> Images) {
  // Deterministic (same inputs, same object) yet distinct for different
  // device code, which is what tells two relocatable objects apart.
  uint64_t Hash = 0;
  for (StringRef Image : Images)
    Hash = xxh3_64bits(Image) ^ (Hash * 0x9E3779B97F4A7C15ULL);
  return (EntriesSection + "_" + utohexstr(Hash, /*LowerCase=*/true)).str();
}

Error finishRelocatableObject(StringRef Input, StringRef Output,
                              StringRef EntriesSection,
                              StringRef PrivateSection) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> BufferOrErr =
      MemoryBuffer::getFile(Input, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!BufferOrErr)
    return createStringError(BufferOrErr.getError(),
                             "cannot read '" + Input +
                                 "': " + BufferOrErr.getError().message());
  Expected<std::unique_ptr<object::Binary>> BinaryOrErr =
      object::createBinary(**BufferOrErr);
  if (!BinaryOrErr)
    return createStringError(inconvertibleErrorCode(),
                             Input + ": " + toString(BinaryOrErr.takeError()));

  objcopy::ConfigManager Config;
  Config.Common.InputFilename = Input;
  Config.Common.OutputFilename = Output;
  auto IgnoreWarning = [](Error E) {
    consumeError(std::move(E));
    return Error::success();
  };
  if (Error E =
          Config.Common.ToRemove.addMatcher(objcopy::NameOrPattern::create(
              offload::OffloadSectionName, objcopy::MatchStyle::Literal,
              IgnoreWarning)))
    return E;
  Config.Common.SectionsToRename.try_emplace(
      EntriesSection,
      objcopy::SectionRename{EntriesSection, PrivateSection, std::nullopt});

  std::error_code EC;
  raw_fd_ostream OS(Output, EC, sys::fs::OF_None);
  if (EC)
    return createStringError(EC,
                             "cannot write '" + Output + "': " + EC.message());
  if (Error E = objcopy::executeObjcopyOnBinary(Config, **BinaryOrErr, OS))
    return createStringError(inconvertibleErrorCode(),
                             "cannot rewrite the relocatable output '" + Input +
                                 "': " + toString(std::move(E)));
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    // A stream destroyed with its error still set aborts the process.
    OS.clear_error();
    return createStringError(EC,
                             "cannot write '" + Output + "': " + EC.message());
  }
  return Error::success();
}

} // namespace wrapper
