// The program the OMPT tests trace: a data region with a kernel and an
// update inside, enter/exit data around a nowait kernel.
#include <stdio.h>

int main(void) {
  // Marks where the program starts: a tool that watches devices has seen
  // them initialized before this line.
  printf("main: start\n");
  int a[64];
  int b[16];
  for (int i = 0; i < 64; ++i)
    a[i] = i;
  for (int i = 0; i < 16; ++i)
    b[i] = 0;
#pragma omp target data map(tofrom : a)
  {
#pragma omp target
    for (int i = 0; i < 64; ++i)
      a[i] += 1;
#pragma omp target update from(a)
  }
#pragma omp target enter data map(to : b)
#pragma omp target nowait
  for (int i = 0; i < 16; ++i)
    b[i] = 2 * i;
#pragma omp taskwait
#pragma omp target exit data map(from : b)
  printf("result: a[63]=%d b[15]=%d\n", a[63], b[15]);
  fflush(stdout);
  return 0;
}
