! An SPMD kernel (`target teams distribute parallel do`) with sum and max
! reductions over every team and thread.
! REQUIRES: our-cpu-device-runtime
! RUN: %device-flang %s -o %t.o
! RUN: %device-link %t.o -o %t.so
! RUN: %cpu-launch %t.so line:16 1 2 -- d:0 i:0 | FileCheck %s --check-prefix=T1
! RUN: %cpu-launch %t.so line:16 4 2 -- d:0 i:0 | FileCheck %s --check-prefix=T4
! RUN: %cpu-launch %t.so line:16 3 3 -- d:0 i:0 | FileCheck %s --check-prefix=T3
! RUN: %cpu-launch %t.so line:16 7 1 -- d:0 i:0 | FileCheck %s --check-prefix=T7
program spmd_reduction
  use omp_lib
  real(8) :: s
  integer :: nt
  s = 0
  nt = 0
  !$omp target teams distribute parallel do reduction(+:s) reduction(max:nt)
  do i = 1, 100000
    s = s + i
    nt = max(nt, omp_get_num_threads() * 100 + omp_get_num_teams())
  end do
  print *, s, nt
end program
! T1: teams=1 threads=2 5.00005e+09 201
! T4: teams=4 threads=2 5.00005e+09 204
! T3: teams=3 threads=3 5.00005e+09 303
! T7: teams=7 threads=1 5.00005e+09 107
