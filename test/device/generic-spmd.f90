! Flang marks `teams distribute` around a `parallel do` "Generic-SPMD" but
! keeps the generic state machine: its team-level code (the private `s`, the
! store into out(j)) must run once per team, while the inner loop uses every
! thread of the team.
! REQUIRES: our-cpu-device-runtime
! RUN: %device-flang %s -o %t.o
! RUN: %device-link %t.o -o %t.so
! RUN: %cpu-launch %t.so line:18 1 2 -- a:12 | FileCheck %s --check-prefix=A
! RUN: %cpu-launch %t.so line:18 3 4 -- a:12 | FileCheck %s --check-prefix=B
! RUN: %cpu-launch %t.so line:18 5 1 -- a:12 | FileCheck %s --check-prefix=C
! RUN: env LIBOMPTARGET_DEVICE_RTL_DEBUG=1 %cpu-launch %t.so line:18 3 4 \
! RUN:   -- a:12 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
program generic_spmd
  integer, parameter :: m = 12, n = 300
  real(8) :: out(m), s
  integer :: i, j
  out = 0
  !$omp target teams distribute private(s) map(from: out)
  do j = 1, m
    s = 0
    !$omp parallel do reduction(+: s)
    do i = 1, n
      s = s + i + j
    end do
    out(j) = s
  end do
end program
! sum over j of (n(n+1)/2 + n*j) = 12*45150 + 300*78
! A: teams=1 threads=2 sum=565200
! B: teams=3 threads=4 sum=565200
! C: teams=5 threads=1 sum=565200
! DEBUG: ompdevice: launching kernel '__omp_offloading_{{.*}}_l18': 3 team(s) of 4 thread(s) on 1 group(s), generic-SPMD (run as generic) mode
