//===- InteropAPI.cpp - `#pragma omp interop` and omp_get_interop_* ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// clang-22 lowers `#pragma omp interop` to __tgt_interop_init / _use /
// _destroy (OpenMP 5.1's forms). The object a program holds is an
// InteropObject (Interop.h) on the chosen device, with the properties its
// plugin reports and, where the device has asynchronous work, a foreign
// synchronization object (CUDA: a stream) that `use` and `destroy` wait on.
//
// libomp also defines omp_get_interop_*; it forwards them to the next
// definition in the process, which is ours.
//
//===----------------------------------------------------------------------===//

#include "api/LibompABI.h"
#include "api/Policy.h"
#include "diagnostics/Diagnostics.h"
#include "images/Runtime.h"
#include "interop/Interop.h"

#include <cstdint>

using namespace offload;

#define OFFLOAD_API extern "C" __attribute__((visibility("default")))

namespace {

/// The `depend` clauses of an interop construct: it starts once they hold.
void waitForDependences(const ident_t *Loc, int32_t Gtid, int32_t NumDeps,
                        void *DepList) {
  if (NumDeps > 0 && DepList)
    __kmpc_omp_wait_deps(Loc, Gtid, NumDeps, DepList, 0, nullptr);
}

InteropObject *liveObject(void *Interop) {
  auto *Object = static_cast<InteropObject *>(Interop);
  return Object && Object->Magic == InteropObject::LiveMagic ? Object
                                                             : nullptr;
}

/// Reports a failed interop operation. As for target constructs, a failure
/// is fatal when offloading is mandatory; otherwise the program goes on
/// (an object that could not be made stays omp_interop_none).
void interopFailed(const ident_t *Loc, const char *What, int32_t DeviceNum,
                   const std::string &Why) {
  errorMessage("%s on device %d at %s: %s", What, DeviceNum,
               sourceLocation(Loc).c_str(), Why.c_str());
  if (offloadPolicy() == OffloadPolicy::Mandatory)
    targetConstructFailed(Loc);
}

template <typename T>
T readProperty(void *Interop, int Property, InteropValue::Type Wanted,
               int *Err, T InteropValue::*Field) {
  int Rc = IrcSuccess;
  InteropValue Value =
      readInteropProperty(static_cast<const InteropObject *>(Interop),
                          Property, Wanted, Rc);
  if (Err)
    *Err = Rc;
  return Rc == IrcSuccess ? Value.*Field : T();
}

} // namespace

OFFLOAD_API void __tgt_interop_init(const ident_t *Loc, int32_t Gtid,
                                    void **InteropPtr, int32_t Kind,
                                    int32_t DeviceNum, int32_t NumDeps,
                                    void *DepList, int32_t HaveNowait) {
  (void)HaveNowait; // nothing is left running: creation is synchronous
  if (!InteropPtr)
    return;
  *InteropPtr = nullptr;
  waitForDependences(Loc, Gtid, NumDeps, DepList);
  if (offloadPolicy() == OffloadPolicy::Disabled)
    return;
  if (DeviceNum == -1)
    DeviceNum = omp_get_default_device();
  // The initial device (the host) has no foreign runtime: omp_interop_none,
  // which the specification allows when no object can be made.
  if (DeviceNum == visibleDevices()) {
    OFFLOAD_DEBUG("interop init at %s: device %d is the host: "
                  "omp_interop_none",
                  sourceLocation(Loc).c_str(), DeviceNum);
    return;
  }
  Device *D = DeviceNum >= 0 && DeviceNum < visibleDevices()
                  ? Runtime::get().device(DeviceNum)
                  : nullptr;
  if (!D) {
    interopFailed(Loc, "interop init", DeviceNum,
                  "no such device");
    return;
  }
  if (!D->prepare()) {
    interopFailed(Loc, "interop init", DeviceNum,
                  "the device could not be initialized");
    return;
  }
  auto *Object = new InteropObject();
  Object->DeviceNum = DeviceNum;
  Object->Kind = Kind == InteropTargetSync ? InteropTargetSync : InteropTarget;
  Object->Owner = D;
  Object->Properties = D->plugin().getInteropProperties();
  if (plugin::Status S = D->plugin().createInteropSync(Object->TargetSync)) {
    delete Object;
    interopFailed(Loc, "interop init (creating its synchronization object)",
                  DeviceNum, S.message());
    return;
  }
  *InteropPtr = Object;
}

