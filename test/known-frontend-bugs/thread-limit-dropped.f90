! Known frontend bug (flang-22): on a combined `target teams distribute
! parallel do` with both `num_threads(n)` and `thread_limit(m)` given by
! variables, flang-22 passes n as the kernel's thread count to
! __tgt_target_kernel and drops m (with constants it gets them right),
! so the region runs with n threads and reports omp_get_thread_limit() == n
! even when n > m (clang-22 passes min(n, m) for the same construct in C).
! The runtime never sees m, so it cannot honour it. OpenMP_VV 4.5
! target_teams_distribute_parallel_for/..._thread_limit.F90 fails on this.
! XFAIL until flang passes the thread limit.
! XFAIL: *
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program thread_limit_dropped
  use omp_lib
  implicit none
  integer :: i, threads(8), limits(8), n, m
  n = 10
  m = 4
  threads = -1
  limits = -1
  !$omp target teams distribute parallel do map(tofrom: threads, limits) &
  !$omp& num_threads(n) thread_limit(m)
  do i = 1, 8
    threads(i) = omp_get_num_threads()
    limits(i) = omp_get_thread_limit()
  end do
  ! CHECK: threads<=4: T limit<=4: T
  print '(A,L1,A,L1)', 'threads<=4: ', maxval(threads) <= 4, &
      ' limit<=4: ', maxval(limits) <= 4
end program
