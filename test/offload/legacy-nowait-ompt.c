// OMPT: every `_nowait` entry point reports the `_nowait` kind of its
// construct, the legacy launches (__tgt_target_nowait, ..._teams_nowait and
// their _mapper forms) and data entry points included, as
// __tgt_target_kernel_nowait does; the others report the plain kind. Each
// gives the tool the program's return address as the code pointer.
// REQUIRES: our-libomptarget
// RUN: %clang -shared -fPIC %S/Inputs/manual-image.c -o %t.so
// RUN: %clang -shared -fPIC %S/Inputs/ompt-kind-tool.c -o %t.tool.so
// RUN: %clang -fopenmp -I%src_root/offload/include %s -o %t -lomptarget
// RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_TOOL_LIBRARIES=%t.tool.so %ours-run %t %t.so | FileCheck %s
// clang-format off
// CHECK: call __tgt_target
// CHECK-NEXT: target: target begin dev 0 codeptr=caller
// CHECK: call __tgt_target_mapper
// CHECK-NEXT: target: target begin dev 0 codeptr=caller
// CHECK: call __tgt_target_nowait
// CHECK-NEXT: target: target_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_nowait_mapper
// CHECK-NEXT: target: target_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_teams
// CHECK-NEXT: target: target begin dev 0 codeptr=caller
// CHECK: call __tgt_target_teams_mapper
// CHECK-NEXT: target: target begin dev 0 codeptr=caller
// CHECK: call __tgt_target_teams_nowait
// CHECK-NEXT: target: target_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_teams_nowait_mapper
// CHECK-NEXT: target: target_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_kernel_nowait
// CHECK-NEXT: target: target_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_begin
// CHECK-NEXT: target: enter_data begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_begin_nowait
// CHECK-NEXT: target: enter_data_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_update_nowait_mapper
// CHECK-NEXT: target: update_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_update_nowait
// CHECK-NEXT: target: update_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_end_nowait_mapper
// CHECK-NEXT: target: exit_data_nowait begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_begin_mapper
// CHECK-NEXT: target: enter_data begin dev 0 codeptr=caller
// CHECK: call __tgt_target_data_end_nowait
// CHECK-NEXT: target: exit_data_nowait begin dev 0 codeptr=caller
// CHECK: out=47 kernels=9
// clang-format on
#include "OffloadABI.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __tgt_register_lib(__tgt_bin_desc *);
void __tgt_unregister_lib(__tgt_bin_desc *);
int __tgt_target(int64_t, void *, int32_t, void **, void **, int64_t *,
                 int64_t *);
int __tgt_target_mapper(ident_t *, int64_t, void *, int32_t, void **, void **,
                        int64_t *, int64_t *, void **, void **);
int __tgt_target_nowait(int64_t, void *, int32_t, void **, void **, int64_t *,
                        int64_t *, int32_t, void *, int32_t, void *);
int __tgt_target_nowait_mapper(ident_t *, int64_t, void *, int32_t, void **,
                               void **, int64_t *, int64_t *, void **, void **,
                               int32_t, void *, int32_t, void *);
int __tgt_target_teams(int64_t, void *, int32_t, void **, void **, int64_t *,
                       int64_t *, int32_t, int32_t);
int __tgt_target_teams_mapper(ident_t *, int64_t, void *, int32_t, void **,
                              void **, int64_t *, int64_t *, void **, void **,
                              int32_t, int32_t);
int __tgt_target_teams_nowait(int64_t, void *, int32_t, void **, void **,
                              int64_t *, int64_t *, int32_t, int32_t, int32_t,
                              void *, int32_t, void *);
int __tgt_target_teams_nowait_mapper(ident_t *, int64_t, void *, int32_t,
                                     void **, void **, int64_t *, int64_t *,
                                     void **, void **, int32_t, int32_t,
                                     int32_t, void *, int32_t, void *);
int __tgt_target_kernel_nowait(ident_t *, int64_t, int32_t, int32_t, void *,
                               __tgt_kernel_arguments *, int32_t, void *,
                               int32_t, void *);
void __tgt_target_data_begin(int64_t, int32_t, void **, void **, int64_t *,
                             int64_t *);
void __tgt_target_data_begin_mapper(ident_t *, int64_t, int32_t, void **,
                                    void **, int64_t *, int64_t *, void **,
                                    void **);
void __tgt_target_data_begin_nowait(int64_t, int32_t, void **, void **,
                                    int64_t *, int64_t *, int32_t, void *,
                                    int32_t, void *);
void __tgt_target_data_update_nowait(int64_t, int32_t, void **, void **,
                                     int64_t *, int64_t *, int32_t, void *,
                                     int32_t, void *);
