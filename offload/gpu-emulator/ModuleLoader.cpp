//===- ModuleLoader.cpp - Loading emulated GPU images ---------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModuleLoader.h"
#include "Checkers.h"
#include "DeviceMemory.h"

#include "gpu/CUDAABI.h"
#include "offload/GPUEmulation/EmulatorABI.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuemu {
namespace {

namespace abi = offload::gpuemu;
using namespace offload::cuda_abi;

/// Bytes of the ELF file at \p Image, whose header is \p Header: the end
/// of its furthest part.
size_t elfSize(const void *Image, const Elf64_Ehdr &Header) {
  size_t End = Header.e_shoff + size_t(Header.e_shnum) * Header.e_shentsize;
  const auto *Base = static_cast<const char *>(Image);
  for (unsigned I = 0; I < Header.e_phnum; ++I) {
    Elf64_Phdr P;
    std::memcpy(&P, Base + Header.e_phoff + I * Header.e_phentsize, sizeof(P));
    End = std::max<size_t>(End, P.p_offset + P.p_filesz);
  }
  return End;
}

/// Makes this library's __gpuemu_* symbols visible to the images.
void exportEmulatorSymbols() {
  static bool Done = [] {
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&exportEmulatorSymbols), &Info) &&
        Info.dli_fname)
      dlopen(Info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    return true;
  }();
  (void)Done;
}

void registerWritableData(LoadedModule &M) {
  link_map *Map = nullptr;
  if (dlinfo(M.Handle, RTLD_DI_LINKMAP, &Map) || !Map)
    return;
  struct Search {
    const char *Name;
    LoadedModule *Module;
  } S{Map->l_name, &M};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *S = static_cast<Search *>(Data);
        if (!Info->dlpi_name || std::strcmp(Info->dlpi_name, S->Name))
          return 0;
        for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          if (P.p_type != PT_LOAD || !(P.p_flags & PF_W))
            continue;
          const void *Start =
              reinterpret_cast<const void *>(Info->dlpi_addr + P.p_vaddr);
          DeviceMemory::get().addRange(Start, P.p_memsz);
          S->Module->DataRanges.push_back(Start);
        }
        return 1;
      },
      &S);
}

/// The path dlopen loads the image in file \p Fd from.
std::string imagePath(int Fd) { return "/proc/self/fd/" + std::to_string(Fd); }

