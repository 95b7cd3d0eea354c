! Explicit tasks inside a target region run on the device runtime (each
! task at its creation point), with taskwait and taskgroup.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program tasks
  implicit none
  integer :: a, b, c, i, v(8)
  a = 0
  b = 0
  c = 0
  v = 0
  !$omp target map(tofrom: a, b, c, v)
  !$omp parallel
  !$omp single
  !$omp task shared(a)
  a = 1
  !$omp end task
  !$omp task shared(b)
  b = 2
  !$omp end task
  !$omp taskwait
  c = a + b
  !$omp taskgroup
  do i = 1, 8
    !$omp task firstprivate(i) shared(v)
    v(i) = i * i
    !$omp end task
  end do
  !$omp end taskgroup
  !$omp end single
  !$omp end parallel
  !$omp end target
  ! CHECK: tasks: 1 2 3 squares: 204
  print '(A,I0,A,I0,A,I0,A,I0)', 'tasks: ', a, ' ', b, ' ', c, &
       ' squares: ', sum(v)
end program tasks
