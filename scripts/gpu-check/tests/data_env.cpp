// data_env: the device data environment. Checks `target enter data` /
// `target exit data` with alloc, to, from, release and delete, `target
// update to/from`, the `present` modifier on data that is mapped, reference
// counting (an inner map of mapped data neither copies in nor copies back;
// the last unmap does), a default `declare mapper` for a struct with a
// pointer member, omp_target_alloc / omp_target_memcpy / omp_target_is_present
// / omp_target_associate_ptr, and `is_device_ptr`, `use_device_ptr` and
// `use_device_addr`.
#include "check.h"

#include <cstdint>
#include <vector>

namespace {

// A struct whose payload lives behind a pointer: without the mapper a
// `map(V)` would copy the pointer (a host address) and not the data.
struct Vec {
  int N;
  double *Data;
};
#pragma omp declare mapper(Vec V) map(V, V.Data[0 : V.N])

// Counts the elements of A[0:N] that differ from Expect(I).
template <typename T, typename F> int countWrong(const T *A, int N, F Expect) {
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    if (A[I] != Expect(I))
      ++Wrong;
  return Wrong;
}

} // namespace

int main() {
  check::expectOffloaded();
  const int Dev = omp_get_default_device();
  constexpr int N = 4096;
  std::vector<int> Buf(N);
  int *A = Buf.data();

  // enter data to / update / exit data from.
  for (int I = 0; I < N; ++I)
    A[I] = I;
  CHECK(!omp_target_is_present(A, Dev), "A present before enter data");
#pragma omp target enter data map(to : A[0 : N])
  CHECK(omp_target_is_present(A, Dev), "A not present after enter data");
#pragma omp target teams distribute parallel for map(present, alloc : A[0 : N])
  for (int I = 0; I < N; ++I)
    A[I] += 1;
  CHECK(A[10] == 10, "host A changed by a kernel on mapped data: %d", A[10]);
#pragma omp target update from(A[0 : N])
  CHECK(countWrong(A, N, [](int I) { return I + 1; }) == 0,
        "A after update from: [10] = %d, expected 11", A[10]);
  for (int I = 0; I < N; ++I)
    A[I] = 2 * I;
#pragma omp target update to(present : A[0 : N])
#pragma omp target teams distribute parallel for map(present, tofrom : A[0 : N])
  for (int I = 0; I < N; ++I)
    A[I] *= 3;
  // tofrom on present data copies nothing back: only the exit does.
  CHECK(A[10] == 20, "map(tofrom) on mapped data copied back: %d", A[10]);
#pragma omp target exit data map(from : A[0 : N])
  CHECK(!omp_target_is_present(A, Dev), "A present after exit data from");
  CHECK(countWrong(A, N, [](int I) { return 6 * I; }) == 0,
        "A after exit data from: [10] = %d, expected 60", A[10]);

  // alloc, then release twice after entering twice: the reference count
  // keeps the data until the last release; delete removes it at once.
  std::vector<int> Buf2(N, -1);
  int *B = Buf2.data();
#pragma omp target enter data map(alloc : B[0 : N])
#pragma omp target teams distribute parallel for
  for (int I = 0; I < N; ++I)
    B[I] = 5 * I;
  CHECK(B[3] == -1, "map(alloc) data copied back by a kernel");
#pragma omp target enter data map(to : B[0 : N]) // count 2, no copy
#pragma omp target exit data map(release : B[0 : N])
  CHECK(omp_target_is_present(B, Dev), "B gone after one of two releases");
#pragma omp target update from(B[0 : N])
  // The second enter data must not have overwritten the device copy.
  CHECK(countWrong(B, N, [](int I) { return 5 * I; }) == 0,
        "B after enter data to on present data: [3] = %d, expected 15", B[3]);
#pragma omp target exit data map(release : B[0 : N])
  CHECK(!omp_target_is_present(B, Dev), "B present after the last release");
#pragma omp target enter data map(to : B[0 : N])
#pragma omp target enter data map(to : B[0 : N])
#pragma omp target exit data map(delete : B[0 : N])
  CHECK(!omp_target_is_present(B, Dev), "B present after exit data delete");

  // Nested data regions: the inner `target data` and the kernel's map find
  // the data present; the copy back happens only when the outer region ends.
  int X = 1;
#pragma omp target data map(tofrom : X)
  {
#pragma omp target data map(tofrom : X)
    {
#pragma omp target map(tofrom : X)
      X += 10;
      CHECK(X == 1, "nested map copied back at the kernel: X = %d", X);
    }
    CHECK(X == 1, "inner target data copied back while mapped: X = %d", X);
#pragma omp target map(tofrom : X)
    X *= 2;
  }
  CHECK(X == 22, "X after the outer target data: %d, expected 22", X);

  // The default mapper copies the payload and gives the device a pointer to
  // it; the payload comes back through the same mapper.
  constexpr int M = 1000;
  std::vector<double> Payload(M);
  for (int I = 0; I < M; ++I)
    Payload[I] = I;
  Vec V{M, Payload.data()};
  double DeviceSum = 0;
  // On the CPU device a host pointer would work too: compare addresses to
  // see that the mapper really gave the device its own copy. (As an
  // integer: a captured pointer to mapped data would be translated.)
  const std::uintptr_t HostData = std::uintptr_t(Payload.data());
  int OwnCopy = 0;
#pragma omp target map(tofrom : V) map(from : DeviceSum, OwnCopy)
  {
    OwnCopy = std::uintptr_t(V.Data) != HostData;
    double S = 0;
    for (int I = 0; I < V.N; ++I) {
      S += V.Data[I];
      V.Data[I] = -V.Data[I];
    }
    DeviceSum = S;
  }
  CHECK(DeviceSum == M * (M - 1) / 2.0, "mapper: device sum %g, expected %g",
        DeviceSum, M * (M - 1) / 2.0);
  CHECK(OwnCopy, "mapper: the device used the host's payload");
  CHECK(V.Data == Payload.data(), "mapper: host pointer member changed");
  CHECK(countWrong(Payload.data(), M, [](int I) { return -double(I); }) == 0,
        "mapper: payload not copied back, [7] = %g", Payload[7]);
  // Enter/exit data use the mapper as well.
#pragma omp target enter data map(to : V)
#pragma omp target
  for (int I = 0; I < V.N; ++I)
    V.Data[I] *= -2;
#pragma omp target exit data map(from : V)
  CHECK(countWrong(Payload.data(), M, [](int I) { return 2.0 * I; }) == 0,
        "mapper with enter/exit data: [7] = %g, expected 14", Payload[7]);

  // The device memory API and is_device_ptr.
  const int Host = omp_get_initial_device();
  int *D = static_cast<int *>(omp_target_alloc(N * sizeof(int), Dev));
  CHECK(D != nullptr, "omp_target_alloc returned null");
  if (!D)
    return check::verdict();
  for (int I = 0; I < N; ++I)
    A[I] = 7 * I;
  CHECK(omp_target_memcpy(D, A, N * sizeof(int), 0, 0, Dev, Host) == 0,
        "omp_target_memcpy host to device failed");
#pragma omp target teams distribute parallel for is_device_ptr(D)
  for (int I = 0; I < N; ++I)
    D[I] += 1;
  std::vector<int> Back(N, 0);
  // Copy back at an offset, to check the offsets are applied.
  CHECK(omp_target_memcpy(Back.data(), D, (N - 16) * sizeof(int),
                          0, 16 * sizeof(int), Host, Dev) == 0,
        "omp_target_memcpy device to host failed");
  CHECK(countWrong(Back.data(), N - 16,
                   [](int I) { return 7 * (I + 16) + 1; }) == 0,
        "is_device_ptr kernel / memcpy: Back[0] = %d, expected %d", Back[0],
        7 * 16 + 1);

  // Associate D with a host buffer: mapping that buffer uses D, copies
  // nothing (the association's reference count never drops to zero), and
  // `target update` moves data between the two.
  std::vector<int> Buf3(N, 0);
  int *H = Buf3.data();
  CHECK(omp_target_associate_ptr(H, D, N * sizeof(int), 0, Dev) == 0,
        "omp_target_associate_ptr failed");
  CHECK(omp_target_is_present(H, Dev), "associated buffer not present");
  int *Seen = nullptr;
#pragma omp target map(tofrom : H[0 : N]) map(from : Seen)
  {
    Seen = H;
    for (int I = 0; I < N; ++I)
      H[I] *= 2;
  }
  CHECK(Seen == D, "region on an associated buffer used %p, not %p",
        (void *)Seen, (void *)D);
  CHECK(H[5] == 0, "associated buffer copied back at region end: %d", H[5]);
#pragma omp target update from(H[0 : N])
  CHECK(countWrong(H, N, [](int I) { return 2 * (7 * I + 1); }) == 0,
        "associated buffer after update from: [5] = %d, expected %d", H[5],
        2 * 36);
  CHECK(omp_target_disassociate_ptr(H, Dev) == 0,
        "omp_target_disassociate_ptr failed");
  CHECK(!omp_target_is_present(H, Dev), "buffer present after disassociate");
  omp_target_free(D, Dev);

  // use_device_ptr / use_device_addr: inside `target data` the host names
  // the device copies; a kernel given them by is_device_ptr sees the mapped
  // data, and omp_target_memcpy can write through them.
  for (int I = 0; I < N; ++I)
    A[I] = I;
  int *DevA = nullptr;
#pragma omp target data map(tofrom : A[0 : N]) use_device_ptr(A)
  {
    DevA = A;
#pragma omp target teams distribute parallel for is_device_ptr(A)
    for (int I = 0; I < N; ++I)
      A[I] += 100;
  }
  CHECK(DevA != Buf.data(), "use_device_ptr gave the host address");
  CHECK(countWrong(A, N, [](int I) { return I + 100; }) == 0,
        "use_device_ptr kernel: A[3] = %d, expected 103", A[3]);

  int Arr[64];
  for (int I = 0; I < 64; ++I)
    Arr[I] = I;
  int *ArrDev = nullptr;
#pragma omp target data map(tofrom : Arr) use_device_addr(Arr)
  {
    ArrDev = &Arr[0];
    int Ones[64];
    for (int I = 0; I < 64; ++I)
      Ones[I] = 1000;
    // Host-to-device copy into the mapped array through its device address.
    omp_target_memcpy(ArrDev + 32, Ones, 32 * sizeof(int), 0, 0, Dev, Host);
#pragma omp target is_device_ptr(ArrDev)
    for (int I = 0; I < 64; ++I)
      ArrDev[I] += 1;
  }
  CHECK(ArrDev != nullptr && ArrDev != &Arr[0],
        "use_device_addr gave the host address");
  CHECK(countWrong(Arr, 64, [](int I) { return I < 32 ? I + 1 : 1001; }) == 0,
        "use_device_addr: Arr[1] = %d, Arr[40] = %d, expected 2 and 1001",
        Arr[1], Arr[40]);
  return check::verdict();
}
