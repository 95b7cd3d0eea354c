//===- HostPlugin.cpp - The CPU device: images are shared objects --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Devices of this plugin run on the host CPU. Each device image is an x86-64
// ELF shared object; every device dlopen's its own copy of it (from an
// in-memory file), so each device has its own globals and host and device
// copies of a function have different addresses. Device memory is a distinct
// heap allocation: a missing map shows up as wrong data, not as an accident
// that happens to work.
//
//===----------------------------------------------------------------------===//

#include "AlignedBlocks.h"
#include "CPUDeviceLaunch.h"
#include "DeviceABI.h"
#include "Guarded.h"
#include "InitialThreads.h"
#include "IndirectCallInstall.h"
#include "PluginDevice.h"
#include "PluginEntryPoints.h"
#include "PluginInterface.h"

#include <ffi.h>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace offload::plugin;
using offload::Guarded;

namespace {

/// How a kernel must be started.
enum class KernelStyle {
  /// Clang's CPU-device code: a plain function that forks with libomp.
  Host,
  /// GPU-style code (flang): every device thread calls the function, which
  /// is driven by the CPU device runtime's launch entry point.
  GPU,
};

class HostImage;

struct HostKernel {
  std::string Name;
  void *Function = nullptr;
  KernelStyle Style = KernelStyle::Host;
  const void *KernelEnvironment = nullptr;
  ompx_cpu_launch_fn_t Launch = nullptr;
  /// Host style and marked `<kernel>_ompx_bare` at compile time
  /// (CPUDeviceLaunch.h): an ompx_bare kernel whatever its clauses.
  bool MarkedBare = false;
  /// The image holding the kernel (it owns the kernel, so it outlives it).
  const HostImage *Image = nullptr;
};

/// One PT_LOAD segment of a loaded image, as mapped: [Begin, End).
struct AddressRange {
  uintptr_t Begin;
  uintptr_t End;
};

class HostImage final : public LoadedImage {
public:
  ~HostImage() override {
    if (Handle)
      dlclose(Handle);
    if (Fd >= 0)
      close(Fd);
  }
  void *Handle = nullptr;
  /// Where the loader mapped the image (see lookupInImage).
  std::vector<AddressRange> Segments;
  /// The in-memory file stays open while the image is loaded: the loader
  /// knows the image by its /proc/self/fd/N name, and a reused N would make
  /// dlopen hand back an older image instead of loading a new copy.
  int Fd = -1;
  std::string Description;
  /// The CPU device runtime's OMPX_CPU_RUN_IN_PLACE_SYMBOL, if linked in.
  ompx_cpu_run_in_place_fn_t RunInPlace = nullptr;
  /// Stable addresses: handed out as handles.
  Guarded<std::deque<HostKernel>> Kernels;
};

/// Writes \p Image into an anonymous in-memory file and dlopen's it through
/// /proc/self/fd. Falls back to an unlinked temporary file where memfd is
/// unavailable. Returns the handle or null with \p Error set; \p KeptFd is
/// the file to close after dlclose (-1 if none).
void *openImageInMemory(const DeviceImageRef &Image, std::string &Error,
                        int &KeptFd) {
  KeptFd = -1;
  // Temporary files get unique names, so only memfds need to stay open.
  int Fd = memfd_create("omptarget-host-image", MFD_CLOEXEC);
  std::string TempPath;
  if (Fd < 0) {
    const char *TmpDir = getenv("TMPDIR");
    TempPath = std::string(TmpDir && *TmpDir ? TmpDir : "/tmp") +
               "/omptarget-host-image-XXXXXX";
    Fd = mkstemp(&TempPath[0]);
    if (Fd < 0) {
      Error =
          std::string("cannot create a file for the image: ") + strerror(errno);
      return nullptr;
    }
  }
  const char *Bytes = static_cast<const char *>(Image.Start);
  size_t Left = Image.Size;
  while (Left) {
    ssize_t Written = write(Fd, Bytes, Left);
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      Error = std::string("cannot write the image: ") + strerror(errno);
      close(Fd);
      if (!TempPath.empty())
        unlink(TempPath.c_str());
      return nullptr;
    }
    Bytes += Written;
    Left -= Written;
  }
  std::string Path =
      TempPath.empty() ? "/proc/self/fd/" + std::to_string(Fd) : TempPath;
  void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Msg = dlerror();
    Error = Msg ? Msg : "dlopen failed";
  }
  if (Handle && TempPath.empty())
    KeptFd = Fd;
  else
    close(Fd);
  if (!TempPath.empty())
    unlink(TempPath.c_str());
  return Handle;
}

