// A CUDA driver library for fault-injection tests of the cuda plugin,
// loaded through LIBOMPTARGET_CUDA_DRIVER. It answers every call the plugin
// makes for one device of compute capability 9.0 (FAKE_CUDA_DEVICES=<n> for
// more, to reach peer copies), sharing one context: any bytes load as a
// module, any name is a kernel, memory comes from the host heap, copies are
// memcpy, and a launch is only recorded (no kernel runs, so results are not
// computed). The error codes, names and descriptions are the real driver's.
//
// FAKE_CUDA_FAIL, a comma-separated list, makes it fail on request:
//   alloc                 cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY
//   launch                cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED
//   module-load           cuModuleLoadDataEx: CUDA_ERROR_NO_BINARY_FOR_GPU
//   sync-illegal-address  a launched kernel faults: the next wait for (or
//                         query of) its stream returns
//                         CUDA_ERROR_ILLEGAL_ADDRESS, and so does every
//                         call after it, as the real context becomes
//                         unusable
//   sync-trap             the same with CUDA_ERROR_LAUNCH_FAILED, what a
//                         device-side trap gives
//   sync-hang             a launched kernel never completes: waiting for
//                         its stream blocks, querying it answers
//                         CUDA_ERROR_NOT_READY
//   <entry>=<code>        every call of that entry point (e.g.
//                         cuDeviceGetAttribute=999) returns <code>
// FAKE_CUDA_NO_PAGEABLE_ACCESS=1 makes the device report that it cannot
// access pageable host memory (a GPU without HMM), which
// `requires unified_shared_memory` needs.
// FAKE_CUDA_TRACE=1 prints module loads, kernel lookups, launches and waits
// on stderr, each line starting with "fake-cuda: ".
//
// Every entry point counts its calls: fake_cuda_call_count("cuMemAlloc")
// (exported) answers how many there were, and FAKE_CUDA_COUNT=1 prints
// "fake-cuda: <entry> called <n> times" for each entry point called, at
// exit (after the exit handlers registered later, the plugin's included).
// cuMemHostRegister/cuMemHostUnregister keep the registered ranges and
// refuse a second registration or an unknown pointer as the driver does.
//
// FakeDriverUnsupported.cpp (test/arch-detect) answers entry points added to
// the plugin's table later with "unsupported" until they are implemented
// here.
#include "cuda/CUDADriver.h"

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>

using namespace offload::plugin::cuda;

#define FAKE_DECLARE(Member, Symbol, Params)                                   \
  extern "C" __attribute__((visibility("default")))                            \
  CUresult fake_##Member Params __asm__(Symbol);
OFFLOAD_CUDA_DRIVER_FUNCTIONS(FAKE_DECLARE)
OFFLOAD_CUDA_OPTIONAL_FUNCTIONS(FAKE_DECLARE)

namespace {

struct FakeFunction {
  std::string Name;
};

struct FakeModule {
  std::map<std::string, FakeFunction> Functions;
};

/// What a stream holds between waits.
struct FakeStream {
  std::string PendingKernel;
};

struct FakeContext {
  size_t StackBytes = 1024;
  size_t HeapBytes = 8 << 20;
};

std::mutex Lock;
FakeContext TheContext;
FakeStream DefaultStream;
/// The error every call returns once a kernel has faulted.
CUresult Sticky = CUDA_SUCCESS;
/// Calls per entry point, and whether the exit report is installed.
std::map<std::string, unsigned long> Calls;
bool ReportInstalled = false;
/// Host ranges registered with cuMemHostRegister: start and size.
std::map<void *, size_t> Registered;

struct ErrorInfo {
  CUresult Code;
  const char *Name;
  const char *Description;
};

// The driver's names and descriptions of the codes tests use.
const ErrorInfo Errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "an illegal instruction was encountered"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorInfo *findError(CUresult Code) {
  for (const ErrorInfo &E : Errors)
    if (E.Code == Code)
      return &E;
  return nullptr;
}

/// Whether FAKE_CUDA_FAIL lists \p Mode.
bool failing(const char *Mode) {
  const char *List = std::getenv("FAKE_CUDA_FAIL");
  std::string Text = List ? List : "";
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t Comma = Text.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Text.size();
    if (Text.compare(Start, Comma - Start, Mode) == 0)
      return true;
    Start = Comma + 1;
  }
  return false;
}

