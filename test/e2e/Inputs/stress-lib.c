// A library with its own device image, opened and closed over and over by
// stress-threads-dlopen.cpp while other threads offload: each dlopen
// registers its image and each dlclose unregisters it.
#pragma omp declare target
int libOffset = 5;
#pragma omp end declare target

/// Adds 3 * libOffset to each of v[0..n) on device dev through a chain of
/// nowait regions; returns the sum of the results.
long libWork(int *v, int n, int dev) {
#pragma omp target enter data map(to : v [0:n]) device(dev)
  for (int r = 0; r < 3; ++r) {
#pragma omp target nowait depend(inout : v[0]) device(dev)
    for (int i = 0; i < n; ++i)
      v[i] += libOffset;
  }
#pragma omp taskwait
#pragma omp target exit data map(from : v [0:n]) device(dev)
  long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += v[i];
  return sum;
}
