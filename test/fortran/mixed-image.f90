! Host-style (clang C++) and GPU-style (Flang) kernels in ONE device image:
! names both libomp and the device runtime define (omp_get_num_threads,
! __kmpc_barrier...) must reach the right runtime in each kernel.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %clangxx -fopenmp -fopenmp-targets=%target-cpu -c \
! RUN:   %S/Inputs/mixed-image-kernels.cpp -o %t-cxx.o
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s %t-cxx.o -lstdc++ -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_THREADS=2 %ours-run %t \
! RUN:   | FileCheck %s
program mixed_image
  use iso_c_binding
  use omp_lib
  implicit none
  interface
    subroutine cxx_fill(data, n, threads) bind(c)
      import :: c_int
      integer(c_int) :: data(*)
      integer(c_int), value :: n
      integer(c_int) :: threads
    end subroutine
  end interface
  integer(c_int) :: d(1000), cthreads
  integer :: i, fthreads
  d = 1
  fthreads = 0
  !$omp target teams distribute parallel do map(tofrom: d) &
  !$omp&   reduction(max: fthreads)
  do i = 1, 1000
    d(i) = d(i) + 1
    fthreads = max(fthreads, omp_get_num_threads())
  end do
  call cxx_fill(d, 1000, cthreads)
  ! CHECK: sum: 501500 fortran-threads>1: T cxx-threads>1: T
  print '(A,I0,A,L1,A,L1)', 'sum: ', sum(d), ' fortran-threads>1: ', &
       fthreads > 1, ' cxx-threads>1: ', cthreads > 1
end program mixed_image
