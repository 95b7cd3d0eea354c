! Known frontend bug (flang-22): in a map of a section of an allocatable
! array whose second and third subscripts are scalars, p(2:4, i, j), Flang
! computes the section's start with the strides of those two dimensions
! swapped: for p(5,4,3) it maps p(2, j, i). The runtime receives a wrong host
! address (the kernel, which indexes correctly, then writes outside the
! device copy), so no runtime can repair it. The same program built for the
! host alone is right, and so is the same map of a non-allocatable array.
! OpenMP_VV 4.5 target_data/test_target_data_map_from_array_sections.F90
! (its 3-D part) fails on this.
! XFAIL: *
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program map_section_scalar_subscripts
  implicit none
  integer, allocatable :: p(:, :, :)
  integer :: i, j
  allocate(p(5, 4, 3))
  p = 10
  i = 1
  j = 2
  !$omp target data map(from: p(2:4, i, j))
  !$omp target map(alloc: p(2:4, i, j))
  p(2:4, i, j) = 0
  !$omp end target
  !$omp end target data
  ! CHECK: zeroed=3 where=T
  print '(A,I0,A,L1)', 'zeroed=', count(p == 0), ' where=', &
       all(p(2:4, 1, 2) == 0)
end program map_section_scalar_subscripts
