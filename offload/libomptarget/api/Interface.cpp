//===- Interface.cpp - The __tgt_* entry points compilers call -----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Signatures follow OMPKinds.def of LLVM 22 and the symbols of Debian's
// libomptarget.so.22.1; exports.map gives them the same symbol version.
//
//===----------------------------------------------------------------------===//

#include "api/ConstructQueue.h"
#include "api/Policy.h"
#include "api/TargetTasks.h"
#include "diagnostics/Diagnostics.h"
#include "diagnostics/Profiler.h"
#include "mapping/DataMapping.h"
#include "mapping/MappingDiagnostics.h"
#include "ompt/OMPT.h"

#include <cstdio>

using namespace offload;

#define OFFLOAD_API extern "C" __attribute__((visibility("default")))

namespace {

constexpr int OffloadSuccess = 0;
constexpr int OffloadFail = ~0;

enum class DataAction { Enter, Exit, Update };

/// LIBOMPTARGET_INFO's table dump after a construct: as upstream, the table
/// of every device in turn, "... mappings table empty" for those without
/// entries, so scripts see one dump per device whichever one ran it.
void dumpMappingTables(const ident_t *Loc) {
  Runtime &RT = Runtime::get();
  std::string Why = "after block at " + sourceLocation(Loc);
  for (int32_t I = 0, E = RT.numDevices(); I < E; ++I)
    if (Device *D = RT.device(I)) {
      LockedMappingTable Table = D->Mappings.lock();
      D->dumpMappingTable(Table, Why.c_str());
    }
}

void targetData(const ident_t *Loc, int64_t DeviceId, const MapList &Maps,
                DataAction Action, const void *CodePtr, bool Nowait) {
  static const char *const Names[] = {"target data / target enter data",
                                      "end of target data / target exit data",
                                      "target update"};
  const char *Construct = Names[static_cast<int>(Action)];
  Device *D = selectDevice(DeviceId, Loc, Construct);
  if (!D)
    return; // Runs on the host: nothing to map.
  ompt::RegionScope Region(ompt::dataKind(static_cast<int>(Action)), D->Id,
                           CodePtr);
  TraceScope Trace(Construct, [&] { return sourceLocation(Loc); });
  static const char *const InfoHeaders[] = {
      "Entering OpenMP data region with being_mapper",
      "Exiting OpenMP data region with end_mapper",
      "Updating data within the OpenMP data region with update_mapper"};
  if (infoFlags() & InfoKernelArgs)
    printConstructMaps(*D, InfoHeaders[static_cast<int>(Action)], Loc, Maps);
  ConstructQueue Queue(*D, Loc, Construct, Nowait);
  AsyncContext &Ctx = Queue.context();
  bool Ok = false;
  switch (Action) {
  case DataAction::Enter:
    Ok = mapEnter(*D, Loc, Maps, Ctx, SettleWhen::AtCompletion);
    break;
  case DataAction::Exit:
    Ok = mapExit(*D, Loc, Maps, Ctx);
    break;
  case DataAction::Update:
    Ok = mapUpdate(*D, Loc, Maps, Ctx);
    break;
  }
  Ok = Queue.finish() && Ok;
  if (Ok && (infoFlags() & InfoDumpTable))
    dumpMappingTables(Loc);
  if (!Ok)
    targetConstructFailed(Loc);
}

/// The number of teams and threads a launch asks for: the explicit
/// arguments of __tgt_target_kernel win, then the kernel arguments; -1
/// (a target construct without teams) means one team.
plugin::KernelLaunchParams launchParams(int32_t NumTeams, int32_t ThreadLimit,
                                        const __tgt_kernel_arguments *Args) {
  plugin::KernelLaunchParams P;
  int32_t Teams = NumTeams;
  if (Teams == 0 && Args->Version >= 2)
    Teams = static_cast<int32_t>(Args->NumTeams[0]);
  P.NumTeams = Teams < 0 ? 1 : static_cast<uint32_t>(Teams);
  int32_t Threads = ThreadLimit;
  if (Threads == 0 && Args->Version >= 2)
    Threads = static_cast<int32_t>(Args->ThreadLimit[0]);
  P.ThreadLimit = Threads < 0 ? 0 : static_cast<uint32_t>(Threads);
  P.Tripcount = Args->Tripcount;
  P.DynCGroupMem = Args->Version >= 2 ? Args->DynCGroupMem : 0;
  // Clang fills all three extents for `ompx_bare` kernels, and 0 or 1 in y
  // and z for every other kernel.
  if (Args->Version >= 2)
    for (int D = 0; D < 2; ++D) {
      P.NumTeamsYZ[D] = Args->NumTeams[D + 1];
      P.ThreadLimitYZ[D] = Args->ThreadLimit[D + 1];
    }
  return P;
}

/// Queues the launch of \p Kernel on \p Ctx; stops the program if the
/// plugin refuses it. The kernel's image stays loaded, and its private
/// copies allocated, until the launch has completed.
void queueLaunch(Device &D, const ident_t *Loc, AsyncContext &Ctx,
                 KernelLease &&Kernel, std::vector<void *> &KernelArgs,
                 const plugin::KernelLaunchParams &Params,
                 PrivateAllocations &Privates) {
  if (infoFlags() & InfoPluginKernel)
    pluginInfoMessage(
        D.Id, "Launching kernel %s with %s", Kernel.name(),
        D.plugin().describeLaunch(Kernel.handle(), Params).c_str());
  {
    TraceScope Trace("kernel", Kernel.name());
    ompt::SubmitScope Submit(Params.NumTeams);
    if (plugin::Status S = D.plugin().launchKernel(
            Kernel.handle(), KernelArgs.data(),
            static_cast<uint32_t>(KernelArgs.size()), Params, Ctx.queue())) {
      errorMessage("%s", S.message().c_str());
      targetConstructFailed(Loc);
    }
  }
  if (Ctx.hasQueuedWork()) {
    auto Lease = std::make_shared<KernelLease>(std::move(Kernel));
    Ctx.afterCompletion([&D, Lease, Copies = std::move(Privates.Pointers)] {
      for (void *P : Copies)
        (void)D.free(P, plugin::AllocKind::Device);
    });
    return;
  }
  for (void *P : Privates.Pointers)
    (void)D.free(P, plugin::AllocKind::Device);
}

int targetKernel(const ident_t *Loc, int64_t DeviceId, int32_t NumTeams,
                 int32_t ThreadLimit, void *HostPtr,
                 __tgt_kernel_arguments *Args, const void *CodePtr,
                 bool Nowait) {
  Device *D = selectDevice(DeviceId, Loc, "target");
  if (!D)
    return OffloadFail; // The compiler's host fallback runs the region.
  ompt::RegionScope Region(ompt::kernelKind(Args), D->Id, CodePtr);
  if (!Args || Args->Version < 1 || Args->Version > 3) {
    errorMessage("target region at %s: unsupported kernel-argument version "
                 "%u (this runtime reads versions 1 to 3)",
                 sourceLocation(Loc).c_str(), Args ? Args->Version : 0);
    targetConstructFailed(Loc);
  }
  // Held until the launch has completed: unregistering the kernel's
  // library meanwhile waits for it instead of unloading the image under it.
  KernelLease Kernel = D->acquireKernel(HostPtr);
  if (!Kernel) {
    errorMessage("device %d has no kernel for the target region at %s (host "
                 "entry %p): the program's device image lacks it",
                 D->Id, sourceLocation(Loc).c_str(), HostPtr);
    targetConstructFailed(Loc);
  }
  MapList Maps{static_cast<int32_t>(Args->NumArgs),
               Args->ArgBasePtrs,
               Args->ArgPtrs,
               Args->ArgSizes,
               Args->ArgTypes,
               Args->ArgNames,
               Args->ArgMappers};
  if (infoFlags() & InfoKernelArgs)
    printConstructMaps(*D, "Entering OpenMP kernel", Loc, Maps);

  ConstructQueue Queue(*D, Loc, "target region", Nowait);
  AsyncContext &Ctx = Queue.context();
  std::vector<void *> KernelArgs;
  if (Maps.Count > 0)
    KernelArgs.reserve(Maps.Count); // at most one per item
  PrivateAllocations Privates;
  EnteredEntries Entered;
  // The region's entries are Ready for the launch and the exit step: the
  // entering copies are waited for when there are some.
  bool Ok = mapEnter(*D, Loc, Maps, Ctx, SettleWhen::Now, &Entered);
  if (!Ok)
    errorMessage("Call to targetDataBegin failed, abort target.");
  Ok =
      Ok && kernelArguments(*D, Loc, Maps, Ctx, KernelArgs, Privates, &Entered);
  if (!Ok) {
    errorMessage("Failed to process data before launching the kernel.");
    targetConstructFailed(Loc);
  }
  queueLaunch(*D, Loc, Ctx, std::move(Kernel), KernelArgs,
              launchParams(NumTeams, ThreadLimit, Args), Privates);
  Ok = mapExit(*D, Loc, Maps, Ctx);
  Ok = Queue.finish() && Ok;
  if (Ok && (infoFlags() & InfoDumpTable))
    dumpMappingTables(Loc);
  if (!Ok)
    targetConstructFailed(Loc);
  return OffloadSuccess;
}

/// Builds version-3 kernel arguments for the legacy __tgt_target* calls.
__tgt_kernel_arguments legacyArgs(int32_t ArgNum, void **Bases, void **Args,
                                  int64_t *Sizes, int64_t *Types, void **Names,
                                  void **Mappers, int32_t NumTeams,
                                  int32_t ThreadLimit) {
  __tgt_kernel_arguments K{};
  K.Version = OFFLOAD_KERNEL_ARGS_VERSION;
  K.NumArgs = static_cast<uint32_t>(ArgNum);
  K.ArgBasePtrs = Bases;
  K.ArgPtrs = Args;
  K.ArgSizes = Sizes;
  K.ArgTypes = Types;
  K.ArgNames = Names;
  K.ArgMappers = Mappers;
  K.NumTeams[0] = static_cast<uint32_t>(NumTeams);
  K.ThreadLimit[0] = static_cast<uint32_t>(ThreadLimit);
  return K;
}

int legacyTarget(const ident_t *Loc, int64_t DeviceId, void *HostPtr,
                 int32_t ArgNum, void **Bases, void **Args, int64_t *Sizes,
                 int64_t *Types, void **Names, void **Mappers, int32_t NumTeams,
                 int32_t ThreadLimit, const void *CodePtr) {
  __tgt_kernel_arguments K = legacyArgs(ArgNum, Bases, Args, Sizes, Types,
                                        Names, Mappers, NumTeams, ThreadLimit);
  // Older compilers' entry points: their nowait forms wait, as before.
  return targetKernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr, &K,
                      CodePtr, /*Nowait=*/false);
}

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

