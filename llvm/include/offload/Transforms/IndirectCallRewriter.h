//===- IndirectCallRewriter.h - Translate host function pointers -*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `#pragma omp declare target indirect` lets device code call a function
// through a pointer that holds the HOST address of that function. Clang 22
// emits such calls as plain indirect calls, so on a device they would jump to
// a host address. This pass rewrites every call in device code whose target
// is not provably a device function into
//
//     %dev = call ptr @__llvm_omp_indirect_call_lookup(ptr %host)
//     call %dev(...)
//
// The lookup (device runtime) maps registered host addresses to device
// addresses and returns anything else unchanged, so device pointers and
// functions that are not `indirect` keep working.
//
// Virtual calls get one more translation: the vtable pointer read from the
// object is looked up too, so an object mapped from the host (whose vtable
// pointer is a host address) reads its slots from the device copy of the
// vtable when the runtime registered that vtable (entries flagged
// OMP_DECLARE_TARGET_INDIRECT_VTABLE). Without a registered vtable the slot
// is read from the host vtable, which only a device sharing the host's
// memory (the CPU device, unified memory) can do, and the loaded host
// function is then translated like any other function pointer.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFORMS_INDIRECTCALLREWRITER_H
#define OFFLOAD_TRANSFORMS_INDIRECTCALLREWRITER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class MemoryBufferRef;
class Module;
} // namespace llvm

namespace offload {

/// The device runtime's translation entry point and the seed document's
/// older name for it (both are provided by our device runtime).
constexpr llvm::StringLiteral IndirectCallLookupName =
    "__llvm_omp_indirect_call_lookup";
constexpr llvm::StringLiteral LegacyTranslateFptrName =
    "__kmpc_target_translate_fptr";

/// The module flag clang sets on OpenMP device compilations.
constexpr llvm::StringLiteral OpenMPDeviceModuleFlag = "openmp-device";

struct IndirectCallRewriterOptions {
  /// Rewrite even when the module is not an OpenMP device module (tests,
  /// or device code produced without clang's module flag).
  bool Force = false;
  /// Also translate the vtable pointer of recognised virtual calls.
  bool TranslateVTables = true;
  /// The function to call; the device runtime provides both names.
  std::string LookupName = IndirectCallLookupName.str();
};

/// What one run changed, for remarks, the wrapper's verbose output and
/// tests.
struct IndirectCallRewriterStats {
  /// Indirect calls now routed through the lookup.
  unsigned RewrittenCalls = 0;
  /// Vtable pointers translated (one per vtable load, shared by the calls
  /// that use it).
  unsigned TranslatedVTables = 0;
  /// Indirect calls left alone because every possible target is a device
  /// function (a select or phi of functions), or because they already go
  /// through the lookup.
  unsigned ProvablyDirectCalls = 0;
  unsigned AlreadyTranslatedCalls = 0;
  /// Calls of the device runtime's hidden region pointers made direct
  /// before any translation (DirectRegionCalls.h).
  unsigned DirectRegionCalls = 0;
  /// Calls of the runtime's execution-mode query folded in kernels
  /// (DirectRegionCalls.h).
  unsigned FoldedModeQueries = 0;
  /// Stores to team-shared memory their kernel never reads, removed
  /// (UnreadTeamMemory.h).
  unsigned RemovedTeamMemoryStores = 0;
};

/// True when \p M is device code the pass should rewrite: an OpenMP device
/// module (clang's `openmp-device` module flag).
bool isOpenMPDeviceModule(const llvm::Module &M);

/// True when \p M (device or host IR) declares `declare target indirect`
/// functions or vtables: entries flagged so in its entry table, or (device
/// code for GPUs has no entry table) the constant globals clang gives them
/// for the runtime to read.
bool hasIndirectOffloadEntries(const llvm::Module &M);

/// True when the device image \p Image (an object file or LLVM bitcode, as
/// found in a fat object) has offload entries flagged `declare target
/// indirect`: the linker wrapper runs the pass on a device link only then.
/// An image that cannot be read counts as having none; the device link
/// itself reports it.
bool deviceImageHasIndirectEntries(llvm::MemoryBufferRef Image);

/// Rewrites \p M as described above; does nothing to a module that is not
/// device code unless \p Options.Force is set.
IndirectCallRewriterStats
rewriteIndirectCalls(llvm::Module &M,
                     const IndirectCallRewriterOptions &Options = {});

/// The new-pass-manager wrapper (`offload-indirect-calls` in pipelines).
class IndirectCallRewriterPass
    : public llvm::PassInfoMixin<IndirectCallRewriterPass> {
public:
  explicit IndirectCallRewriterPass(IndirectCallRewriterOptions Options = {})
      : Options(std::move(Options)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  IndirectCallRewriterOptions Options;
};

} // namespace offload

#endif // OFFLOAD_TRANSFORMS_INDIRECTCALLREWRITER_H
