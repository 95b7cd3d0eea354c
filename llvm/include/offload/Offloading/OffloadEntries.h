//===- OffloadEntries.h - Offload entry tables in objects and IR -*- C++
//-*-===//
//
// The host side of an offload program describes every kernel and every
// `declare target` global in a table of offload entries, one record per
// symbol, that the linker gathers into one section. Two layouts exist:
//
//  * LLVM 22 (`llvm_offload_entries`): { u64 reserved = 0, u16 version,
//    u16 kind, u32 flags, ptr address, ptr name, u64 size, u64 data,
//    ptr aux } - 56 bytes on 64-bit targets.
//  * legacy (`omp_offloading_entries`): { ptr address, ptr name, u64 size,
//    i32 flags, i32 reserved } - 32 bytes on 64-bit targets.
//
// This file reads both layouts out of object files (relocatable objects,
// through their relocations; linked files, through their addresses) and
// writes them into LLVM IR modules.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOADING_OFFLOADENTRIES_H
#define OFFLOAD_OFFLOADING_OFFLOADENTRIES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Constant;
class GlobalVariable;
class Module;
class StructType;
} // namespace llvm

namespace offload {

/// Which of the two entry record layouts a table uses.
enum class EntryLayout {
  /// LLVM 22's `__tgt_offload_entry` (section `llvm_offload_entries`).
  Current,
  /// The 5-field record of older compilers (section `omp_offloading_entries`).
  Legacy,
};

/// The section the linker gathers a layout's records into.
llvm::StringRef getEntriesSectionName(EntryLayout Layout);

/// Size in bytes of one record of \p Layout for a target with
/// \p PointerSize-byte pointers.
uint64_t getEntrySize(EntryLayout Layout, unsigned PointerSize = 8);

/// The `kind` field of the current layout: which programming model consumes
/// the entry. The values are those of llvm::object::OffloadKind.
enum OffloadEntryKind : uint16_t {
  OffloadKindNone = 0,
  OffloadKindOpenMP = 1 << 0,
  OffloadKindCUDA = 1 << 1,
  OffloadKindHIP = 1 << 2,
  OffloadKindSYCL = 1 << 3,
};

/// Entry flags, named as OpenMP's OffloadEntriesInfoManager names them
/// (llvm/Frontend/OpenMP/OMPIRBuilder.h). A record with size 0 describes a
/// kernel (target region), one with a size a global variable.
enum OffloadEntryFlags : uint32_t {
  // Target regions.
  OMPTargetRegionEntryTargetRegion = 0x0,
  /// Legacy only: a device global constructor / destructor.
  OMPTargetRegionEntryCtor = 0x2,
  OMPTargetRegionEntryDtor = 0x4,
  // Global variables (the low two bits are the capture clause).
  OMPTargetGlobalVarEntryTo = 0x0,
  OMPTargetGlobalVarEntryLink = 0x1,
  OMPTargetGlobalVarEntryEnter = 0x2,
  OMPTargetGlobalVarEntryNone = 0x3,
  OMPTargetGlobalVarEntryIndirect = 0x8,
  OMPTargetGlobalRegisterRequires = 0x10,
  OMPTargetGlobalVarEntryIndirectVTable = 0x20,
};

/// The current layout's version field.
constexpr uint16_t CurrentEntryVersion = 1;

/// One record of an entry table, as read from an object file.
struct OffloadEntry {
  EntryLayout Layout = EntryLayout::Current;
  uint16_t Version = CurrentEntryVersion;
  uint16_t Kind = OffloadKindOpenMP;
  uint32_t Flags = 0;
  /// The symbol the address field refers to (relocatable objects), or empty.
  std::string AddressSymbol;
  /// The address field's value (linked files) or the relocation addend.
  uint64_t Address = 0;
  /// The symbol name the device image must provide.
  std::string Name;
  uint64_t Size = 0;
  uint64_t Data = 0;
  /// The symbol the aux field refers to, or empty.
  std::string AuxSymbol;

  bool isKernel() const { return Size == 0; }
};

/// Describes \p Flags in words, for tools and error messages.
std::string describeEntryFlags(uint32_t Flags, bool IsKernel);

/// Reads the table of \p Layout from \p Obj. An object without that section
/// has an empty table. Truncated records or names that cannot be resolved are
/// errors naming the object and the record.
llvm::Expected<std::vector<OffloadEntry>>
readOffloadEntries(const llvm::object::ObjectFile &Obj, EntryLayout Layout);

/// Reads both layouts' tables (current first).
llvm::Expected<std::vector<OffloadEntry>>
readAllOffloadEntries(const llvm::object::ObjectFile &Obj);

/// True when \p Obj has a non-empty entries section of either layout, a cheap
/// test that does not decode the records.
bool hasOffloadEntries(const llvm::object::ObjectFile &Obj);

/// The IR struct type of a record of \p Layout, created in \p M's context
/// under the name `struct.__tgt_offload_entry` (current) or
/// `struct.__tgt_offload_entry.legacy`.
llvm::StructType *getEntryType(llvm::Module &M, EntryLayout Layout);

/// Emits one record into \p M in \p Layout's section (or \p SectionName when
/// not empty), with its name string in a private constant, and returns the
/// record's global. \p Kind and \p Data are ignored by the legacy layout.
llvm::GlobalVariable *
emitOffloadEntry(llvm::Module &M, EntryLayout Layout, llvm::Constant *Address,
                 llvm::StringRef Name, uint64_t Size, uint32_t Flags,
                 uint16_t Kind = OffloadKindOpenMP, uint64_t Data = 0,
                 llvm::StringRef SectionName = "");

} // namespace offload

#endif // OFFLOAD_OFFLOADING_OFFLOADENTRIES_H
