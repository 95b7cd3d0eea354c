// A miniature host plugin for tests of the CPU device runtime: loads a CPU
// device image (a shared object linked with the runtime), and launches one
// GPU-style kernel through __ompx_cpu_launch_kernel, passing pointers to
// variables it prints afterwards.
//
//   cpu-launch <image.so> <kernel-name-substring> [teams threads] -- <arg>...
//   arg: i:<value>   a 4-byte integer       d:<value>  a double
//        a:<count>   a double array (prints its sum)
#include "CPUDeviceLaunch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <string>
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
    std::fprintf(stderr, "cpu-launch: too many arguments\n");
    std::exit(2);
  }
}

// Finds the full name of the first kernel whose name contains Needle by
// walking the image's dynamic symbols through dlinfo is overkill: the test
// passes the exact suffix, and we try the names nm printed.
} // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: cpu-launch image kernel [teams threads] -- "
                         "args...\n");
    return 2;
  }
  void *Image = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!Image) {
    std::fprintf(stderr, "cpu-launch: %s\n", dlerror());
    return 1;
  }
  std::string Kernel = argv[2];
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
  if (!Fn || !Env || !Launch) {
    std::fprintf(stderr, "cpu-launch: kernel, environment or launch entry "
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
  return 0;
}
