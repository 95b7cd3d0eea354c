// Kernels for async-chain.test, run through the AMDGPU plugin directly
// (Inputs/async-chain.cpp loads this program's linked device image). Each
// region takes device pointers only, so its kernel's arguments are those
// pointers in order. main() never runs them.
#define N 1024

void scale(int *Data) {
#pragma omp target teams distribute parallel for is_device_ptr(Data)
  for (int I = 0; I < N; ++I)
    Data[I] = 2 * Data[I] + 1;
}

// Spins until the host writes a nonzero word into Flag (host memory the
// device can read), then writes 7 to Out[0]: the plugin must return from
// its launch while the kernel runs.
void waitForHost(int *Flag, int *Out) {
#pragma omp target is_device_ptr(Flag, Out)
  {
    while (__atomic_load_n(Flag, __ATOMIC_ACQUIRE) == 0)
      ;
    Out[0] = 7;
  }
}

void fault(int *Out) {
#pragma omp target is_device_ptr(Out)
  {
    Out[0] = 1;
    __builtin_trap();
  }
}

int main(int Argc, char **Argv) {
  (void)Argv;
  if (Argc > 1000) {
    scale(0);
    waitForHost(0, 0);
    fault(0);
  }
  return 0;
}