OFFLOAD_API void __tgt_register_lib(__tgt_bin_desc *Desc) {
  Runtime &RT = Runtime::get();
  RT.registerLibrary(Desc);
  chooseTargetTaskThreads(RT);
  drainTargetTasksAtExit();
  // Last: connecting to a tool starts libomp, which must see the
  // environment chooseTargetTaskThreads sets; the exit handlers keep the
  // order they had when the connection came at a device's first use.
  RT.initializeDevicesForTools();
}

OFFLOAD_API void __tgt_unregister_lib(__tgt_bin_desc *Desc) {
  Runtime::get().unregisterLibrary(Desc);
}

OFFLOAD_API void __tgt_register_requires(int64_t Flags) {
  Runtime::get().addRequires(Flags);
}

/// Upstream initialises plugins here; ours load on first registration.
OFFLOAD_API void __tgt_init_all_rtls() { (void)Runtime::get().numDevices(); }

OFFLOAD_API int __tgt_get_num_devices() { return visibleDevices(); }

OFFLOAD_API void __tgt_set_info_flag(uint32_t Flags) { setInfoFlags(Flags); }

OFFLOAD_API int __tgt_print_device_info(int64_t DeviceId) {
  Device *D = Runtime::get().device(DeviceId);
  if (!D || !D->prepare())
    return 0;
  printf("Device %d (%s plugin):\n", D->Id, D->Plugin.Name.c_str());
  fflush(stdout);
  D->plugin().printInfo(stdout);
  fflush(stdout);
  return 1;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

OFFLOAD_API int __tgt_target_kernel(ident_t *Loc, int64_t DeviceId,
                                    int32_t NumTeams, int32_t ThreadLimit,
                                    void *HostPtr,
                                    __tgt_kernel_arguments *Args) {
  // A nowait launch (Flags bit 0) runs inside the target task libomp
  // created for it; its work may be left in flight there (ConstructQueue.h).
  bool Nowait =
      Args && Args->Version >= 2 && (Args->Flags & OFFLOAD_KERNEL_FLAG_NOWAIT);
  return targetKernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr, Args,
                      __builtin_return_address(0), Nowait);
}

