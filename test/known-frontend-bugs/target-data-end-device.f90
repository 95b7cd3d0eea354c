! Known frontend bug (flang-22 and clang-22 alike): the end of a `target
! data` region without a device clause is lowered to
! __tgt_target_data_end_mapper with device -1, "the default device", which
! the runtime resolves when the region ends. If the region changed the
! default device (omp_set_default_device), the end goes to the new device:
! the data is never copied back from, nor unmapped on, the device the region
! began on. OpenMP says the device is fixed when the construct is
! encountered. The runtime cannot tell a `target data` end from a `target
! exit data` (the same entry point and arguments), so it cannot repair this
! soundly. OpenMP_VV 4.5 target_data/test_target_data_map_devices.F90 fails
! on this. XFAIL until the frontends pass the device of the region's start.
! XFAIL: *
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program target_data_end_device
  use omp_lib
  implicit none
  integer :: a(16)
  a = 1
  call omp_set_default_device(0)
  !$omp target data map(tofrom: a)
  !$omp target
  a = 2
  !$omp end target
  call omp_set_default_device(1)
  !$omp end target data
  ! The region began on device 0: a comes back from there and is unmapped.
  ! CHECK: a=2 still-mapped-on-0=F
  print '(A,I0,A,L1)', 'a=', a(1), ' still-mapped-on-0=', &
       omp_target_is_present(c_loc(a), 0)
contains
  function c_loc(x) result(p)
    use iso_c_binding, only: c_ptr, cl => c_loc
    integer, target :: x(:)
    type(c_ptr) :: p
    p = cl(x)
  end function
end program target_data_end_device
