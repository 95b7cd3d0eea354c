// libB member: device code, needs aHelper from libA.
int aHelper(int);
int bEntry(int X) {
  int Y = X;
#pragma omp target map(tofrom : Y)
  Y += 3;
  return aHelper(Y);
}
