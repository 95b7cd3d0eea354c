//===- OMPT.cpp - OpenMP tools interface: connection and callbacks --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libomp finds and starts the tool. Its `ompt_libomp_connect` hands a
// libomptarget the tool's callbacks: when a tool is active, it calls our
// initialize with a lookup function that answers the names of the target
// callbacks ("ompt_callback_target_emi", ...) and "ompt_get_task_data" /
// "ompt_get_target_task_data". libomp calls our finalize from its own
// shutdown, after the tool's.
//
//===----------------------------------------------------------------------===//

#include "ompt/OMPT.h"
#include "mapping/DeviceWork.h"
#include "diagnostics/Diagnostics.h"

#include <omp-tools.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

using namespace offload;

std::atomic<bool> ompt::Active{false};

namespace {

/// The host, as OpenMP numbers it in data operations.
constexpr int InitialDevice = -1;

struct ToolCallbacks {
  ompt_callback_device_initialize_t DeviceInitialize = nullptr;
  ompt_callback_device_finalize_t DeviceFinalize = nullptr;
  ompt_callback_device_load_t DeviceLoad = nullptr;
  ompt_callback_device_unload_t DeviceUnload = nullptr;
  ompt_callback_target_emi_t TargetEmi = nullptr;
  ompt_callback_target_t Target = nullptr;
  ompt_callback_target_data_op_emi_t DataOpEmi = nullptr;
  ompt_callback_target_data_op_t DataOp = nullptr;
  ompt_callback_target_submit_emi_t SubmitEmi = nullptr;
  ompt_callback_target_submit_t Submit = nullptr;
};

/// Written once by connect() before any construct can run, then only read.
ToolCallbacks CB;
bool HasRegionCallbacks = false;
ompt_data_t *(*GetTaskData)() = nullptr;
ompt_data_t *(*GetTargetTaskData)() = nullptr;

std::atomic<uint64_t> NextId{1};
uint64_t newId() { return NextId.fetch_add(1, std::memory_order_relaxed); }

/// The construct the calling thread is in.
struct ThreadState {
  bool InRegion = false;
  bool Nowait = false;
  int DeviceNum = 0;
  const void *CodePtr = nullptr;
  /// Ours: the target_id of the non-EMI callbacks and of trace records.
  uint64_t TargetId = 0;
  ompt_data_t TargetData = ompt_data_none;
  ompt_data_t *TaskData = nullptr;
  ompt_data_t *TargetTaskData = nullptr;
  ompt_id_t HostOpId = 0;
};
/// Initial-exec: no __tls_get_addr (so no dependency on the dynamic
/// loader's library), as libomp's own thread-locals.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState Thread;

/// Devices that got device_initialize, for device_finalize at exit.
std::mutex DevicesLock;
std::vector<int> InitializedDevices;

template <typename FnT>
void bind(ompt_function_lookup_t Lookup, ompt_get_callback_t GetCallback,
          const char *Name, ompt_callbacks_t Code, FnT &Out) {
  ompt_interface_fn_t Fn = Lookup(Name);
  if (!Fn && GetCallback) {
    ompt_callback_t C = nullptr;
    if (GetCallback(Code, &C))
      Fn = reinterpret_cast<ompt_interface_fn_t>(C);
  }
  Out = reinterpret_cast<FnT>(Fn);
}

int initializeLibrary(ompt_function_lookup_t Lookup, int, ompt_data_t *) {
  if (!Lookup)
    return 0;
  auto GetCallback =
      reinterpret_cast<ompt_get_callback_t>(Lookup("ompt_get_callback"));
#define OFFLOAD_BIND(Field, Name)                                              \
  bind(Lookup, GetCallback, #Name, Name, CB.Field)
  OFFLOAD_BIND(DeviceInitialize, ompt_callback_device_initialize);
  OFFLOAD_BIND(DeviceFinalize, ompt_callback_device_finalize);
  OFFLOAD_BIND(DeviceLoad, ompt_callback_device_load);
  OFFLOAD_BIND(DeviceUnload, ompt_callback_device_unload);
  OFFLOAD_BIND(TargetEmi, ompt_callback_target_emi);
  OFFLOAD_BIND(Target, ompt_callback_target);
  OFFLOAD_BIND(DataOpEmi, ompt_callback_target_data_op_emi);
  OFFLOAD_BIND(DataOp, ompt_callback_target_data_op);
  OFFLOAD_BIND(SubmitEmi, ompt_callback_target_submit_emi);
  OFFLOAD_BIND(Submit, ompt_callback_target_submit);
#undef OFFLOAD_BIND
  GetTaskData =
      reinterpret_cast<ompt_data_t *(*)()>(Lookup("ompt_get_task_data"));
  GetTargetTaskData =
      reinterpret_cast<ompt_data_t *(*)()>(Lookup("ompt_get_target_task_data"));
  HasRegionCallbacks = CB.TargetEmi || CB.Target || CB.DataOpEmi || CB.DataOp ||
                       CB.SubmitEmi || CB.Submit;
  OFFLOAD_DEBUG("OMPT: connected to the tool (target callbacks: %s)",
                HasRegionCallbacks ? "yes" : "none");
  ompt::updateActive();
  return 1;
}

void finalizeLibrary(ompt_data_t *) {
  // libomp is shutting down: the tool has been finalized already.
  ompt::stopAllTraces();
  CB = ToolCallbacks();
  HasRegionCallbacks = false;
  ompt::updateActive();
}

} // namespace

void ompt::updateActive() {
  Active.store(HasRegionCallbacks || tracingAnyDevice(),
               std::memory_order_relaxed);
}

void ompt::connect() {
  // A guarded static rather than std::call_once, whose thread-locals
  // would make the runtime need the dynamic loader's __tls_get_addr.
  static bool Connected = [] {
    static ompt_start_tool_result_t Result = {initializeLibrary,
                                              finalizeLibrary, ompt_data_none};
    // Looked up rather than linked, so the runtime's core also links into
    // programs (unit tests) without libomp.
    using ConnectFn = void (*)(ompt_start_tool_result_t *);
    auto Connect =
        reinterpret_cast<ConnectFn>(dlsym(RTLD_DEFAULT, "ompt_libomp_connect"));
    if (!Connect) {
      OFFLOAD_DEBUG("OMPT: libomp has no ompt_libomp_connect; no tools");
      return false;
    }
    Connect(&Result);
    // The connection initializes libomp, which shuts down (and finalizes
    // the tool) from exit; registered after it, this runs before.
    if (HasRegionCallbacks || CB.DeviceFinalize || CB.DeviceInitialize)
      atexit(finalizeDevices);
    return true;
  }();
  (void)Connected;
}

//===----------------------------------------------------------------------===//
// Target constructs
//===----------------------------------------------------------------------===//

ompt::NowaitScope::NowaitScope() : Saved(Thread.Nowait) {
  Thread.Nowait = true;
}
ompt::NowaitScope::~NowaitScope() { Thread.Nowait = Saved; }

void ompt::RegionScope::begin(TargetKind Kind, int DeviceNum,
                              const void *CodePtr) {
  if (Thread.InRegion)
    return; // Already inside a construct on this thread: reported once.
  Started = true;
  if (Thread.Nowait && Kind < TargetNowait)
    Kind = static_cast<TargetKind>(Kind + TargetNowait - Target);
  Thread.InRegion = true;
  Thread.DeviceNum = DeviceNum;
  Thread.CodePtr = CodePtr;
  Thread.TargetId = newId();
  Thread.TargetData = ompt_data_none;
  Thread.TaskData = GetTaskData ? GetTaskData() : nullptr;
  Thread.TargetTaskData = GetTargetTaskData ? GetTargetTaskData() : nullptr;
  Thread.HostOpId = 0;
  auto K = static_cast<ompt_target_t>(Kind);
  if (CB.TargetEmi) {
    CB.TargetEmi(K, ompt_scope_begin, DeviceNum, Thread.TaskData,
                 Thread.TargetTaskData, &Thread.TargetData, CodePtr);
  } else if (CB.Target) {
    Thread.TargetData.value = Thread.TargetId;
    CB.Target(K, ompt_scope_begin, DeviceNum, Thread.TaskData, Thread.TargetId,
              CodePtr);
  }
  traceTarget(DeviceNum, now(), Thread.TargetId, Kind, ompt_scope_begin,
              Thread.TaskData ? Thread.TaskData->value : 0, CodePtr);
  // Remembered for end(): Thread.Nowait may have changed by then.
  this->Kind = Kind;
}

void ompt::RegionScope::end() {
  auto K = static_cast<ompt_target_t>(Kind);
  int DeviceNum = Thread.DeviceNum;
  if (CB.TargetEmi)
    CB.TargetEmi(K, ompt_scope_end, DeviceNum, Thread.TaskData,
                 Thread.TargetTaskData, &Thread.TargetData, Thread.CodePtr);
  else if (CB.Target)
    CB.Target(K, ompt_scope_end, DeviceNum, Thread.TaskData, Thread.TargetId,
              Thread.CodePtr);
  traceTarget(DeviceNum, now(), Thread.TargetId, Kind, ompt_scope_end,
              Thread.TaskData ? Thread.TaskData->value : 0, Thread.CodePtr);
  Thread = ThreadState{false, Thread.Nowait};
}

namespace {

/// Where the calling thread's allocations go while a DeferAllocations
/// scope is alive; kept apart from ThreadState, which a region's end
/// resets.
__attribute__((tls_model("initial-exec"))) thread_local std::vector<
    ompt::DataOpRecord> *DeferredAllocations = nullptr;

/// One endpoint of \p R's callback (the non-EMI callback at the begin
/// only), with a fresh host_op_id at the begin. An allocation's device
/// address is known at its end only.
void callDataOp(const ompt::DataOpRecord &R, ompt_scope_endpoint_t Endpoint) {
  auto Op = static_cast<ompt_target_data_op_t>(R.Kind);
  bool Begin = Endpoint == ompt_scope_begin;
  if (Begin)
    Thread.HostOpId = R.HostOpId ? R.HostOpId : newId();
  void *Src = const_cast<void *>(R.Src);
  void *Dest = Begin && R.Kind == ompt::DataAlloc ? nullptr
                                                  : const_cast<void *>(R.Dest);
  if (CB.DataOpEmi)
    CB.DataOpEmi(Endpoint, Thread.InRegion ? Thread.TargetTaskData : nullptr,
                 &Thread.TargetData, &Thread.HostOpId, Op, Src, R.SrcDevice,
                 Dest, R.DestDevice, R.Bytes, Thread.CodePtr);
  else if (CB.DataOp && Begin)
    CB.DataOp(Thread.TargetId, Thread.HostOpId, Op, Src, R.SrcDevice, Dest,
              R.DestDevice, R.Bytes, Thread.CodePtr);
}

/// \p R's trace record, on the device the operation ran on: the one that
/// is not the host.
void traceRecord(const ompt::DataOpRecord &R, uint64_t HostOpId) {
  int Traced =
      R.Kind == ompt::DataDelete || R.Kind == ompt::DataTransferFromDevice
          ? R.SrcDevice
          : R.DestDevice;
  ompt::traceDataOp(Traced, R.Start, R.End, Thread.TargetId, HostOpId,
                    R.Kind, R.Src, R.SrcDevice, R.Dest, R.DestDevice, R.Bytes,
                    Thread.CodePtr);
}

} // namespace

void ompt::ApiScope::begin(const void *CodePtr) {
  if (Thread.InRegion || Thread.CodePtr)
    return; // A construct's (or an outer routine's) code pointer stays.
  Started = true;
  Thread.CodePtr = CodePtr;
}

void ompt::ApiScope::end() { Thread.CodePtr = nullptr; }

void ompt::DeferAllocations::begin(std::vector<DataOpRecord> &Records) {
  Started = true;
  Saved = DeferredAllocations;
  DeferredAllocations = &Records;
}

void ompt::DeferAllocations::end() { DeferredAllocations = Saved; }

void ompt::traceRecorded(std::vector<DataOpRecord> &Records) {
  // Without a trace, the callbacks number the operations in their own
  // (upstream's) order.
  if (!tracingAnyDevice())
    return;
  for (DataOpRecord &R : Records) {
    R.HostOpId = newId();
    traceRecord(R, R.HostOpId);
  }
}

void ompt::report(const DataOpRecord &R) {
  callDataOp(R, ompt_scope_begin);
  callDataOp(R, ompt_scope_end);
}

void ompt::DataOpScope::begin(DataOpKind Kind, const void *Src, int SrcDevice,
                              const void *Dest, int DestDevice, size_t Bytes) {
  Started = true;
  // The host is named as upstream names it: omp_get_initial_device() on
  // the host side of an allocation or a copy, -1 for the absent
  // destination of a delete.
  if (Kind != DataDelete) {
    int Host = initialDeviceNumber();
    SrcDevice = SrcDevice == InitialDevice ? Host : SrcDevice;
    DestDevice = DestDevice == InitialDevice ? Host : DestDevice;
  }
  R.Kind = Kind;
  R.Src = Src;
  R.SrcDevice = SrcDevice;
  R.Dest = Dest;
  R.DestDevice = DestDevice;
  R.Bytes = Bytes;
  R.Start = now();
  if (Kind == DataAlloc && DeferredAllocations) {
    DeferTo = DeferredAllocations;
    return;
  }
  callDataOp(R, ompt_scope_begin);
}

void ompt::DataOpScope::end() {
  R.End = now();
  if (DeferTo) {
    DeferTo->push_back(R);
    return;
  }
  callDataOp(R, ompt_scope_end);
  traceRecord(R, Thread.HostOpId);
}

void ompt::SubmitScope::begin(unsigned RequestedTeams) {
  Started = true;
  Teams = RequestedTeams;
  StartTime = now();
  Thread.HostOpId = newId();
  if (CB.SubmitEmi)
    CB.SubmitEmi(ompt_scope_begin, &Thread.TargetData, &Thread.HostOpId,
                 RequestedTeams);
  else if (CB.Submit)
    CB.Submit(Thread.TargetId, Thread.HostOpId, RequestedTeams);
}

void ompt::SubmitScope::end() {
  if (CB.SubmitEmi)
    CB.SubmitEmi(ompt_scope_end, &Thread.TargetData, &Thread.HostOpId, Teams);
  traceKernel(Thread.DeviceNum, StartTime, now(), Thread.TargetId,
              Thread.HostOpId, Teams);
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

bool ompt::watchesDevices() { return CB.DeviceInitialize != nullptr; }

void ompt::deviceInitialized(DeviceWork &D, const std::string &PluginName) {
  if (!CB.DeviceInitialize)
    return;
  {
    std::lock_guard<std::mutex> Guard(DevicesLock);
    InitializedDevices.push_back(D.Id);
  }
  // The CPU device is named as upstream's plugin names it; a GPU by its
  // plugin ("cuda", "amdgpu").
  std::string Type = PluginName == "host" ? "generic-64bit" : PluginName;
  CB.DeviceInitialize(
      D.Id, Type.c_str(), reinterpret_cast<ompt_device_t *>(&D),
      reinterpret_cast<ompt_function_lookup_t>(&ompt::lookupDeviceFunction),
      "libomptarget (offload toolchain): see docs/OMPT.md");
}

void ompt::imageLoaded(DeviceWork &D, const void *HostImage, size_t Bytes,
                       const void *ModuleKey) {
  if (!CB.DeviceLoad)
    return;
  CB.DeviceLoad(D.Id, /*filename=*/nullptr, /*offset_in_file=*/0,
                /*vma_in_file=*/nullptr, Bytes, const_cast<void *>(HostImage),
                /*device_addr=*/nullptr,
                static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ModuleKey)));
}

void ompt::imageUnloaded(DeviceWork &D, const void *ModuleKey) {
  if (!CB.DeviceUnload)
    return;
  CB.DeviceUnload(
      D.Id, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ModuleKey)));
}

void ompt::finalizeDevices() {
  stopAllTraces();
  std::vector<int> Devices;
  {
    std::lock_guard<std::mutex> Guard(DevicesLock);
    Devices.swap(InitializedDevices);
  }
  if (CB.DeviceFinalize)
    for (int Id : Devices)
      CB.DeviceFinalize(Id);
}
