//===- PluginInterface.h - What libomptarget needs from a device plugin --===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract between libomptarget and a device plugin (host, cuda,
// amdgpu). A plugin is a shared library `libomptarget.rtl.<name>.so` placed
// next to libomptarget.so; libomptarget dlopen's it and calls
// OFFLOAD_PLUGIN_ENTRY_SYMBOL with OFFLOAD_PLUGIN_INTERFACE_VERSION. Keeping
// each plugin in its own library means a plugin's driver dependency (libffi,
// libcuda.so.1, libhsa-runtime64.so) is only loaded when that plugin is, and
// a plugin whose driver is missing simply reports zero devices.
//
// Everything the runtime knows about OpenMP (mapping table, reference
// counts, entry tables, policy) stays in libomptarget; a plugin only loads
// images, moves bytes and launches kernels on its devices.
//
// Both sides are C++17 built by the same compiler against the same libstdc++,
// so the interface is a set of abstract classes. Errors are returned as
// Status values carrying a message that names the image, kernel or address;
// plugins never abort the process.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_PLUGININTERFACE_H
#define OFFLOAD_PLUGINS_COMMON_PLUGININTERFACE_H

#include "OffloadABI.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace offload {
namespace plugin {

/// Bumped whenever a virtual function below changes; libomptarget refuses a
/// plugin built against another version with a message naming it.
constexpr uint32_t InterfaceVersion = 5;

/// Success, or a failure with a human-readable message.
class Status {
public:
  Status() = default;
  static Status ok() { return Status(); }
  [[gnu::format(printf, 1, 2)]] static Status error(const char *Fmt, ...) {
    va_list Args;
    va_start(Args, Fmt);
    char Buffer[1024];
    vsnprintf(Buffer, sizeof(Buffer), Fmt, Args);
    va_end(Args);
    Status S;
    S.Failed = true;
    S.Message = Buffer;
    return S;
  }
  explicit operator bool() const { return Failed; } ///< true on failure
  const std::string &message() const { return Message; }

private:
  bool Failed = false;
  std::string Message;
};

/// The foreign-runtime properties of an interop object (see
/// GenericDevice::getInteropProperties). Ids and names follow the OpenMP
/// specification's tables: omp_interop_fr_t for ForeignRuntimeId (0: none)
/// and the OpenMP vendor ids (11: nvidia, 1: amd; 0: none).
struct InteropProperties {
  int32_t ForeignRuntimeId = 0;
  const char *ForeignRuntimeName = nullptr;
  int32_t VendorId = 0;
  const char *VendorName = nullptr;
  /// The foreign runtime's device handle (CUDA: a CUdevice, an int).
  bool HasDeviceHandle = false;
  intptr_t DeviceHandle = 0;
  /// The foreign runtime's context (CUDA: the primary CUcontext).
  void *DeviceContext = nullptr;
  /// The foreign types behind the handles, for omp_get_interop_type_desc
  /// (CUDA: "CUdevice", "CUcontext", "CUstream").
  const char *DeviceHandleType = nullptr;
  const char *DeviceContextType = nullptr;
  const char *SyncType = nullptr;
};

/// What llvm-offload-device-info reports about a device
/// (GenericDevice::getProperties). Zero and empty mean "not known"; Extra
/// holds what only some devices have, as name/value lines.
struct DeviceProperties {
  std::string Name;
  std::string Vendor;
  /// The architecture images are built for: "sm_90", "gfx90a", "x86_64".
  std::string Architecture;
  std::string DriverVersion;
  uint64_t GlobalMemoryBytes = 0;
  uint64_t SharedMemoryPerBlockBytes = 0;
  uint32_t ClockKHz = 0;
  uint32_t MemoryClockKHz = 0;
  uint32_t Multiprocessors = 0;
  uint32_t WarpSize = 0;
  uint32_t MaxThreadsPerBlock = 0;
  uint32_t MaxBlockDims[3] = {0, 0, 0};
  uint64_t MaxGridDims[3] = {0, 0, 0};
  /// Whether the device can access the host's pageable memory (what
  /// `requires unified_shared_memory` needs), and what the driver said.
  bool UnifiedMemory = false;
  std::string UnifiedMemoryDetail;
  std::vector<std::pair<std::string, std::string>> Extra;
};

/// A device image handed to a plugin: the raw bytes (already unwrapped from
/// an OffloadBinary container by libomptarget when there was one) and what
/// the container said about them.
struct DeviceImageRef {
  const void *Start = nullptr;
  size_t Size = 0;
  /// Target triple and architecture from the OffloadBinary string table;
  /// empty strings when the image came without a container.
  const char *Triple = "";
  const char *Arch = "";
  /// For diagnostics: which registered library and image index this is.
  const char *Description = "";
};

/// What kind of memory an allocation is (omp_target_alloc and the
/// llvm_omp_target_alloc_{device,host,shared} extensions).
enum class AllocKind { Device, Host, Shared };

/// Large device copies on devices whose memory the CPU copies (those that
/// report supportsUnifiedMemory(): the CPU device) start LargeCopyLead
/// bytes before their host range's offset in the page. Where the copy sits
/// modulo 4096 relative to the host range decides how fast memcpy runs
/// between them (measured on AMD EPYC, glibc 2.36): 64 bytes after it, a
/// large copy into fresh pages runs 7-20% slower (256 MiB map(tofrom): 160
/// against 135 ms); at the same offset, copies between cached buffers do
/// (1 MiB there and back: 35 against 26 us, 16 MiB: 1.16 against 0.92
/// ms); 64 bytes before it is as fast as the best of both. Such a device's
/// allocate() aligns allocations of LargeCopyBytes or more to
/// LargeCopyAlignment, and the runtime pads the copy inside it.
inline constexpr uint64_t LargeCopyBytes = uint64_t(1) << 20;
inline constexpr uint64_t LargeCopyAlignment = 4096;
inline constexpr uint64_t LargeCopyLead = 64;

/// Grid request of one launch; zero fields let the plugin choose.
struct KernelLaunchParams {
  uint32_t NumTeams = 0;
  uint32_t ThreadLimit = 0;
  uint64_t Tripcount = 0;
  uint32_t DynCGroupMem = 0;
  /// The y and z extents of an `ompx_bare` kernel's num_teams(x,y,z) and
  /// thread_limit(x,y,z) clauses (0: not given); NumTeams and ThreadLimit
  /// are the x extents.
  uint32_t NumTeamsYZ[2] = {0, 0};
  uint32_t ThreadLimitYZ[2] = {0, 0};
};

/// A loaded image and a kernel inside it; both are owned by the device that
/// produced them and stay valid until the image is unloaded.
class LoadedImage {
public:
  virtual ~LoadedImage() = default;
};
using KernelHandle = void *;

/// One device of a plugin. Calls may come from many host threads at once;
/// implementations synchronise themselves.
class GenericDevice {
public:
  virtual ~GenericDevice() = default;

