// omp_target_memcpy_async, _memcpy_rect_async and _memset_async on the
// emulated GPU: their data, their order with nowait kernels through depend
// objects, and that they neither block the caller nor wait behind kernels
// they do not depend on.
//
// async-routines unbounded|bounded. The last two checks have a kernel wait
// for a flag that only work issued after it sets. No clock decides
// anything: `unbounded`, the kernel waits without a bound, so a runtime that
// blocks or queues wrongly makes the program hang (ended by the test's hang
// guard), never answer by luck. `bounded` is for runs where the flag can only
// be set after the kernel ended (no hidden helper threads: every target task
// runs undeferred in the caller; the CPU device, whose routines wait for
// their dependences in the call): the kernel gives up after a fixed number
// of polls, and the answer is "no" however long they take.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096
#define ROWS 8
#define COLS 16
// Polls of a flag in device memory before a `bounded` kernel gives up on it.
#define POLLS 1000000L

static int Dev, Host;
// Polls before a kernel gives up on a flag; -1: never (`unbounded`).
static long Bound;

/// Each routine's data: a copy in, a fill, a rectangle and a copy out.
static int checkData(void) {
  int *In = (int *)malloc(N * sizeof(int)),
      *Out = (int *)malloc(N * sizeof(int));
  int Grid[ROWS][COLS], Back[ROWS][COLS];
  for (int I = 0; I < N; ++I)
    In[I] = I * 5, Out[I] = -1;
  for (int R = 0; R < ROWS; ++R)
    for (int C = 0; C < COLS; ++C)
      Grid[R][C] = R * 100 + C, Back[R][C] = -1;
  int *D = (int *)omp_target_alloc(N * sizeof(int), Dev);
  int *DGrid = (int *)omp_target_alloc(sizeof(Grid), Dev);
  int Err = 0;
  omp_depend_t Dep;
#pragma omp depobj(Dep) depend(inout : D[0])
  Err +=
      omp_target_memcpy_async(D, In, N * sizeof(int), 0, 0, Dev, Host, 1, &Dep);
  // Bytes 0..15 of D become 0x01: elements 0..3 read 0x01010101.
  omp_target_memset_async(D, 1, 16, Dev, 1, &Dep);
  Err += omp_target_memcpy_async(Out, D, N * sizeof(int), 0, 0, Host, Dev, 1,
                                 &Dep);
  // The inner 4x8 block of Grid, to the same place on the device and back.
  size_t Volume[2] = {4, 8}, Offsets[2] = {2, 3}, Dims[2] = {ROWS, COLS};
  omp_target_memset_async(DGrid, 0, sizeof(Grid), Dev, 0, NULL);
#pragma omp taskwait
  Err +=
      omp_target_memcpy_rect_async(DGrid, Grid, sizeof(int), 2, Volume, Offsets,
                                   Offsets, Dims, Dims, Dev, Host, 0, NULL);
#pragma omp taskwait
  Err +=
      omp_target_memcpy_rect_async(Back, DGrid, sizeof(int), 2, Volume, Offsets,
                                   Offsets, Dims, Dims, Host, Dev, 0, NULL);
#pragma omp taskwait
  int Wrong = Err != 0;
  for (int I = 0; I < N; ++I) {
    int Want = I < 4 ? 0x01010101 : I * 5;
    Wrong += Out[I] != Want;
  }
  for (int R = 0; R < ROWS; ++R)
    for (int C = 0; C < COLS; ++C) {
      int Inside = R >= 2 && R < 6 && C >= 3 && C < 11;
      Wrong += Back[R][C] != (Inside ? R * 100 + C : -1);
    }
#pragma omp depobj(Dep) destroy
  omp_target_free(D, Dev);
  omp_target_free(DGrid, Dev);
  free(In);
  free(Out);
  return Wrong;
}

