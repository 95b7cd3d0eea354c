// An omp_target_memcpy_async whose copy the driver refuses (an address that
// is no device memory): the routine's target task reports the driver's
// error, named with the routine, and the program goes on, as upstream's.
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Dev = omp_get_default_device(), Host = omp_get_initial_device();
  int X[4] = {1, 2, 3, 4};
  int Rc = omp_target_memcpy_async((void *)0x10, X, sizeof X, 0, 0, Dev, Host,
                                   0, NULL);
#pragma omp taskwait
  printf("returned %d, still running\n", Rc);
  return 0;
}