/// Writes the image to an anonymous file \p Fd, as a host object, and
/// loads it. The file stays open while the image is loaded: dlopen knows
/// an object by its path, and given the path of a closed file's number,
/// which the next image's file gets, it returns the loaded image instead
/// of loading the new one (the gfx90a image ran in place of the sm_90 one
/// of a program built for both, and crashed). Returns a CUDA error code.
int openImage(const void *Image, const Elf64_Ehdr &Header, int &Fd,
              void *&Handle) {
  Fd = memfd_create("gpu-emulator-image", MFD_CLOEXEC);
  size_t Size = elfSize(Image, Header);
  Elf64_Ehdr HostHeader = Header;
  HostHeader.e_machine = EM_X86_64;
  if (Fd < 0 ||
      write(Fd, &HostHeader, sizeof(HostHeader)) !=
          ssize_t(sizeof(HostHeader)) ||
      write(Fd, static_cast<const char *>(Image) + sizeof(HostHeader),
            Size - sizeof(HostHeader)) != ssize_t(Size - sizeof(HostHeader))) {
    if (Fd >= 0)
      close(Fd);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  Handle = dlopen(imagePath(Fd).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    fprintf(stderr, "gpu-emulator: cannot load the image: %s\n", dlerror());
    close(Fd);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  return CUDA_SUCCESS;
}

} // namespace

int loadModule(const void *Image, LoadedModule *&Out, uint16_t Machine) {
  Elf64_Ehdr Header;
  std::memcpy(&Header, Image, sizeof(Header));
  if (std::memcmp(Header.e_ident, ELFMAG, SELFMAG)) {
    fprintf(stderr, "gpu-emulator: the image is not an ELF file\n");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  // The wrapper marks emulated images with the GPU's machine number so that
  // the runtime routes them to the GPU's plugin; a cubin is an executable,
  // and a real AMDGPU code object, a shared object too, is for the HSA
  // operating system (ELFOSABI_AMDGPU_HSA) where ours are for the host's.
  if (Header.e_machine != Machine || Header.e_type != ET_DYN ||
      Header.e_ident[EI_OSABI] != ELFOSABI_SYSV) {
    fprintf(stderr,
            "gpu-emulator: the image is not an emulated image (ELF "
            "machine %u, type %u); link with %s\n",
            unsigned(Header.e_machine), unsigned(Header.e_type),
            Machine == AMDGPUMachine
                ? "-Xoffload-linker-amdgcn-amd-amdhsa --offload-emulate"
                : "-Xoffload-linker-nvptx64-nvidia-cuda --offload-emulate "
                  "(and -foffload-lto)");
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  exportEmulatorSymbols();
  int Fd = -1;
  void *Handle = nullptr;
  if (int Error = openImage(Image, Header, Fd, Handle))
    return Error;
  auto *Version =
      static_cast<const uint32_t *>(dlsym(Handle, abi::ABIVersionSymbol));
  auto *Shared =
      static_cast<const uint64_t *>(dlsym(Handle, abi::SharedSizeSymbol));
  if (!Version || *Version != abi::ABIVersion || !Shared) {
    fprintf(stderr,
            "gpu-emulator: the image was not built for this "
            "emulator (interface version %u, expected %u)\n",
            Version ? *Version : 0, abi::ABIVersion);
    dlclose(Handle);
    close(Fd);
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  }
  Out = new LoadedModule{Handle, Fd, *Shared, {}};
  registerWritableData(*Out);
  // The image's accesses call the checks only once this is set (an image
  // from before the checks has no such symbol and runs unchecked).
  if (enabledChecks())
    if (auto *Flags = static_cast<uint32_t *>(
            dlsym(Handle, abi::CheckFlagsSymbol)))
      *Flags = enabledChecks();
  return CUDA_SUCCESS;
}

void unloadModule(LoadedModule *Module) {
  for (const void *Range : Module->DataRanges)
    DeviceMemory::get().removeRange(Range);
  dlclose(Module->Handle);
  // An image that stays loaded (dlclose keeps objects with unique or
  // no-delete symbols) keeps its file, and so its name, to itself.
  std::string Path = imagePath(Module->Fd);
  if (void *Still = dlopen(Path.c_str(), RTLD_LAZY | RTLD_NOLOAD))
    dlclose(Still);
  else
    close(Module->Fd);
  delete Module;
}

int findKernel(LoadedModule *Module, const char *Name, KernelFunction *&Out) {
  std::string Entry = std::string(abi::EntryPrefix) + Name;
  std::string Params = std::string(abi::ParamsPrefix) + Name;
  void *EntryAddress = dlsym(Module->Handle, Entry.c_str());
  void *ParamsAddress = dlsym(Module->Handle, Params.c_str());
  if (!EntryAddress || !ParamsAddress)
    return CUDA_ERROR_NOT_FOUND;
  Out = new KernelFunction{Module, Name,
                           reinterpret_cast<void (*)(void **)>(EntryAddress),
                           static_cast<const uint64_t *>(ParamsAddress)};
  std::string Bound = std::string(abi::MaxThreadsPrefix) + Name;
  if (auto *MaxThreads =
          static_cast<const uint32_t *>(dlsym(Module->Handle, Bound.c_str())))
    Out->MaxThreadsPerBlock = *MaxThreads;
  std::string Shared = std::string(abi::KernelSharedSizePrefix) + Name;
  auto *Bytes =
      static_cast<const uint64_t *>(dlsym(Module->Handle, Shared.c_str()));
  Out->StaticSharedBytes = Bytes ? *Bytes : Module->StaticSharedBytes;
  Out->MaxDynamicSharedBytes =
      CUDASharedPerBlock - std::min(Out->StaticSharedBytes, CUDASharedPerBlock);
  return CUDA_SUCCESS;
}

int findGlobal(LoadedModule *Module, const char *Name, void *&Address,
               size_t &Bytes) {
  Address = dlsym(Module->Handle, Name);
  if (!Address)
    return CUDA_ERROR_NOT_FOUND;
  Dl_info Info;
  ElfW(Sym) *Symbol = nullptr;
  if (!dladdr1(Address, &Info, reinterpret_cast<void **>(&Symbol),
               RTLD_DL_SYMENT) ||
      !Symbol)
    return CUDA_ERROR_NOT_FOUND;
  Bytes = Symbol->st_size;
  return CUDA_SUCCESS;
}

} // namespace gpuemu
