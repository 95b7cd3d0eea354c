// Device addresses handed to MPI, as docs/MPI.md shows for a CUDA-aware MPI:
// use_device_ptr inside target data, and omp_get_mapped_ptr. On the CPU
// device, device memory is host memory, so Debian's Open MPI (not CUDA-aware)
// can work on it; the test checks that MPI really reduced the device copy:
// the host copy keeps its old values until `target update from`.
//
// REQUIRES: mpi
// RUN: %mpicxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %mpirun -np 4 %t | FileCheck %s
//
// CHECK: mapped: distinct=1
// CHECK-NEXT: host copy before update: -1 -1
// CHECK-NEXT: use_device_ptr allreduce: 6 34
// CHECK-NEXT: omp_get_mapped_ptr allreduce: 24 136
#include <mpi.h>
#include <omp.h>

#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const int N = 8;
  double *Buf = new double[N];
  for (int I = 0; I < N; ++I)
    Buf[I] = -1;
#pragma omp target data map(alloc : Buf[0 : N])
  {
    auto *Device = static_cast<double *>(
        omp_get_mapped_ptr(Buf, omp_get_default_device()));
    if (Rank == 0)
      std::printf("mapped: distinct=%d\n", Device && Device != Buf);
#pragma omp target teams distribute parallel for
    for (int I = 0; I < N; ++I)
      Buf[I] = Rank + I;
    // Inside, Buf is the device address of the mapped array. Element I
    // becomes Sum_r (r + I) = 6 + 4 * I.
#pragma omp target data use_device_ptr(Buf)
    MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (Rank == 0)
      std::printf("host copy before update: %g %g\n", Buf[0], Buf[N - 1]);
#pragma omp target update from(Buf[0 : N])
    if (Rank == 0)
      std::printf("use_device_ptr allreduce: %g %g\n", Buf[0], Buf[N - 1]);

    // The same through the address omp_get_mapped_ptr reported: every rank
    // now holds 6 + 4 * I, so the sum is four times that.
    MPI_Allreduce(MPI_IN_PLACE, Device, N, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
#pragma omp target update from(Buf[0 : N])
    if (Rank == 0)
      std::printf("omp_get_mapped_ptr allreduce: %g %g\n", Buf[0],
                  Buf[N - 1]);
  }
  MPI_Finalize();
  delete[] Buf;
}
