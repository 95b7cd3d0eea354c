! A generic-mode kernel (`target` + `parallel`): the main thread wakes the
! workers, and the region really runs on several threads.
! REQUIRES: our-cpu-device-runtime
! RUN: %device-flang %s -o %t.o
! RUN: %device-link %t.o -o %t.so
! RUN: %cpu-launch %t.so line:14 -- i:-1 | FileCheck %s --check-prefix=DEFAULT
! RUN: %cpu-launch %t.so line:14 1 4 -- i:-1 | FileCheck %s --check-prefix=FOUR
! RUN: env OMP_TEAMS_THREAD_LIMIT=3 %cpu-launch %t.so line:14 -- i:-1 \
! RUN:   | FileCheck %s --check-prefix=ENV
program generic_parallel
  use omp_lib
  integer :: nt
  nt = -1
  !$omp target map(tofrom: nt)
  !$omp parallel
  if (omp_get_thread_num() == 0) nt = omp_get_num_threads()
  !$omp end parallel
  !$omp end target
  print *, nt
end program
! The default uses at least two threads, even on a small machine.
! DEFAULT: teams=1 threads=[[N:[2-9]|[1-9][0-9]+]] [[N]]
! FOUR: teams=1 threads=4 4
! ENV: teams=1 threads=3 3
