//===- OffloadSection.h - Device images in .llvm.offloading ---*- C++ -*-===//
//
// A fat object carries its device code in the `.llvm.offloading` section:
// one or more llvm::object::OffloadBinary records back to back, each starting
// at an 8-byte boundary. The linker concatenates the sections of all inputs
// the same way, so a linked file is read the same as an object.
//
// LLVM's OffloadBinary reader trusts the offsets inside a record; this file
// checks every offset against the record first, so that a corrupt section is
// reported (with the file and the byte offset) instead of read out of bounds.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOADING_OFFLOADSECTION_H
#define OFFLOAD_OFFLOADING_OFFLOADSECTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/Error.h"

namespace offload {

/// The name of the section holding device images.
inline constexpr llvm::StringLiteral OffloadSectionName = ".llvm.offloading";

/// Checks that \p Record (one OffloadBinary, exactly its header's size) is
/// self-consistent: magic, sizes, and every offset inside the record.
llvm::Error validateOffloadBinary(llvm::StringRef Record);

/// Reads every OffloadBinary of the section contents \p Section. Each
/// image gets its own copy of its bytes. \p FileName is used in errors,
/// which give the byte offset inside the section.
llvm::Error
readOffloadSection(llvm::StringRef Section, llvm::StringRef FileName,
                   llvm::SmallVectorImpl<llvm::object::OffloadFile> &Images);

/// Reads the images of an object file's `.llvm.offloading` section (none
/// when it has no such section).
llvm::Error
readOffloadImages(const llvm::object::ObjectFile &Obj, llvm::StringRef FileName,
                  llvm::SmallVectorImpl<llvm::object::OffloadFile> &Images);

} // namespace offload

#endif // OFFLOAD_OFFLOADING_OFFLOADSECTION_H
