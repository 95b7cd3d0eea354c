// The OpenMP device memory routines: omp_target_alloc/free, memcpy (all
// directions), memcpy_rect, memset, the async forms with depend objects,
// associate/disassociate, is_present, is_accessible, get_mapped_ptr and
// LLVM's allocation extensions.
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <omp.h>
#include <stdio.h>

void *llvm_omp_target_alloc_host(size_t, int);
void *llvm_omp_target_alloc_shared(size_t, int);
void *llvm_omp_target_alloc_device(size_t, int);
void llvm_omp_target_free_host(void *, int);
void llvm_omp_target_free_shared(void *, int);
void llvm_omp_target_free_device(void *, int);

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  int errors = 0;
  // CHECK: devices=4 initial=4
  printf("devices=%d initial=%d\n", omp_get_num_devices(), host);

  int h[8], back[8];
  for (int i = 0; i < 8; ++i)
    h[i] = i;
  int *d = (int *)omp_target_alloc(sizeof h, dev);
  errors += d == NULL || d == h;
  errors += omp_target_memcpy(d, h, sizeof h, 0, 0, dev, host);
  // Device to device, then back to the host with offsets.
  int *d2 = (int *)omp_target_alloc(sizeof h, 1);
  errors += omp_target_memcpy(d2, d, sizeof h, 0, 0, 1, dev);
  errors +=
      omp_target_memcpy(back, d2, 4 * sizeof(int), 0, 4 * sizeof(int), host, 1);
  // CHECK: memcpy back[0]=4 back[3]=7
  printf("memcpy back[0]=%d back[3]=%d\n", back[0], back[3]);

  // A device pointer used in a region through is_device_ptr.
#pragma omp target is_device_ptr(d) device(dev)
  for (int i = 0; i < 8; ++i)
    d[i] += 100;
  omp_target_memset(d, 0, 2 * sizeof(int), dev);
  errors += omp_target_memcpy(back, d, sizeof h, 0, 0, host, dev);
  // CHECK: region+memset back[0]=0 back[1]=0 back[2]=102 back[7]=107
  printf("region+memset back[0]=%d back[1]=%d back[2]=%d back[7]=%d\n", back[0],
         back[1], back[2], back[7]);

  // A 3x4 block out of a 5x6 host matrix into a 3x4 device matrix.
  int m[5][6], r[3][4];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j)
      m[i][j] = 10 * i + j;
  int *dm = (int *)omp_target_alloc(sizeof r, dev);
  size_t vol[2] = {3, 4}, dstOff[2] = {0, 0}, srcOff[2] = {1, 2};
  size_t dstDims[2] = {3, 4}, srcDims[2] = {5, 6};
  errors += omp_target_memcpy_rect(dm, m, sizeof(int), 2, vol, dstOff, srcOff,
                                   dstDims, srcDims, dev, host);
  errors += omp_target_memcpy(r, dm, sizeof r, 0, 0, host, dev);
  // CHECK: rect r[0][0]=12 r[2][3]=35 max-dims-positive=1
  printf("rect r[0][0]=%d r[2][3]=%d max-dims-positive=%d\n", r[0][0], r[2][3],
         omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL,
                                0, 0) > 0);

  // Async forms with a depend object on a prior task.
  int flag = 0;
  omp_depend_t dep;
#pragma omp depobj(dep) depend(inout : flag)
#pragma omp task depend(inout : flag) shared(flag)
  flag = 1;
  errors += omp_target_memcpy_async(d, h, sizeof h, 0, 0, dev, host, 1, &dep);
  omp_target_memset_async(d, 0, sizeof(int), dev, 1, &dep);
#pragma omp taskwait
  errors += omp_target_memcpy(back, d, sizeof h, 0, 0, host, dev);
#pragma omp depobj(dep) destroy
  // CHECK: async flag=1 back[0]=0 back[5]=5
  printf("async flag=%d back[0]=%d back[5]=%d\n", flag, back[0], back[5]);

  // associate: the host array now has d as its device copy.
  int assoc[8] = {0};
  errors += omp_target_associate_ptr(assoc, d, sizeof assoc, 0, dev);
  int isPresent = omp_target_is_present(assoc, dev);
  int mappedOk = omp_get_mapped_ptr(&assoc[2], dev) == (void *)(d + 2);
#pragma omp target map(tofrom : assoc) device(dev)
  assoc[1] = 77;
  // The association holds the data: no copy back at the region's end.
  int assocHost = assoc[1];
#pragma omp target update from(assoc) device(dev)
  errors += omp_target_disassociate_ptr(assoc, dev);
  // CHECK: associate present=1 mapped=1 host-before-update=0 after=77 gone=1
  printf("associate present=%d mapped=%d host-before-update=%d after=%d "
         "gone=%d\n",
         isPresent, mappedOk, assocHost, assoc[1],
         !omp_target_is_present(assoc, dev));

  // A CPU device runs in the host's address space, so host memory is
  // accessible to it (even though `map` makes separate copies): device code
  // writes through the host pointer itself.
  // CHECK: host-device mapped=1 unmapped=1 accessible-host=1 accessible-dev=1
  printf("host-device mapped=%d unmapped=%d accessible-host=%d "
         "accessible-dev=%d\n",
         omp_get_mapped_ptr(h, host) == (void *)h,
         omp_get_mapped_ptr(h, dev) == NULL,
         omp_target_is_accessible(h, sizeof h, host),
         omp_target_is_accessible(h, sizeof h, dev));
  int *hp = h;
#pragma omp target device(dev) firstprivate(hp)
  hp[1] = 4242;
  // CHECK: written-through-host-pointer=4242
  printf("written-through-host-pointer=%d\n", h[1]);

  // OpenMP 6.0 device UIDs, named as upstream names them.
  const char *uid = omp_get_uid_from_device(1);
  // CHECK: uid x86_64-1 HOST back=1 unknown=-2
  printf("uid %s %s back=%d unknown=%d\n", uid,
         omp_get_uid_from_device(host), omp_get_device_from_uid(uid),
         omp_get_device_from_uid("no-such-device"));

  void *ph = llvm_omp_target_alloc_host(64, dev);
  void *ps = llvm_omp_target_alloc_shared(64, dev);
  void *pd = llvm_omp_target_alloc_device(64, dev);
  errors += !ph || !ps || !pd;
  llvm_omp_target_free_host(ph, dev);
  llvm_omp_target_free_shared(ps, dev);
  llvm_omp_target_free_device(pd, dev);
  omp_target_free(dm, dev);
  omp_target_free(d2, 1);
  omp_target_free(d, dev);
  // CHECK: errors=0
  printf("errors=%d\n", errors);
  return errors;
}