  /// Loads \p Image for this device. On failure the message names the image.
  virtual Status loadImage(const DeviceImageRef &Image, LoadedImage *&Out) = 0;
  virtual Status unloadImage(LoadedImage *Image) = 0;

  /// Finds the kernel whose offload entry is named \p Name.
  virtual Status getKernel(LoadedImage *Image, const char *Name,
                           KernelHandle &Out) = 0;
  /// Finds the device copy of a global of \p Size bytes named \p Name.
  virtual Status getGlobal(LoadedImage *Image, const char *Name, uint64_t Size,
                           void *&DeviceAddress) = 0;

  /// Returns null when the memory cannot be allocated. On a device that
  /// supportsUnifiedMemory(), allocations of LargeCopyBytes or more are
  /// aligned to LargeCopyAlignment.
  virtual void *allocate(uint64_t Size, AllocKind Kind) = 0;
  virtual Status free(void *Ptr, AllocKind Kind) = 0;

  /// Data movement. \p Async may be null (synchronous); otherwise the
  /// operation may complete later, at synchronize() or when queryAsync()
  /// reports it done. Until then the caller keeps the host memory allocated
  /// (and locked, if it was), does not write a dataSubmit's source (a
  /// plugin may read it when the copy runs) and does not read a
  /// dataRetrieve's destination (the data is there only on completion).
  virtual Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                            __tgt_async_info *Async) = 0;
  virtual Status dataRetrieve(void *HostPtr, const void *DevicePtr,
                              int64_t Size, __tgt_async_info *Async) = 0;
  /// Copies between two allocations of this plugin (same or another device).
  virtual Status dataExchange(const void *SrcDevicePtr, GenericDevice &Dst,
                              void *DstDevicePtr, int64_t Size,
                              __tgt_async_info *Async) = 0;
  virtual Status dataFill(void *DevicePtr, int Value, int64_t Size,
                          __tgt_async_info *Async) = 0;

