// A target region calling a host function pointer; used by nvptx-image.test.
#pragma omp declare target indirect
int twice(int X) { return 2 * X; }
#pragma omp end declare target

int callThrough(int (*Fn)(int), int X) {
  int R = 0;
#pragma omp target map(from : R)
  R = Fn(X);
  return R;
}

int main() { return callThrough(twice, 2) == 4 ? 0 : 1; }
