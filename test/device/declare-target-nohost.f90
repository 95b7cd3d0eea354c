! A `declare target ... device_type(nohost)` function (design seed 001)
! called from a kernel, and a `target teams distribute parallel do` with
! collapse and a static schedule.
! REQUIRES: our-cpu-device-runtime
! RUN: %device-flang -fopenmp-version=50 %s -o %t.o
! RUN: %device-link %t.o -o %t.so
! RUN: %cpu-launch %t.so line:28 -- i:0 | FileCheck %s --check-prefix=NOHOST
! RUN: %cpu-launch %t.so line:32 2 3 -- i:0 i:0 | FileCheck %s --check-prefix=COLLAPSE
! RUN: %cpu-launch %t.so line:32 5 1 -- i:0 i:0 | FileCheck %s --check-prefix=COLLAPSE5
function func_t_device() result(i)
  !$omp declare target to(func_t_device) device_type(nohost)
  integer :: i
  i = 41
end function func_t_device

program main
  use omp_lib
  implicit none
  interface
    function func_t_device() result(i)
      !$omp declare target to(func_t_device) device_type(nohost)
      integer :: i
    end function
  end interface
  integer :: r, i, j, s, nt
  r = 0
  s = 0
  !$omp target map(tofrom: r)
  r = func_t_device() + 1
  !$omp end target

  !$omp target teams distribute parallel do collapse(2) schedule(static, 3) reduction(+: s) reduction(max: nt)
  do j = 1, 30
    do i = 1, 40
      s = s + i * j
      nt = max(nt, omp_get_num_teams() * 10 + omp_get_num_threads())
    end do
  end do
end program main
! NOHOST: teams=1 threads={{[0-9]+}} 42
! sum(i*j) = (40*41/2) * (30*31/2) = 820 * 465
! COLLAPSE: teams=2 threads=3 381300 23
! COLLAPSE5: teams=5 threads=1 381300 51