  /// Runs a kernel with \p NumArgs pointer-sized arguments (device addresses
  /// or by-value literals, in the order of the TARGET_PARAM maps).
  virtual Status launchKernel(KernelHandle Kernel, void **Args,
                              uint32_t NumArgs,
                              const KernelLaunchParams &Params,
                              __tgt_async_info *Async) = 0;

  /// How a launch of \p Kernel with \p Params runs, for LIBOMPTARGET_INFO's
  /// "Launching kernel" line: "[<teams>,1,1] blocks and [<threads>,1,1]
  /// threads in <mode> mode", upstream's words, where the plugin knows.
  virtual std::string describeLaunch(KernelHandle Kernel,
                                     const KernelLaunchParams &Params) {
    (void)Kernel;
    return "[" + std::to_string(Params.NumTeams) + ",1,1] blocks and [" +
           std::to_string(Params.ThreadLimit) +
           ",1,1] threads (0: the device chooses)";
  }

  /// Waits for everything queued on \p Async and releases its queue.
  virtual Status synchronize(__tgt_async_info *Async) = 0;
  /// Non-blocking: \p Done is set when all work on \p Async has finished.
  virtual Status queryAsync(__tgt_async_info *Async, bool &Done) = 0;

  /// Whether the device can dereference host memory directly (unified
  /// shared memory); maps then pass host addresses through.
  virtual bool supportsUnifiedMemory() const = 0;

  /// Whether maps should use host memory even without `requires
  /// unified_shared_memory` (upstream's OMPX_APU_MAPS, on a device that
  /// shares the host's memory). The default: maps make device copies.
  virtual bool useZeroCopyMaps() const { return false; }

  /// Installs the host-to-device function address table of an image (for
  /// `declare target indirect`). Plugins that do not support it yet return
  /// an error naming the image.
  virtual Status setIndirectCallTable(LoadedImage *Image,
                                      const void *const *HostAddresses,
                                      const void *const *DeviceAddresses,
                                      size_t Count) = 0;

  /// One or more lines describing the device (for __tgt_print_device_info).
  virtual void printInfo(FILE *Out) = 0;

  /// Called by libomptarget right after getDevice(): the device's number
  /// among all devices of the process and how many there are, for the
  /// device runtime's omp_get_device_num/omp_get_num_devices. Images loaded
  /// afterwards should see them in their `__omp_rtl_device_environment`.
  virtual void setDeviceNumbering(int32_t GlobalDeviceId, int32_t NumDevices) {
    (void)GlobalDeviceId;
    (void)NumDevices;
  }

  /// The device's properties for llvm-offload-device-info. The default
  /// knows nothing about the device.
  virtual DeviceProperties getProperties() { return DeviceProperties(); }

  /// A string naming this device uniquely and stably (omp_get_uid_from_device
  /// of OpenMP 6.0), e.g. the GPU's UUID. Empty lets libomptarget use
  /// "<plugin>-<device index in the plugin>".
  virtual std::string getUID() const { return std::string(); }

