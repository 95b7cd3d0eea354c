//===- OMPTTrace.cpp - OMPT device tracing interface ----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device tracing entry points of OpenMP 5.1 (ompt_set_trace_ompt,
// ompt_start_trace, ompt_flush_trace, ...), given to the tool by the lookup
// function of its device_initialize callback. Records are
// ompt_record_ompt_t, written one after another into the buffers the tool's
// request callback provides; a full buffer, a flush and a stop hand the
// filled part to the complete callback. A cursor is the address of a
// record. Every device's clock is CLOCK_MONOTONIC in nanoseconds, the clock
// the host measures with, so ompt_translate_time only changes the unit.
//
//===----------------------------------------------------------------------===//

#include "mapping/DeviceWork.h"
#include "ompt/OMPT.h"

#include <omp-tools.h>

#include <time.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace offload;

namespace {

/// The record kinds a device can trace, by their ompt_callbacks_t codes.
constexpr uint64_t bit(int Code) { return uint64_t(1) << Code; }
constexpr uint64_t Traceable = bit(ompt_callback_target) |
                               bit(ompt_callback_target_data_op) |
                               bit(ompt_callback_target_submit);

struct DeviceTrace {
  std::mutex Lock;
  int DeviceNum = 0;
  ompt_callback_buffer_request_t Request = nullptr;
  ompt_callback_buffer_complete_t Complete = nullptr;
  /// Until the tool calls ompt_set_trace_ompt, every kind is recorded.
  uint64_t Enabled = Traceable;
  /// Set by the first ompt_set_trace_ompt: from then on only what the tool
  /// enabled is recorded.
  bool Configured = false;
  bool Running = false;
  bool Paused = false;
  char *Buffer = nullptr;
  size_t Size = 0;
  size_t Used = 0;
};

/// A filled buffer to give back to the tool, outside the device's lock.
struct Delivery {
  ompt_callback_buffer_complete_t Complete = nullptr;
  int DeviceNum = 0;
  char *Buffer = nullptr;
  size_t Used = 0;
  void deliver() {
    if (Complete && Buffer && Used)
      Complete(DeviceNum, Buffer, Used,
               static_cast<ompt_buffer_cursor_t>(
                   reinterpret_cast<uintptr_t>(Buffer)),
               /*buffer_owned=*/1);
  }
};

std::mutex TracesLock;
std::map<int, std::unique_ptr<DeviceTrace>> Traces;
std::atomic<int> RunningTraces{0};

DeviceTrace &traceOf(int DeviceNum) {
  std::lock_guard<std::mutex> Guard(TracesLock);
  std::unique_ptr<DeviceTrace> &T = Traces[DeviceNum];
  if (!T) {
    T = std::make_unique<DeviceTrace>();
    T->DeviceNum = DeviceNum;
  }
  return *T;
}

DeviceTrace *traceOf(ompt_device_t *Device) {
  if (!Device)
    return nullptr;
  return &traceOf(static_cast<offload::DeviceWork *>(Device)->Id);
}

/// Takes the filled part of \p T's buffer out for delivery. T.Lock held.
Delivery takeBuffer(DeviceTrace &T) {
  Delivery D{T.Complete, T.DeviceNum, T.Buffer, T.Used};
  T.Buffer = nullptr;
  T.Size = T.Used = 0;
  return D;
}

uint64_t threadId() {
  static std::atomic<uint64_t> Next{1};
  // Initial-exec, as the thread state in OMPT.cpp.
  __attribute__((tls_model("initial-exec"))) static thread_local uint64_t Id =
      0;
  if (!Id)
    Id = Next.fetch_add(1, std::memory_order_relaxed);
  return Id;
}

/// Appends a record of kind \p Type, filled by \p Fill, to \p DeviceNum's
/// trace when that device records it.
template <typename FillT>
void append(int DeviceNum, ompt_callbacks_t Type, uint64_t Time,
            uint64_t TargetId, FillT Fill) {
  if (RunningTraces.load(std::memory_order_relaxed) == 0)
    return;
  DeviceTrace *T;
  {
    std::lock_guard<std::mutex> Guard(TracesLock);
    auto It = Traces.find(DeviceNum);
    if (It == Traces.end())
      return;
    T = It->second.get();
  }
  Delivery Full;
  {
    std::lock_guard<std::mutex> Guard(T->Lock);
    if (!T->Running || T->Paused || !(T->Enabled & bit(Type)))
      return;
    if (T->Buffer && T->Used + sizeof(ompt_record_ompt_t) > T->Size)
      Full = takeBuffer(*T);
    if (!T->Buffer) {
      ompt_buffer_t *Buffer = nullptr;
      size_t Bytes = 0;
      T->Request(T->DeviceNum, &Buffer, &Bytes);
      if (!Buffer || Bytes < sizeof(ompt_record_ompt_t)) {
        // No room offered: this record is lost.
        Full.deliver();
        return;
      }
      T->Buffer = static_cast<char *>(Buffer);
      T->Size = Bytes;
      T->Used = 0;
    }
    auto *R = reinterpret_cast<ompt_record_ompt_t *>(T->Buffer + T->Used);
    std::memset(R, 0, sizeof(*R));
    R->type = Type;
    R->time = Time;
    R->thread_id = threadId();
    R->target_id = TargetId;
    Fill(*R);
    T->Used += sizeof(ompt_record_ompt_t);
  }
  Full.deliver();
}

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

ompt_set_result_t setTraceOmpt(ompt_device_t *Device, unsigned Enable,
                               unsigned EventType) {
  DeviceTrace *T = traceOf(Device);
  if (!T)
    return ompt_set_error;
  uint64_t Bits;
  switch (EventType) {
  case 0: // Every kind this device can trace.
    Bits = Traceable;
    break;
  case ompt_callback_target:
  case ompt_callback_target_emi:
    Bits = bit(ompt_callback_target);
    break;
  case ompt_callback_target_data_op:
  case ompt_callback_target_data_op_emi:
    Bits = bit(ompt_callback_target_data_op);
    break;
  case ompt_callback_target_submit:
  case ompt_callback_target_submit_emi:
    Bits = bit(ompt_callback_target_submit);
    break;
  default:
    return ompt_set_never;
  }
  std::lock_guard<std::mutex> Guard(T->Lock);
  if (!T->Configured) {
    T->Configured = true;
    T->Enabled = 0;
  }
  T->Enabled = Enable ? (T->Enabled | Bits) : (T->Enabled & ~Bits);
  return ompt_set_always;
}

ompt_set_result_t setTraceNative(ompt_device_t *, int, int) {
  return ompt_set_never; // No native (vendor) records.
}

int startTrace(ompt_device_t *Device, ompt_callback_buffer_request_t Request,
               ompt_callback_buffer_complete_t Complete) {
  DeviceTrace *T = traceOf(Device);
  if (!T || !Request || !Complete)
    return 0;
  {
    std::lock_guard<std::mutex> Guard(T->Lock);
    T->Request = Request;
    T->Complete = Complete;
    T->Paused = false;
    if (!T->Running) {
      T->Running = true;
      RunningTraces.fetch_add(1);
    }
  }
  ompt::updateActive();
  return 1;
}

int pauseTrace(ompt_device_t *Device, int BeginPause) {
  DeviceTrace *T = traceOf(Device);
  if (!T)
    return 0;
  std::lock_guard<std::mutex> Guard(T->Lock);
  if (!T->Running)
    return 0;
  T->Paused = BeginPause != 0;
  return 1;
}

int flushTrace(ompt_device_t *Device) {
  DeviceTrace *T = traceOf(Device);
  if (!T)
    return 0;
  Delivery D;
  {
    std::lock_guard<std::mutex> Guard(T->Lock);
    if (!T->Running && !T->Buffer)
      return 0;
    D = takeBuffer(*T);
  }
  D.deliver();
  return 1;
}

int stopTrace(DeviceTrace *T) {
  if (!T)
    return 0;
  Delivery D;
  {
    std::lock_guard<std::mutex> Guard(T->Lock);
    if (!T->Running)
      return 0;
    T->Running = false;
    RunningTraces.fetch_sub(1);
    D = takeBuffer(*T);
  }
  D.deliver();
  ompt::updateActive();
  return 1;
}

int stopTrace(ompt_device_t *Device) { return stopTrace(traceOf(Device)); }

int advanceBufferCursor(ompt_device_t *, ompt_buffer_t *Buffer, size_t Size,
                        ompt_buffer_cursor_t Current,
                        ompt_buffer_cursor_t *Next) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Buffer);
  if (!Buffer || !Next || Current < Begin || Current >= Begin + Size)
    return 0;
  uint64_t Candidate = Current + sizeof(ompt_record_ompt_t);
  if (Candidate + sizeof(ompt_record_ompt_t) > Begin + Size)
    return 0;
  *Next = Candidate;
  return 1;
}

