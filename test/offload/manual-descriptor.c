// The runtime registers a descriptor built by hand, with the image as a raw
// ELF shared object or wrapped in an OffloadBinary, resolves kernels and
// globals by their entry names, and refuses a GPU-style kernel whose image
// has no CPU device runtime with an error naming the kernel and the image.
// An entry must resolve inside the image: a name only a dependency of the
// image defines (libc's puts) is not a kernel of it.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/manual-image.c -o %t.so
// RUN: llvm-offload-binary -o %t.bin --image=file=%t.so,triple=x86_64-pc-linux-gnu,kind=openmp
// RUN: %clang -fopenmp -I%src_root/offload/include %s -o %t -lomptarget
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t %t.so host | FileCheck %s --check-prefix=RAW
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t %t.bin host | FileCheck %s --check-prefix=WRAPPED
// RUN: env OMP_TARGET_OFFLOAD=mandatory not --crash %ours-run %t %t.so gpu 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: env OMP_TARGET_OFFLOAD=mandatory not --crash %ours-run %t %t.so foreign 2>&1 | FileCheck %s --check-prefix=FOREIGN
// Older compilers: five-field entries and the __tgt_target_teams_mapper call.
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t %t.so legacy | FileCheck %s --check-prefix=RAW
// clang-format off
// RAW: present=1 kern out=47 g-from-device=5
// WRAPPED: present=1 kern out=47 g-from-device=5
// GPU: kernel 'gpu_kern' in device image 0 (x86_64-pc-linux-gnu) is a GPU-style kernel (it has a 'gpu_kern_kernel_environment') but the image does not define '__ompx_cpu_launch_kernel'
// GPU: omptarget fatal error 1: failure of target construct while offloading is mandatory
// FOREIGN: kernel 'puts' not found in device image 0 (x86_64-pc-linux-gnu)
// FOREIGN: omptarget fatal error 1: failure of target construct while offloading is mandatory
// clang-format on
#include "OffloadABI.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __tgt_register_lib(__tgt_bin_desc *);
void __tgt_unregister_lib(__tgt_bin_desc *);
int __tgt_target_kernel(ident_t *, int64_t, int32_t, int32_t, void *,
                        __tgt_kernel_arguments *);
int __tgt_target_teams_mapper(ident_t *, int64_t, void *, int32_t, void **,
                              void **, int64_t *, int64_t *, void **, void **,
                              int32_t, int32_t);
void __tgt_target_data_update_mapper(ident_t *, int64_t, int32_t, void **,
                                     void **, int64_t *, int64_t *, void **,
                                     void **);

static char KernId, GpuKernId;
static int HostG = 0;

static __tgt_offload_entry entry(void *Address, const char *Name,
                                 uint64_t Size) {
  __tgt_offload_entry E;
  memset(&E, 0, sizeof(E));
  E.Version = 1;
  E.Kind = 1;
  E.Address = Address;
  E.SymbolName = (char *)Name;
  E.Size = Size;
  return E;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  FILE *F = fopen(argv[1], "rb");
  if (!F)
    return 2;
  fseek(F, 0, SEEK_END);
  long Size = ftell(F);
  fseek(F, 0, SEEK_SET);
  char *Bytes = malloc(Size);
  if (fread(Bytes, 1, Size, F) != (size_t)Size)
    return 2;
  fclose(F);

  int Legacy = strcmp(argv[2], "legacy") == 0;
  __tgt_offload_entry Entries[3] = {entry(&KernId, "kern", 0),
                                    entry(&GpuKernId, "gpu_kern", 0),
                                    entry(&HostG, "g", sizeof(int))};
  if (strcmp(argv[2], "foreign") == 0)
    Entries[0].SymbolName = (char *)"puts";
  __tgt_offload_entry_legacy LegacyEntries[3];
  for (int I = 0; I < 3; ++I) {
    LegacyEntries[I].addr = Entries[I].Address;
    LegacyEntries[I].name = Entries[I].SymbolName;
    LegacyEntries[I].size = Entries[I].Size;
    LegacyEntries[I].flags = 0;
    LegacyEntries[I].reserved = 0;
  }
  // The descriptor's pointers have the modern type; a legacy table is the
  // same bytes read with the older stride.
  __tgt_offload_entry *Begin =
      Legacy ? (__tgt_offload_entry *)LegacyEntries : Entries;
  __tgt_offload_entry *End =
      Legacy ? (__tgt_offload_entry *)(LegacyEntries + 3) : Entries + 3;
  __tgt_device_image Image = {Bytes, Bytes + Size, Begin, End};
  __tgt_bin_desc Desc = {1, &Image, Begin, End};
  __tgt_register_lib(&Desc);

  int Out = 0;
  void *Bases[1] = {&Out}, *Begins[1] = {&Out};
  int64_t Sizes[1] = {sizeof(int)};
  int64_t Types[1] = {OMP_TGT_MAPTYPE_FROM | OMP_TGT_MAPTYPE_TARGET_PARAM};
  __tgt_kernel_arguments Args;
  memset(&Args, 0, sizeof(Args));
  Args.Version = 3;
  Args.NumArgs = 1;
  Args.ArgBasePtrs = Bases;
  Args.ArgPtrs = Begins;
  Args.ArgSizes = Sizes;
  Args.ArgTypes = Types;
  int Rc = Legacy ? __tgt_target_teams_mapper(NULL, 0, &KernId, 1, Bases,
                                              Begins, Sizes, Types, NULL,
                                              NULL, 1, 1)
                  : __tgt_target_kernel(
                        NULL, 0, 1, 1,
                        strcmp(argv[2], "gpu") ? &KernId : &GpuKernId, &Args);

  void *GBase[1] = {&HostG};
  int64_t GSize[1] = {sizeof(int)}, GType[1] = {OMP_TGT_MAPTYPE_FROM};
  __tgt_target_data_update_mapper(NULL, 0, 1, GBase, GBase, GSize, GType,
                                  NULL, NULL);
  printf("present=%d kern out=%d g-from-device=%d\n",
         omp_target_is_present(&HostG, 0), Rc == 0 ? Out : -1, HostG);
  __tgt_unregister_lib(&Desc);
  free(Bytes);
  return 0;
}
