! The declare-target examples of the design seed: a module variable with
! `declare target link`, mapped and written on the device, and a function
! that exists only on the device (`device_type(nohost)`).
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-version=50 -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
module test_0
  integer :: sp = 0
  !$omp declare target link(sp)
end module test_0

function func_t_device() result(i)
  !$omp declare target to(func_t_device) device_type(nohost)
  integer :: i
  i = 41
end function func_t_device

program main
  use test_0
  use omp_lib
  implicit none
  interface
    function func_t_device() result(i)
      !$omp declare target to(func_t_device) device_type(nohost)
      integer :: i
    end function
  end interface
  integer :: r, host
  r = 0
  host = -1
  !$omp target map(tofrom: sp)
  sp = 1
  !$omp end target
  !$omp target map(from: r, host)
  r = func_t_device() + 1
  host = omp_is_initial_device()
  !$omp end target
  ! CHECK: sp= 1 r= 42 on-host= 0
  print '(A,I0,A,I0,A,I0)', 'sp= ', sp, ' r= ', r, ' on-host= ', host
end program main
