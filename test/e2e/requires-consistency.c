// `requires` flags must agree across the registered compilation units: a
// descriptor registering unified_shared_memory after one registering none
// ends with upstream's fatal error 2 naming the clause, on both runtimes;
// agreeing descriptors register quietly. (clang-22 emits a requires entry
// only for unified_shared_memory, and a unit without a directive registers
// nothing, so the descriptors are made here by hand.)
// REQUIRES: our-libomptarget
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -DSECOND=8 -o %t.bad
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu %s -DSECOND=1 -o %t.good
// RUN: not --crash %ours-run %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not --crash %upstream-run %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %ours-run %t.good 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: %upstream-run %t.good 2>&1 | FileCheck %s --check-prefix=GOOD
// BAD: omptarget fatal error 2: '#pragma omp requires unified_shared_memory' not used consistently!
// GOOD: registered both
// GOOD-NOT: omptarget
// GOOD: region ran 1
#include <stdint.h>
#include <stdio.h>

// The offload entry and descriptor layouts of LLVM 22 (llvm/Frontend/
// Offloading/Utility.h), with the requires flag 0x10.
struct Entry {
  uint64_t Reserved;
  uint16_t Version;
  uint16_t Kind;
  uint32_t Flags;
  void *Address;
  const char *Name;
  uint64_t Size;
  uint64_t Data;
  void *Aux;
};
struct DeviceImage {
  void *Start, *End;
  struct Entry *EntriesBegin, *EntriesEnd;
};
struct Descriptor {
  int32_t NumImages;
  struct DeviceImage *Images;
  struct Entry *EntriesBegin, *EntriesEnd;
};
void __tgt_register_lib(struct Descriptor *);
void __tgt_unregister_lib(struct Descriptor *);

static void registerRequires(struct Entry *E) {
  struct Descriptor D = {0, NULL, E, E + 1};
  __tgt_register_lib(&D);
  __tgt_unregister_lib(&D);
}

int main(void) {
  struct Entry First = {0, 1, 1, 0x10, NULL, "", 0, 1, NULL};
  struct Entry Second = {0, 1, 1, 0x10, NULL, "", 0, SECOND, NULL};
  registerRequires(&First);
  registerRequires(&Second);
  printf("registered both\n");
  int Ran = 0;
#pragma omp target map(from : Ran)
  Ran = 1;
  printf("region ran %d\n", Ran);
  return 0;
}
