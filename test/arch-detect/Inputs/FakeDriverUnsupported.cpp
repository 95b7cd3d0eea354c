// Weak definitions of every entry point of the plugins' CUDA and HSA tables,
// each answering "unsupported" (CUDA error 801, HSA_STATUS_ERROR). Linked
// with FakeCUDADriver.cpp or FakeHSARuntime.cpp, whose strong definitions
// replace the ones device detection needs.
#include "amdgpu/HSARuntime.h"
#include "cuda/CUDADriver.h"

using namespace offload::plugin::cuda;
using namespace offload::plugin::hsa;

#define FAKE_CUDA_UNSUPPORTED(Member, Symbol, Params)                          \
  extern "C" __attribute__((visibility("default")))                            \
  CUresult fake_##Member Params __asm__(Symbol);                               \
  extern "C" __attribute__((weak)) CUresult fake_##Member Params { return 801; }
OFFLOAD_CUDA_DRIVER_FUNCTIONS(FAKE_CUDA_UNSUPPORTED)

#define FAKE_HSA_UNSUPPORTED(Name, Result, Params)                             \
  extern "C" __attribute__((visibility("default"), weak)) Result Name Params { \
    return Result(HSA_STATUS_ERROR);                                           \
  }
OFFLOAD_HSA_FUNCTIONS(FAKE_HSA_UNSUPPORTED)
