//===- FuzzEntryObject.cpp - Fuzz the offload entry readers of objects ----===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The input is an object file: a relocatable object (names and addresses
// through relocations) or a linked program or library (names through
// addresses), with an `llvm_offload_entries` and/or `omp_offloading_entries`
// section. llvm/lib/Offloading/OffloadEntries.cpp reads both layouts for the
// linker wrapper and llvm-offload-entries. LLVM parses the ELF container;
// the harness is after our reading of the records inside it.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "offload/Offloading/OffloadEntries.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace llvm;
using namespace offload;
using namespace offload_fuzz;

static void readLayout(const object::ObjectFile &Obj, EntryLayout Layout) {
  Expected<std::vector<OffloadEntry>> EntriesOrErr =
      readOffloadEntries(Obj, Layout);
  if (!EntriesOrErr) {
    std::string Message = toString(EntriesOrErr.takeError());
    // Every error names the file and the section, whether it is ours
    // (a record) or LLVM's (the section or a relocation could not be read).
    std::string Expected =
        "fuzz.o: section '" + getEntriesSectionName(Layout).str() + "': ";
    if (!StringRef(Message).starts_with(Expected))
      std::fprintf(stderr, "error: %s\n", Message.c_str());
    FUZZ_CHECK(StringRef(Message).starts_with(Expected) &&
                   Message.size() > Expected.size(),
               "an entry table error does not name the file and section");
    return;
  }
  unsigned Sum = 0;
  for (const OffloadEntry &E : *EntriesOrErr) {
    FUZZ_CHECK(E.Layout == Layout, "an entry reports the wrong layout");
    Sum += touch(E.Name) + touch(E.AddressSymbol) + touch(E.AuxSymbol) +
           touch(describeEntryFlags(E.Flags, E.isKernel()));
  }
  keep(Sum);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // The toolchain links ELF only; LLVM's readers of the other object
  // formats (Mach-O, COFF, Wasm...) are LLVM's to fuzz.
  StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  if (!Bytes.starts_with("\x7f" "ELF"))
    return 0;
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBufferCopy(Bytes, "fuzz.o");
  Expected<std::unique_ptr<object::ObjectFile>> ObjOrErr =
      object::ObjectFile::createObjectFile(Buffer->getMemBufferRef());
  if (!ObjOrErr) {
    consumeError(ObjOrErr.takeError());
    return 0;
  }
  const object::ObjectFile &Obj = **ObjOrErr;
  keep(hasOffloadEntries(Obj));
  readLayout(Obj, EntryLayout::Current);
  readLayout(Obj, EntryLayout::Legacy);
  // What the tools call: both layouts, the first error ending the read.
  Expected<std::vector<OffloadEntry>> All = readAllOffloadEntries(Obj);
  if (!All)
    consumeError(All.takeError());
  return 0;
}
