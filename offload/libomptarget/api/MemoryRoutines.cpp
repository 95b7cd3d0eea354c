//===- MemoryRoutines.cpp - Copies and fills of the omp_target_* routines -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "api/MemoryRoutines.h"
#include "api/Policy.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "ompt/OMPT.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

using namespace offload;

bool offload::isHostDevice(int DeviceNum) {
  return DeviceNum == visibleDevices();
}

Device *offload::visibleDevice(int DeviceNum) {
  return DeviceNum >= 0 && DeviceNum < visibleDevices()
             ? Runtime::get().device(DeviceNum)
             : nullptr;
}

Device *offload::deviceFor(int DeviceNum, const char *Routine) {
  Device *D = visibleDevice(DeviceNum);
  if (!D) {
    errorMessage("%s: device number %d is not a valid device (there are %d)",
                 Routine, DeviceNum, Runtime::get().numDevices());
    return nullptr;
  }
  if (!D->prepare())
    return nullptr;
  return D;
}

Device *offload::queueDevice(int DstDevice, int SrcDevice) {
  bool DstHost = isHostDevice(DstDevice), SrcHost = isHostDevice(SrcDevice);
  if (DstHost && SrcHost)
    return nullptr;
  Device *D = visibleDevice(SrcHost ? DstDevice : SrcDevice);
  if (!SrcHost && !DstHost) {
    Device *To = visibleDevice(DstDevice);
    if (!To || !D || &To->Plugin != &D->Plugin)
      return nullptr;
  }
  if (!D || !D->prepare() || !D->asynchronous())
    return nullptr;
  return D;
}

namespace {

/// A copy between devices of two plugins, staged through host memory (two
/// operations for tools), always completed in the call: the staging buffer
/// lives only as long as it.
plugin::Status copyThroughHost(Device &From, Device &To, void *Dst,
                               const void *Src, size_t Length) {
  std::vector<char> Staging(Length);
  plugin::Status S;
  {
    ompt::DataOpScope Op(ompt::DataTransferFromDevice, Src, From.Id,
                         Staging.data(), -1, Length);
    S = From.plugin().dataRetrieve(Staging.data(), Src, Length, nullptr);
  }
  if (!S) {
    ompt::DataOpScope Op(ompt::DataTransferToDevice, Staging.data(), -1, Dst,
                         To.Id, Length);
    S = To.plugin().dataSubmit(Dst, Staging.data(), Length, nullptr);
  }
  return S;
}

} // namespace

int offload::copyBytes(void *Dst, const void *Src, size_t Length, int DstDevice,
                       int SrcDevice, __tgt_async_info *Queue,
                       const char *Routine) {
  if (Length == 0)
    return 0;
  TraceScope Trace("omp_target_memcpy",
                   [&] { return std::to_string(Length) + " bytes"; });
  bool DstHost = isHostDevice(DstDevice), SrcHost = isHostDevice(SrcDevice);
  if (DstHost && SrcHost) {
    memmove(Dst, Src, Length);
    return 0;
  }
  plugin::Status S;
  if (SrcHost) {
    Device *D = deviceFor(DstDevice, Routine);
    if (!D)
      return EINVAL;
    ompt::DataOpScope Op(ompt::DataTransferToDevice, Src, -1, Dst, D->Id,
                         Length);
    S = D->plugin().dataSubmit(Dst, Src, Length, Queue);
  } else if (DstHost) {
    Device *D = deviceFor(SrcDevice, Routine);
    if (!D)
      return EINVAL;
    ompt::DataOpScope Op(ompt::DataTransferFromDevice, Src, D->Id, Dst, -1,
                         Length);
    S = D->plugin().dataRetrieve(Dst, Src, Length, Queue);
  } else {
    Device *From = deviceFor(SrcDevice, Routine);
    Device *To = deviceFor(DstDevice, Routine);
    if (!From || !To)
      return EINVAL;
    if (&From->Plugin == &To->Plugin) {
      // One operation for tools, as upstream's plugins report a device to
      // device copy: a transfer from device between the two devices.
      ompt::DataOpScope Op(ompt::DataTransferFromDevice, Src, From->Id, Dst,
                           To->Id, Length);
      S = From->plugin().dataExchange(Src, To->plugin(), Dst, Length, Queue);
    } else {
      S = copyThroughHost(*From, *To, Dst, Src, Length);
    }
  }
  if (S) {
    errorMessage("%s: %s", Routine, S.message().c_str());
    return EINVAL;
  }
  return 0;
}

int offload::copyRect(void *Dst, const void *Src, size_t ElementSize,
                      int NumDims, const size_t *Volume,
                      const size_t *DstOffsets, const size_t *SrcOffsets,
                      const size_t *DstDims, const size_t *SrcDims,
                      int DstDevice, int SrcDevice, __tgt_async_info *Queue,
                      const char *Routine) {
  if (NumDims == 1)
    return copyBytes(
        static_cast<char *>(Dst) + DstOffsets[0] * ElementSize,
        static_cast<const char *>(Src) + SrcOffsets[0] * ElementSize,
        Volume[0] * ElementSize, DstDevice, SrcDevice, Queue, Routine);
  // Size in bytes of one step along the outermost dimension.
  size_t DstStride = ElementSize, SrcStride = ElementSize;
  for (int I = 1; I < NumDims; ++I) {
    DstStride *= DstDims[I];
    SrcStride *= SrcDims[I];
  }
  for (size_t I = 0; I < Volume[0]; ++I) {
    int Rc = copyRect(
        static_cast<char *>(Dst) + (DstOffsets[0] + I) * DstStride,
        static_cast<const char *>(Src) + (SrcOffsets[0] + I) * SrcStride,
        ElementSize, NumDims - 1, Volume + 1, DstOffsets + 1, SrcOffsets + 1,
        DstDims + 1, SrcDims + 1, DstDevice, SrcDevice, Queue, Routine);
    if (Rc)
      return Rc;
  }
  return 0;
}

void offload::fillBytes(Device &D, void *Ptr, int Value, size_t Count,
                        __tgt_async_info *Queue, const char *Routine) {
  if (plugin::Status S = D.plugin().dataFill(Ptr, Value, Count, Queue))
    errorMessage("%s: %s", Routine, S.message().c_str());
}
