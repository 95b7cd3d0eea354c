//===- IndirectEntryScan.cpp - Does a device image use indirect calls? ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device code carries its own copy of the offload entries (clang emits them
// for the device too), so a device image says by itself whether the program
// declared `indirect` functions or vtables: bitcode through its entry
// globals, objects through their entry section.
//
//===----------------------------------------------------------------------===//

#include "offload/Offloading/OffloadEntries.h"
#include "offload/Transforms/IndirectCallRewriter.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ObjectFile.h"

using namespace llvm;

namespace offload {

bool deviceImageHasIndirectEntries(MemoryBufferRef Image) {
  constexpr uint32_t IndirectFlags =
      OMPTargetGlobalVarEntryIndirect | OMPTargetGlobalVarEntryIndirectVTable;
  if (identify_magic(Image.getBuffer()) == file_magic::bitcode) {
    // Only the globals are looked at: function bodies stay unread.
    LLVMContext Context;
    Expected<std::unique_ptr<Module>> ModuleOrErr =
        getLazyBitcodeModule(Image, Context);
    if (!ModuleOrErr) {
      consumeError(ModuleOrErr.takeError());
      return false;
    }
    return hasIndirectOffloadEntries(**ModuleOrErr);
  }
  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(Image);
  if (!ObjOrErr) {
    consumeError(ObjOrErr.takeError());
    return false;
  }
  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readAllOffloadEntries(**ObjOrErr);
  if (!EntriesOrErr) {
    consumeError(EntriesOrErr.takeError());
    return false;
  }
  for (const OffloadEntry &Entry : *EntriesOrErr)
    if (Entry.Flags & IndirectFlags)
      return true;
  return false;
}

} // namespace offload
