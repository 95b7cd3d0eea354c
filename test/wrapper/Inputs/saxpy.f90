! A Fortran offload program: Flang compiles its CPU-device kernels in GPU
! style, so its device image needs the CPU device runtime.
program saxpy
  implicit none
  integer, parameter :: n = 1000
  real :: x(n), y(n)
  integer :: i
  x = 1.0
  y = 2.0
  !$omp target teams distribute parallel do map(to: x) map(tofrom: y)
  do i = 1, n
    y(i) = y(i) + 3.0 * x(i) * i
  end do
  print '(A,F8.1,A,F8.1)', 'y1=', y(1), ' yn=', y(n)
end program saxpy
