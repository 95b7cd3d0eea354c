//===- ArchConfig.h - Inline configuration of the CPU layer -----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// On the CPU device the runtime is linked into a shared object that also
// holds host-style kernels (clang compiles C/C++ target regions for a CPU
// triple like host code, calling libomp) and is loaded after libomp. Many
// entry points exist in both runtimes (omp_get_thread_num, __kmpc_barrier,
// __kmpc_critical...). Our definitions bind inside the image (hidden
// visibility); each one that libomp also has starts with
// OMPX_FORWARD_TO_HOST, which sends calls from threads that are not device
// threads of one of our launches on to libomp's definition.
//
//===----------------------------------------------------------------------===//

#ifndef OPENMP_DEVICE_ARCH_CPU_ARCHCONFIG_H
#define OPENMP_DEVICE_ARCH_CPU_ARCHCONFIG_H

namespace ompx {
namespace arch {
/// Deepest parallel-region nesting a thread's state counts (a byte).
constexpr uint32_t MaxCountedLevel = 255;

/// The calling thread's device identity; null on every other thread.
extern __thread void *CurrentDeviceThread;

inline bool isDeviceThread() { return CurrentDeviceThread != nullptr; }

/// Where the host's libomp stood when a host-style kernel started running
/// on a thread of an active host team (CPUInPlace.cpp). libomp counts the
/// host's levels too; the device's levels are relative to these.
struct HostNestingBase {
  bool InPlace;
  int Level;
  int ActiveLevel;
};
extern __thread HostNestingBase InPlaceHostNesting;
inline const HostNestingBase &inPlaceHostNesting() {
  return InPlaceHostNesting;
}

/// What hostRuntimeSymbol returns for a name the host runtime lacks (or
/// when no host runtime is loaded): the caller then runs our definition.
#define OMPX_NO_HOST_SYMBOL (reinterpret_cast<void *>(1))

/// Address of \p Name in the host OpenMP runtime (libomp).
void *hostRuntimeSymbol(const char *Name);
} // namespace arch
} // namespace ompx

/// libomp's \p Name as a \p FnType, or null on a device thread or when
/// libomp lacks it; looked up once per use. The locals carry an odd prefix
/// so they never shadow a parameter.
#define OMPX_HOST_FUNCTION(Name, FnType)                                       \
  (::ompx::arch::isDeviceThread()                                              \
       ? static_cast<FnType>(nullptr)                                          \
       : []() -> FnType {                                                      \
           static void *OmpxHostFn_ = nullptr;                                 \
           void *OmpxFn_ = __atomic_load_n(&OmpxHostFn_, __ATOMIC_ACQUIRE);    \
           if (!OmpxFn_) {                                                     \
             OmpxFn_ = ::ompx::arch::hostRuntimeSymbol(#Name);                 \
             __atomic_store_n(&OmpxHostFn_, OmpxFn_, __ATOMIC_RELEASE);        \
           }                                                                   \
           return OmpxFn_ == OMPX_NO_HOST_SYMBOL                               \
                      ? static_cast<FnType>(nullptr)                           \
                      : reinterpret_cast<FnType>(OmpxFn_);                     \
         }())

#define OMPX_FORWARD_TO_HOST(Name, Ret, Params, ...)                           \
  do {                                                                         \
    if (auto OmpxHost_ = OMPX_HOST_FUNCTION(Name, Ret(*) Params))              \
      return OmpxHost_(__VA_ARGS__);                                           \
  } while (false)

/// A global the plugin looks up by name in the loaded image.
#define OMPX_EXPORTED_GLOBAL __attribute__((visibility("default")))

/// GPUs inline the runtime's hot paths into every kernel; host code has no
/// calling-convention cost worth forcing that for.
#define OMPX_HOT

#endif // OPENMP_DEVICE_ARCH_CPU_ARCHCONFIG_H
