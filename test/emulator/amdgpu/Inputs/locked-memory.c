// llvm_omp_target_lock_mem on the emulated gfx90a: the AMDGPU plugin locks
// the array with hsa_amd_memory_lock and copies it without staging.
#include <omp.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif
void *llvm_omp_target_lock_mem(void *, size_t, int);
void llvm_omp_target_unlock_mem(void *, int);
#ifdef __cplusplus
}
#endif
int main(void) {
  static int A[1024];
  int Dev = omp_get_default_device();
  void *Locked = llvm_omp_target_lock_mem(A, sizeof(A), Dev);
#pragma omp target teams distribute parallel for map(tofrom : A)
  for (int I = 0; I < 1024; ++I)
    A[I] = I;
  llvm_omp_target_unlock_mem(A, Dev);
  long S = 0;
  for (int I = 0; I < 1024; ++I)
    S += A[I];
  printf("locked %s, sum %ld\n", Locked ? "yes" : "no", S);
}
