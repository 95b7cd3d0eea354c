// A shared library with its own device image, for dlopen-library.c.
#pragma omp declare target
int libScale = 3;
#pragma omp end declare target

int scaleOnDevice(int *v, int n) {
#pragma omp target map(tofrom : v [0:n])
  for (int i = 0; i < n; ++i)
    v[i] *= libScale;
  return v[n - 1];
}
