! Generic-mode kernels: the main thread runs the target region and hands
! parallel regions to the workers; a parallel region inside another one runs
! serialized, as the nesting rules allow.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program generic_nested
  use omp_lib
  implicit none
  integer :: outer, inner, level, total, i, a(100), crit, single, tid(0:7)
  outer = 0
  inner = 0
  level = 0
  total = 0
  crit = 0
  single = 0
  !$omp target map(tofrom: outer, inner, level, total, crit, single)
  total = 1
  !$omp parallel
  if (omp_get_thread_num() == 0) outer = omp_get_num_threads()
  !$omp critical
  crit = crit + 1
  !$omp end critical
  !$omp single
  single = single + 1
  !$omp end single
  !$omp parallel
  if (omp_get_ancestor_thread_num(1) == 0) then
    inner = omp_get_num_threads()
    level = omp_get_level()
  end if
  !$omp end parallel
  !$omp end parallel
  total = total + 1
  !$omp end target
  ! CHECK: outer>1: T inner: 1 level: 2 total: 2 critical-ok: T single: 1
  print '(A,L1,A,I0,A,I0,A,I0,A,L1,A,I0)', 'outer>1: ', outer > 1, &
       ' inner: ', inner, ' level: ', level, ' total: ', total, &
       ' critical-ok: ', crit == outer, ' single: ', single

  a = 0
  !$omp target teams distribute map(tofrom: a)
  do i = 1, 100
    a(i) = i
  end do
  !$omp target teams map(tofrom: a)
  !$omp distribute parallel do
  do i = 1, 100
    a(i) = a(i) + omp_get_team_num() * 0 + 1
  end do
  !$omp end target teams
  ! CHECK: distribute: 5150
  print '(A,I0)', 'distribute: ', sum(a)

  ! Clauses fix the number of threads.
  tid = -1
  !$omp target parallel num_threads(3) map(tofrom: tid)
  tid(omp_get_thread_num()) = omp_get_num_threads()
  !$omp end target parallel
  ! CHECK: num_threads(3): 3 3 3 -1
  print '(A,4(1X,I0))', 'num_threads(3):', tid(0:3)
  tid = -1
  !$omp target teams num_teams(2) thread_limit(3) map(tofrom: tid)
  !$omp parallel
  if (omp_get_team_num() == 1) tid(omp_get_thread_num()) = omp_get_num_threads()
  !$omp end parallel
  !$omp end target teams
  ! CHECK: thread_limit(3): 3 3 3 -1
  print '(A,4(1X,I0))', 'thread_limit(3):', tid(0:3)
end program generic_nested
