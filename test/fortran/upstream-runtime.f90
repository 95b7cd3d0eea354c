! A Fortran program linked by our toolchain also runs on Debian's
! libomptarget, whose host plugin calls GPU-style kernels directly on one
! thread: the device runtime then sees a team of one thread and sends the
! names libomp also has to libomp. Results are the same, only sequential.
! REQUIRES: our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s
program upstream_runtime
  use omp_lib
  implicit none
  integer, parameter :: m = 20, n = 500
  real(8) :: a(n, m), out(m), s, total
  integer :: i, j, host
  do j = 1, m
    do i = 1, n
      a(i, j) = i + j
    end do
  end do
  !$omp target teams distribute private(s) map(to: a) map(from: out)
  do j = 1, m
    s = 0
    !$omp parallel do reduction(+: s)
    do i = 1, n
      s = s + a(i, j)
    end do
    out(j) = s
  end do
  total = 0
  host = -1
  !$omp target teams distribute parallel do reduction(+: total) map(to: a)
  do j = 1, m
    do i = 1, n
      total = total + a(i, j)
    end do
  end do
  !$omp target map(from: host)
  host = omp_is_initial_device()
  !$omp end target
  ! CHECK: sums: 2610000 2610000 on-host: 0
  print '(A,I0,A,I0,A,I0)', 'sums: ', int(sum(out)), ' ', int(total), &
       ' on-host: ', host
end program upstream_runtime
