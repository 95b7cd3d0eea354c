// 10,000 map/unmap pairs of one 4 KiB array (each pair a device allocation
// and free for the runtime), one target region (so the program carries a
// device image), then llvm_omp_target_lock_mem/unlock_mem of the array.
// Run over the fake drivers, whose call counts show what reached them.
#include <omp.h>
#include <stddef.h>
#include <stdio.h>

void *llvm_omp_target_lock_mem(void *Ptr, size_t Size, int DeviceNum);
void llvm_omp_target_unlock_mem(void *Ptr, int DeviceNum);

static int a[1024];

int main(void) {
  for (int i = 0; i < 10000; ++i) {
#pragma omp target enter data map(to : a)
#pragma omp target exit data map(from : a)
  }
#pragma omp target map(tofrom : a)
  a[0] += 1;
  int Device = omp_get_default_device();
  void *Locked = llvm_omp_target_lock_mem(a, sizeof(a), Device);
  printf("map-loop locked: %s\n", Locked == (void *)a ? "same address"
                                  : Locked            ? "another address"
                                                      : "null");
  llvm_omp_target_unlock_mem(a, Device);
  return 0;
}
