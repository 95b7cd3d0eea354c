! The Fortran shim compiles and runs a host OpenMP program (no offload).
! RUN: %flang -fopenmp %s -o %t
! RUN: env OMP_NUM_THREADS=2 %run %t | FileCheck %s
program host_openmp
  use omp_lib
  implicit none
  integer :: i, threads
  integer(8) :: total
  total = 0
  threads = 0
  !$omp parallel do reduction(+:total) reduction(max:threads)
  do i = 1, 1000
    total = total + i
    threads = omp_get_num_threads()
  end do
  !$omp end parallel do
  ! CHECK: threads= 2 total= 500500
  print '(a,i2,a,i7)', 'threads=', threads, ' total=', total
end program host_openmp
