// declare_target: `declare target` across translation units and a static
// library. Checks globals declared with `enter` (a device copy for the
// whole program, moved with `target update to/from`) and with `link`
// (bound to the host array's device copy by a map), a device function of
// other.cpp and one of the static library called from this unit's kernels,
// a library array written by a kernel and read back with `target update
// from`, and a global of this unit used on both sides.
//
// `declare target enter` is OpenMP 5.2 syntax (clang 22 defaults to 5.1
// and, in 5.2 mode, rejects the older spelling `to`).
// KIT-FLAGS: -fopenmp-version=52
#include "check.h"
#include "dt.h"

// This unit's own global, used on the host and on the device.
int MainCounter = 1;
#pragma omp declare target enter(MainCounter)

int main() {
  check::expectOffloaded();

  // The library's table is written on the device only: the host copy keeps
  // its zeros until `target update from`.
#pragma omp target teams distribute parallel for
  for (int I = 0; I < TableSize; ++I)
    LibTable[I] = otherScale(I);
  CHECK(libHostSum() == 0, "host LibTable changed before target update (%d)",
        libHostSum());
#pragma omp target update from(LibTable)
  int Wrong = 0;
  for (int I = 0; I < TableSize; ++I)
    if (LibTable[I] != 3 * I + 5)
      ++Wrong;
  CHECK(Wrong == 0, "LibTable after update from: %d wrong, [7] = %d", Wrong,
        LibTable[7]);

  // otherScale reads OtherBase's device copy: a host change shows on the
  // device only after `target update to`.
  OtherBase = 11;
  int Before = 0, After = 0;
#pragma omp target map(from : Before)
  Before = otherScale(2);
#pragma omp target update to(OtherBase)
#pragma omp target map(from : After)
  After = otherScale(2);
  CHECK(Before == 11, "otherScale(2) before update to: %d, expected 11",
        Before);
  CHECK(After == 17, "otherScale(2) after update to: %d, expected 17", After);

  // A library function, reading the library's table, from this unit's
  // kernel; the table is the device copy written above.
  constexpr int N = 1000;
  int Mixed[N];
#pragma omp target teams distribute parallel for map(from : Mixed)
  for (int I = 0; I < N; ++I)
    Mixed[I] = libMix(I, otherScale(I));
  Wrong = 0;
  for (int I = 0; I < N; ++I)
    if (Mixed[I] != 7 * I + (3 * I + 11) + (3 * (I % TableSize) + 5))
      ++Wrong;
  CHECK(Wrong == 0, "libMix from main's kernel: %d wrong, [300] = %d", Wrong,
        Mixed[300]);

  // This unit's global, both ways.
  MainCounter = 40;
#pragma omp target update to(MainCounter)
#pragma omp target
  MainCounter += 2;
  CHECK(MainCounter == 40, "host MainCounter changed by a kernel: %d",
        MainCounter);
#pragma omp target update from(MainCounter)
  CHECK(MainCounter == 42, "MainCounter after update from: %d, expected 42",
        MainCounter);

  // `link`: the device reaches the host array's mapped copy. Map it for one
  // region, then keep it mapped across two.
  for (int I = 0; I < LinkSize; ++I)
    LibLinked[I] = I;
#pragma omp target map(tofrom : LibLinked)
  for (int I = 0; I < LinkSize; ++I)
    LibLinked[I] = 2 * LibLinked[I] + 1;
  Wrong = 0;
  for (int I = 0; I < LinkSize; ++I)
    if (LibLinked[I] != 2 * I + 1)
      ++Wrong;
  CHECK(Wrong == 0, "link array after map(tofrom): %d wrong, [5] = %d", Wrong,
        LibLinked[5]);

#pragma omp target enter data map(to : LibLinked)
  CHECK(omp_target_is_present(LibLinked, omp_get_default_device()),
        "link array not present after target enter data");
#pragma omp target map(tofrom : LibLinked)
  for (int I = 0; I < LinkSize; ++I)
    LibLinked[I] += 100;
#pragma omp target map(tofrom : LibLinked)
  for (int I = 0; I < LinkSize; ++I)
    LibLinked[I] += otherScale(0); // + 11
  // Still mapped by enter data: the regions' maps copied nothing back.
  CHECK(LibLinked[3] == 7, "link array copied back while still mapped: %d",
        LibLinked[3]);
#pragma omp target exit data map(from : LibLinked)
  Wrong = 0;
  for (int I = 0; I < LinkSize; ++I)
    if (LibLinked[I] != 2 * I + 1 + 111)
      ++Wrong;
  CHECK(Wrong == 0, "link array after exit data from: %d wrong, [5] = %d",
        Wrong, LibLinked[5]);

  CHECK(otherHostBase() == 11, "host OtherBase = %d", otherHostBase());
  return check::verdict();
}