ompt_record_t getRecordType(ompt_buffer_t *Buffer, ompt_buffer_cursor_t) {
  return Buffer ? ompt_record_ompt : ompt_record_invalid;
}

ompt_record_ompt_t *getRecordOmpt(ompt_buffer_t *Buffer,
                                  ompt_buffer_cursor_t Current) {
  if (!Buffer || Current < reinterpret_cast<uintptr_t>(Buffer))
    return nullptr;
  return reinterpret_cast<ompt_record_ompt_t *>(
      static_cast<uintptr_t>(Current));
}

void *getRecordNative(ompt_buffer_t *, ompt_buffer_cursor_t,
                      ompt_id_t *HostOpId) {
  if (HostOpId)
    *HostOpId = 0;
  return nullptr;
}

ompt_record_abstract_t *getRecordAbstract(void *) { return nullptr; }

ompt_device_time_t getDeviceTime(ompt_device_t *) { return ompt::now(); }

double translateTime(ompt_device_t *, ompt_device_time_t Time) {
  return static_cast<double>(Time) * 1e-9;
}

int getDeviceNumProcs(ompt_device_t *Device) {
  if (!Device)
    return 0;
  // The CPU device is the one whose work completes in its calls (the host
  // plugin's).
  auto *D = static_cast<offload::DeviceWork *>(Device);
  if (!D->asynchronous())
    return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  return 0; // Not known for GPUs here.
}

} // namespace

