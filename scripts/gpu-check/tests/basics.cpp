// basics: the smallest things every other program relies on: the device is
// found and used, a generic-mode region (plain `target`) and an SPMD loop
// run and return data, and the device API answers sensibly inside a region.
#include "check.h"

#include <vector>

int main() {
  check::expectOffloaded();
  CHECK(omp_get_num_devices() >= 1, "omp_get_num_devices() = %d",
        omp_get_num_devices());

  // Generic mode: one thread runs the region.
  int Value = 41, DeviceNum = -1, Devices = -1;
#pragma omp target map(tofrom : Value) map(from : DeviceNum, Devices)
  {
    Value += 1;
    DeviceNum = omp_get_device_num();
    Devices = omp_get_num_devices();
  }
  CHECK(Value == 42, "generic region: value %d, expected 42", Value);
  CHECK(DeviceNum == omp_get_default_device(),
        "omp_get_device_num() on the device = %d, default device %d",
        DeviceNum, omp_get_default_device());
  (void)Devices;

  // SPMD mode: every iteration once.
  const int N = 1000003;
  std::vector<int> Out(N, -1);
  int *P = Out.data();
#pragma omp target teams distribute parallel for map(from : P[0 : N])
  for (int I = 0; I < N; ++I)
    P[I] = 3 * I + 1;
  int Wrong = 0, FirstWrong = -1;
  for (int I = 0; I < N; ++I)
    if (P[I] != 3 * I + 1 && Wrong++ == 0)
      FirstWrong = I;
  CHECK(Wrong == 0, "SPMD loop: %d wrong elements, first at %d (%d)", Wrong,
        FirstWrong, FirstWrong >= 0 ? P[FirstWrong] : 0);
  return check::verdict();
}
