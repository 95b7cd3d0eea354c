! LaunchPatterns.f90 - A time-step loop of small kernels, in Fortran
!
! Usage: LaunchPatterns-f90 [steps]
! The `main` pattern of LaunchPatterns.cpp as a Fortran code writes it: every
! step runs four `target teams distribute parallel do` kernels over 1 MiB
! arrays that stay mapped for the whole loop, launched by the initial
! thread. Prints the time per step in microseconds (RESULT step_us) and the
! libomptarget it ran on (RUNTIME), as BenchCommon.h does; the final array
! is checked against the same recurrence computed on the host.
program launch_patterns
  use omp_lib
  implicit none
  integer, parameter :: n = 131072 ! 1 MiB of real(8)
  integer, parameter :: warm_steps = 10
  real(8), allocatable :: a(:), b(:), c(:), d(:), expected(:)
  integer :: steps, s, i
  logical :: on_device
  character(len=32) :: arg
  real(8) :: t0, seconds, x, y, z

  steps = 1000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) steps
  end if
  allocate (a(n), b(n), c(n), d(n), expected(n))
  do i = 1, n
    a(i) = mod(i - 1, 97) * 0.01d0 + 1d0
  end do
  expected = a

  on_device = .false.
  !$omp target map(from: on_device)
  on_device = .not. omp_is_initial_device()
  !$omp end target
  if (.not. on_device) then
    write (0, '(a)') 'error: wrong result: the target region ran on the host'
    stop 1
  end if

  !$omp target data map(tofrom: a) map(alloc: b, c, d)
  ! A few untimed steps start the device's threads.
  call run(warm_steps)
  t0 = omp_get_wtime()
  call run(steps)
  seconds = omp_get_wtime() - t0
  !$omp end target data

  do i = 1, n
    x = expected(i)
    do s = 1, steps + warm_steps
      y = x * 0.5d0 + 1d0
      z = y + x
      x = (z - y) * 0.999d0 + 0.001d0
    end do
    if (abs(x - a(i)) > 1d-9 * (1 + abs(x))) then
      write (0, '(a)') 'error: wrong result'
      stop 1
    end if
  end do
  call print_runtime()
  write (*, '(a, es16.9)') 'RESULT step_us ', seconds / steps * 1d6

contains

  subroutine run(count)
    integer, intent(in) :: count
    integer :: step, j
    do step = 1, count
      !$omp target teams distribute parallel do
      do j = 1, n
        b(j) = a(j) * 0.5d0 + 1d0
      end do
      !$omp target teams distribute parallel do
      do j = 1, n
        c(j) = b(j) + a(j)
      end do
      !$omp target teams distribute parallel do
      do j = 1, n
        d(j) = c(j) - b(j)
      end do
      !$omp target teams distribute parallel do
      do j = 1, n
        a(j) = d(j) * 0.999d0 + 0.001d0
      end do
    end do
  end subroutine run

  ! The path of the loaded libomptarget, from the process's mappings.
  subroutine print_runtime()
    character(len=4096) :: line
    integer :: unit, status, at
    open (newunit=unit, file='/proc/self/maps', action='read', iostat=status)
    if (status /= 0) then
      write (*, '(a)') 'RUNTIME none'
      return
    end if
    do
      read (unit, '(a)', iostat=status) line
      if (status /= 0) exit
      at = index(line, '/')
      if (at > 0 .and. index(line, 'libomptarget.so') > 0) then
        write (*, '(a, a)') 'RUNTIME ', trim(line(at:))
        close (unit)
        return
      end if
    end do
    close (unit)
    write (*, '(a)') 'RUNTIME none'
  end subroutine print_runtime
end program launch_patterns