/// The PT_LOAD segments of the object \p Handle names, as the loader mapped
/// them; empty if the loader does not know the handle.
std::vector<AddressRange> loadedSegments(void *Handle) {
  link_map *Map = nullptr;
  if (dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map)
    return {};
  struct Search {
    const link_map *Map;
    std::vector<AddressRange> Segments;
  } S{Map, {}};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *S = static_cast<Search *>(Data);
        // Every device's copy of an image has its own load bias.
        if (Info->dlpi_addr != S->Map->l_addr || !Info->dlpi_name ||
            std::strcmp(Info->dlpi_name, S->Map->l_name) != 0)
          return 0;
        for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
          if (Segment.p_type != PT_LOAD)
            continue;
          uintptr_t Begin = Info->dlpi_addr + Segment.p_vaddr;
          S->Segments.push_back({Begin, Begin + Segment.p_memsz});
        }
        return 1;
      },
      &S);
  return S.Segments;
}

/// dlsym on a handle also searches the image's dependencies (libomp, libc,
/// ...); an entry must resolve inside the image itself, or a global the
/// image lacks would silently alias a library's symbol of the same name.
/// The check compares addresses with the image's segments, found once at
/// load: dladdr would search the symbol table for every entry, which makes
/// loading an image of n kernels cost O(n^2).
void *lookupInImage(const HostImage &Image, const char *Name) {
  void *Address = dlsym(Image.Handle, Name);
  if (!Address)
    return nullptr;
  uintptr_t Where = reinterpret_cast<uintptr_t>(Address);
  for (const AddressRange &Segment : Image.Segments)
    if (Where >= Segment.Begin && Where < Segment.End)
      return Address;
  return nullptr;
}

/// What the libffi call of one launch needs: \p Cif describes a function
/// of NumArgs + 1 pointers.
struct KernelCall {
  ffi_cif *Cif;
  void *Function;
  void **Args;
  uint32_t NumArgs;
};

/// Calls the kernel with \p LaunchEnvironment followed by the kernel
/// arguments (libffi reads each argument through a pointer to it).
void callKernel(const KernelCall &Call, void *LaunchEnvironment) {
  std::vector<void *> ValuePtrs(Call.NumArgs + 1);
  ValuePtrs[0] = &LaunchEnvironment;
  for (uint32_t I = 0; I < Call.NumArgs; ++I)
    ValuePtrs[I + 1] = &Call.Args[I];
  ffi_call(Call.Cif, FFI_FN(Call.Function), nullptr, ValuePtrs.data());
}

/// Body handed to the CPU device runtime, run by every device thread.
void callGPUStyleKernel(void *Context, void *LaunchEnvironment) {
  callKernel(*static_cast<const KernelCall *>(Context), LaunchEnvironment);
}

/// Calls a host-style kernel. It never reads its launch environment; it
/// still gets a valid, zeroed one, as a GPU-style kernel would.
void callHostStyleKernel(void *Context) {
  alignas(16) char LaunchEnvironment[64] = {};
  callKernel(*static_cast<const KernelCall *>(Context), LaunchEnvironment);
}

bool hostPluginDebug() {
  static const bool Enabled = [] {
    const char *Env = getenv("LIBOMPTARGET_DEBUG");
    return Env && *Env && strtol(Env, nullptr, 0) != 0;
  }();
  return Enabled;
}

/// Where host-style kernels launched from inside an active host parallel
/// region run (LIBOMPTARGET_HOST_NESTED_LAUNCH).
enum class NestedLaunch {
  /// On the launching thread, in a team of one (CPUInPlace.cpp).
  InPlace,
  /// On a device initial thread with teams of its own (InitialThreads.h).
  DeviceThread,
};

NestedLaunch nestedLaunchPolicy() {
  static const NestedLaunch Policy = [] {
    const char *Env = getenv("LIBOMPTARGET_HOST_NESTED_LAUNCH");
    if (!Env || !strcmp(Env, "in-place"))
      return NestedLaunch::InPlace;
    if (!strcmp(Env, "device-thread"))
      return NestedLaunch::DeviceThread;
    fprintf(stderr,
            "omptarget warning: ignoring LIBOMPTARGET_HOST_NESTED_LAUNCH="
            "'%s' (expected 'in-place' or 'device-thread')\n",
            Env);
    return NestedLaunch::InPlace;
  }();
  return Policy;
}

