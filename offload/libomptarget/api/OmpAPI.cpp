//===- OmpAPI.cpp - The omp_target_* device memory routines --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The OpenMP 5.2 device memory routines and LLVM's allocation extensions.
// Device numbers follow the specification: 0..omp_get_num_devices()-1 are
// devices and omp_get_initial_device() (== omp_get_num_devices()) is the
// host.
//
//===----------------------------------------------------------------------===//

#include "api/AsyncRoutines.h"
#include "api/MemoryRoutines.h"
#include "api/Policy.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "images/Runtime.h"
#include "ompt/OMPT.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace offload;

#define OFFLOAD_API extern "C" __attribute__((visibility("default")))

namespace {

/// omp_depend_t is a pointer to libomp's dependence record.
typedef void *omp_depend_t;

bool isHost(int DeviceNum) { return isHostDevice(DeviceNum); }

void *allocate(size_t Size, int DeviceNum, plugin::AllocKind Kind,
               const char *Routine) {
  if (Size == 0)
    return nullptr;
  if (isHost(DeviceNum))
    return malloc(Size);
  Device *D = deviceFor(DeviceNum, Routine);
  if (!D)
    return nullptr;
  void *Ptr = D->allocate(Size, Kind);
  OFFLOAD_DEBUG("%s(%zu, %d) = %p", Routine, Size, DeviceNum, Ptr);
  return Ptr;
}

void release(void *Ptr, int DeviceNum, plugin::AllocKind Kind,
             const char *Routine) {
  if (!Ptr)
    return;
  if (isHost(DeviceNum)) {
    free(Ptr);
    return;
  }
  if (Device *D = deviceFor(DeviceNum, Routine))
    if (plugin::Status S = D->free(Ptr, Kind))
      errorMessage("%s: %s", Routine, S.message().c_str());
}

} // namespace

OFFLOAD_API int omp_get_num_devices(void) { return visibleDevices(); }

OFFLOAD_API int omp_get_initial_device(void) { return visibleDevices(); }

/// On the host, the device number of the host (code running on a device
/// gets its number from the device runtime).
OFFLOAD_API int omp_get_device_num(void) { return omp_get_initial_device(); }

OFFLOAD_API void *omp_target_alloc(size_t Size, int DeviceNum) {
  // Upstream gives tools the caller's address as the code pointer.
  ompt::ApiScope Api(__builtin_return_address(0));
  return allocate(Size, DeviceNum, plugin::AllocKind::Device,
                  "omp_target_alloc");
}
OFFLOAD_API void *llvm_omp_target_alloc_device(size_t Size, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  return allocate(Size, DeviceNum, plugin::AllocKind::Device,
                  "llvm_omp_target_alloc_device");
}
OFFLOAD_API void *llvm_omp_target_alloc_host(size_t Size, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  return allocate(Size, DeviceNum, plugin::AllocKind::Host,
                  "llvm_omp_target_alloc_host");
}
OFFLOAD_API void *llvm_omp_target_alloc_shared(size_t Size, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  return allocate(Size, DeviceNum, plugin::AllocKind::Shared,
                  "llvm_omp_target_alloc_shared");
}

OFFLOAD_API void omp_target_free(void *Ptr, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  release(Ptr, DeviceNum, plugin::AllocKind::Device, "omp_target_free");
}
OFFLOAD_API void llvm_omp_target_free_device(void *Ptr, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  release(Ptr, DeviceNum, plugin::AllocKind::Device,
          "llvm_omp_target_free_device");
}
OFFLOAD_API void llvm_omp_target_free_host(void *Ptr, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  release(Ptr, DeviceNum, plugin::AllocKind::Host, "llvm_omp_target_free_host");
}
OFFLOAD_API void llvm_omp_target_free_shared(void *Ptr, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  release(Ptr, DeviceNum, plugin::AllocKind::Shared,
          "llvm_omp_target_free_shared");
}

OFFLOAD_API int omp_target_is_present(const void *Ptr, int DeviceNum) {
  if (isHost(DeviceNum))
    return 1;
  if (!Ptr)
    return 0; // nothing is mapped at address zero (as upstream answers)
  Device *D = visibleDevice(DeviceNum);
  if (!D)
    return 0;
  // Under unified shared memory too, only what has a device copy (a map
  // with `close`, omp_target_associate_ptr, a declare target global) is
  // present, as upstream answers.
  (void)D->prepare(); // declare target globals become present on load
  // The storage Ptr refers to, of unknown size: its first byte, as upstream
  // asks. A zero-size lookup would answer for a pointer into the extended
  // range of a mapped section (arr[0] when arr[50:2] is mapped).
  LockedMappingTable Table = D->Mappings.lock();
  return lookupSettled(Table, reinterpret_cast<uintptr_t>(Ptr), 1,
                       /*ToRemove=*/false)
             .Status == LookupResult::Contained;
}

