! `target teams distribute` around a `parallel do` with a reduction (Flang's
! Generic-SPMD kernels): the team-level code runs once per team, the inner
! loop on all threads of the team.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
! RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_TEAMS=3 \
! RUN:   OMP_TEAMS_THREAD_LIMIT=4 %ours-run %t | FileCheck %s
program teams_distribute_parallel
  use omp_lib
  implicit none
  integer, parameter :: m = 20, n = 500
  real(8) :: a(n, m), out(m), s
  integer :: i, j, maxthr
  do j = 1, m
    do i = 1, n
      a(i, j) = i + j
    end do
  end do
  maxthr = 0
  !$omp target teams distribute private(s) map(to: a) map(from: out) &
  !$omp&   map(tofrom: maxthr)
  do j = 1, m
    s = 0
    !$omp parallel do reduction(+: s) reduction(max: maxthr)
    do i = 1, n
      s = s + a(i, j)
      maxthr = max(maxthr, omp_get_num_threads())
    end do
    out(j) = s
  end do
  ! CHECK: sum: 2610000 out1: 125750 several-threads: T
  print '(A,I0,A,I0,A,L1)', 'sum: ', int(sum(out)), ' out1: ', int(out(1)), &
       ' several-threads: ', maxthr > 1
end program teams_distribute_parallel
