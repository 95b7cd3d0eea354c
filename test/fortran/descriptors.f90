! Allocatable and pointer arrays are mapped through their descriptors
! (design seed 004), also as the allocatable component of a derived type.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program descriptors
  implicit none
  type :: holder
    integer :: n
    real(8), allocatable :: v(:)
  end type
  real(8), allocatable :: a(:)
  real(8), pointer :: p(:)
  real(8), target :: storage(50)
  integer, allocatable :: m(:, :)
  type(holder) :: h
  integer :: i

  allocate(a(100))
  a = 1
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, 100
    a(i) = a(i) + i
  end do
  ! CHECK: allocatable: 5150
  print '(A,I0)', 'allocatable: ', int(sum(a))

  storage = 0
  p => storage(11:50)
  !$omp target map(tofrom: p)
  do i = 1, size(p)
    p(i) = i
  end do
  !$omp end target
  ! CHECK: pointer: 820 0 40
  print '(A,I0,A,I0,A,I0)', 'pointer: ', int(sum(storage)), ' ', &
       int(storage(10)), ' ', int(storage(50))

  allocate(m(3:7, -2:2))
  m = 0
  !$omp target map(tofrom: m)
  m(3, -2) = 1
  m(7, 2) = 2
  m(5, 0) = lbound(m, 1) * 10 + ubound(m, 2)
  !$omp end target
  ! CHECK: bounds: 1 2 32
  print '(A,I0,A,I0,A,I0)', 'bounds: ', m(3, -2), ' ', m(7, 2), ' ', m(5, 0)

  h%n = 10
  allocate(h%v(10))
  h%v = 0
  !$omp target map(tofrom: h, h%v)
  do i = 1, h%n
    h%v(i) = i * 2
  end do
  !$omp end target
  ! CHECK: derived: 110
  print '(A,I0)', 'derived: ', int(sum(h%v))
end program descriptors
