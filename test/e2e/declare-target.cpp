// declare target globals: `to`/`enter` variables have a device copy from the
// image (present without a map, updated with target update), and `link`
// variables get device storage only when mapped.
// REQUIRES: our-libomptarget
// RUN: %clangxx -fopenmp -fopenmp-version=52 -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
#include <cstdio>
#include <omp.h>

#pragma omp declare target
int counter = 10;
int table[4] = {1, 2, 3, 4};
int addTwice(int v) { return v + 2 * counter; }
#pragma omp end declare target

int big[1000];
#pragma omp declare target link(big)

int entered = 5;
#pragma omp declare target enter(entered)

int main() {
  int errors = 0;
  // CHECK: present counter=1 table=1 big=0
  std::printf("present counter=%d table=%d big=%d\n",
              omp_target_is_present(&counter, 0),
              omp_target_is_present(table, 0), omp_target_is_present(big, 0));

  // The device copy starts from the image's initial value and is distinct.
  counter = 1000;
  int seen = 0;
#pragma omp target map(from : seen)
  {
    seen = counter;
    counter += 1;
  }
  // CHECK: device counter=10 host counter=1000
  std::printf("device counter=%d host counter=%d\n", seen, counter);
#pragma omp target update from(counter)
  // CHECK: after update from counter=11
  std::printf("after update from counter=%d\n", counter);
  counter = 3;
#pragma omp target update to(counter)
  int r = 0;
#pragma omp target map(from : r)
  r = addTwice(table[1]) + entered;
  // CHECK: function r=13
  std::printf("function r=%d\n", r);

  // link: mapped on demand, and the device reaches it through its
  // reference pointer.
  for (int i = 0; i < 1000; ++i)
    big[i] = i;
#pragma omp target map(tofrom : big)
  for (int i = 0; i < 1000; ++i)
    big[i] += 1;
  // CHECK: link big[0]=1 big[999]=1000 present-after=0
  std::printf("link big[0]=%d big[999]=%d present-after=%d\n", big[0], big[999],
              omp_target_is_present(big, 0));
#pragma omp target enter data map(to : big)
#pragma omp target
  big[5] = -5;
#pragma omp target exit data map(from : big)
  // CHECK: link enter/exit big[5]=-5
  std::printf("link enter/exit big[5]=%d\n", big[5]);
  return errors;
}