/// A copy out that depends on a nowait kernel sees its output; a kernel
/// that depends on a copy in sees its data.
static int checkDependences(void) {
  int *D = (int *)omp_target_alloc(N * sizeof(int), Dev);
  int *E = (int *)omp_target_alloc(N * sizeof(int), Dev);
  int *Out = (int *)malloc(N * sizeof(int)),
      *In = (int *)malloc(N * sizeof(int));
  for (int I = 0; I < N; ++I)
    In[I] = I + 11, Out[I] = -1;
  int *Go = (int *)omp_target_alloc(sizeof(int), Dev);
  int Zero = 0, One = 1;
  omp_target_memcpy(Go, &Zero, sizeof(int), 0, 0, Dev, Host);
  long B = Bound;
  char K, C;
  omp_depend_t AfterKernel, CopyDone;
#pragma omp depobj(AfterKernel) depend(in : K)
#pragma omp depobj(CopyDone) depend(out : C)
  // The kernel writes D only once Go is set, after the copy out below was
  // issued: a copy that did not wait for the kernel reads D unwritten,
  // whatever the speed of either.
#pragma omp target nowait is_device_ptr(D, Go) depend(out : K) firstprivate(B)
  {
    for (long Polls = 0; !__atomic_load_n(Go, __ATOMIC_SEQ_CST) &&
                         (B < 0 || Polls < B);
         ++Polls)
      ;
    for (int I = 0; I < N; ++I)
      D[I] = I * 7;
  }
  omp_target_memcpy_async(Out, D, N * sizeof(int), 0, 0, Host, Dev, 1,
                          &AfterKernel);
  omp_target_memcpy_async(Go, &One, sizeof(int), 0, 0, Dev, Host, 0, NULL);
  omp_target_memcpy_async(E, In, N * sizeof(int), 0, 0, Dev, Host, 1,
                          &CopyDone);
#pragma omp target nowait is_device_ptr(E) depend(in : C)
  for (int I = 0; I < N; ++I)
    E[I] *= 2;
#pragma omp taskwait
  int *Back = (int *)malloc(N * sizeof(int));
  omp_target_memcpy(Back, E, N * sizeof(int), 0, 0, Host, Dev);
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += (Out[I] != I * 7) + (Back[I] != (I + 11) * 2);
#pragma omp depobj(AfterKernel) destroy
#pragma omp depobj(CopyDone) destroy
  omp_target_free(D, Dev);
  omp_target_free(E, Dev);
  omp_target_free(Go, Dev);
  free(In);
  free(Out);
  free(Back);
  return Wrong;
}

/// Kernel 1 waits for a flag kernel 2 sets; a copy between them depends on
/// kernel 1. A routine that waited for its dependence in the call would
/// launch kernel 2 only after kernel 1 ended: never while it waits without a
/// bound, after it gave up when bounded.
static const char *checkCallerNotBlocked(void) {
  int *Flag = (int *)omp_target_alloc(sizeof(int), Dev);
  int Zero = 0, Saw = -1;
  omp_target_memcpy(Flag, &Zero, sizeof(int), 0, 0, Dev, Host);
  int *DSaw = (int *)omp_target_alloc(sizeof(int), Dev);
  char K;
  long B = Bound;
  omp_depend_t AfterKernel;
#pragma omp depobj(AfterKernel) depend(in : K)
#pragma omp target nowait is_device_ptr(Flag, DSaw) depend(out : K)            \
    firstprivate(B)
  {
    for (long Polls = 0; !__atomic_load_n(Flag, __ATOMIC_SEQ_CST) &&
                         (B < 0 || Polls < B);
         ++Polls)
      ;
    *DSaw = __atomic_load_n(Flag, __ATOMIC_SEQ_CST);
  }
  omp_target_memcpy_async(&Saw, DSaw, sizeof(int), 0, 0, Host, Dev, 1,
                          &AfterKernel);
#pragma omp target nowait is_device_ptr(Flag)
  __atomic_store_n(Flag, 1, __ATOMIC_SEQ_CST);
#pragma omp taskwait
#pragma omp depobj(AfterKernel) destroy
  omp_target_free(Flag, Dev);
  omp_target_free(DSaw, Dev);
  return Saw == 1 ? "yes" : Saw == 0 ? "no" : "not copied";
}

/// A running nowait kernel waits for a flag that an independent
/// memcpy_async writes: the copy does not queue behind the kernel (if it
/// did, an unbounded kernel would wait for ever).
static const char *checkCopyBesideKernel(void) {
  int *Flag = (int *)omp_target_alloc(sizeof(int), Dev);
  int Zero = 0, One = 1, Saw = -1;
  long B = Bound;
  omp_target_memcpy(Flag, &Zero, sizeof(int), 0, 0, Dev, Host);
#pragma omp target nowait is_device_ptr(Flag) map(from : Saw) firstprivate(B)
  {
    for (long Polls = 0; !__atomic_load_n(Flag, __ATOMIC_SEQ_CST) &&
                         (B < 0 || Polls < B);
         ++Polls)
      ;
    Saw = __atomic_load_n(Flag, __ATOMIC_SEQ_CST);
  }
  omp_target_memcpy_async(Flag, &One, sizeof(int), 0, 0, Dev, Host, 0, NULL);
#pragma omp taskwait
  omp_target_free(Flag, Dev);
  return Saw == 1 ? "yes" : "no";
}

int main(int Argc, char **Argv) {
  if (Argc != 2 ||
      (strcmp(Argv[1], "unbounded") && strcmp(Argv[1], "bounded"))) {
    fprintf(stderr, "usage: %s unbounded|bounded\n", Argv[0]);
    return 2;
  }
  Bound = strcmp(Argv[1], "bounded") == 0 ? POLLS : -1;
  Dev = omp_get_default_device();
  Host = omp_get_initial_device();
  printf("data: %d wrong\n", checkData());
  printf("dependences: %d wrong\n", checkDependences());
  printf("caller not blocked: %s\n", checkCallerNotBlocked());
  printf("copy beside a kernel: %s\n", checkCopyBesideKernel());
  return 0;
}
