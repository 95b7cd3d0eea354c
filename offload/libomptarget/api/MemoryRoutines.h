//===- MemoryRoutines.h - Copies and fills of the omp_target_* routines -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What omp_target_memcpy, _memcpy_rect and _memset do, shared by their
// blocking forms (OmpAPI.cpp) and their *_async forms (AsyncRoutines.cpp).
// Device numbers follow the specification: 0..omp_get_num_devices()-1 are
// devices and omp_get_initial_device() (== omp_get_num_devices()) is the
// host. Every operation goes on the plugin queue \p Queue when it is given
// (it belongs to the device queueDevice() names), and completes in its call
// otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_API_MEMORYROUTINES_H
#define OFFLOAD_LIBOMPTARGET_API_MEMORYROUTINES_H

#include "images/Runtime.h"

#include <cstddef>

namespace offload {

/// Whether \p DeviceNum is the host's device number.
bool isHostDevice(int DeviceNum);

/// Device \p DeviceNum when programs can see it (not prepared), else null.
Device *visibleDevice(int DeviceNum);

/// The device for a device number, prepared; null (after a message naming
/// \p Routine) when the number is neither a device nor the host.
Device *deviceFor(int DeviceNum, const char *Routine);

/// The device whose queue a copy from \p SrcDevice to \p DstDevice goes on,
/// prepared: the one device involved, or the source of a copy between two
/// devices of one plugin. Null when no queue can take the whole copy (host
/// to host, devices of different plugins, a device without queues) or a
/// number is invalid (the copy itself then says so).
Device *queueDevice(int DstDevice, int SrcDevice);

/// Copies \p Length bytes between any two of the host and the devices.
/// Returns 0, or EINVAL after a message naming \p Routine.
int copyBytes(void *Dst, const void *Src, size_t Length, int DstDevice,
              int SrcDevice, __tgt_async_info *Queue, const char *Routine);

/// The rectangular copy of omp_target_memcpy_rect (arguments already
/// checked), one copyBytes per contiguous row.
int copyRect(void *Dst, const void *Src, size_t ElementSize, int NumDims,
             const size_t *Volume, const size_t *DstOffsets,
             const size_t *SrcOffsets, const size_t *DstDims,
             const size_t *SrcDims, int DstDevice, int SrcDevice,
             __tgt_async_info *Queue, const char *Routine);

/// Sets \p Count bytes at device address \p Ptr of \p D to \p Value; prints
/// a message naming \p Routine on failure.
void fillBytes(Device &D, void *Ptr, int Value, size_t Count,
               __tgt_async_info *Queue, const char *Routine);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_API_MEMORYROUTINES_H
