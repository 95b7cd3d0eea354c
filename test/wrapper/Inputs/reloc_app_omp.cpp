// An offload program of its own that also links the relocatable library:
// each keeps its own descriptor and entry table.
#include <cstdio>
extern "C" int fooSum(int N);
int main() {
  int Twice = 0;
#pragma omp target map(from : Twice)
  Twice = 2 * 21;
  std::printf("fooSum=%d twice=%d\n", fooSum(10), Twice);
}
