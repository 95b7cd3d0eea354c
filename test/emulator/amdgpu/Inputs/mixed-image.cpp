// One program with an sm_90 and a gfx90a image, both run on the emulator in
// the same process: every device gets an SPMD teams reduction and a
// generic-mode region with a parallel region and a critical section, and
// says which device it is and how many there are, in the program's numbering.
#include <omp.h>
#include <stdio.h>

static int onDevice(int Device) {
  long long Sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : Sum)           \
    map(tofrom : Sum) device(Device)
  for (int I = 0; I < 100000; ++I)
    Sum += I % 13;
  int Threads = 0, Initial = -1, Number = -1, Count = -1;
#pragma omp target map(tofrom : Threads, Initial, Number, Count) device(Device)
  {
    Initial = omp_is_initial_device();
    Number = omp_get_device_num();
    Count = omp_get_num_devices();
#pragma omp parallel num_threads(40)
    {
#pragma omp critical
      ++Threads;
    }
  }
  long long Want = 0;
  for (int I = 0; I < 100000; ++I)
    Want += I % 13;
  printf("device %d: sum %lld (expected %lld), %d threads, initial %d, "
         "device number %d of %d\n",
         Device, Sum, Want, Threads, Initial, Number, Count);
  return Sum != Want || Threads != 40 || Initial != 0 || Number != Device ||
         Count != omp_get_num_devices();
}

int main() {
  int Devices = omp_get_num_devices(), Wrong = 0;
  for (int Device = 0; Device < Devices; ++Device)
    Wrong += onDevice(Device);
  // Back to the first device once the second one has run.
  Wrong += onDevice(0);
  printf("%d devices, %d wrong\n", Devices, Wrong);
  return Wrong != 0;
}