/// One line per launch says where it ran: tests count the hand-offs.
void traceHostStyleLaunch(const HostKernel &Kernel, const char *Where,
                          const offload::host::HostNesting &Nesting) {
  if (hostPluginDebug())
    fprintf(stderr,
            "omptarget --> host plugin: kernel %s runs on %s (host level %d, "
            "active level %d)\n",
            Kernel.Name.c_str(), Where, Nesting.Level, Nesting.ActiveLevel);
}

/// Runs a host-style kernel where it sees the device's initial thread. It
/// asks the host's libomp who it is, which inside an active host parallel
/// region answers for the host team (InitialThreads.h). There the CPU
/// device runtime runs it in a team of one on the launching thread when
/// libomp would serialize its parallel regions anyway; otherwise, when the
/// user asks for it, or when the image lacks that runtime, a device initial
/// thread runs it.
Status launchHostStyleKernel(const HostKernel &Kernel, KernelCall &Call) {
  offload::host::HostNesting Nesting = offload::host::hostNesting();
  if (!offload::host::needsInitialThread(Nesting)) {
    traceHostStyleLaunch(Kernel, "the launching thread", Nesting);
    callHostStyleKernel(&Call);
    return Status::ok();
  }
  if (nestedLaunchPolicy() == NestedLaunch::InPlace &&
      Kernel.Image->RunInPlace &&
      offload::host::kernelRegionsSerialized(Nesting)) {
    traceHostStyleLaunch(Kernel, "the launching thread in a team of one",
                         Nesting);
    if (Kernel.Image->RunInPlace(callHostStyleKernel, &Call) == 0)
      return Status::ok();
  }
  traceHostStyleLaunch(Kernel, "a device initial thread", Nesting);
  std::string Error;
  if (!offload::host::runOnInitialThread(callHostStyleKernel, &Call, Error))
    return Status::error("cannot launch kernel '%s' of %s: %s",
                         Kernel.Name.c_str(),
                         Kernel.Image->Description.c_str(), Error.c_str());
  return Status::ok();
}

class HostDevice final : public SynchronousPluginDevice {
public:
  HostDevice(int32_t Id, int32_t NumDevices)
      : Id(Id), NumDevices(NumDevices), GlobalId(Id),
        NumGlobalDevices(NumDevices) {}

  Status loadDeviceImage(const DeviceImageRef &Image,
                         LoadedImage *&Out) override {
    std::string Error;
    int Fd;
    void *Handle = openImageInMemory(Image, Error, Fd);
    if (!Handle)
      return Status::error("host device %d: cannot load %s: %s", Id,
                           Image.Description, Error.c_str());
    auto *Loaded = new HostImage();
    Loaded->Handle = Handle;
    Loaded->Fd = Fd;
    Loaded->Segments = loadedSegments(Handle);
    Loaded->Description = Image.Description;
    fillDeviceEnvironment(*Loaded);
    Loaded->RunInPlace = reinterpret_cast<ompx_cpu_run_in_place_fn_t>(
        lookupInImage(*Loaded, OMPX_CPU_RUN_IN_PLACE_SYMBOL));
    Out = Loaded;
    return Status::ok();
  }

  Status unloadDeviceImage(LoadedImage *Image) override {
    delete static_cast<HostImage *>(Image);
    return Status::ok();
  }

