! StreamKernels.f90 - Triad and dot on the CPU device (Fortran)
!
! The kernels of StreamKernels.cpp, in Fortran: `target teams distribute
! parallel do` triad and dot over N doubles, mapped once, the best of
! several timed launches after a warm-up, as GB/s. The RESULT and RUNTIME
! lines come from the C helpers in StreamReport.c.
!
! Usage: StreamKernels-f [elements (default 2^25)] [timed launches (default 10)]
program stream_kernels
  use omp_lib
  use iso_c_binding
  implicit none
  interface
    subroutine report_result(name, value) bind(c, name="benchReportResult")
      import :: c_char, c_double
      character(kind=c_char), dimension(*), intent(in) :: name
      real(c_double), value :: value
    end subroutine
    subroutine report_runtime() bind(c, name="benchReportRuntime")
    end subroutine
  end interface
  integer(8) :: n, i
  integer :: launches, l
  real(8), allocatable :: a(:), b(:), c(:)
  real(8) :: q, s, start, triad, dot, best_triad, best_dot
  character(len=32) :: arg

  n = 2_8**25
  launches = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) launches
  end if
  allocate (a(n), b(n), c(n))
  a = 0
  b = 1
  c = 2
  q = 3
  best_triad = 1d30
  best_dot = 1d30
  !$omp target enter data map(to: a, b, c)
  do l = 0, launches
    start = omp_get_wtime()
    !$omp target teams distribute parallel do
    do i = 1, n
      a(i) = b(i) + q * c(i)
    end do
    triad = omp_get_wtime() - start
    s = 0
    start = omp_get_wtime()
    !$omp target teams distribute parallel do reduction(+:s) map(tofrom: s)
    do i = 1, n
      s = s + a(i) * b(i)
    end do
    dot = omp_get_wtime() - start
    if (l > 0) then ! the first launch of each is the warm-up
      best_triad = min(best_triad, triad)
      best_dot = min(best_dot, dot)
    end if
  end do
  !$omp target exit data map(from: a) map(release: b, c)
  if (s /= 7d0 * n .or. a(n) /= 7d0) then
    print *, 'error: wrong results', s, a(n)
    error stop 1
  end if
  call report_result('triad_gbps' // c_null_char, 24d0 * n / best_triad / 1d9)
  call report_result('dot_gbps' // c_null_char, 16d0 * n / best_dot / 1d9)
  call report_runtime()
end program
