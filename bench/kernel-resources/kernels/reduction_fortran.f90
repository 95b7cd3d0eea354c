! Fortran sum reduction in an SPMD kernel.
program reduction_fortran
  implicit none
  integer, parameter :: n = 1048576
  real(8), allocatable :: x(:)
  real(8) :: s
  integer :: i
  allocate(x(n))
  x = 0.5d0
  s = 0
  !$omp target teams distribute parallel do map(to: x) reduction(+: s)
  do i = 1, n
    s = s + x(i)
  end do
  print *, s
end program reduction_fortran
