// An MPI + OpenMP offload program in C++, built with Open MPI's mpicxx over
// the prefix's clang++ shim and run as 4 ranks. Each rank picks its device by
// local rank modulo the device count, computes on it, and the ranks combine
// their results with MPI_Allreduce and MPI_Reduce; rank 0 prints everything,
// in rank order.
//
// REQUIRES: mpi
// RUN: %mpicxx -fopenmp -fopenmp-targets=%target-cpu %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY %mpirun -np 4 %t \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FOUR
//
// With two devices, ranks 2 and 3 share devices 0 and 1 with ranks 0 and 1.
// RUN: env OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_HOST_NUM_DEVICES=2 \
// RUN:   %mpirun -np 4 %t | FileCheck %s --check-prefixes=CHECK,TWO
//
// FOUR: rank 0: local_rank=0 device=0 of 4 on_device=1
// FOUR: rank 1: local_rank=1 device=1 of 4 on_device=1
// FOUR: rank 2: local_rank=2 device=2 of 4 on_device=1
// FOUR: rank 3: local_rank=3 device=3 of 4 on_device=1
// TWO: rank 0: local_rank=0 device=0 of 2 on_device=1
// TWO: rank 1: local_rank=1 device=1 of 2 on_device=1
// TWO: rank 2: local_rank=2 device=0 of 2 on_device=1
// TWO: rank 3: local_rank=3 device=1 of 2 on_device=1
// CHECK: allreduce: sum=499950000 expected=499950000
// CHECK: reduce: y[0]=60000 y[9999]=99996 checksum=799980000 expected=799980000
// CHECK: all ranks agree: 1
#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// The rank's index among the ranks on its own node. Open MPI's launcher says
// it directly; any MPI-3 library gives it through a shared-memory
// communicator.
int localRank() {
  if (const char *Env = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK"))
    return std::atoi(Env);
  MPI_Comm Node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &Node);
  int Rank;
  MPI_Comm_rank(Node, &Rank);
  MPI_Comm_free(&Node);
  return Rank;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);

  int Local = localRank();
  int NumDevices = omp_get_num_devices();
  if (NumDevices == 0) {
    std::fprintf(stderr, "rank %d: no offload device\n", Rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int Device = Local % NumDevices;
  omp_set_default_device(Device);

  // Work on the rank's device: a reduction and an array filled there.
  const long N = 10000;
  long Sum = 0;
  std::vector<long> Y(N);
  long *YData = Y.data();
  int OnDevice = 0, DeviceSeen = -1;
#pragma omp target teams distribute parallel for map(from : YData[0 : N])     \
    reduction(+ : Sum)
  for (long I = 0; I < N; ++I) {
    Sum += (Rank + 1) * I;
    YData[I] = Rank * N + I;
  }
#pragma omp target map(from : OnDevice, DeviceSeen)
  {
    OnDevice = !omp_is_initial_device();
    DeviceSeen = omp_get_device_num();
  }

  // Every rank learns the total; rank 0 gets the element-wise sum.
  long Total = 0;
  MPI_Allreduce(&Sum, &Total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::vector<long> YTotal(Rank == 0 ? N : 0);
  MPI_Reduce(YData, YTotal.data(), N, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

  // Sum_r (r + 1) * N(N-1)/2 over the ranks.
  long Expected = static_cast<long>(Size) * (Size + 1) / 2 * (N * (N - 1) / 2);
  int Agrees = Total == Expected;
  int AllAgree = 0;
  MPI_Allreduce(&Agrees, &AllAgree, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);

  int Mine[4] = {Local, DeviceSeen, NumDevices, OnDevice};
  std::vector<int> All(Rank == 0 ? 4 * Size : 0);
  MPI_Gather(Mine, 4, MPI_INT, All.data(), 4, MPI_INT, 0, MPI_COMM_WORLD);

  int Status = 0;
  if (Rank == 0) {
    for (int R = 0; R < Size; ++R) {
      const int *Of = &All[4 * R];
      std::printf("rank %d: local_rank=%d device=%d of %d on_device=%d\n", R,
                  Of[0], Of[1], Of[2], Of[3]);
    }
    std::printf("allreduce: sum=%ld expected=%ld\n", Total, Expected);
    // Element I is Sum_r (r * N + I) = Size * I + N * Size(Size-1)/2.
    long Checksum = 0, ExpectedChecksum = 0;
    for (long I = 0; I < N; ++I) {
      Checksum += YTotal[I];
      ExpectedChecksum += Size * I + N * Size * (Size - 1) / 2;
    }
    std::printf("reduce: y[0]=%ld y[%ld]=%ld checksum=%ld expected=%ld\n",
                YTotal[0], N - 1, YTotal[N - 1], Checksum, ExpectedChecksum);
    std::printf("all ranks agree: %d\n", AllAgree);
    Status = Checksum == ExpectedChecksum && AllAgree ? 0 : 1;
  }
  MPI_Finalize();
  return Status;
}