  /// What an OpenMP interop object (`#pragma omp interop`) on this device
  /// reports through omp_get_interop_*: the foreign runtime programs can use
  /// next to OpenMP (CUDA's driver API...) and its handles. The default is
  /// a device without one (the CPU device): only the device number answers.
  virtual InteropProperties getInteropProperties() {
    return InteropProperties();
  }
  /// Creates the foreign synchronization object of a `targetsync` interop
  /// object (CUDA: a stream). Null, the default, says that nothing is
  /// asynchronous on this device: every operation completes in its call.
  virtual Status createInteropSync(void *&Sync) {
    Sync = nullptr;
    return Status::ok();
  }
  /// Waits until the work queued on \p Sync has finished.
  virtual Status waitInteropSync(void *Sync) {
    (void)Sync;
    return Status::ok();
  }
  /// Waits for \p Sync, then releases it.
  virtual Status destroyInteropSync(void *Sync) {
    (void)Sync;
    return Status::ok();
  }

  /// Page-locks (pins) \p Size bytes of host memory at \p HostPtr, so that
  /// the device's copy engines reach it directly and copies from and to it
  /// run asynchronously (llvm_omp_target_lock_mem,
  /// LIBOMPTARGET_LOCK_MAPPED_HOST_BUFFERS). \p Locked receives the address
  /// the device uses for it. Locking memory again (or a part of a locked
  /// range) counts one more lock. The default, for devices that use host
  /// memory as it is (the CPU device), answers \p HostPtr.
  virtual Status lockHostMemory(void *HostPtr, uint64_t Size, void *&Locked) {
    (void)Size;
    Locked = HostPtr;
    return Status::ok();
  }
  /// Drops one lock taken by lockHostMemory on \p HostPtr; the last one
  /// unpins the memory.
  virtual Status unlockHostMemory(void *HostPtr) {
    (void)HostPtr;
    return Status::ok();
  }
};

/// A plugin: a family of devices behind one driver.
class GenericPlugin {
public:
  virtual ~GenericPlugin() = default;
  /// Short name used in messages and in the library name ("host", "cuda").
  virtual const char *getName() const = 0;
  /// Initialises the driver and returns the number of devices; zero (and no
  /// error) when the driver or hardware is absent.
  virtual int32_t initialize() = 0;
  virtual int32_t getNumDevices() const = 0;
  /// Whether \p Image can run on this plugin's devices.
  virtual bool isImageCompatible(const DeviceImageRef &Image) const = 0;
  /// Device \p Id (0-based within the plugin); created on first use.
  /// Null (with \p Error set) if it cannot be initialised.
  virtual GenericDevice *getDevice(int32_t Id, Status &Error) = 0;
  /// `#pragma omp requires` flags of the program (OMP_REQ_*).
  virtual void setRequiresFlags(int64_t Flags) = 0;
  /// Whether every device can honour \p Flags; an error names the clause,
  /// the device and what it lacks (libomptarget stops the program with it).
  /// The default: a plugin without such limits.
  virtual Status checkRequiresFlags(int64_t Flags) {
    (void)Flags;
    return Status::ok();
  }
  /// Why the plugin has no device ("no CUDA driver: ..."); empty when it
  /// has some or cannot say. Valid after initialize().
  virtual std::string getUnavailableReason() const { return std::string(); }
};

} // namespace plugin
} // namespace offload

/// Exported, with C linkage, by every plugin library. The returned plugin
/// (and its devices) must never be destroyed by a static destructor:
/// programs unregister their images from their own destructors, which the
/// C runtime may run after the plugin library's (allocate it with new).
#define OFFLOAD_PLUGIN_ENTRY_SYMBOL "__offload_plugin_create"
extern "C" {
typedef offload::plugin::GenericPlugin *(*offload_plugin_create_fn)(
    uint32_t InterfaceVersion);
}

#endif // OFFLOAD_PLUGINS_COMMON_PLUGININTERFACE_H
