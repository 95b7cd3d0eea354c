//===- ompdevice-cpu-launch.cpp - Launch one kernel of a CPU image --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A miniature host plugin for testing the CPU device runtime on its own:
// loads a CPU device image (a shared object linked with the runtime) and
// launches one GPU-style kernel through __ompx_cpu_launch_kernel, passing
// pointers to variables it prints afterwards. Not installed.
//
//   ompdevice-cpu-launch <image.so> <kernel> [teams threads] -- <arg>...
//   kernel: a full symbol name, or `line:<N>` for the kernel of the target
//           construct on source line N (symbol ending in `_l<N>`)
//   arg:    i:<value> a 4-byte integer, d:<value> a double,
//           a:<count> a double array (printed as its sum)
//
//===----------------------------------------------------------------------===//

#include "CPUDeviceLaunch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {
struct Arg {
  char Kind;
  int32_t I = 0;
  double D = 0;
  std::vector<double> A;
  void *address() {
    return Kind == 'i'   ? static_cast<void *>(&I)
           : Kind == 'd' ? static_cast<void *>(&D)
                         : static_cast<void *>(A.data());
  }
};

struct Context {
  void *Kernel;
  std::vector<Arg> *Args;
};

void body(void *Ctx, void *LaunchEnv) {
  auto &C = *static_cast<Context *>(Ctx);
  std::vector<void *> P;
  for (Arg &A : *C.Args)
    P.push_back(A.address());
  switch (P.size()) {
  case 0:
    reinterpret_cast<void (*)(void *)>(C.Kernel)(LaunchEnv);
    break;
  case 1:
    reinterpret_cast<void (*)(void *, void *)>(C.Kernel)(LaunchEnv, P[0]);
    break;
  case 2:
    reinterpret_cast<void (*)(void *, void *, void *)>(C.Kernel)(LaunchEnv,
                                                                 P[0], P[1]);
    break;
  case 3:
    reinterpret_cast<void (*)(void *, void *, void *, void *)>(C.Kernel)(
        LaunchEnv, P[0], P[1], P[2]);
    break;
  default:
    std::fprintf(stderr, "ompdevice-cpu-launch: too many arguments\n");
    std::exit(2);
  }
}

