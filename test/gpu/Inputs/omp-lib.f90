! A Fortran target region in a program that uses omp_lib: Flang declares
! every constant of omp_lib and omp_lib_kinds in the device code.
program omp_lib_team
  use omp_lib
  implicit none
  integer :: n
  call omp_set_schedule(omp_sched_static, 4)
  !$omp target map(from:n)
  n = omp_get_team_num() + omp_sched_dynamic
  !$omp end target
  print '(A,I0)', 'n=', n
  print '(2(A,I0))', 'omp_sched_dynamic=', omp_sched_dynamic, &
    ' openmp_version=', openmp_version
end program
