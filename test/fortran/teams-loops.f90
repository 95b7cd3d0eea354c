! `target teams distribute parallel do` with and without reductions,
! collapse and schedules, run on the CPU device; the loops really use
! several threads.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
! RUN: env OMP_TARGET_OFFLOAD=mandatory OMP_NUM_TEAMS=3 \
! RUN:   OMP_TEAMS_THREAD_LIMIT=4 %ours-run %t | FileCheck %s
program teams_loops
  use omp_lib
  implicit none
  integer, parameter :: n = 10000, m = 37
  real(8) :: x(n), y(n), s
  integer :: i, j, threads, b(m, m), big
  integer(8) :: isum

  x = 0
  !$omp target teams distribute parallel do map(tofrom: x)
  do i = 1, n
    x(i) = 2 * i
  end do
  ! CHECK: plain: 2 20000
  print '(A,I0,A,I0)', 'plain: ', int(x(1)), ' ', int(x(n))

  s = 0
  threads = 0
  !$omp target teams distribute parallel do reduction(+: s) &
  !$omp&   reduction(max: threads) map(to: x)
  do i = 1, n
    s = s + x(i)
    threads = max(threads, omp_get_num_threads())
  end do
  ! CHECK: reduction: 100010000 several-threads: T
  print '(A,I0,A,L1)', 'reduction: ', int(s), ' several-threads: ', threads > 1

  b = 0
  !$omp target teams distribute parallel do collapse(2) map(tofrom: b)
  do j = 1, m
    do i = 1, m
      b(i, j) = b(i, j) + i * 100 + j
    end do
  end do
  ! CHECK: collapse: 101 3737 sum 2627111
  print '(A,I0,A,I0,A,I0)', 'collapse: ', b(1, 1), ' ', b(m, m), ' sum ', sum(b)

  y = -1
  !$omp target teams distribute parallel do schedule(static, 3) map(from: y)
  do i = 1, n
    y(i) = i
  end do
  isum = 0
  !$omp target teams distribute parallel do schedule(dynamic, 7) &
  !$omp&   reduction(+: isum) map(to: y)
  do i = 1, n
    isum = isum + int(y(i), 8)
  end do
  ! CHECK: schedules: 50005000
  print '(A,I0)', 'schedules: ', isum

  big = 0
  !$omp target teams distribute parallel do reduction(max: big) map(to: x)
  do i = 1, n
    big = max(big, int(x(i)))
  end do
  ! CHECK: max: 20000
  print '(A,I0)', 'max: ', big
end program teams_loops
