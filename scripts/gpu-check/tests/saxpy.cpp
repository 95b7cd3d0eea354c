// saxpy: y = a*x + y, the smallest real kernel. First with map clauses
// (host arrays mapped to and from the device, checked element by element),
// then a bandwidth measurement on device memory from omp_target_alloc: a
// `target teams distribute parallel for is_device_ptr` saxpy timed over 10
// repetitions after a warm-up, against omp_target_memcpy device to device of
// the same bytes. On an H100 the saxpy should reach a good fraction of the
// copy's bandwidth; a ratio far below that points at bad code generation or
// launch parameters. The timed result is checked too.
//
// n is 2^28 floats (1 GiB per array, 3 GiB in all) unless GPU_CHECK_SMALL is
// set (run.sh --cpu sets it), then 2^24; GPU_CHECK_SAXPY_N or an argument
// (`saxpy N`) overrides both. The GPU emulator runs 2^20 (KIT-EMULATE-ARGS
// below): its timed launches of 2^24 threads took it a minute, and the
// bandwidth it reports means nothing there.
// KIT-EMULATE-ARGS: 1048576
#include "check.h"

#include <cstdint>
#include <vector>

namespace {

// Values chosen so that every result is exact in float (small multiples of
// 1/4), whatever the order of operations or contraction into fma: the
// checks can compare with ==.
float initX(int64_t I) { return float(I % 1024) * 0.25f; }
float initY(int64_t I) { return float(I % 17); }

void mappedSaxpy() {
  // Odd length, so the last team gets a partial block.
  const int N = (1 << 20) + 3;
  const float A = 2.0f;
  std::vector<float> X(N), Y(N);
  for (int I = 0; I < N; ++I) {
    X[I] = initX(I);
    Y[I] = initY(I);
  }
  float *PX = X.data(), *PY = Y.data();
#pragma omp target teams distribute parallel for map(to : PX[0 : N])         \
    map(tofrom : PY[0 : N])
  for (int I = 0; I < N; ++I)
    PY[I] = A * PX[I] + PY[I];
  int Wrong = 0, First = -1;
  for (int I = 0; I < N; ++I)
    if (Y[I] != A * initX(I) + initY(I) && Wrong++ == 0)
      First = I;
  CHECK(Wrong == 0, "mapped saxpy: %d wrong elements, first y[%d] = %g", Wrong,
        First, First >= 0 ? Y[First] : 0.0f);
  // x was mapped `to` only: the host copy must be untouched.
  CHECK(X[N - 1] == initX(N - 1), "mapped saxpy changed x");
}

const char *SizeArgument = nullptr;

int64_t problemSize() {
  if (SizeArgument)
    return std::strtoll(SizeArgument, nullptr, 0);
  if (const char *S = std::getenv("GPU_CHECK_SAXPY_N"))
    return std::strtoll(S, nullptr, 0);
  return std::getenv("GPU_CHECK_SMALL") ? int64_t(1) << 24 : int64_t(1) << 28;
}

void bandwidth() {
  const int64_t N = problemSize();
  CHECK(N > 0, "GPU_CHECK_SAXPY_N = %lld", (long long)N);
  if (N <= 0)
    return;
  const int Dev = omp_get_default_device(), Host = omp_get_initial_device();
  const size_t Bytes = size_t(N) * sizeof(float);
  float *X = static_cast<float *>(omp_target_alloc(Bytes, Dev));
  float *Y = static_cast<float *>(omp_target_alloc(Bytes, Dev));
  float *Copy = static_cast<float *>(omp_target_alloc(Bytes, Dev));
  CHECK(X && Y && Copy, "omp_target_alloc of 3 x %zu bytes failed", Bytes);
  if (!X || !Y || !Copy) {
    omp_target_free(X, Dev);
    omp_target_free(Y, Dev);
    omp_target_free(Copy, Dev);
    return;
  }

  // Initialise on the device: the timed loop must not include the host.
#pragma omp target teams distribute parallel for is_device_ptr(X, Y)
  for (int64_t I = 0; I < N; ++I) {
    X[I] = initX(I);
    Y[I] = initY(I);
  }

  const float A = 2.0f;
  const int Reps = 10;
  double Start = 0;
  for (int R = 0; R <= Reps; ++R) {
    if (R == 1) // R == 0 is the warm-up (module load, first-touch).
      Start = omp_get_wtime();
    // `target` without nowait returns only once the kernel has finished.
#pragma omp target teams distribute parallel for is_device_ptr(X, Y)
    for (int64_t I = 0; I < N; ++I)
      Y[I] = A * X[I] + Y[I];
  }
  const double SaxpyTime = (omp_get_wtime() - Start) / Reps;

  // One warm-up copy, then the same number of timed ones.
  int CopyErr = omp_target_memcpy(Copy, Y, Bytes, 0, 0, Dev, Dev);
  CHECK(CopyErr == 0, "omp_target_memcpy device to device returned %d",
        CopyErr);
  Start = omp_get_wtime();
  for (int R = 0; R < Reps && CopyErr == 0; ++R)
    CopyErr = omp_target_memcpy(Copy, X, Bytes, 0, 0, Dev, Dev);
  const double CopyTime = (omp_get_wtime() - Start) / Reps;

  // saxpy reads x and y and writes y; the copy reads and writes once each.
  const double SaxpyGBs = 3.0 * Bytes / SaxpyTime * 1e-9;
  const double CopyGBs = 2.0 * Bytes / CopyTime * 1e-9;
  check::info("saxpy n=%ld: %.1f GB/s, device-to-device copy %.1f GB/s, "
              "ratio %.1f%%",
              (long)N, SaxpyGBs, CopyGBs, 100.0 * SaxpyGBs / CopyGBs);

  // After the warm-up and the timed runs y = y0 + (Reps + 1) * a * x; the
  // last copy left x in Copy. Check every element of both.
  std::vector<float> HostY(N), HostCopy(N);
  int E1 = omp_target_memcpy(HostY.data(), Y, Bytes, 0, 0, Host, Dev);
  int E2 = omp_target_memcpy(HostCopy.data(), Copy, Bytes, 0, 0, Host, Dev);
  CHECK(E1 == 0 && E2 == 0, "omp_target_memcpy device to host returned %d, %d",
        E1, E2);
  int64_t WrongY = 0, FirstY = -1, WrongCopy = 0, FirstCopy = -1;
  for (int64_t I = 0; I < N; ++I) {
    if (HostY[I] != initY(I) + float(Reps + 1) * A * initX(I) &&
        WrongY++ == 0)
      FirstY = I;
    if (HostCopy[I] != initX(I) && WrongCopy++ == 0)
      FirstCopy = I;
  }
  CHECK(WrongY == 0, "device saxpy: %lld wrong elements, first y[%lld] = %g",
        (long long)WrongY, (long long)FirstY,
        FirstY >= 0 ? HostY[FirstY] : 0.0f);
  CHECK(WrongCopy == 0,
        "device-to-device copy: %lld wrong elements, first [%lld] = %g",
        (long long)WrongCopy, (long long)FirstCopy,
        FirstCopy >= 0 ? HostCopy[FirstCopy] : 0.0f);

  omp_target_free(X, Dev);
  omp_target_free(Y, Dev);
  omp_target_free(Copy, Dev);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc > 1)
    SizeArgument = Argv[1];
  check::expectOffloaded();
  mappedSaxpy();
  bandwidth();
  return check::verdict();
}