  Status getKernel(LoadedImage *Image, const char *Name,
                   KernelHandle &Out) override {
    auto *Loaded = static_cast<HostImage *>(Image);
    void *Function = lookupInImage(*Loaded, Name);
    if (!Function)
      return Status::error("kernel '%s' not found in %s", Name,
                           Loaded->Description.c_str());
    HostKernel Kernel;
    Kernel.Name = Name;
    Kernel.Function = Function;
    Kernel.Image = Loaded;
    std::string EnvName = std::string(Name) + "_kernel_environment";
    // Host-style kernels use the launcher too when they are ompx_bare
    // kernels (launchKernel).
    Kernel.Launch = reinterpret_cast<ompx_cpu_launch_fn_t>(
        lookupInImage(*Loaded, OMPX_CPU_LAUNCH_SYMBOL));
    std::string BareMarker = std::string(Name) + OMPX_CPU_BARE_KERNEL_SUFFIX;
    Kernel.MarkedBare = lookupInImage(*Loaded, BareMarker.c_str()) != nullptr;
    if (void *Env = lookupInImage(*Loaded, EnvName.c_str())) {
      Kernel.Style = KernelStyle::GPU;
      Kernel.KernelEnvironment = Env;
      // A missing launcher is reported at launch: the image may still be
      // registered and used for its other kernels.
    }
    Guarded<std::deque<HostKernel>>::Access Kernels = Loaded->Kernels.lock();
    Kernels->push_back(std::move(Kernel));
    Out = &Kernels->back();
    return Status::ok();
  }

  Status getGlobal(LoadedImage *Image, const char *Name, uint64_t Size,
                   void *&DeviceAddress) override {
    auto *Loaded = static_cast<HostImage *>(Image);
    DeviceAddress = lookupInImage(*Loaded, Name);
    if (!DeviceAddress)
      return Status::error("global '%s' (%llu bytes) not found in %s", Name,
                           static_cast<unsigned long long>(Size),
                           Loaded->Description.c_str());
    return Status::ok();
  }

  void *allocate(uint64_t Size, AllocKind) override {
    // Every kind is ordinary host memory on a CPU device; what matters is
    // that it is a separate allocation from the host object it mirrors.
    // Large ones are page-aligned, so the runtime can give a copy its host
    // range's offset in the page (LargeCopyBytes says why), from blocks
    // the C heap can reuse (AlignedBlocks.h).
    uint64_t Alignment = Size >= LargeCopyBytes ? LargeCopyAlignment : 64;
    return offload::host::allocateAlignedBlock(Size ? Size : 1, Alignment);
  }

  Status free(void *Ptr, AllocKind) override {
    offload::host::freeAlignedBlock(Ptr);
    return Status::ok();
  }

  Status dataSubmit(void *DevicePtr, const void *HostPtr, int64_t Size,
                    __tgt_async_info *) override {
    if (Size > 0)
      std::memmove(DevicePtr, HostPtr, Size);
    return Status::ok();
  }
  Status dataRetrieve(void *HostPtr, const void *DevicePtr, int64_t Size,
                      __tgt_async_info *) override {
    if (Size > 0)
      std::memmove(HostPtr, DevicePtr, Size);
    return Status::ok();
  }
  Status dataExchange(const void *Src, GenericDevice &, void *Dst, int64_t Size,
                      __tgt_async_info *) override {
    if (Size > 0)
      std::memmove(Dst, Src, Size);
    return Status::ok();
  }
  Status dataFill(void *DevicePtr, int Value, int64_t Size,
                  __tgt_async_info *) override {
    if (Size > 0)
      std::memset(DevicePtr, Value, Size);
    return Status::ok();
  }

