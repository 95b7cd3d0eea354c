! PRINT * of integers, reals, strings and an array, a formatted WRITE, and
! STOP 3, in target regions.
program print_stop
  implicit none
  integer :: a(4), n
  real :: r
  double precision :: d
  a = [1, 2, 3, 4]
  n = 42
  r = 2.5
  d = 0.125d0
  !$omp target map(to: a, n, r, d)
  print *, 'device', n, r, d
  print *, a
  write (*, '(A,I0)') 'n=', n
  !$omp end target
  print *, 'host after'
  !$omp target
  stop 3
  !$omp end target
  print *, 'not reached'
end program
