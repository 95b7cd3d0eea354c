//===- TargetCodeGen.h - Target machines and LLVM pipelines -----*- C++ -*-===//
//
// Private to mlir/lib (the compiler's interface is
// include/offload-mlir/OffloadCompiler.h): the LLVM-level steps of a
// compilation that do not depend on MLIR. OffloadCompiler.cpp drives them
// for the host and for each offload target.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_MLIR_LIB_TARGETCODEGEN_H
#define OFFLOAD_MLIR_LIB_TARGETCODEGEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class Module;
class TargetMachine;
class Triple;
} // namespace llvm

namespace offload::mlir_compiler {

/// A position-independent target machine for \p TT and the CPU \p CPU
/// ("" for the triple's default) at the optimization level \p OptLevel
/// (0 to 3); fails when this LLVM has no code generator for \p TT.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const llvm::Triple &TT, llvm::StringRef CPU,
                    unsigned OptLevel);

/// Runs LLVM's default module pipeline of level \p OptLevel (the O0 one for
/// 0) over \p M, for the target \p TM.
void optimize(llvm::Module &M, llvm::TargetMachine &TM, unsigned OptLevel);

/// Moves every stack allocation of \p M into \p AddrSpace; its users see
/// the generic pointer they had through an address space cast.
void moveAllocasTo(llvm::Module &M, unsigned AddrSpace);

} // namespace offload::mlir_compiler

#endif // OFFLOAD_MLIR_LIB_TARGETCODEGEN_H