/// Whether device code may dereference the host address \p Ptr directly,
/// e.g. through a pointer passed `firstprivate` or `is_device_ptr`. That is
/// a property of the device, not of the program's `requires` directives: a
/// CPU device runs in the host's address space, so every host address is
/// accessible there, even though `map` still gives it separate copies
/// (upstream's runtime answers 0 for its CPU device). GPUs without unified
/// memory answer 0.
OFFLOAD_API int omp_target_is_accessible(const void *Ptr, size_t Size,
                                         int DeviceNum) {
  (void)Ptr;
  (void)Size;
  if (isHost(DeviceNum))
    return 1;
  Device *D = visibleDevice(DeviceNum);
  if (!D || !D->prepare())
    return 0;
  return D->plugin().supportsUnifiedMemory();
}

OFFLOAD_API void *omp_get_mapped_ptr(const void *Ptr, int DeviceNum) {
  if (!Ptr)
    return nullptr;
  if (isHost(DeviceNum))
    return const_cast<void *>(Ptr);
  Device *D = visibleDevice(DeviceNum);
  if (!D || !D->prepare())
    return nullptr;
  // Null for storage without a device copy, under unified shared memory
  // too (as upstream answers).
  LockedMappingTable Table = D->Mappings.lock();
  uintptr_t Host = reinterpret_cast<uintptr_t>(Ptr);
  LookupResult R = lookupSettled(Table, Host, 0, /*ToRemove=*/false);
  if (R.Status != LookupResult::Contained)
    return nullptr;
  return reinterpret_cast<void *>(R.Entry->translate(Host));
}

OFFLOAD_API int omp_target_memcpy(void *Dst, const void *Src, size_t Length,
                                  size_t DstOffset, size_t SrcOffset,
                                  int DstDevice, int SrcDevice) {
  ompt::ApiScope Api(__builtin_return_address(0));
  if (!Dst || !Src)
    return EINVAL;
  return copyBytes(static_cast<char *>(Dst) + DstOffset,
                   static_cast<const char *>(Src) + SrcOffset, Length,
                   DstDevice, SrcDevice, nullptr, "omp_target_memcpy");
}

OFFLOAD_API int
omp_target_memcpy_rect(void *Dst, const void *Src, size_t ElementSize,
                       int NumDims, const size_t *Volume,
                       const size_t *DstOffsets, const size_t *SrcOffsets,
                       const size_t *DstDimensions, const size_t *SrcDimensions,
                       int DstDevice, int SrcDevice) {
  ompt::ApiScope Api(__builtin_return_address(0));
  // Both null: the caller asks how many dimensions are supported.
  if (!Dst && !Src)
    return INT_MAX;
  if (!Dst || !Src || NumDims < 1 || !Volume || !DstOffsets || !SrcOffsets ||
      !DstDimensions || !SrcDimensions)
    return EINVAL;
  return copyRect(Dst, Src, ElementSize, NumDims, Volume, DstOffsets,
                  SrcOffsets, DstDimensions, SrcDimensions, DstDevice,
                  SrcDevice, nullptr, "omp_target_memcpy_rect");
}

OFFLOAD_API int omp_target_memcpy_async(void *Dst, const void *Src,
                                        size_t Length, size_t DstOffset,
                                        size_t SrcOffset, int DstDevice,
                                        int SrcDevice, int DepObjCount,
                                        omp_depend_t *DepObjList) {
  ompt::ApiScope Api(__builtin_return_address(0));
  static const char Routine[] = "omp_target_memcpy_async";
  if (!Dst || !Src)
    return EINVAL;
  char *To = static_cast<char *>(Dst) + DstOffset;
  const char *From = static_cast<const char *>(Src) + SrcOffset;
  return runAfterDependences(
      queueDevice(DstDevice, SrcDevice), Routine,
      [=](__tgt_async_info *Queue) {
        return copyBytes(To, From, Length, DstDevice, SrcDevice, Queue,
                         Routine);
      },
      DepObjCount, DepObjList);
}

