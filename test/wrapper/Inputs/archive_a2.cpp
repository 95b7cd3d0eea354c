// libA member 2: only needed by libB's member, so only a group finds it.
int aHelper(int X) {
  int Y = X;
#pragma omp target map(tofrom : Y)
  Y *= 2;
  return Y;
}
