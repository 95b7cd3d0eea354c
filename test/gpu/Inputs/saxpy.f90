! y = a*x + y in a target region, with a sum reduction on the device.
program saxpy
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n), a, s
  integer :: i
  a = 2.0d0
  do i = 1, n
    x(i) = i
    y(i) = 1.0d0
  end do
  !$omp target teams distribute parallel do map(to:x) map(tofrom:y)
  do i = 1, n
    y(i) = a * x(i) + y(i)
  end do
  s = 0
  !$omp target teams distribute parallel do reduction(+:s) map(to:y)
  do i = 1, n
    s = s + y(i)
  end do
  ! sum(2i + 1) for i = 1..1000
  print '(A,F10.1)', 'saxpy sum=', s
end program
