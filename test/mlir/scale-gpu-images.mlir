// mlir-offload for the GPUs: one bitcode image per architecture (as clang's
// -foffload-lto), which the wrapper links with the device runtime into an
// sm_90 cubin and a gfx90a code object holding the kernel.
// REQUIRES: gpu-runtime-nvptx, ptxas, nvlink, gpu-runtime-amdgpu, our-linker-wrapper
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %mlir-offload -fopenmp-targets=%target-cpu,nvptx64-nvidia-cuda,amdgcn-amd-amdhsa --offload-arch=sm_90 --offload-arch=gfx90a -O2 -c %S/scale-llvm-dialect.mlir -o %t.dir/k.o
// RUN: llvm-objdump --offloading %t.dir/k.o | FileCheck %s --check-prefix=OBJECT
// RUN: %clang -fopenmp -fopenmp-targets=%target-cpu,nvptx64-nvidia-cuda,amdgcn-amd-amdhsa -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_90 -Xopenmp-target=amdgcn-amd-amdhsa -march=gfx90a %S/Inputs/scale-main.c %t.dir/k.o -o %t.dir/prog
// RUN: llvm-offload-binary %t.dir/prog --image=file=%t.dir/k.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90 --image=file=%t.dir/k.hsaco,triple=amdgcn-amd-amdhsa,arch=gfx90a
// RUN: llvm-readelf -hs %t.dir/k.cubin | FileCheck %s --check-prefix=CUBIN
// RUN: llvm-readelf -hs %t.dir/k.hsaco | FileCheck %s --check-prefix=HSACO
// RUN: env OMP_TARGET_OFFLOAD=mandatory %ours-run %t.dir/prog 2>/dev/null | FileCheck %s --check-prefix=CPU

// OBJECT: kind elf
// OBJECT-NEXT: arch generic
// OBJECT-NEXT: triple x86_64-pc-linux-gnu
// OBJECT: kind llvm ir
// OBJECT-NEXT: arch sm_90
// OBJECT-NEXT: triple nvptx64-nvidia-cuda
// OBJECT: kind llvm ir
// OBJECT-NEXT: arch gfx90a
// OBJECT-NEXT: triple amdgcn-amd-amdhsa

// CUBIN: Machine: NVIDIA CUDA architecture
// CUBIN: __omp_offloading_{{.*}}_scale_l{{[0-9]+}}{{$}}
// HSACO: Machine: EM_AMDGPU
// HSACO: __omp_offloading_{{.*}}_scale_l{{[0-9]+}}{{$}}
// CPU: devices=4 bad=0 v[99]=198
