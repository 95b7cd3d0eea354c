! One CPU device image with a host-style kernel (clang, C++: libomp) and a
! GPU-style kernel (Flang: the device runtime). The names both runtimes
! define reach libomp from the host-style kernel and the device runtime from
! the GPU-style one.
! REQUIRES: our-cpu-device-runtime
! RUN: %device-flang %s -o %t-f.o
! RUN: %device-clangxx %S/Inputs/host-style-kernel.cpp -o %t-c.o
! RUN: %device-link %t-f.o %t-c.o -o %t.so
! RUN: env OMP_NUM_THREADS=3 %cpu-launch %t.so line:6 -- i:-1 i:-1 \
! RUN:   | FileCheck %s --check-prefix=HOST
! RUN: env OMP_NUM_THREADS=3 %cpu-launch %t.so line:18 1 4 -- i:-1 i:-1 \
! RUN:   | FileCheck %s --check-prefix=DEVICE
program mixed
  use omp_lib
  integer :: nt, lvl
  nt = -1
  lvl = -1
  !$omp target map(tofrom: nt, lvl)
  !$omp parallel
  if (omp_get_thread_num() == 0) then
    nt = omp_get_num_threads()
    lvl = omp_get_level()
  end if
  !$omp end parallel
  !$omp end target
end program
! HOST: host-style 3 1
! DEVICE: teams=1 threads=4 4 1