/// The code FAKE_CUDA_FAIL asks \p Entry to return ("<entry>=<code>"), or
/// success.
CUresult injected(const char *Entry) {
  const char *List = std::getenv("FAKE_CUDA_FAIL");
  std::string Text = List ? List : "";
  std::string Key = std::string(Entry) + "=";
  size_t At = 0;
  while ((At = Text.find(Key, At)) != std::string::npos) {
    if (At == 0 || Text[At - 1] == ',')
      return CUresult(std::atoi(Text.c_str() + At + Key.size()));
    At += Key.size();
  }
  return CUDA_SUCCESS;
}

/// The answer every entry point starts with: a kernel's fault, or a
/// failure asked for by name.
void reportCalls() {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &[Entry, Count] : Calls)
    std::fprintf(stderr, "fake-cuda: %s called %lu times\n", Entry.c_str(),
                 Count);
}

CUresult enter(const char *Entry) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    ++Calls[Entry];
    if (!ReportInstalled) {
      ReportInstalled = true;
      const char *Count = std::getenv("FAKE_CUDA_COUNT");
      if (Count && std::strcmp(Count, "1") == 0)
        std::atexit(reportCalls);
    }
    if (Sticky)
      return Sticky;
  }
  return injected(Entry);
}

[[gnu::format(printf, 1, 2)]] void trace(const char *Fmt, ...) {
  const char *Enabled = std::getenv("FAKE_CUDA_TRACE");
  if (!Enabled || std::strcmp(Enabled, "1") != 0)
    return;
  char Line[512];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Line, sizeof(Line), Fmt, Args);
  va_end(Args);
  std::fprintf(stderr, "fake-cuda: %s\n", Line);
}

int numDevices() {
  const char *Count = std::getenv("FAKE_CUDA_DEVICES");
  return Count && *Count ? std::atoi(Count) : 1;
}

FakeStream &streamOf(CUstream Stream) {
  return Stream ? *reinterpret_cast<FakeStream *>(Stream) : DefaultStream;
}

/// Waits for \p Stream: its pending kernel completes, faults or hangs as
/// FAKE_CUDA_FAIL says. \p Block: wait (synchronize) or only look (query).
CUresult finish(CUstream Stream, bool Block) {
  std::string Kernel;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Kernel = streamOf(Stream).PendingKernel;
  }
  trace("%s %s", Block ? "cuStreamSynchronize" : "cuStreamQuery",
        Kernel.empty() ? "(no kernel)" : Kernel.c_str());
  if (Kernel.empty())
    return CUDA_SUCCESS;
  if (failing("sync-hang")) {
    if (!Block)
      return CUDA_ERROR_NOT_READY;
    for (;;)
      std::this_thread::sleep_for(std::chrono::hours(1));
  }
  std::lock_guard<std::mutex> Guard(Lock);
  streamOf(Stream).PendingKernel.clear();
  if (failing("sync-illegal-address"))
    Sticky = CUDA_ERROR_ILLEGAL_ADDRESS;
  else if (failing("sync-trap"))
    Sticky = CUDA_ERROR_LAUNCH_FAILED;
  return Sticky;
}

} // namespace

#define ENTER(Name)                                                            \
  if (CUresult Failed = enter(Name))                                           \
  return Failed

extern "C" {

__attribute__((visibility("default"))) unsigned long
fake_cuda_call_count(const char *Entry) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Calls.find(Entry);
  return It == Calls.end() ? 0 : It->second;
}