OFFLOAD_API int omp_target_memcpy_rect_async(
    void *Dst, const void *Src, size_t ElementSize, int NumDims,
    const size_t *Volume, const size_t *DstOffsets, const size_t *SrcOffsets,
    const size_t *DstDimensions, const size_t *SrcDimensions, int DstDevice,
    int SrcDevice, int DepObjCount, omp_depend_t *DepObjList) {
  ompt::ApiScope Api(__builtin_return_address(0));
  static const char Routine[] = "omp_target_memcpy_rect_async";
  if (!Dst && !Src)
    return INT_MAX;
  if (!Dst || !Src || NumDims < 1 || !Volume || !DstOffsets || !SrcOffsets ||
      !DstDimensions || !SrcDimensions)
    return EINVAL;
  // The caller's arrays need not outlive the call: the task keeps copies.
  auto Dims = [NumDims](const size_t *A) {
    return std::vector<size_t>(A, A + NumDims);
  };
  return runAfterDependences(
      queueDevice(DstDevice, SrcDevice), Routine,
      [=, Vol = Dims(Volume), DstOff = Dims(DstOffsets),
       SrcOff = Dims(SrcOffsets), DstDims = Dims(DstDimensions),
       SrcDims = Dims(SrcDimensions)](__tgt_async_info *Queue) {
        return copyRect(Dst, Src, ElementSize, NumDims, Vol.data(),
                        DstOff.data(), SrcOff.data(), DstDims.data(),
                        SrcDims.data(), DstDevice, SrcDevice, Queue, Routine);
      },
      DepObjCount, DepObjList);
}

OFFLOAD_API void *omp_target_memset(void *Ptr, int Value, size_t Count,
                                    int DeviceNum) {
  if (!Ptr || Count == 0)
    return Ptr;
  if (isHost(DeviceNum))
    return memset(Ptr, Value, Count);
  if (Device *D = deviceFor(DeviceNum, "omp_target_memset"))
    fillBytes(*D, Ptr, Value, Count, nullptr, "omp_target_memset");
  return Ptr;
}

OFFLOAD_API void *omp_target_memset_async(void *Ptr, int Value, size_t Count,
                                          int DeviceNum, int DepObjCount,
                                          omp_depend_t *DepObjList) {
  static const char Routine[] = "omp_target_memset_async";
  if (!Ptr || Count == 0)
    return Ptr;
  Device *D = isHost(DeviceNum) ? nullptr : deviceFor(DeviceNum, Routine);
  if (!isHost(DeviceNum) && !D)
    return Ptr;
  Device *Queued = D && D->asynchronous() ? D : nullptr;
  (void)runAfterDependences(
      Queued, Routine,
      [=](__tgt_async_info *Queue) {
        if (!D)
          memset(Ptr, Value, Count);
        else
          fillBytes(*D, Ptr, Value, Count, Queue, Routine);
        return 0;
      },
      DepObjCount, DepObjList);
  return Ptr;
}

OFFLOAD_API int omp_target_associate_ptr(const void *HostPtr,
                                         const void *DevicePtr, size_t Size,
                                         size_t DeviceOffset, int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  if (!HostPtr || !DevicePtr || Size == 0)
    return EINVAL;
  if (isHost(DeviceNum))
    return EINVAL;
  Device *D = deviceFor(DeviceNum, "omp_target_associate_ptr");
  if (!D)
    return EINVAL;
  uintptr_t Target = reinterpret_cast<uintptr_t>(DevicePtr) + DeviceOffset;
  ompt::DataOpScope Op(ompt::DataAssociate, HostPtr, -1,
                       reinterpret_cast<void *>(Target), D->Id, Size);
  LockedMappingTable Table = D->Mappings.lock();
  uintptr_t Host = reinterpret_cast<uintptr_t>(HostPtr);
  LookupResult R = lookupSettled(Table, Host, Size, /*ToRemove=*/false);
  if (R.Status == LookupResult::Contained && R.Entry->HstBegin == Host &&
      R.Entry->size() == Size && R.Entry->TgtBegin == Target)
    return 0; // The same association again.
  if (R.Status != LookupResult::Absent) {
    errorMessage("omp_target_associate_ptr: host range 0x%lx (%zu bytes) "
                 "is already mapped on device %d",
                 static_cast<unsigned long>(Host), Size, DeviceNum);
    return EINVAL;
  }
  MapEntry E;
  E.HstBegin = E.HstBase = Host;
  E.HstEnd = Host + Size;
  E.TgtBegin = Target;
  E.Permanent = true;
  E.Associated = true;
  Table->insert(E);
  return 0;
}

