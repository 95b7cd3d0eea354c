//===- OffloadCompiler.h - MLIR module to fat object ------------*- C++ -*-===//
//
// What mlir-offload does, as a library (docs/MLIR.md): runs our passes
// (omp-offload-*), lowers the module to the LLVM dialect and translates it
// with MLIR's OpenMP translation, once for the host and once per offload
// target; compiles each device module as clang's driver does for an offload
// compilation (an object for the CPU device, bitcode for the GPUs), wraps it
// in an OffloadBinary and writes the host object with all of them in its
// .llvm.offloading section, for our clang-linker-wrapper to link.
//
// The tool only parses its command line into CompilerOptions and prints the
// error compile() returns.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_MLIR_OFFLOADCOMPILER_H
#define OFFLOAD_MLIR_OFFLOADCOMPILER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace offload::mlir_compiler {

/// One compilation of one MLIR file into one fat host object.
struct CompilerOptions {
  /// The MLIR file to compile ("-" reads standard input).
  std::string Input;
  /// The object to write; empty: the input's file name with the extension
  /// ".o", in the current directory.
  std::string Output;
  /// Offload targets (-fopenmp-targets): triples, or the short names clang
  /// accepts (nvptx64, amdgcn). They are normalized; the first of duplicates
  /// is kept, in order.
  std::vector<std::string> Targets;
  /// GPU architectures (--offload-arch): sm_XX or gfxNNN. Each one adds its
  /// target when Targets does not name it; each GPU target needs one.
  std::vector<std::string> Archs;
  /// -O0 to -O3, for the LLVM pipelines and the code generators.
  unsigned OptLevel = 2;
  /// -v: print each step to Log.
  bool Verbose = false;
  /// -save-temps: keep the LLVM IR of each compilation next to the output,
  /// as translated: <output>.host.ll, <output>.<triple>[-<arch>].ll.
  bool SaveTemps = false;
  /// Where MLIR's diagnostics (file:line:column: error: ...) and the -v
  /// lines go; null: llvm::errs().
  llvm::raw_ostream *Log = nullptr;
  /// The name the -v lines start with ("mlir-offload: lowering ...").
  std::string ToolName = "mlir-offload";
};

/// The triple of an offload target name: the short names nvptx64 and amdgcn
/// as clang accepts them, any other name normalized.
std::string normalizeOffloadTarget(llvm::StringRef Name);

/// The offload target of a GPU architecture: nvptx64-nvidia-cuda for sm_XX,
/// amdgcn-amd-amdhsa for gfxNNN, "" for anything else.
std::string tripleForOffloadArch(llvm::StringRef Arch);

/// Checks \p Opts and completes them as compile() does before reading the
/// input: the default output name, normalized and deduplicated targets, the
/// targets of the architectures. Fails on an unknown architecture, when
/// there is no target, on an unsupported target and on a GPU target without
/// an architecture.
llvm::Error resolveOptions(CompilerOptions &Opts);

/// Compiles Opts.Input into the fat object Opts.Output; initializes LLVM's
/// targets on first use. An error says which step failed (a message without
/// the tool's name, as "cannot parse 'k.mlir' (see the errors above)"); the
/// diagnostics it refers to, naming the file, line and operation, went to
/// Opts.Log before. On an error no output is left, and the temporary host
/// bitcode the device translations read is removed in every case.
llvm::Error compile(const CompilerOptions &Opts);

} // namespace offload::mlir_compiler

#endif // OFFLOAD_MLIR_OFFLOADCOMPILER_H