CUresult fake_cuMemHostRegister(void *Ptr, size_t Bytes, unsigned) {
  ENTER("cuMemHostRegister");
  if (!Ptr || !Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> Guard(Lock);
  trace("cuMemHostRegister %zu bytes", Bytes);
  return Registered.emplace(Ptr, Bytes).second
             ? CUDA_SUCCESS
             : CUresult(712); // CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
}

CUresult fake_cuMemHostUnregister(void *Ptr) {
  ENTER("cuMemHostUnregister");
  std::lock_guard<std::mutex> Guard(Lock);
  trace("cuMemHostUnregister");
  return Registered.erase(Ptr)
             ? CUDA_SUCCESS
             : CUresult(713); // CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED
}

CUresult fake_cuInit(unsigned) {
  ENTER("cuInit");
  return CUDA_SUCCESS;
}

CUresult fake_cuDriverGetVersion(int *Version) {
  ENTER("cuDriverGetVersion");
  *Version = 13000;
  return CUDA_SUCCESS;
}

// Like the real driver, these two answer even after a fault.
CUresult fake_cuGetErrorName(CUresult Code, const char **Name) {
  if (CUresult Failed = injected("cuGetErrorName"))
    return Failed;
  const ErrorInfo *E = findError(Code);
  *Name = E ? E->Name : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult fake_cuGetErrorString(CUresult Code, const char **Description) {
  if (CUresult Failed = injected("cuGetErrorString"))
    return Failed;
  const ErrorInfo *E = findError(Code);
  *Description = E ? E->Description : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult fake_cuDeviceGetCount(int *Count) {
  ENTER("cuDeviceGetCount");
  *Count = numDevices();
  return CUDA_SUCCESS;
}

CUresult fake_cuDeviceGet(CUdevice *Device, int Ordinal) {
  ENTER("cuDeviceGet");
  if (Ordinal < 0 || Ordinal >= numDevices())
    return CUDA_ERROR_INVALID_VALUE;
  *Device = Ordinal;
  return CUDA_SUCCESS;
}

CUresult fake_cuDeviceGetName(char *Name, int Length, CUdevice) {
  ENTER("cuDeviceGetName");
  std::snprintf(Name, size_t(Length), "%s", "Fake CUDA GPU");
  return CUDA_SUCCESS;
}

CUresult fake_cuDeviceGetAttribute(int *Value, int Attribute, CUdevice) {
  ENTER("cuDeviceGetAttribute");
  switch (Attribute) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *Value = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *Value = 49152;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *Value = 32;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *Value = 1980000;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *Value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *Value = 2048;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *Value = 233472;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
    *Value = 65536;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
    *Value = 32;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *Value = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *Value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *Value = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *Value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *Value = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *Value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    *Value = 2619000;
    break;
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    *Value = 1;
    break;
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
    *Value = std::getenv("FAKE_CUDA_NO_PAGEABLE_ACCESS") ? 0 : 1;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult fake_cuDeviceTotalMem(size_t *Bytes, CUdevice) {
  ENTER("cuDeviceTotalMem");
  *Bytes = size_t(80) << 30;
  return CUDA_SUCCESS;
}

CUresult fake_cuDevicePrimaryCtxRetain(CUcontext *Context, CUdevice) {
  ENTER("cuDevicePrimaryCtxRetain");
  *Context = reinterpret_cast<CUcontext>(&TheContext);
  return CUDA_SUCCESS;
}

CUresult fake_cuDevicePrimaryCtxRelease(CUdevice) {
  ENTER("cuDevicePrimaryCtxRelease");
  return CUDA_SUCCESS;
}

CUresult fake_cuCtxSetCurrent(CUcontext Context) {
  ENTER("cuCtxSetCurrent");
  return Context == reinterpret_cast<CUcontext>(&TheContext) || !Context
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

CUresult fake_cuCtxGetLimit(size_t *Value, int Limit) {
  ENTER("cuCtxGetLimit");
  std::lock_guard<std::mutex> Guard(Lock);
  if (Limit == CU_LIMIT_STACK_SIZE)
    *Value = TheContext.StackBytes;
  else if (Limit == CU_LIMIT_MALLOC_HEAP_SIZE)
    *Value = TheContext.HeapBytes;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult fake_cuCtxSetLimit(int Limit, size_t Value) {
  ENTER("cuCtxSetLimit");
  std::lock_guard<std::mutex> Guard(Lock);
  if (Limit == CU_LIMIT_STACK_SIZE)
    TheContext.StackBytes = Value;
  else if (Limit == CU_LIMIT_MALLOC_HEAP_SIZE)
    TheContext.HeapBytes = Value;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult fake_cuModuleLoadDataEx(CUmodule *Module, const void *Image, unsigned,
                                 CUjit_option *, void **) {
  ENTER("cuModuleLoadDataEx");
  if (!Image)
    return CUDA_ERROR_INVALID_VALUE;
  if (failing("module-load"))
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  trace("cuModuleLoadDataEx");
  *Module = reinterpret_cast<CUmodule>(new FakeModule());
  return CUDA_SUCCESS;
}

CUresult fake_cuModuleUnload(CUmodule Module) {
  ENTER("cuModuleUnload");
  delete reinterpret_cast<FakeModule *>(Module);
  return CUDA_SUCCESS;
}

CUresult fake_cuModuleGetFunction(CUfunction *Function, CUmodule Module,
                                  const char *Name) {
  ENTER("cuModuleGetFunction");
  trace("cuModuleGetFunction %s", Name);
  std::lock_guard<std::mutex> Guard(Lock);
  FakeFunction &F = reinterpret_cast<FakeModule *>(Module)->Functions[Name];
  F.Name = Name;
  *Function = reinterpret_cast<CUfunction>(&F);
  return CUDA_SUCCESS;
}

// The fake does not read the image, so it has no globals: the plugin then
// uses its defaults for kernel and device environments.
CUresult fake_cuModuleGetGlobal(CUdeviceptr *, size_t *, CUmodule,
                                const char *) {
  ENTER("cuModuleGetGlobal");
  return CUDA_ERROR_NOT_FOUND;
}

CUresult fake_cuFuncGetAttribute(int *Value, int Attribute, CUfunction) {
  ENTER("cuFuncGetAttribute");
  // Every kernel: a saxpy's figures on an H100 (nvlink's and the
  // driver's), so that the launch line's registers, stack, shared memory
  // and occupancy can be checked.
  switch (Attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = 1024;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *Value = 40;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    *Value = 136;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *Value = 7188;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult fake_cuMemAlloc(CUdeviceptr *Ptr, size_t Bytes) {
  ENTER("cuMemAlloc");
  if (failing("alloc"))
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *Memory = std::calloc(1, Bytes ? Bytes : 1);
  if (!Memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *Ptr = reinterpret_cast<CUdeviceptr>(Memory);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemFree(CUdeviceptr Ptr) {
  ENTER("cuMemFree");
  std::free(reinterpret_cast<void *>(Ptr));
  return CUDA_SUCCESS;
}

CUresult fake_cuMemAllocHost(void **Ptr, size_t Bytes) {
  ENTER("cuMemAllocHost");
  *Ptr = std::calloc(1, Bytes ? Bytes : 1);
  return *Ptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult fake_cuMemFreeHost(void *Ptr) {
  ENTER("cuMemFreeHost");
  std::free(Ptr);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes, unsigned) {
  ENTER("cuMemAllocManaged");
  void *Memory = std::calloc(1, Bytes ? Bytes : 1);
  *Ptr = reinterpret_cast<CUdeviceptr>(Memory);
  return Memory ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult fake_cuMemcpyHtoDAsync(CUdeviceptr Dst, const void *Src, size_t Bytes,
                                CUstream) {
  ENTER("cuMemcpyHtoDAsync");
  std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemcpyDtoHAsync(void *Dst, CUdeviceptr Src, size_t Bytes,
                                CUstream) {
  ENTER("cuMemcpyDtoHAsync");
  std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemcpyDtoDAsync(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes,
                                CUstream) {
  ENTER("cuMemcpyDtoDAsync");
  std::memmove(reinterpret_cast<void *>(Dst),
               reinterpret_cast<const void *>(Src), Bytes);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemcpyPeerAsync(CUdeviceptr Dst, CUcontext, CUdeviceptr Src,
                                CUcontext, size_t Bytes, CUstream) {
  ENTER("cuMemcpyPeerAsync");
  std::memmove(reinterpret_cast<void *>(Dst),
               reinterpret_cast<const void *>(Src), Bytes);
  return CUDA_SUCCESS;
}

CUresult fake_cuMemsetD8Async(CUdeviceptr Dst, unsigned char Value,
                              size_t Bytes, CUstream) {
  ENTER("cuMemsetD8Async");
  std::memset(reinterpret_cast<void *>(Dst), Value, Bytes);
  return CUDA_SUCCESS;
}

CUresult fake_cuLaunchKernel(CUfunction Function, unsigned GridX, unsigned,
                             unsigned, unsigned BlockX, unsigned, unsigned,
                             unsigned, CUstream Stream, void **Params,
                             void **Extra) {
  ENTER("cuLaunchKernel");
  if (!Function || (!Params && !Extra))
    return CUDA_ERROR_INVALID_VALUE;
  const std::string &Name = reinterpret_cast<FakeFunction *>(Function)->Name;
  if (failing("launch"))
    return CUDA_ERROR_LAUNCH_FAILED;
  trace("cuLaunchKernel %s: %u blocks of %u threads", Name.c_str(), GridX,
        BlockX);
  std::lock_guard<std::mutex> Guard(Lock);
  streamOf(Stream).PendingKernel = Name;
  return CUDA_SUCCESS;
}

CUresult fake_cuStreamCreate(CUstream *Stream, unsigned) {
  ENTER("cuStreamCreate");
  *Stream = reinterpret_cast<CUstream>(new FakeStream());
  return CUDA_SUCCESS;
}

CUresult fake_cuStreamDestroy(CUstream Stream) {
  ENTER("cuStreamDestroy");
  delete reinterpret_cast<FakeStream *>(Stream);
  return CUDA_SUCCESS;
}

CUresult fake_cuStreamSynchronize(CUstream Stream) {
  ENTER("cuStreamSynchronize");
  return finish(Stream, /*Block=*/true);
}

CUresult fake_cuStreamQuery(CUstream Stream) {
  ENTER("cuStreamQuery");
  return finish(Stream, /*Block=*/false);
}

} // extern "C"
