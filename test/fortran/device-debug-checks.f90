! The device runtime checks its own invariants on the CPU device when asked:
! Flang's -fopenmp-target-debug (its __omp_rtl_debug_kind) or
! LIBOMPTARGET_DEVICE_RTL_DEBUG=1 at run time. Unsetting a lock nobody set is
! then reported with the runtime's file and line, the team, the thread and
! the kernel, and the program stops; without either it goes unchecked.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu -fopenmp-target-debug %s -o %t.debug
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s --check-prefix=UNCHECKED
! RUN: not --crash env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.debug 2>&1 | FileCheck %s --check-prefix=CHECKED
! RUN: not --crash env OMP_TARGET_OFFLOAD=mandatory LIBOMPTARGET_DEVICE_RTL_DEBUG=1 %ours-run %t 2>&1 | FileCheck %s --check-prefix=CHECKED
! UNCHECKED: x = 2
! CHECKED: openmp/device/src/Synchronization.cpp:{{[0-9]+}}: omp_unset_lock: team 0, thread 0 of kernel '__omp_offloading_{{.*}}_QQmain_l{{[0-9]+}}': device assertion `omp_unset_lock of a lock that is not set` failed
! CHECKED-NOT: x =
program p
  use omp_lib
  integer(omp_lock_kind) :: l
  integer :: x
  x = 1
!$omp target map(tofrom: x, l)
  call omp_init_lock(l)
  call omp_unset_lock(l)
  x = 2
!$omp end target
  print '(a, i0)', 'x = ', x
end
