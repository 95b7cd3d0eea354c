! A Fortran program offloaded to the CPU device: flang compiles the region
! GPU-style, the host plugin launches it through the CPU device runtime and
! tells that runtime which device it is.
! REQUIRES: our-libomptarget, our-linker-wrapper, our-cpu-device-runtime
! RUN: %flang -fopenmp -fopenmp-targets=%target-cpu %s -o %t
! RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t | FileCheck %s
program main
  use omp_lib
  implicit none
  integer :: i, total, devnum, numdev
  real :: a(1000)
  a = 1.0
  total = 0
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, 1000
    a(i) = a(i) + i
  end do
  !$omp target map(tofrom: total)
  total = total + 5
  !$omp end target
  ! CHECK: a1= 2 a1000= 1001 total= 5
  print '(A,I0,A,I0,A,I0)', 'a1= ', int(a(1)), ' a1000= ', int(a(1000)), ' total= ', total
  !$omp target device(2) map(from: devnum, numdev)
  devnum = omp_get_device_num()
  numdev = omp_get_num_devices()
  !$omp end target
  ! CHECK: device-num= 2 num-devices= 4
  print '(A,I0,A,I0)', 'device-num= ', devnum, ' num-devices= ', numdev
end program