  Status launchKernel(KernelHandle Handle, void **Args, uint32_t NumArgs,
                      const KernelLaunchParams &Params,
                      __tgt_async_info *) override {
    auto *Kernel = static_cast<HostKernel *>(Handle);
    // Every LLVM 22 kernel takes the launch environment (`dyn_ptr`) first,
    // then one pointer-sized argument per TARGET_PARAM map: device
    // addresses, or literals the compiler passes as uintptr_t.
    constexpr uint32_t Extra = 1;
    std::vector<ffi_type *> Types(NumArgs + Extra, &ffi_type_pointer);
    ffi_cif Cif;
    if (ffi_prep_cif(&Cif, FFI_DEFAULT_ABI, NumArgs + Extra, &ffi_type_void,
                     Types.data()) != FFI_OK)
      return Status::error("libffi cannot describe a call of kernel '%s' "
                           "with %u arguments",
                           Kernel->Name.c_str(), NumArgs + Extra);
    KernelCall Call{&Cif, Kernel->Function, Args, NumArgs};
    // A host-style ompx_bare kernel runs on a block of the CPU device
    // runtime's threads, which give <ompx.h> their ids (CPUDeviceLaunch.h,
    // BareBlock). Clang's 1-D clauses look like any teams
    // construct's: the compile-time marker tells those kernels apart;
    // clauses with a y or z extent are bare ones anyway.
    bool Bare =
        Kernel->Style == KernelStyle::Host && Kernel->Launch &&
        (Kernel->MarkedBare || Params.NumTeamsYZ[0] || Params.NumTeamsYZ[1] ||
         Params.ThreadLimitYZ[0] || Params.ThreadLimitYZ[1]);
    if (Kernel->Style == KernelStyle::Host && !Bare)
      return launchHostStyleKernel(*Kernel, Call);
    if (!Kernel->Launch)
      return Status::error(
          "kernel '%s' in %s is a GPU-style kernel (it has a "
          "'%s_kernel_environment') but the image does not define '%s': link "
          "the CPU device runtime (libompdevice) into the device image",
          Kernel->Name.c_str(), Kernel->Image->Description.c_str(),
          Kernel->Name.c_str(), OMPX_CPU_LAUNCH_SYMBOL);
    ompx_cpu_launch_request Request{};
    Request.Version = OMPX_CPU_LAUNCH_VERSION;
    if (Bare) {
      Request.Version = OMPX_CPU_LAUNCH_VERSION_BARE_GRID;
      uint32_t Extents[3] = {Params.ThreadLimit, Params.ThreadLimitYZ[0],
                             Params.ThreadLimitYZ[1]};
      uint32_t Blocks[3] = {Params.NumTeams, Params.NumTeamsYZ[0],
                            Params.NumTeamsYZ[1]};
      for (int D = 0; D < 3; ++D) {
        Request.BareBlock[D] = Extents[D] ? Extents[D] : 1;
        Request.BareGrid[D] = Blocks[D] ? Blocks[D] : 1;
      }
    }
    Request.NumTeams = Params.NumTeams;
    Request.ThreadLimit = Params.ThreadLimit;
    Request.DynCGroupMemBytes = Params.DynCGroupMem;
    Request.KernelEnvironment = Kernel->KernelEnvironment;
    Request.KernelName = Kernel->Name.c_str();
    Request.Body = callGPUStyleKernel;
    Request.Context = &Call;
    ompx_cpu_launch_result Result{};
    if (Kernel->Launch(&Request, &Result) != 0)
      return Status::error("the CPU device runtime failed to run kernel '%s' "
                           "of %s",
                           Kernel->Name.c_str(),
                           Kernel->Image->Description.c_str());
    return Status::ok();
  }

  std::string describeLaunch(KernelHandle Handle,
                             const KernelLaunchParams &Params) override {
    auto *Kernel = static_cast<HostKernel *>(Handle);
    // A host-style kernel is one call on one initial thread, which forks
    // its teams and threads itself (upstream's host plugin says the same).
    if (Kernel->Style == KernelStyle::Host)
      return "[1,1,1] blocks and [1,1,1] threads in Generic mode";
    const char *Mode = "Generic";
    if (Kernel->KernelEnvironment) {
      // The first bytes of KernelEnvironmentTy: ConfigurationEnvironmentTy.
      uint8_t ExecMode = static_cast<const uint8_t *>(
          Kernel->KernelEnvironment)[offsetof(ompx::ConfigurationEnvironmentTy,
                                              ExecMode)];
      if (ExecMode == ompx::ExecModeGenericSPMD)
        Mode = "Generic-SPMD";
      else if (ExecMode & ompx::ExecModeSPMD)
        Mode = "SPMD";
    }
    return "[" + std::to_string(Params.NumTeams) + ",1,1] blocks and [" +
           std::to_string(Params.ThreadLimit) + ",1,1] threads in " + Mode +
           " mode (0: the CPU device runtime chooses)";
  }

  // Every operation above completes before it returns (synchronize and
  // queryAsync come from SynchronousPluginDevice).

  bool supportsUnifiedMemory() const override { return true; }

  /// For llvm-offload-device-info: the CPU and memory the device runs on.
  DeviceProperties getProperties() override {
    DeviceProperties P;
    P.Name = "CPU device (host plugin)";
    P.Vendor = "host";
    struct utsname Machine;
    if (uname(&Machine) == 0)
      P.Architecture = Machine.machine;
    long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
    if (Pages > 0 && PageSize > 0)
      P.GlobalMemoryBytes = uint64_t(Pages) * uint64_t(PageSize);
    P.Multiprocessors = std::thread::hardware_concurrency();
    P.UnifiedMemory = true;
    P.UnifiedMemoryDetail = "device memory is host memory";
    return P;
  }