OFFLOAD_API int omp_target_disassociate_ptr(const void *HostPtr,
                                            int DeviceNum) {
  ompt::ApiScope Api(__builtin_return_address(0));
  if (!HostPtr || isHost(DeviceNum))
    return EINVAL;
  Device *D = deviceFor(DeviceNum, "omp_target_disassociate_ptr");
  if (!D)
    return EINVAL;
  ompt::DataOpScope Op(ompt::DataDisassociate, HostPtr, -1, nullptr, D->Id,
                       0);
  LockedMappingTable Table = D->Mappings.lock();
  uintptr_t Host = reinterpret_cast<uintptr_t>(HostPtr);
  LookupResult R = lookupSettled(Table, Host, 0, /*ToRemove=*/true);
  // Upstream's wording first (tests look for it), then what it concerns.
  if (R.Status != LookupResult::Contained || R.Entry->HstBegin != Host) {
    errorMessage("Association not found: omp_target_disassociate_ptr of host "
                 "address 0x%lx on device %d, which has no mapping starting "
                 "there",
                 static_cast<unsigned long>(Host), DeviceNum);
    return EINVAL;
  }
  // A structured (ompx_hold) reference forbids it whatever mapped the
  // pointer, as OpenACC's acc_unmap_data does.
  if (R.Entry->HoldRefCount) {
    errorMessage("Trying to disassociate a pointer with a non-zero hold "
                 "reference count (host address 0x%lx, device %d)",
                 static_cast<unsigned long>(Host), DeviceNum);
    return EINVAL;
  }
  if (!R.Entry->Associated) {
    errorMessage("Trying to disassociate a pointer which was not mapped via "
                 "omp_target_associate_ptr (host address 0x%lx, device %d)",
                 static_cast<unsigned long>(Host), DeviceNum);
    return EINVAL;
  }
  Table->erase(Host);
  notifySettled(Table);
  return 0;
}

/// Page-locks host memory for a device's copy engines (a GPU's: the CPU
/// device uses the memory as it is and answers \p Ptr). Returns the address
/// the device uses for it, or null after an error naming the device.
OFFLOAD_API void *llvm_omp_target_lock_mem(void *Ptr, size_t Size,
                                           int DeviceNum) {
  if (!Ptr || Size == 0 || isHost(DeviceNum))
    return Ptr;
  Device *D = deviceFor(DeviceNum, "llvm_omp_target_lock_mem");
  if (!D)
    return nullptr;
  void *Locked = nullptr;
  if (plugin::Status S = D->plugin().lockHostMemory(Ptr, Size, Locked)) {
    errorMessage("llvm_omp_target_lock_mem: %s", S.message().c_str());
    return nullptr;
  }
  return Locked;
}
OFFLOAD_API void llvm_omp_target_unlock_mem(void *Ptr, int DeviceNum) {
  if (!Ptr || isHost(DeviceNum))
    return;
  if (Device *D = deviceFor(DeviceNum, "llvm_omp_target_unlock_mem"))
    if (plugin::Status S = D->plugin().unlockHostMemory(Ptr))
      errorMessage("llvm_omp_target_unlock_mem: %s", S.message().c_str());
}

/// Dynamic team-shared memory only exists inside a kernel; on the host there
/// is none.
OFFLOAD_API void *llvm_omp_target_dynamic_shared_alloc() { return nullptr; }

/// Prints every device's mapping table (LIBOMPTARGET_INFO format).
OFFLOAD_API void ompx_dump_mapping_tables() {
  Runtime &RT = Runtime::get();
  for (int32_t I = 0, E = RT.numDevices(); I < E; ++I) {
    Device *D = RT.device(I);
    if (!D)
      continue;
    LockedMappingTable Table = D->Mappings.lock();
    D->dumpMappingTable(Table, "table");
  }
}

/// The initial device's UID, as upstream names it.
static const char HostUID[] = "HOST";

OFFLOAD_API const char *omp_get_uid_from_device(int DeviceNum) {
  if (isHost(DeviceNum))
    return HostUID;
  Device *D = visibleDevice(DeviceNum);
  return D ? D->uid() : nullptr;
}

/// omp_invalid_device of omp.h when no device has \p DeviceUID.
OFFLOAD_API int omp_get_device_from_uid(const char *DeviceUID) {
  constexpr int InvalidDevice = -2;
  if (!DeviceUID)
    return InvalidDevice;
  if (std::strcmp(DeviceUID, HostUID) == 0)
    return omp_get_initial_device();
  for (int I = 0, E = visibleDevices(); I < E; ++I)
    if (Device *D = Runtime::get().device(I))
      if (const char *UID = D->uid(); UID && std::strcmp(UID, DeviceUID) == 0)
        return I;
  return InvalidDevice;
}
