// 32 host threads each run 200 target regions (maps, chains of nowait
// regions ordered by depend, target update, a shared array every thread
// maps) while a 33rd thread opens and closes a library with its own device
// image and calls into it, so images register and unregister while kernels
// run and data is mapped. Every result is checked, and at exit no device
// allocation may be left (LIBOMPTARGET_ALLOCATION_REPORT).
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu -fPIC -shared %S/Inputs/stress-lib.c -o %t.so
// RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t -ldl -pthread
// RUN: env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_HOST_NUM_DEVICES=2 \
// RUN:   LIBOMPTARGET_ALLOCATION_REPORT=1 %ours-run %t %t.so 2>&1 | FileCheck %s
#include <atomic>
#include <cstdio>
#include <dlfcn.h>
#include <omp.h>
#include <vector>

namespace {

constexpr int Threads = 32, Rounds = 50, N = 512, SharedN = 1024;
// Mapped `to` by every thread at once: they all find (or wait for) one
// entry.
int Shared[SharedN];

/// One host thread: Rounds rounds of four target regions on device Dev.
/// Returns the number of wrong results.
int hostThread(int T, int Dev) {
  std::vector<int> AStore(N), BStore(N);
  int *A = AStore.data(), *B = BStore.data();
  int Failures = 0;
  long SharedSum = 0;
  for (int I = 0; I < SharedN; ++I)
    SharedSum += Shared[I];
  for (int R = 0; R < Rounds; ++R) {
    for (int I = 0; I < N; ++I) {
      A[I] = T * N + I + R;
      B[I] = -1;
    }
    long Sum = 0;
#pragma omp target data map(to : A [0:N]) map(from : B [0:N]) device(Dev)
    {
#pragma omp target nowait depend(out : B[0]) device(Dev)
      for (int I = 0; I < N; ++I)
        B[I] = 2 * A[I];
#pragma omp target nowait depend(inout : B[0]) device(Dev)
      for (int I = 0; I < N; ++I)
        B[I] += 1;
#pragma omp taskwait
      // The device copy of A changes only through the update.
      for (int I = 0; I < N; ++I)
        A[I] += 1000;
#pragma omp target update to(A [0:N]) device(Dev)
#pragma omp target nowait depend(inout : B[0]) device(Dev)
      for (int I = 0; I < N; ++I)
        B[I] += A[I];
#pragma omp target map(to : Shared) map(tofrom : Sum) device(Dev)
      for (int I = 0; I < SharedN; ++I)
        Sum += Shared[I];
#pragma omp taskwait
    }
    // B = 2a + 1 + (a + 1000) for the a of this round.
    for (int I = 0; I < N; ++I)
      Failures += B[I] != 3 * (T * N + I + R) + 1001;
    Failures += Sum != SharedSum;
  }
  return Failures;
}

/// Opens, uses and closes the library until the host threads are done (and
/// at least a few times). Returns the number of wrong results.
int libraryLoop(const char *Path, const std::atomic<int> &Running,
                int &Rounds) {
  int Failures = 0;
  std::vector<int> V(64);
  for (Rounds = 0; Running.load() > 0 || Rounds < 4; ++Rounds) {
    void *Lib = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
      std::printf("dlopen failed: %s\n", dlerror());
      return Failures + 1;
    }
    auto *Work =
        reinterpret_cast<long (*)(int *, int, int)>(dlsym(Lib, "libWork"));
    long Expected = 0;
    for (int I = 0; I < 64; ++I) {
      V[I] = I + Rounds;
      Expected += I + Rounds + 15;
    }
    Failures += !Work || Work(V.data(), 64, Rounds % 2) != Expected;
    dlclose(Lib);
  }
  return Failures;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: %s <offload library>\n", Argv[0]);
    return 2;
  }
  for (int I = 0; I < SharedN; ++I)
    Shared[I] = I % 7;
  std::atomic<int> Running{Threads};
  std::vector<int> Failures(Threads + 1, 0);
  int LibraryRounds = 0, TeamSize = 0;
  // OpenMP threads rather than std::threads: libomp 22 asserts
  // (kmp_tasking.cpp, task_team != NULL) when threads it did not create
  // start `target nowait` tasks, on Debian's libomptarget as on ours.
#pragma omp parallel num_threads(Threads + 1)
  {
    int T = omp_get_thread_num();
#pragma omp single nowait
    TeamSize = omp_get_num_threads();
    if (T == Threads) {
      Failures[T] = libraryLoop(Argv[1], Running, LibraryRounds);
    } else {
      Failures[T] = hostThread(T, T % 2);
      --Running;
    }
  }

  int Total = 0;
  for (int F : Failures)
    Total += F;
  // CHECK: threads=33 regions=6400 failures=0
  std::printf("threads=%d regions=%d failures=%d\n", TeamSize,
              Threads * Rounds * 4, Total);
  // CHECK: library rounds: enough
  std::printf("library rounds: %s\n", LibraryRounds >= 4 ? "enough" : "few");
  std::fflush(stdout);
  // The report comes at exit, one line per device used.
  // CHECK-DAG: omptarget device 0 info: 0 device allocations outstanding at exit
  // CHECK-DAG: omptarget device 1 info: 0 device allocations outstanding at exit
  return Total != 0 || TeamSize != Threads + 1;
}
