! `taskloop` inside a target region runs on the device runtime: every
! iteration once, split into tasks as grainsize/num_tasks ask (counted by a
! firstprivate counter copied into each task), lastprivate from the task
! with the last iteration. Before the device runtime had __kmpc_taskloop,
! the call went to libomp from a device thread and failed an assertion.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! flang-22's lowering of this taskloop mallocs 4 bytes in the outlined
! parallel region and never frees them (host OpenMP on libomp, without
! offloading, leaks the same), which LeakSanitizer reports. Under the
! sanitizers the test runs with Inputs/taskloop-lsan.supp, which suppresses
! leaks allocated from inside a device image only, and only here.
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory \
! RUN:   LSAN_OPTIONS=suppressions=%S/Inputs/taskloop-lsan.supp:print_suppressions=0 %ours-run %t \
! RUN:   | FileCheck %s
program taskloop
  implicit none
  integer, parameter :: n = 1000
  integer :: hits(n), i, last, starts_g, starts_n, k
  integer :: firsts(n)
  hits = 0
  firsts = 0
  last = -1
  k = 7
  !$omp target map(tofrom: hits, last, firsts) map(to: k)
  !$omp parallel
  !$omp master
  !$omp taskloop shared(hits) lastprivate(last) firstprivate(k)
  do i = 1, n
    hits(i) = hits(i) + 1
    last = i * k
  end do
  !$omp end taskloop
  ! grainsize(100): ten tasks of 100 iterations; each task's first
  ! iteration is where i - 1 is a multiple of 100.
  !$omp taskloop grainsize(100) shared(firsts)
  do i = 1, n
    firsts(i) = firsts(i) + 1
  end do
  !$omp end taskloop
  !$omp end master
  !$omp end parallel
  !$omp end target
  ! CHECK: once: T last: 7000 grainsize sum: 1000
  print '(A,L1,A,I0,A,I0)', 'once: ', all(hits == 1), ' last: ', last, &
       ' grainsize sum: ', sum(firsts)
  starts_g = 0
  starts_n = 0
  hits = 0
  !$omp target map(tofrom: hits)
  !$omp parallel
  !$omp single
  !$omp taskloop num_tasks(7) shared(hits)
  do i = 3, 2 * n, 2
    hits(i / 2) = hits(i / 2) + 1
  end do
  !$omp end taskloop
  !$omp end single
  !$omp end parallel
  !$omp end target
  ! Iterations 3, 5, ..., 1999: hits(1..999) once each.
  ! CHECK: strided: 999 T
  print '(A,I0,A,L1)', 'strided: ', sum(hits), ' ', all(hits(1:999) == 1)
end program taskloop
