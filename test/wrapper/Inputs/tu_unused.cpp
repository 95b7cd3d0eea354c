// A static-library member nothing refers to: the host link leaves it out, so
// its device code must stay out too.
int unusedKernel(int *Data) {
#pragma omp target map(tofrom : Data [0:1])
  Data[0] = 42;
  return Data[0];
}
