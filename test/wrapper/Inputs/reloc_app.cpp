// A plain C++ program (no OpenMP) using the relocatable library.
#include <cstdio>
extern "C" int fooSum(int N);
int main() { std::printf("fooSum=%d\n", fooSum(10)); }