uint64_t ompt::now() {
  timespec TS;
  clock_gettime(CLOCK_MONOTONIC, &TS);
  return static_cast<uint64_t>(TS.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(TS.tv_nsec);
}

ompt::DeviceFunctionPtr ompt::lookupDeviceFunction(const char *Name) {
  if (!Name)
    return nullptr;
#define OFFLOAD_ENTRY(Entry, Fn)                                               \
  if (std::strcmp(Name, #Entry) == 0)                                          \
    return reinterpret_cast<DeviceFunctionPtr>(static_cast<Entry##_t>(&Fn));
  OFFLOAD_ENTRY(ompt_set_trace_ompt, setTraceOmpt)
  OFFLOAD_ENTRY(ompt_set_trace_native, setTraceNative)
  OFFLOAD_ENTRY(ompt_start_trace, startTrace)
  OFFLOAD_ENTRY(ompt_pause_trace, pauseTrace)
  OFFLOAD_ENTRY(ompt_flush_trace, flushTrace)
  OFFLOAD_ENTRY(ompt_advance_buffer_cursor, advanceBufferCursor)
  OFFLOAD_ENTRY(ompt_get_record_type, getRecordType)
  OFFLOAD_ENTRY(ompt_get_record_ompt, getRecordOmpt)
  OFFLOAD_ENTRY(ompt_get_record_native, getRecordNative)
  OFFLOAD_ENTRY(ompt_get_record_abstract, getRecordAbstract)
  OFFLOAD_ENTRY(ompt_get_device_time, getDeviceTime)
  OFFLOAD_ENTRY(ompt_translate_time, translateTime)
  OFFLOAD_ENTRY(ompt_get_device_num_procs, getDeviceNumProcs)
#undef OFFLOAD_ENTRY
  if (std::strcmp(Name, "ompt_stop_trace") == 0)
    return reinterpret_cast<DeviceFunctionPtr>(
        static_cast<ompt_stop_trace_t>(&stopTrace));
  return nullptr;
}

bool ompt::tracingAnyDevice() { return RunningTraces.load() != 0; }

void ompt::traceTarget(int DeviceNum, uint64_t Time, uint64_t TargetId,
                       int Kind, int Endpoint, uint64_t TaskId,
                       const void *CodePtr) {
  append(DeviceNum, ompt_callback_target, Time, TargetId,
         [&](ompt_record_ompt_t &R) {
           R.record.target.kind = static_cast<ompt_target_t>(Kind);
           R.record.target.endpoint =
               static_cast<ompt_scope_endpoint_t>(Endpoint);
           R.record.target.device_num = DeviceNum;
           R.record.target.task_id = TaskId;
           R.record.target.target_id = TargetId;
           R.record.target.codeptr_ra = CodePtr;
         });
}

void ompt::traceDataOp(int DeviceNum, uint64_t Start, uint64_t End,
                       uint64_t TargetId, uint64_t HostOpId, int OpType,
                       const void *Src, int SrcDevice, const void *Dest,
                       int DestDevice, size_t Bytes, const void *CodePtr) {
  append(DeviceNum, ompt_callback_target_data_op, Start, TargetId,
         [&](ompt_record_ompt_t &R) {
           ompt_record_target_data_op_t &Op = R.record.target_data_op;
           Op.host_op_id = HostOpId;
           Op.optype = static_cast<ompt_target_data_op_t>(OpType);
           Op.src_addr = const_cast<void *>(Src);
           Op.src_device_num = SrcDevice;
           Op.dest_addr = const_cast<void *>(Dest);
           Op.dest_device_num = DestDevice;
           Op.bytes = Bytes;
           Op.end_time = End;
           Op.codeptr_ra = CodePtr;
         });
}

void ompt::traceKernel(int DeviceNum, uint64_t Start, uint64_t End,
                       uint64_t TargetId, uint64_t HostOpId, unsigned Teams) {
  append(DeviceNum, ompt_callback_target_submit, Start, TargetId,
         [&](ompt_record_ompt_t &R) {
           ompt_record_target_kernel_t &K = R.record.target_kernel;
           K.host_op_id = HostOpId;
           K.requested_num_teams = Teams;
           K.granted_num_teams = Teams;
           K.end_time = End;
         });
}

void ompt::stopAllTraces() {
  if (RunningTraces.load() == 0)
    return;
  std::vector<DeviceTrace *> All;
  {
    std::lock_guard<std::mutex> Guard(TracesLock);
    for (auto &[Id, T] : Traces)
      All.push_back(T.get());
  }
  for (DeviceTrace *T : All)
    stopTrace(T);
}
