//===- HSAExecutables.cpp - Executables of the emulated HSA runtime -------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A code object is an emulated image (the wrapper's amdgcn link with
// --offload-emulate), loaded by the module loader the CUDA side uses. A
// kernel is looked up by its descriptor `<kernel>.kd`, whose address is the
// kernel object a dispatch packet names and whose first words give the
// segment sizes (EmulatorABI.h); a variable by its name.
//
//===----------------------------------------------------------------------===//

#include "HSATypes.h"
#include "ModuleLoader.h"

#include "offload/GPUEmulation/EmulatorABI.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace gpuemu;
using namespace gpuemu::hsa;
namespace abi = offload::gpuemu;

#define HSA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct CodeObjectReader {
  std::vector<char> Bytes;
};

struct Symbol {
  bool IsKernel = false;
  void *Address = nullptr;
  size_t Bytes = 0;
  std::unique_ptr<KernelFunction> Kernel;
};

struct Executable {
  LoadedModule *Module = nullptr;
  std::map<std::string, std::unique_ptr<Symbol>> Symbols;
};

std::mutex KernelObjectsLock;
std::map<uint64_t, KernelFunction *> &kernelObjects() {
  static auto *Objects = new std::map<uint64_t, KernelFunction *>();
  return *Objects;
}

template <typename T, typename H> T *from(H Handle) {
  return reinterpret_cast<T *>(Handle.handle);
}

/// Looks up \p Name in \p Exec: a kernel descriptor or a variable.
hsa_status_t lookUp(Executable &Exec, const std::string &Name, Symbol *&Out) {
  std::unique_ptr<Symbol> &S = Exec.Symbols[Name];
  if (S) {
    Out = S.get();
    return HSA_STATUS_SUCCESS;
  }
  auto New = std::make_unique<Symbol>();
  if (findGlobal(Exec.Module, Name.c_str(), New->Address, New->Bytes)) {
    Exec.Symbols.erase(Name);
    return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  }
  size_t Suffix = std::strlen(abi::KernelDescriptorSuffix);
  if (Name.size() > Suffix && !Name.compare(Name.size() - Suffix, Suffix,
                                            abi::KernelDescriptorSuffix)) {
    std::string Kernel = Name.substr(0, Name.size() - Suffix);
    KernelFunction *Function = nullptr;
    if (findKernel(Exec.Module, Kernel.c_str(), Function)) {
      fprintf(stderr,
              "gpu-emulator: the image has a descriptor '%s' but no entry "
              "point for kernel '%s'\n",
              Name.c_str(), Kernel.c_str());
      Exec.Symbols.erase(Name);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    New->IsKernel = true;
    New->Kernel.reset(Function);
    registerKernelObject(reinterpret_cast<uint64_t>(New->Address), Function);
  }
  S = std::move(New);
  Out = S.get();
  return HSA_STATUS_SUCCESS;
}

/// Word \p Index of a kernel descriptor.
uint32_t descriptorWord(const Symbol &S, unsigned Index) {
  uint32_t Word;
  std::memcpy(&Word, static_cast<const char *>(S.Address) + 4 * Index, 4);
  return Word;
}

} // namespace

void gpuemu::hsa::registerKernelObject(uint64_t Descriptor,
                                       KernelFunction *Kernel) {
  std::lock_guard<std::mutex> Guard(KernelObjectsLock);
  if (Kernel)
    kernelObjects()[Descriptor] = Kernel;
  else
    kernelObjects().erase(Descriptor);
}

KernelFunction *gpuemu::hsa::kernelForObject(uint64_t Descriptor) {
  std::lock_guard<std::mutex> Guard(KernelObjectsLock);
  auto It = kernelObjects().find(Descriptor);
  return It == kernelObjects().end() ? nullptr : It->second;
}

HSA_EXPORT hsa_status_t hsa_code_object_reader_create_from_memory(
    const void *Image, size_t Size, hsa_code_object_reader_t *Out) {
  if (!Image || !Out || Size < 64)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *Reader = new CodeObjectReader();
  Reader->Bytes.assign(static_cast<const char *>(Image),
                       static_cast<const char *>(Image) + Size);
  Out->handle = reinterpret_cast<uint64_t>(Reader);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t
hsa_code_object_reader_destroy(hsa_code_object_reader_t Reader) {
  delete from<CodeObjectReader>(Reader);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_create_alt(int, int, const char *,
                                                  hsa_executable_t *Out) {
  if (!Out)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Out->handle = reinterpret_cast<uint64_t>(new Executable());
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_load_agent_code_object(
    hsa_executable_t Handle, hsa_agent_t, hsa_code_object_reader_t Reader,
    const char *, hsa_loaded_code_object_t *) {
  Executable *Exec = from<Executable>(Handle);
  if (!Exec || Exec->Module)
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (loadModule(from<CodeObjectReader>(Reader)->Bytes.data(), Exec->Module,
                 AMDGPUMachine))
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_freeze(hsa_executable_t, const char *) {
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_destroy(hsa_executable_t Handle) {
  Executable *Exec = from<Executable>(Handle);
  if (!Exec)
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (auto &Entry : Exec->Symbols)
    if (Entry.second->IsKernel)
      registerKernelObject(reinterpret_cast<uint64_t>(Entry.second->Address),
                           nullptr);
  Exec->Symbols.clear();
  if (Exec->Module)
    unloadModule(Exec->Module);
  delete Exec;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_get_symbol_by_name(
    hsa_executable_t Handle, const char *Name, const hsa_agent_t *,
    hsa_executable_symbol_t *Out) {
  Executable *Exec = from<Executable>(Handle);
  if (!Exec || !Exec->Module)
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!Name || !Out)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Symbol *S = nullptr;
  if (hsa_status_t Status = lookUp(*Exec, Name, S))
    return Status;
  Out->handle = reinterpret_cast<uint64_t>(S);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_executable_symbol_get_info(
    hsa_executable_symbol_t Handle, int Attribute, void *Value) {
  const Symbol *S = from<Symbol>(Handle);
  if (!S)
    return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  auto Put32 = [&](uint32_t V) { std::memcpy(Value, &V, sizeof(V)); };
  auto Put64 = [&](uint64_t V) { std::memcpy(Value, &V, sizeof(V)); };
  switch (Attribute) {
  case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
    Put32(S->IsKernel ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE);
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
    Put64(reinterpret_cast<uint64_t>(S->Address));
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
    Put32(uint32_t(S->Bytes));
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
    if (!S->IsKernel)
      break;
    Put64(reinterpret_cast<uint64_t>(S->Address));
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
    if (!S->IsKernel)
      break;
    Put32(descriptorWord(
        *S,
        Attribute == HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE ? 0
        : Attribute == HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE
            ? 1
            : 2));
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
