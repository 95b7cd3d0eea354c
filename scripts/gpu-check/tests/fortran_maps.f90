! fortran_maps: Fortran data mapping through descriptors. Checks mapped
! allocatable arrays (1-D, and 2-D with non-default bounds), a pointer array
! associated with part of a target array, a derived type with an
! allocatable component (the type and its component mapped), a `target
! teams distribute parallel do` with a sum and a max reduction, and
! omp_lib called on the device: omp_is_initial_device() must be .false.
! there (the region was offloaded) and omp_get_team_num() must stay below
! omp_get_num_teams(). Prints `PASS fortran_maps` or `FAIL fortran_maps: ...`
! and stops with status 1 on failure.
program fortran_maps
  use omp_lib
  implicit none
  type :: holder
    integer :: n
    real(8), allocatable :: v(:)
  end type
  integer, parameter :: n = 100000
  real(8), allocatable :: a(:)
  integer, allocatable :: m(:, :)
  real(8), pointer :: p(:)
  real(8), target :: storage(50)
  type(holder) :: h
  real(8) :: s
  integer :: i, j, big, fails, nteams, badteam
  logical :: ondevice
  character(len=200) :: why

  fails = 0
  why = ''

  ! The region runs on the device: omp_is_initial_device() is false there.
  ondevice = .false.
  !$omp target map(from: ondevice)
  ondevice = .not. omp_is_initial_device()
  !$omp end target
  call expect(ondevice, 'target region ran on the host')

  ! 1-D allocatable, both ways.
  allocate(a(n))
  do i = 1, n
    a(i) = i
  end do
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, n
    a(i) = 2 * a(i) + 1
  end do
  call expect(a(1) == 3 .and. a(n) == 2 * n + 1 .and. &
       sum(a) == real(n, 8) * (n + 2), '1-D allocatable wrong after map')

  ! Sum and max reductions over the mapped array, and team numbers seen on
  ! the device.
  s = 0
  big = -1
  badteam = 0
  nteams = 0
  !$omp target teams distribute parallel do map(to: a) &
  !$omp&   reduction(+: s) reduction(max: big) reduction(+: badteam) &
  !$omp&   reduction(max: nteams)
  do i = 1, n
    s = s + a(i)
    big = max(big, int(a(i)))
    nteams = max(nteams, omp_get_num_teams())
    if (omp_get_team_num() < 0 .or. &
        omp_get_team_num() >= omp_get_num_teams()) badteam = badteam + 1
  end do
  call expect(s == real(n, 8) * (n + 2), 'sum reduction wrong')
  call expect(big == 2 * n + 1, 'max reduction wrong')
  call expect(badteam == 0, 'omp_get_team_num() out of range on the device')
  call expect(nteams >= 1, 'omp_get_num_teams() < 1 on the device')
  print '(A,I0,A)', 'INFO fortran_maps: reductions ran in ', nteams, ' teams'

  ! 2-D allocatable with non-default bounds: the descriptor's bounds reach
  ! the device.
  allocate(m(3:7, -2:2))
  m = 0
  !$omp target teams distribute parallel do collapse(2) map(tofrom: m)
  do j = -2, 2
    do i = 3, 7
      m(i, j) = 10 * i + j + lbound(m, 1) * 1000 + ubound(m, 2) * 10000
    end do
  end do
  call expect(m(3, -2) == 23028 .and. m(7, 2) == 23072 .and. &
       m(5, 0) == 23050, '2-D allocatable with bounds 3:7, -2:2 wrong')

  ! Pointer array associated with a section of a target array: only the
  ! section is mapped and written.
  storage = 0
  p => storage(11:50)
  !$omp target map(tofrom: p)
  do i = 1, size(p)
    p(i) = i
  end do
  !$omp end target
  call expect(int(sum(storage)) == 820 .and. storage(10) == 0 .and. &
       storage(50) == 40, 'pointer array section wrong')

  ! Derived type with an allocatable component: map the type and the
  ! component's data.
  h%n = 1000
  allocate(h%v(h%n))
  h%v = 1
  !$omp target map(tofrom: h, h%v)
  do i = 1, h%n
    h%v(i) = h%v(i) + i
  end do
  h%n = -h%n
  !$omp end target
  call expect(h%n == -1000, 'derived type scalar component not copied back')
  call expect(allocated(h%v), 'derived type component deallocated')
  if (allocated(h%v)) then
    call expect(size(h%v) == 1000 .and. &
         int(sum(h%v)) == 1000 + 1000 * 1001 / 2, &
         'derived type allocatable component wrong')
  end if

  ! Enter/exit data on an allocatable with a kernel in between.
  a = 1
  !$omp target enter data map(to: a)
  !$omp target teams distribute parallel do
  do i = 1, n
    a(i) = a(i) + 1
  end do
  call expect(a(5) == 1, 'enter data array copied back early')
  !$omp target exit data map(from: a)
  call expect(all(a == 2), 'enter/exit data allocatable wrong')

  if (fails == 0) then
    print '(A)', 'PASS fortran_maps'
  else
    if (fails > 1) then
      print '(A,A,A,I0,A)', 'FAIL fortran_maps: ', trim(why), ' (and ', &
           fails - 1, ' more)'
    else
      print '(A,A)', 'FAIL fortran_maps: ', trim(why)
    end if
    stop 1
  end if

contains

  ! Records a failed expectation; the first one is the FAIL reason.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      if (fails == 0) why = what
      fails = fails + 1
    end if
  end subroutine expect

end program fortran_maps
