// libB member nothing refers to.
int bUnused(int X) {
  int Y = X;
#pragma omp target map(tofrom : Y)
  Y -= 7;
  return Y;
}
