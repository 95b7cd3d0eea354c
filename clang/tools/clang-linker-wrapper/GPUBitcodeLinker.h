//===- GPUBitcodeLinker.h - LTO of GPU device bitcode -----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the NVPTX and AMDGPU device links share: linking device bitcode (the
// application's images and the members of bitcode archives such as the
// device runtime `libompdevice.a`) into one module with LLVM's LTO library and
// generating code for one GPU architecture; interpreting the `-l`/`-L`/`-O`
// options the driver passes for the device; and finding external tools.
//
// Symbol rules: a symbol stays visible in the linked image when its
// visibility is not hidden (the compilers give kernels and declare-target
// globals protected visibility; the device runtime is built hidden except for
// what the plugins look up) or when a non-bitcode input of the same link
// references it. Everything else is internalized, so unused runtime code
// disappears. Archive members are taken only when they define a symbol that
// is still undefined, as a linker does.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_GPUBITCODELINKER_H
#define CLANG_LINKER_WRAPPER_GPUBITCODELINKER_H

#include "DeviceLinker.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CodeGen.h"

#include <functional>

namespace llvm {
class Module;
} // namespace llvm

namespace wrapper {

/// The device-side options of one link, from `--device-linker=` and
/// `--device-compiler=` values.
struct GPULinkOptions {
  /// Archives named by `-l<name>` (found in the -L directories, then in
  /// `<prefix>/lib/<triple>`) or given as paths ending in `.a`.
  std::vector<std::string> Archives;
  /// Options passed on to the final device linker (nvlink or ld.lld).
  std::vector<std::string> LinkerPassThrough;
  /// Optimization level from -O<n> (default 2).
  unsigned OptLevel = 2;
  /// -g given.
  bool Debug = false;
};

/// Splits the job's device options. Fails naming an `-l` library that is not
/// found.
llvm::Expected<GPULinkOptions> parseGPULinkOptions(const DeviceLinkJob &Job,
                                                   const ToolchainPaths &Paths);

/// One LTO link of bitcode for a GPU.
struct GPUBitcodeLink {
  llvm::Triple Triple;
  /// sm_XX or gfxNNN.
  std::string CPU;
  unsigned OptLevel = 2;
  /// Target features for code generation (e.g. +ptx78).
  std::vector<std::string> Features;
  llvm::CodeGenFileType FileType = llvm::CodeGenFileType::ObjectFile;
  /// Bitcode files, all linked.
  std::vector<std::string> BitcodeFiles;
  /// Archives whose bitcode members are linked when needed.
  std::vector<std::string> Archives;
  /// Symbols that non-bitcode inputs (e.g. cubins) reference.
  llvm::StringSet<> ExternalReferences;
  /// Pass plugins LTO loads (DeviceLinkJob::PassPlugins).
  std::vector<std::string> PassPlugins;
  /// LLVM options from -mllvm / --offload-opt (DeviceLinkJob::LLVMArgs);
  /// see GPULTOOptions.h.
  std::vector<std::string> LLVMArgs;
  /// Called with the optimised module before code generation, which is
  /// skipped when it returns false (the GPU emulator's link).
  std::function<bool(unsigned, const llvm::Module &)> PreCodeGenHook;
};

/// The LTO link of \p Job's bitcode inputs for its architecture, with the
/// archives and optimization level of \p Options, the job's pass plugins and
/// its required symbols as external references. The job's other inputs
/// (objects, cubins) are appended to \p OtherInputs.
GPUBitcodeLink prepareGPUBitcodeLink(const DeviceLinkJob &Job,
                                     const GPULinkOptions &Options,
                                     llvm::CodeGenFileType FileType,
                                     std::vector<std::string> &OtherInputs);

/// Runs \p Link (GPUBitcodeLTO.cpp). Returns the generated PTX or object
/// file, or an empty buffer when there was nothing to link (no bitcode
/// input, and no archive member needed by the external references).
llvm::Expected<llvm::SmallString<0>>
runGPUBitcodeLink(const GPUBitcodeLink &Link);

/// Finds \p Tool: in \p Preferred directories (in order, skipping empty
/// ones), then on PATH, then in \p Fallback directories. The error names the
/// tool, what it was needed for (\p Purpose) and \p Hint.
llvm::Expected<std::string> findGPUTool(llvm::StringRef Tool,
                                        llvm::ArrayRef<std::string> Preferred,
                                        llvm::ArrayRef<std::string> Fallback,
                                        llvm::StringRef Purpose,
                                        llvm::StringRef Hint);

/// True when \p Path starts with LLVM bitcode (plain or wrapped).
bool isBitcodeFile(llvm::StringRef Path);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_GPUBITCODELINKER_H
