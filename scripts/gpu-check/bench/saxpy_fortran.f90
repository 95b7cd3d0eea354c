! saxpy over 2^28 doubles in Fortran (`!$omp target teams distribute
! parallel do` on mapped arrays kept on the device by `target data`),
! printing the same ROW lines as the C++ benchmarks. 2^20 with
! GPU_CHECK_SMALL set.
program saxpy_fortran
  use omp_lib
  implicit none
  integer(8) :: n, i
  integer :: r, reps, stat
  real(8), allocatable :: x(:), y(:)
  real(8) :: a, t0, best, expect
  real(8), allocatable :: times(:)
  character(len=8) :: small

  call get_environment_variable('GPU_CHECK_SMALL', small, status=stat)
  if (stat == 0) then
    n = 2_8**20
    reps = 3
  else
    n = 2_8**28
    reps = 10
  end if
  allocate(x(n), y(n), times(reps))
  do i = 1, n
    x(i) = real(mod(i, 1024_8), 8)
    y(i) = 1.0d0
  end do
  a = 0.5d0
  !$omp target data map(to: x) map(tofrom: y)
  do r = 0, reps
    t0 = omp_get_wtime()
    !$omp target teams distribute parallel do
    do i = 1, n
      y(i) = a * x(i) + y(i)
    end do
    if (r > 0) times(r) = omp_get_wtime() - t0
  end do
  !$omp end target data
  expect = 1.0d0 + real(reps + 1, 8) * a * real(mod(n, 1024_8), 8)
  if (y(n) /= expect) then
    print '(a)', 'BENCH-FAIL Fortran saxpy result is wrong'
    stop 1
  end if
  call sort(times)
  best = times((reps + 1) / 2)
  print '(a,g0.6,a)', 'ROW name=saxpy_f64_fortran value=', &
    3.0d0 * 8.0d0 * real(n, 8) / best * 1.0d-9, ' unit=GB/s'
contains
  subroutine sort(v)
    real(8), intent(inout) :: v(:)
    integer :: p, q
    real(8) :: t
    do p = 1, size(v)
      do q = p + 1, size(v)
        if (v(q) < v(p)) then
          t = v(p); v(p) = v(q); v(q) = t
        end if
      end do
    end do
  end subroutine sort
end program saxpy_fortran
