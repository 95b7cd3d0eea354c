#include <stdio.h>

// g() comes from a device library given on the link line
// (-Xoffload-linker); the host's g() from the program.
#pragma omp declare target
int g(void);
#pragma omp end declare target

int main(void) {
  int R = 0;
#pragma omp target map(from : R)
  R = g();
  printf("g=%d\n", R);
  return 0;
}
