! A device address handed to MPI from Fortran with use_device_addr, as
! docs/MPI.md shows for a CUDA-aware MPI (flang needs -fopenmp-version=50 or
! later for the clause). On the CPU device, device memory is host memory, so
! Debian's Open MPI (not CUDA-aware) can work on it; the test checks that MPI
! really reduced the device copy: the host copy keeps its old values until
! `target update from`. (mpi-offload.f90 says why the mpif-*.h pieces.)
!
! REQUIRES: mpi
! RUN: %mpifort -fopenmp -fopenmp-version=52 -fopenmp-targets=%target-cpu %s \
! RUN:   -o %t
! RUN: env OMP_TARGET_OFFLOAD=MANDATORY %mpirun -np 4 %t | FileCheck %s
!
! CHECK: host copy before update: -1 -1
! CHECK-NEXT: use_device_addr allreduce: 10 38
program device_buffers
  implicit none
  include 'mpif-config.h'
  include 'mpif-constants.h'
  include 'mpif-handles.h'
  include 'mpif-io-constants.h'
  include 'mpif-io-handles.h'
  include 'mpif-externals.h'
  include 'mpif-sentinels.h'
  integer :: ierr, rank, i
  real(8) :: buf(8)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = -1
  !$omp target data map(alloc: buf)
  !$omp target teams distribute parallel do
  do i = 1, 8
    buf(i) = rank + i
  end do
  ! Inside, buf is the device copy. Element i becomes Sum_r (r + i) = 6 + 4i.
  !$omp target data use_device_addr(buf)
  call MPI_Allreduce(MPI_IN_PLACE, buf, 8, MPI_DOUBLE_PRECISION, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  !$omp end target data
  if (rank == 0) print '(a,i0,a,i0)', 'host copy before update: ', &
    nint(buf(1)), ' ', nint(buf(8))
  !$omp target update from(buf)
  !$omp end target data
  if (rank == 0) print '(a,i0,a,i0)', 'use_device_addr allreduce: ', &
    nint(buf(1)), ' ', nint(buf(8))
  call MPI_Finalize(ierr)
end program