void __tgt_target_data_update_nowait_mapper(ident_t *, int64_t, int32_t,
                                            void **, void **, int64_t *,
                                            int64_t *, void **, void **,
                                            int32_t, void *, int32_t, void *);
void __tgt_target_data_end_nowait(int64_t, int32_t, void **, void **,
                                  int64_t *, int64_t *, int32_t, void *,
                                  int32_t, void *);
void __tgt_target_data_end_nowait_mapper(ident_t *, int64_t, int32_t, void **,
                                         void **, int64_t *, int64_t *, void **,
                                         void **, int32_t, void *, int32_t,
                                         void *);

static char KernId;
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

#define CALL(Name, ...)                                                        \
  do {                                                                         \
    printf("call " #Name "\n");                                                \
    fflush(stdout);                                                            \
    Name(__VA_ARGS__);                                                         \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 2)
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
  __tgt_offload_entry Entries[2] = {entry(&KernId, "kern", 0),
                                    entry(&HostG, "g", sizeof(int))};
  __tgt_device_image Image = {Bytes, Bytes + Size, Entries, Entries + 2};
  __tgt_bin_desc Desc = {1, &Image, Entries, Entries + 2};
  __tgt_register_lib(&Desc);

  int Out = 0, Sum = 0;
  void *Bases[1] = {&Out}, *Begins[1] = {&Out};
  int64_t Sizes[1] = {sizeof(int)};
  int64_t Types[1] = {OMP_TGT_MAPTYPE_FROM | OMP_TGT_MAPTYPE_TARGET_PARAM};
#define ARGS 1, Bases, Begins, Sizes, Types
  CALL(__tgt_target, 0, &KernId, ARGS);
  Sum += Out == 47;
  CALL(__tgt_target_mapper, NULL, 0, &KernId, ARGS, NULL, NULL);
  Sum += Out == 47;
  CALL(__tgt_target_nowait, 0, &KernId, ARGS, 0, NULL, 0, NULL);
  Sum += Out == 47;
  CALL(__tgt_target_nowait_mapper, NULL, 0, &KernId, ARGS, NULL, NULL, 0, NULL,
       0, NULL);
  Sum += Out == 47;
  CALL(__tgt_target_teams, 0, &KernId, ARGS, 1, 1);
  Sum += Out == 47;
  CALL(__tgt_target_teams_mapper, NULL, 0, &KernId, ARGS, NULL, NULL, 1, 1);
  Sum += Out == 47;
  CALL(__tgt_target_teams_nowait, 0, &KernId, ARGS, 1, 1, 0, NULL, 0, NULL);
  Sum += Out == 47;
  CALL(__tgt_target_teams_nowait_mapper, NULL, 0, &KernId, ARGS, NULL, NULL, 1,
       1, 0, NULL, 0, NULL);
  Sum += Out == 47;
  __tgt_kernel_arguments Args;
  memset(&Args, 0, sizeof(Args));
  Args.Version = 3;
  Args.NumArgs = 1;
  Args.ArgBasePtrs = Bases;
  Args.ArgPtrs = Begins;
  Args.ArgSizes = Sizes;
  Args.ArgTypes = Types;
  CALL(__tgt_target_kernel_nowait, NULL, 0, 1, 1, &KernId, &Args, 0, NULL, 0,
       NULL);
  Sum += Out == 47;

  int Data[4] = {1, 2, 3, 4};
  void *DBase[1] = {Data};
  int64_t DSize[1] = {sizeof(Data)};
  int64_t ToFrom[1] = {OMP_TGT_MAPTYPE_TO | OMP_TGT_MAPTYPE_FROM};
  int64_t Update[1] = {OMP_TGT_MAPTYPE_TO};
#define DATA(Type) 1, DBase, DBase, DSize, Type
  CALL(__tgt_target_data_begin, 0, DATA(ToFrom));
  CALL(__tgt_target_data_begin_nowait, 0, DATA(ToFrom), 0, NULL, 0, NULL);
  CALL(__tgt_target_data_update_nowait_mapper, NULL, 0, DATA(Update), NULL,
       NULL, 0, NULL, 0, NULL);
  CALL(__tgt_target_data_update_nowait, 0, DATA(Update), 0, NULL, 0, NULL);
  CALL(__tgt_target_data_end_nowait_mapper, NULL, 0, DATA(ToFrom), NULL, NULL,
       0, NULL, 0, NULL);
  CALL(__tgt_target_data_begin_mapper, NULL, 0, DATA(ToFrom), NULL, NULL);
  CALL(__tgt_target_data_end_nowait, 0, DATA(ToFrom), 0, NULL, 0, NULL);
  printf("out=%d kernels=%d\n", Out, Sum);
  __tgt_unregister_lib(&Desc);
  free(Bytes);
  return 0;
}