  /// As upstream's host plugin names its devices.
  std::string getUID() const override { return "x86_64-" + std::to_string(Id); }

  void setDeviceNumbering(int32_t GlobalDeviceId,
                          int32_t NumAllDevices) override {
    GlobalId = GlobalDeviceId;
    NumGlobalDevices = NumAllDevices;
  }

  void printInfo(FILE *Out) override {
    fprintf(Out,
            "    Device %d of %d: CPU device (host plugin), %u hardware "
            "threads, device memory is host heap memory\n",
            Id, NumDevices, std::thread::hardware_concurrency());
  }

private:
  /// Tells the CPU device runtime linked into an image (if any) which
  /// device it runs on, before any of its kernels does.
  void fillDeviceEnvironment(const HostImage &Image) {
    auto *Env = static_cast<DeviceEnvironmentLayout *>(
        lookupInImage(Image, DeviceEnvironmentSymbol));
    if (!Env)
      return;
    Env->NumDevices = static_cast<uint32_t>(NumGlobalDevices);
    Env->DeviceNum = static_cast<uint32_t>(GlobalId);
    if (const char *Debug = getenv("LIBOMPTARGET_DEVICE_RTL_DEBUG"))
      Env->DeviceDebugKind = static_cast<uint32_t>(strtol(Debug, nullptr, 0));
    Env->ClockFrequency = 1000000000; // omp_get_wtime ticks are nanoseconds
    Env->HardwareParallelism = std::thread::hardware_concurrency();
  }

  int32_t Id;
  int32_t NumDevices;
  int32_t GlobalId;
  int32_t NumGlobalDevices;
};

bool isX86_64SharedObject(const DeviceImageRef &Image) {
  if (Image.Size < sizeof(Elf64_Ehdr))
    return false;
  Elf64_Ehdr Header;
  std::memcpy(&Header, Image.Start, sizeof(Header));
  return std::memcmp(Header.e_ident, ELFMAG, SELFMAG) == 0 &&
         Header.e_ident[EI_CLASS] == ELFCLASS64 &&
         Header.e_machine == EM_X86_64 && Header.e_type == ET_DYN;
}

class HostPlugin final : public GenericPlugin {
public:
  const char *getName() const override { return "host"; }

  int32_t initialize() override {
    // As upstream: four CPU devices unless the user asks otherwise.
    NumDevices = 4;
    if (const char *Env = getenv("LIBOMPTARGET_HOST_NUM_DEVICES")) {
      char *End = nullptr;
      long Value = strtol(Env, &End, 10);
      if (End != Env && *End == '\0' && Value >= 0 && Value <= 1024)
        NumDevices = static_cast<int32_t>(Value);
      else
        fprintf(stderr,
                "omptarget warning: ignoring LIBOMPTARGET_HOST_NUM_DEVICES="
                "'%s' (expected a number from 0 to 1024)\n",
                Env);
    }
    Devices.lock()->resize(NumDevices);
    return NumDevices;
  }

  int32_t getNumDevices() const override { return NumDevices; }

  bool isImageCompatible(const DeviceImageRef &Image) const override {
    std::string Triple = Image.Triple ? Image.Triple : "";
    if (!Triple.empty() && Triple.rfind("x86_64", 0) != 0)
      return false;
    return isX86_64SharedObject(Image);
  }

  HostDevice *getDevice(int32_t Id, Status &Error) override {
    if (Id < 0 || Id >= NumDevices) {
      Error = Status::error("host plugin has no device %d", Id);
      return nullptr;
    }
    DeviceTable::Access Table = Devices.lock();
    std::unique_ptr<HostDevice> &Device = (*Table)[Id];
    if (!Device)
      Device = std::make_unique<HostDevice>(Id, NumDevices);
    return Device.get();
  }

  void setRequiresFlags(int64_t) override {}

private:
  using DeviceTable = Guarded<std::vector<std::unique_ptr<HostDevice>>>;
  int32_t NumDevices = 0;
  DeviceTable Devices;
};

} // namespace

// __offload_plugin_create (a HostPlugin that is never destroyed) and
// __tgt_rtl_set_function_ptr_map.
OFFLOAD_PLUGIN_ENTRY_POINTS(HostPlugin)
