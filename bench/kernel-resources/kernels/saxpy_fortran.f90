! Fortran saxpy: Flang's device code and the runtime's loop API.
program saxpy_fortran
  implicit none
  integer, parameter :: n = 1048576
  real, allocatable :: x(:), y(:)
  real :: a
  integer :: i
  allocate(x(n), y(n))
  x = 1.0
  y = 2.0
  a = 3.0
  !$omp target teams distribute parallel do map(to: x) map(tofrom: y)
  do i = 1, n
    y(i) = a * x(i) + y(i)
  end do
  print *, y(n)
end program saxpy_fortran
