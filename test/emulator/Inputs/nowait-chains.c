// `nowait` constructs ordered by `depend` on the emulated GPU: target
// enter/exit data and target update nowait, kernels between them, and many
// independent {copy in, kernel, copy out} chains in flight together.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define CHAINS 16

static int checkChain(void) {
  int *A = (int *)malloc(N * sizeof(int));
  for (int I = 0; I < N; ++I)
    A[I] = I;
#pragma omp target enter data map(to : A [0:N]) nowait depend(out : A[0])
#pragma omp target nowait depend(inout : A[0]) map(present, alloc : A [0:N])
  for (int I = 0; I < N; ++I)
    A[I] *= 2;
#pragma omp target update from(A [0:N]) nowait depend(inout : A[0])
    // The host copy is updated once the update's task is done.
#pragma omp task depend(inout : A[0]) shared(A)
  for (int I = 0; I < N; ++I)
    A[I] += 1; // host only: the device copy keeps 2*I
#pragma omp target nowait depend(inout : A[0]) map(present, alloc : A [0:N])
  for (int I = 0; I < N; ++I)
    A[I] += 3; // device: 2*I + 3
#pragma omp target update to(A [0:1]) nowait depend(inout : A[0])
#pragma omp target exit data map(from : A [0:N]) nowait depend(inout : A[0])
#pragma omp taskwait
  int Wrong = 0;
  // A[0] went to the device as 0*2+1 = 1 before the exit copied it back.
  if (A[0] != 1)
    ++Wrong;
  for (int I = 1; I < N; ++I)
    Wrong += A[I] != 2 * I + 3;
  free(A);
  return Wrong;
}

static int checkIndependentChains(void) {
  static int Data[CHAINS][N];
  for (int C = 0; C < CHAINS; ++C)
    for (int I = 0; I < N; ++I)
      Data[C][I] = C + I;
  for (int C = 0; C < CHAINS; ++C) {
#pragma omp target map(tofrom : Data[C] [0:N]) nowait firstprivate(C)
    for (int I = 0; I < N; ++I)
      Data[C][I] = Data[C][I] * 3 + C;
  }
#pragma omp taskwait
  int Wrong = 0;
  for (int C = 0; C < CHAINS; ++C)
    for (int I = 0; I < N; ++I)
      Wrong += Data[C][I] != (C + I) * 3 + C;
  return Wrong;
}

static int checkNothingLeftMapped(void) {
  int Dev = omp_get_default_device();
  static int Data[CHAINS][N];
  int Left = 0;
  for (int C = 0; C < CHAINS; ++C)
    Left += omp_target_is_present(Data[C], Dev);
  return Left;
}

int main(void) {
  printf("depend chain: %d wrong\n", checkChain());
  printf("independent chains: %d wrong\n", checkIndependentChains());
  printf("still mapped: %d\n", checkNothingLeftMapped());
  return 0;
}
