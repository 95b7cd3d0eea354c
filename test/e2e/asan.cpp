// The runtime and a program exercising maps, declare target, mappers and
// the omp_target_* API run clean under AddressSanitizer (leaks included).
// REQUIRES: our-libomptarget
// AddressSanitizer cannot be combined with ThreadSanitizer in one program.
// UNSUPPORTED: tsan
// RUN: %clangxx -fsanitize=address -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory ASAN_OPTIONS=detect_leaks=1 %ours-run %t 2>&1 | FileCheck %s
#include <cstdio>
#include <omp.h>
#include <vector>

#pragma omp declare target
int bias = 1;
#pragma omp end declare target

struct Buffer {
  int n;
  int *data;
};
#pragma omp declare mapper(Buffer b) map(b, b.data [0:b.n])

int main() {
  std::vector<int> storage(64, 1);
  Buffer b{64, storage.data()};
#pragma omp target map(tofrom : b)
  for (int i = 0; i < b.n; ++i)
    b.data[i] += bias;
  int *d = static_cast<int *>(omp_target_alloc(64 * sizeof(int), 0));
  omp_target_memcpy(d, storage.data(), 64 * sizeof(int), 0, 0, 0,
                    omp_get_initial_device());
  int sum = 0;
#pragma omp target is_device_ptr(d) map(tofrom : sum)
  for (int i = 0; i < 64; ++i)
    sum += d[i];
  omp_target_free(d, 0);
  int *raw = storage.data();
#pragma omp target enter data map(to : raw [0:0])
  // CHECK-NOT: ERROR: AddressSanitizer
  // CHECK-NOT: ERROR: LeakSanitizer
  // CHECK: sum=128
  std::printf("sum=%d\n", sum);
}
