//===- OMPT.h - OpenMP tools interface: target callbacks and tracing ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The target side of OMPT (OpenMP 5.1, section 4): the tool is found and
// initialized by libomp; at the first registration libomptarget asks libomp
// for a connection (`ompt_libomp_connect`, as upstream's runtime does) and
// takes the tool's device and target callbacks from it. Device tracing
// (ompt_start_trace and friends) is reached through the lookup function
// passed to the tool's device_initialize callback.
//
// Without a tool every hook costs one relaxed load of `ompt::Active` and a
// branch predicted not taken.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_OMPT_H
#define OFFLOAD_LIBOMPTARGET_OMPT_H

#include <atomic>
#include <string>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace offload {
class DeviceWork;
namespace ompt {

/// True while a tool gets target callbacks or a device is being traced.
extern std::atomic<bool> Active;

inline bool active() {
  return __builtin_expect(Active.load(std::memory_order_relaxed), false);
}

/// Asks libomp for the tool's callbacks; once, before the first device is
/// initialized (which every event follows).
void connect();

// The numbering of OpenMP 5.1's ompt_target_t and ompt_target_data_op_t.
enum TargetKind : int {
  Target = 1,
  TargetEnterData = 2,
  TargetExitData = 3,
  TargetUpdate = 4,
  TargetNowait = 9,
  TargetEnterDataNowait = 10,
  TargetExitDataNowait = 11,
  TargetUpdateNowait = 12,
};
enum DataOpKind : int {
  DataAlloc = 1,
  DataTransferToDevice = 2,
  DataTransferFromDevice = 3,
  DataDelete = 4,
  DataAssociate = 5,
  DataDisassociate = 6,
};

/// The kind of a data construct: 0 enter, 1 exit, 2 update.
inline TargetKind dataKind(int Action) {
  return static_cast<TargetKind>(TargetEnterData + Action);
}
/// The kind of a kernel launch from its kernel arguments (bit 0 of Flags:
/// nowait).
template <typename KernelArgsT> TargetKind kernelKind(const KernelArgsT *Args) {
  return Args && Args->Version >= 2 && (Args->Flags & 1) ? TargetNowait
                                                         : Target;
}

/// Marks the enclosing construct as `nowait`, so that the region below it
/// reports the _nowait kind.
class NowaitScope {
public:
  NowaitScope();
  ~NowaitScope();
  NowaitScope(const NowaitScope &) = delete;
  NowaitScope &operator=(const NowaitScope &) = delete;

private:
  bool Saved;
};

/// A target construct on device \p DeviceNum: target_emi (or target)
/// begin here, end when the scope closes; the data operations and kernel
/// submissions inside it are correlated to it.
class RegionScope {
public:
  RegionScope(TargetKind Kind, int DeviceNum, const void *CodePtr) {
    if (active())
      begin(Kind, DeviceNum, CodePtr);
  }
  ~RegionScope() {
    if (Started)
      end();
  }
  RegionScope(const RegionScope &) = delete;
  RegionScope &operator=(const RegionScope &) = delete;

private:
  void begin(TargetKind Kind, int DeviceNum, const void *CodePtr);
  void end();
  bool Started = false;
  TargetKind Kind = Target;
};

/// An OpenMP API routine (omp_target_alloc, omp_target_memcpy, ...): when
/// called outside any target construct, its data operations carry the
/// routine's return address \p CodePtr as their code pointer (and
/// target_id 0), as upstream reports them; inside a construct they keep the
/// construct's.
class ApiScope {
public:
  // Not gated on active(): the routine's first call may be what
  // initializes the device and connects the tool.
  explicit ApiScope(const void *CodePtr) { begin(CodePtr); }
  ~ApiScope() {
    if (Started)
      end();
  }
  ApiScope(const ApiScope &) = delete;
  ApiScope &operator=(const ApiScope &) = delete;

private:
  void begin(const void *CodePtr);
  void end();
  bool Started = false;
};

/// A data operation as the tool sees it. \p Dest is what the operation
/// produced (an allocation's device storage); Start and End are the trace's
/// times.
struct DataOpRecord {
  DataOpKind Kind = DataAlloc;
  int SrcDevice = 0, DestDevice = 0;
  const void *Src = nullptr, *Dest = nullptr;
  size_t Bytes = 0;
  uint64_t Start = 0, End = 0;
  /// The host_op_id given by traceRecorded(), which report() reuses.
  uint64_t HostOpId = 0;
};

/// While alive (and a tool is active), the calling thread's allocations are
/// recorded into \p Records instead of reported: a construct plans its map
/// list under its device's mapping lock, and reports each allocation later
/// with report(), just before that item's transfer as upstream orders them,
/// outside the lock (a callback may call back into the runtime).
class DeferAllocations {
public:
  explicit DeferAllocations(std::vector<DataOpRecord> &Records) {
    if (active())
      begin(Records);
  }
  ~DeferAllocations() {
    if (Started)
      end();
  }
  DeferAllocations(const DeferAllocations &) = delete;
  DeferAllocations &operator=(const DeferAllocations &) = delete;

private:
  void begin(std::vector<DataOpRecord> &Records);
  void end();
  bool Started = false;
  std::vector<DataOpRecord> *Saved = nullptr;
};

/// Appends the trace records of recorded operations, in the order they were
/// made (so a thread's trace keeps its times non-decreasing), giving each
/// its host_op_id; without the mapping lock, before the construct's copies.
void traceRecorded(std::vector<DataOpRecord> &Records);

/// Calls the callbacks of a recorded operation: both endpoints (EMI) or the
/// one callback, with the host_op_id of its trace record and the enclosing
/// construct's target_id and code pointer.
void report(const DataOpRecord &R);

/// The host's device number as tools are told it (omp_get_initial_device:
/// the number of devices). Defined by the runtime, which counts the devices
/// (images/Runtime.cpp), so that this folder does not reach back into it.
int initialDeviceNumber();

/// One data operation (target_data_op_emi / target_data_op, and a trace
/// record). \p Src and \p Dest follow OpenMP: for an allocation the host
/// address and the device storage, for a delete the device storage.
class DataOpScope {
public:
  DataOpScope(DataOpKind Kind, const void *Src, int SrcDevice, const void *Dest,
              int DestDevice, size_t Bytes) {
    if (active())
      begin(Kind, Src, SrcDevice, Dest, DestDevice, Bytes);
  }
  ~DataOpScope() {
    if (Started)
      end();
  }
  /// The device address an allocation produced (reported at its end).
  void setDest(const void *Dest) { R.Dest = Dest; }
  DataOpScope(const DataOpScope &) = delete;
  DataOpScope &operator=(const DataOpScope &) = delete;

private:
  void begin(DataOpKind Kind, const void *Src, int SrcDevice, const void *Dest,
             int DestDevice, size_t Bytes);
  void end();
  bool Started = false;
  /// Recorded for a DeferAllocations scope rather than reported.
  std::vector<DataOpRecord> *DeferTo = nullptr;
  DataOpRecord R;
};

/// One kernel launch (target_submit_emi / target_submit, and a trace
/// record).
class SubmitScope {
public:
  explicit SubmitScope(unsigned RequestedTeams) {
    if (active())
      begin(RequestedTeams);
  }
  ~SubmitScope() {
    if (Started)
      end();
  }
  SubmitScope(const SubmitScope &) = delete;
  SubmitScope &operator=(const SubmitScope &) = delete;

private:
  void begin(unsigned RequestedTeams);
  void end();
  bool Started = false;
  unsigned Teams = 0;
  uint64_t StartTime = 0;
};

/// Whether the tool registered device_initialize; after connect().
bool watchesDevices();
/// Device events; each returns at once without a tool.
void deviceInitialized(DeviceWork &D, const std::string &PluginName);
void imageLoaded(DeviceWork &D, const void *HostImage, size_t Bytes,
                 const void *ModuleKey);
void imageUnloaded(DeviceWork &D, const void *ModuleKey);
/// Delivers the traces, then device_finalize for every initialized device;
/// at exit.
void finalizeDevices();

//===----------------------------------------------------------------------===//
// Tracing (OMPTTrace.cpp)
//===----------------------------------------------------------------------===//

/// Nanoseconds of CLOCK_MONOTONIC: ompt_get_device_time of every device.
uint64_t now();
/// The lookup function given to device_initialize.
using DeviceFunctionPtr = void (*)(void);
DeviceFunctionPtr lookupDeviceFunction(const char *Name);
/// Whether any device is being traced (kept in Active too).
bool tracingAnyDevice();
/// Append a record to \p DeviceNum's trace when it is traced and records
/// that kind of event.
void traceTarget(int DeviceNum, uint64_t Time, uint64_t TargetId, int Kind,
                 int Endpoint, uint64_t TaskId, const void *CodePtr);
void traceDataOp(int DeviceNum, uint64_t Start, uint64_t End, uint64_t TargetId,
                 uint64_t HostOpId, int OpType, const void *Src, int SrcDevice,
                 const void *Dest, int DestDevice, size_t Bytes,
                 const void *CodePtr);
void traceKernel(int DeviceNum, uint64_t Start, uint64_t End, uint64_t TargetId,
                 uint64_t HostOpId, unsigned Teams);
/// Delivers every device's partly filled buffer and stops tracing; at exit.
void stopAllTraces();
/// Recomputes Active from the callbacks and the traced devices.
void updateActive();

} // namespace ompt
} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_OMPT_H