OFFLOAD_API void __tgt_interop_use(const ident_t *Loc, int32_t Gtid,
                                   void **InteropPtr, int32_t DeviceNum,
                                   int32_t NumDeps, void *DepList,
                                   int32_t HaveNowait) {
  (void)DeviceNum; // the object knows its device
  (void)HaveNowait;
  waitForDependences(Loc, Gtid, NumDeps, DepList);
  InteropObject *Object = InteropPtr ? liveObject(*InteropPtr) : nullptr;
  if (!Object || !Object->TargetSync)
    return;
  // `use` orders the foreign work queued so far before what follows.
  if (plugin::Status S =
          Object->Owner->plugin().waitInteropSync(Object->TargetSync))
    interopFailed(Loc, "interop use",
                  Object->DeviceNum, S.message());
}

OFFLOAD_API void __tgt_interop_destroy(const ident_t *Loc, int32_t Gtid,
                                       void **InteropPtr, int32_t DeviceNum,
                                       int32_t NumDeps, void *DepList,
                                       int32_t HaveNowait) {
  (void)DeviceNum;
  (void)HaveNowait;
  waitForDependences(Loc, Gtid, NumDeps, DepList);
  InteropObject *Object = InteropPtr ? liveObject(*InteropPtr) : nullptr;
  if (!Object)
    return;
  plugin::Status S;
  if (Object->TargetSync)
    S = Object->Owner->plugin().destroyInteropSync(Object->TargetSync);
  int32_t Num = Object->DeviceNum;
  Object->Magic = 0;
  delete Object;
  *InteropPtr = nullptr; // omp_interop_none, as the specification says
  if (S)
    interopFailed(Loc, "interop destroy", Num,
                  S.message());
}

OFFLOAD_API int omp_get_num_interop_properties(void *Interop) {
  (void)Interop;
  return 0; // no implementation-defined properties
}

OFFLOAD_API intptr_t omp_get_interop_int(void *Interop, int Property,
                                         int *Err) {
  return readProperty(Interop, Property, InteropValue::Int, Err,
                      &InteropValue::IntValue);
}

OFFLOAD_API void *omp_get_interop_ptr(void *Interop, int Property, int *Err) {
  return readProperty(Interop, Property, InteropValue::Ptr, Err,
                      &InteropValue::PtrValue);
}

OFFLOAD_API const char *omp_get_interop_str(void *Interop, int Property,
                                            int *Err) {
  return readProperty(Interop, Property, InteropValue::Str, Err,
                      &InteropValue::StrValue);
}

OFFLOAD_API const char *omp_get_interop_name(void *Interop, int Property) {
  (void)Interop;
  return interopPropertyName(Property);
}

OFFLOAD_API const char *omp_get_interop_type_desc(void *Interop,
                                                  int Property) {
  return interopPropertyType(static_cast<const InteropObject *>(Interop),
                             Property);
}

OFFLOAD_API const char *omp_get_interop_rc_desc(void *Interop, int Rc) {
  (void)Interop;
  return interopRcDescription(Rc);
}

/// LLVM 22's libomp forwards omp_get_interop_rc_desc to the next definition
/// of "omp_get_interop_rec_desc" (sic), so without this name a program that
/// resolves the routine to libomp (which comes first) always gets NULL.
OFFLOAD_API const char *omp_get_interop_rec_desc(void *Interop, int Rc) {
  return omp_get_interop_rc_desc(Interop, Rc);
}
