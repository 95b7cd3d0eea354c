! Flang's CPU device code gets the device runtime's loop API as bitcode (the
! flang shim links lib/<triple>/libompdevice-loops.bc into device jobs): the
! loop is inlined into the kernel and the outlined body into the loop, so no
! per-iteration indirect call is left and the triad vectorizes. The program
! then checks every loop shape that goes through the inlined code (distribute,
! parallel do, both combined, with and without chunks) on several grids.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -O2 -fopenmp -fopenmp-targets=%target-cpu --offload-device-only \
! RUN:   -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
! The runtime installed for x86_64-pc-linux-gnu serves the other spelling.
! RUN: %flang -O2 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu \
! RUN:   --offload-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
! RUN: %flang -O2 -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
! RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_TEAMS=3 \
! RUN:   OMP_TEAMS_THREAD_LIMIT=2 %ours-run %t | FileCheck %s
! RUN: env OMP_TARGET_OFFLOAD=mandatory %upstream-run %t | FileCheck %s

! IR-NOT: call {{.*}}@__kmpc_{{[a-z_]+}}_static_loop_
! IR: fmul contract <{{[0-9]+}} x double>
! IR-NOT: call {{.*}}@__kmpc_{{[a-z_]+}}_static_loop_
program loop_api_inlined
  implicit none
  integer, parameter :: n = 100003
  real(8) :: a(n), b(n), c(n), s
  integer :: i, hits(n), bad
  integer(8) :: k

  b = 1
  c = 2
  !$omp target teams distribute parallel do map(to: b, c) map(from: a)
  do i = 1, n
    a(i) = b(i) + 3 * c(i)
  end do
  ! CHECK: triad: 7.0 700021.0
  print '(A,F3.1,A,F8.1)', 'triad: ', a(1), ' ', sum(a)

  s = 0
  !$omp target teams distribute parallel do reduction(+:s) map(to: a, b)
  do i = 1, n
    s = s + a(i) * b(i)
  end do
  ! CHECK: dot: 700021.0
  print '(A,F8.1)', 'dot: ', s

  ! Every iteration exactly once, whatever the chunks.
  hits = 0
  !$omp target teams distribute parallel do dist_schedule(static, 1000) &
  !$omp&   schedule(static, 7) map(tofrom: hits)
  do i = 1, n
    hits(i) = hits(i) + 1
  end do
  !$omp target teams distribute map(tofrom: hits)
  do i = 1, n
    hits(i) = hits(i) + 1
  end do
  !$omp target teams distribute dist_schedule(static, 5) map(tofrom: hits)
  do i = 1, n
    hits(i) = hits(i) + 1
  end do
  !$omp target parallel do schedule(static, 3) map(tofrom: hits)
  do i = 1, n
    hits(i) = hits(i) + 1
  end do
  !$omp target parallel do map(tofrom: hits)
  do i = n, 1, -1
    hits(i) = hits(i) + 1
  end do
  ! 64-bit loops from several kernels: the entry point is called from several
  ! places, and must inline all the same.
  !$omp target teams distribute parallel do map(tofrom: hits)
  do k = 1, n
    hits(k) = hits(k) + 1
  end do
  !$omp target teams distribute parallel do map(tofrom: hits)
  do k = n, 1, -1
    hits(k) = hits(k) + 1
  end do
  bad = count(hits /= 7)
  ! CHECK: iterations run other than 7 times: 0
  print '(A,I0)', 'iterations run other than 7 times: ', bad
end program