OFFLOAD_API int __tgt_target_kernel_nowait(ident_t *Loc, int64_t DeviceId,
                                           int32_t NumTeams,
                                           int32_t ThreadLimit, void *HostPtr,
                                           __tgt_kernel_arguments *Args,
                                           int32_t, void *, int32_t, void *) {
  ompt::NowaitScope Nowait;
  return targetKernel(Loc, DeviceId, NumTeams, ThreadLimit, HostPtr, Args,
                      __builtin_return_address(0), /*Nowait=*/true);
}

// The legacy launches. Each entry point calls legacyTarget itself, so that
// tools get the program's return address as the construct's code pointer,
// and every `_nowait` one reports the `_nowait` kind, as
// __tgt_target_kernel_nowait and the data entry points do.

OFFLOAD_API int __tgt_target_mapper(ident_t *Loc, int64_t DeviceId,
                                    void *HostPtr, int32_t ArgNum, void **Bases,
                                    void **Args, int64_t *Sizes, int64_t *Types,
                                    void **Names, void **Mappers) {
  return legacyTarget(Loc, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes, Types,
                      Names, Mappers, -1, 0, __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target(int64_t DeviceId, void *HostPtr, int32_t ArgNum,
                             void **Bases, void **Args, int64_t *Sizes,
                             int64_t *Types) {
  return legacyTarget(nullptr, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes,
                      Types, nullptr, nullptr, -1, 0,
                      __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_nowait_mapper(ident_t *Loc, int64_t DeviceId,
                                           void *HostPtr, int32_t ArgNum,
                                           void **Bases, void **Args,
                                           int64_t *Sizes, int64_t *Types,
                                           void **Names, void **Mappers,
                                           int32_t, void *, int32_t, void *) {
  ompt::NowaitScope Nowait;
  return legacyTarget(Loc, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes, Types,
                      Names, Mappers, -1, 0, __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_nowait(int64_t DeviceId, void *HostPtr,
                                    int32_t ArgNum, void **Bases, void **Args,
                                    int64_t *Sizes, int64_t *Types, int32_t,
                                    void *, int32_t, void *) {
  ompt::NowaitScope Nowait;
  return legacyTarget(nullptr, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes,
                      Types, nullptr, nullptr, -1, 0,
                      __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_teams_mapper(
    ident_t *Loc, int64_t DeviceId, void *HostPtr, int32_t ArgNum, void **Bases,
    void **Args, int64_t *Sizes, int64_t *Types, void **Names, void **Mappers,
    int32_t NumTeams, int32_t ThreadLimit) {
  return legacyTarget(Loc, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes, Types,
                      Names, Mappers, NumTeams, ThreadLimit,
                      __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_teams(int64_t DeviceId, void *HostPtr,
                                   int32_t ArgNum, void **Bases, void **Args,
                                   int64_t *Sizes, int64_t *Types,
                                   int32_t NumTeams, int32_t ThreadLimit) {
  return legacyTarget(nullptr, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes,
                      Types, nullptr, nullptr, NumTeams, ThreadLimit,
                      __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_teams_nowait_mapper(
    ident_t *Loc, int64_t DeviceId, void *HostPtr, int32_t ArgNum, void **Bases,
    void **Args, int64_t *Sizes, int64_t *Types, void **Names, void **Mappers,
    int32_t NumTeams, int32_t ThreadLimit, int32_t, void *, int32_t, void *) {
  ompt::NowaitScope Nowait;
  return legacyTarget(Loc, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes, Types,
                      Names, Mappers, NumTeams, ThreadLimit,
                      __builtin_return_address(0));
}

OFFLOAD_API int __tgt_target_teams_nowait(int64_t DeviceId, void *HostPtr,
                                          int32_t ArgNum, void **Bases,
                                          void **Args, int64_t *Sizes,
                                          int64_t *Types, int32_t NumTeams,
                                          int32_t ThreadLimit, int32_t, void *,
                                          int32_t, void *) {
  ompt::NowaitScope Nowait;
  return legacyTarget(nullptr, DeviceId, HostPtr, ArgNum, Bases, Args, Sizes,
                      Types, nullptr, nullptr, NumTeams, ThreadLimit,
                      __builtin_return_address(0));
}

/// The trip count is carried by the kernel arguments in LLVM 22; older
/// compilers pushed it separately. Nothing on our devices uses it yet.
OFFLOAD_API void __kmpc_push_target_tripcount_mapper(ident_t *, int64_t,
                                                     uint64_t) {}
OFFLOAD_API void __kmpc_push_target_tripcount(int64_t, uint64_t) {}

/// libomp polls this for target tasks whose work was left in flight
/// (ConstructQueue.h), until it clears the handle.
OFFLOAD_API void __tgt_target_nowait_query(void **AsyncHandle) {
  queryInFlight(AsyncHandle);
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

// Each entry point calls targetData itself, for the code pointer tools get
// (see the legacy launches); the `_nowait` ones report the `_nowait` kind.
#define OFFLOAD_DATA_ENTRY(Name, Action)                                       \
  OFFLOAD_API void Name##_mapper(ident_t *Loc, int64_t DeviceId,               \
                                 int32_t ArgNum, void **Bases, void **Args,    \
                                 int64_t *Sizes, int64_t *Types, void **Names, \
                                 void **Mappers) {                             \
    targetData(Loc, DeviceId,                                                  \
               MapList{ArgNum, Bases, Args, Sizes, Types, Names, Mappers},     \
               Action, __builtin_return_address(0), false);                    \
  }                                                                            \
  OFFLOAD_API void Name(int64_t DeviceId, int32_t ArgNum, void **Bases,        \
                        void **Args, int64_t *Sizes, int64_t *Types) {         \
    targetData(nullptr, DeviceId,                                              \
               MapList{ArgNum, Bases, Args, Sizes, Types, nullptr, nullptr},   \
               Action, __builtin_return_address(0), false);                    \
  }                                                                            \
  OFFLOAD_API void Name##_nowait_mapper(                                       \
      ident_t *Loc, int64_t DeviceId, int32_t ArgNum, void **Bases,            \
      void **Args, int64_t *Sizes, int64_t *Types, void **Names,               \
      void **Mappers, int32_t, void *, int32_t, void *) {                      \
    ompt::NowaitScope Nowait;                                                  \
    targetData(Loc, DeviceId,                                                  \
               MapList{ArgNum, Bases, Args, Sizes, Types, Names, Mappers},     \
               Action, __builtin_return_address(0), true);                     \
  }                                                                            \
  OFFLOAD_API void Name##_nowait(                                              \
      int64_t DeviceId, int32_t ArgNum, void **Bases, void **Args,             \
      int64_t *Sizes, int64_t *Types, int32_t, void *, int32_t, void *) {      \
    ompt::NowaitScope Nowait;                                                  \
    targetData(nullptr, DeviceId,                                              \
               MapList{ArgNum, Bases, Args, Sizes, Types, nullptr, nullptr},   \
               Action, __builtin_return_address(0), true);                     \
  }

OFFLOAD_DATA_ENTRY(__tgt_target_data_begin, DataAction::Enter)
OFFLOAD_DATA_ENTRY(__tgt_target_data_end, DataAction::Exit)
OFFLOAD_DATA_ENTRY(__tgt_target_data_update, DataAction::Update)

//===----------------------------------------------------------------------===//
// declare mapper
//===----------------------------------------------------------------------===//

OFFLOAD_API int64_t __tgt_mapper_num_components(void *Handle) {
  return static_cast<int64_t>(
      static_cast<MapperComponents *>(Handle)->Items.size());
}

OFFLOAD_API void __tgt_push_mapper_component(void *Handle, void *Base,
                                             void *Begin, int64_t Size,
                                             int64_t Type, void *Name) {
  static_cast<MapperComponents *>(Handle)->Items.push_back(
      {Base, Begin, Size, Type, Name, nullptr});
}
