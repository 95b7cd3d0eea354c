//===- ObjectEmitter.h - Compile an IR module to an object file -*- C++ -*-===//
//
// The linker wrapper compiles its small generated modules in process with
// LLVM's code generator rather than starting a compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOADING_OBJECTEMITTER_H
#define OFFLOAD_OFFLOADING_OBJECTEMITTER_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace offload {

/// Registers every target, target machine, assembly printer and parser this
/// LLVM was built with, once per process (thread safe). Code generation
/// for a triple other than this machine's (cross links, GPU devices) needs
/// it before looking the target up.
void initializeAllTargetsOnce();

/// Compiles \p M for its target triple into a position-independent
/// relocatable object held in memory. Fails when the module is invalid or
/// its triple has no code generator in this LLVM.
llvm::Expected<llvm::SmallString<0>> emitObject(llvm::Module &M);

} // namespace offload

#endif // OFFLOAD_OFFLOADING_OBJECTEMITTER_H
