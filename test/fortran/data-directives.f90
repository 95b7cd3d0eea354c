! `target enter data`, `target update` and `target exit data` from Fortran,
! with kernels working on the device copy in between.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
! The flang-new shim, as Debian's flang-new, is the same driver.
! RUN: %prefix/bin/flang-new %sanitizer-link-flags -fopenmp -fopenmp-targets=%target-cpu %s -o %t.new
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.new | FileCheck %s
program data_directives
  implicit none
  integer, parameter :: n = 64
  real(8), allocatable :: v(:)
  integer :: i
  allocate(v(n))
  v = 1
  !$omp target enter data map(to: v)
  v = 100 ! host copy only
  !$omp target teams distribute parallel do
  do i = 1, n
    v(i) = v(i) + i
  end do
  ! The host copy is untouched until the update.
  ! CHECK: before update: 6400
  print '(A,I0)', 'before update: ', int(sum(v))
  !$omp target update from(v)
  ! CHECK: after update: 2144
  print '(A,I0)', 'after update: ', int(sum(v))
  v = 2
  !$omp target update to(v)
  !$omp target teams distribute parallel do
  do i = 1, n
    v(i) = v(i) * 3
  end do
  !$omp target exit data map(from: v)
  ! CHECK: after exit: 384
  print '(A,I0)', 'after exit: ', int(sum(v))
end program data_directives