/// The dynamic symbol of \p Path whose name ends in \p Suffix and that has
/// a kernel environment, or "" (read from the ELF file itself).
std::string findKernel(const char *Path, const std::string &Suffix) {
  int Fd = open(Path, O_RDONLY);
  if (Fd < 0)
    return "";
  struct stat St;
  fstat(Fd, &St);
  void *Map = mmap(nullptr, St.st_size, PROT_READ, MAP_PRIVATE, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED)
    return "";
  auto *Base = static_cast<const char *>(Map);
  auto *Header = reinterpret_cast<const Elf64_Ehdr *>(Base);
  auto *Sections = reinterpret_cast<const Elf64_Shdr *>(Base + Header->e_shoff);
  std::string Found;
  for (int I = 0; I < Header->e_shnum && Found.empty(); ++I) {
    if (Sections[I].sh_type != SHT_DYNSYM)
      continue;
    auto *Syms =
        reinterpret_cast<const Elf64_Sym *>(Base + Sections[I].sh_offset);
    const char *Names = Base + Sections[Sections[I].sh_link].sh_offset;
    size_t Count = Sections[I].sh_size / sizeof(Elf64_Sym);
    for (size_t J = 0; J < Count; ++J) {
      std::string Name = Names + Syms[J].st_name;
      if (ELF64_ST_TYPE(Syms[J].st_info) == STT_FUNC &&
          Name.size() > Suffix.size() &&
          Name.compare(Name.size() - Suffix.size(), Suffix.size(), Suffix) ==
              0) {
        Found = Name;
        break;
      }
    }
  }
  munmap(Map, St.st_size);
  return Found;
}
void print(std::vector<Arg> &Args);
} // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: ompdevice-cpu-launch image kernel [teams threads] -- "
                 "args...\n");
    return 2;
  }
  void *Image = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!Image) {
    std::fprintf(stderr, "ompdevice-cpu-launch: %s\n", dlerror());
    return 1;
  }
  std::string Kernel = argv[2];
  if (Kernel.rfind("line:", 0) == 0) {
    Kernel = findKernel(argv[1], "_l" + Kernel.substr(5));
    if (Kernel.empty()) {
      std::fprintf(stderr, "ompdevice-cpu-launch: no kernel for %s in %s\n",
                   argv[2], argv[1]);
      return 1;
    }
  }
  int I = 3;
  uint32_t Teams = 0, Threads = 0;
  if (std::strcmp(argv[I], "--") != 0) {
    Teams = std::atoi(argv[I++]);
    Threads = std::atoi(argv[I++]);
  }
  ++I; // --
  std::vector<Arg> Args;
  for (; I < argc; ++I) {
    Arg A;
    A.Kind = argv[I][0];
    const char *V = argv[I] + 2;
    if (A.Kind == 'i')
      A.I = std::atoi(V);
    else if (A.Kind == 'd')
      A.D = std::atof(V);
    else
      A.A.assign(std::atoi(V), 0.0);
    Args.push_back(std::move(A));
  }
  void *Fn = dlsym(Image, Kernel.c_str());
  void *Env = dlsym(Image, (Kernel + "_kernel_environment").c_str());
  auto Launch = reinterpret_cast<ompx_cpu_launch_fn_t>(
      dlsym(Image, OMPX_CPU_LAUNCH_SYMBOL));
  if (Fn && !Env) {
    // A host-style kernel (clang's CPU code): like a GPU kernel it takes the
    // launch environment (unused, may be null) before the mapped pointers,
    // and starts its own parallelism through libomp.
    std::vector<void *> P;
    for (Arg &A : Args)
      P.push_back(A.address());
    switch (P.size()) {
    case 1:
      reinterpret_cast<void (*)(void *, void *)>(Fn)(nullptr, P[0]);
      break;
    case 2:
      reinterpret_cast<void (*)(void *, void *, void *)>(Fn)(nullptr, P[0],
                                                             P[1]);
      break;
    default:
      std::fprintf(stderr, "ompdevice-cpu-launch: unsupported arguments\n");
      return 2;
    }
    std::printf("host-style");
    print(Args);
    return 0;
  }
  if (!Fn || !Env || !Launch) {
    std::fprintf(stderr,
                 "ompdevice-cpu-launch: kernel, environment or launch entry "
                 "missing\n");
    return 1;
  }
  Context C{Fn, &Args};
  ompx_cpu_launch_request R = {};
  R.Version = OMPX_CPU_LAUNCH_VERSION;
  R.NumTeams = Teams;
  R.ThreadLimit = Threads;
  R.KernelEnvironment = Env;
  R.KernelName = Kernel.c_str();
  R.Body = body;
  R.Context = &C;
  ompx_cpu_launch_result Result = {};
  if (Launch(&R, &Result) != 0)
    return 1;
  std::printf("teams=%u threads=%u", Result.NumTeams, Result.NumThreads);
  print(Args);
  // Unload as a plugin does: the runtime must stop its threads cleanly.
  if (dlclose(Image) != 0) {
    std::fprintf(stderr, "ompdevice-cpu-launch: %s\n", dlerror());
    return 1;
  }
  return 0;
}

namespace {
void print(std::vector<Arg> &Args) {
  for (Arg &A : Args) {
    if (A.Kind == 'i')
      std::printf(" %d", A.I);
    else if (A.Kind == 'd')
      std::printf(" %g", A.D);
    else {
      double Sum = 0;
      for (double X : A.A)
        Sum += X;
      std::printf(" sum=%g", Sum);
    }
  }
  std::printf("\n");
}
} // namespace
