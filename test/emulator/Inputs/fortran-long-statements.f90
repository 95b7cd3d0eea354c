! Fortran output statements longer than one host-service request (8152
! bytes) in target regions: a list-directed PRINT of 2000 reals and a
! formatted WRITE of 2000 integers, from one thread, then one long formatted
! record from each of 8 threads at once, then one record of 120000 integers
! (about 600 KB of items: more requests than the ring has slots). With the
! argument `host` the first two run on the host instead, for comparison.
program long_statements
  implicit none
  integer, parameter :: n = 2000
  real :: big(n)
  integer :: v(n), i, t
  integer, parameter :: m = 120000
  character(len=8) :: where
  do i = 1, n
    big(i) = i * 0.25
    v(i) = i
  end do
  call get_command_argument(1, where)
  if (where == 'host') then
    print *, 'reals', big, 'end'
    write (*, '(A,*(I5))') 'ints', v
    stop
  end if
  !$omp target map(to: big, v)
  print *, 'reals', big, 'end'
  write (*, '(A,*(I5))') 'ints', v
  !$omp end target
  !$omp target teams distribute parallel do num_teams(2) thread_limit(4) &
  !$omp& private(i) map(to: v)
  do t = 1, 8
    write (*, '(A,I0,*(I6))') 'thread ', t, (v(i) * t, i = 1, n)
  end do
  !$omp target
  write (*, '(A,*(I7))') 'many', (i, i = 1, m)
  !$omp end target
end program
