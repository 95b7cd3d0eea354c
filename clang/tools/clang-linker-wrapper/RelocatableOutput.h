//===- RelocatableOutput.h - Finish a `-r` link ----------------*- C++ -*-===//
//
// A relocatable link (`clang --offload-link -r`) registers its device code
// itself: the device images are linked and wrapped now, and the object the
// host linker produced is rewritten so that
//  * its `.llvm.offloading` sections are gone (a later link must not link
//    the same device code again), and
//  * its host entries sit in a section private to this object, so that the
//    descriptor registered by its constructor covers exactly its own entries
//    even when it ends up in a program with other offload code.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_RELOCATABLEOUTPUT_H
#define CLANG_LINKER_WRAPPER_RELOCATABLEOUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace wrapper {

/// A section name, valid as a C identifier so the linker defines its
/// __start_/__stop_ symbols, that is unique to \p Images' contents.
std::string getPrivateEntriesSection(llvm::StringRef EntriesSection,
                                     llvm::ArrayRef<llvm::StringRef> Images);

/// Rewrites the relocatable object \p Input into \p Output: removes the
/// `.llvm.offloading` sections and renames \p EntriesSection to
/// \p PrivateSection. Runs in process (LLVM's objcopy library).
llvm::Error finishRelocatableObject(llvm::StringRef Input,
                                    llvm::StringRef Output,
                                    llvm::StringRef EntriesSection,
                                    llvm::StringRef PrivateSection);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_RELOCATABLEOUTPUT_H
