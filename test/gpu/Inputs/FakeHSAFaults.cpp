// An HSA runtime library for fault-injection tests of the amdgpu plugin,
// loaded through LIBOMPTARGET_HSA_RUNTIME. It answers every call the plugin
// makes for one CPU agent and one gfx90a GPU agent: any bytes load as a code
// object, any "<name>.kd" is a kernel, memory comes from the host heap,
// copies are memcpy (once their dependency signals are 0: at once, or on a
// thread of their own that waits for them), and a dispatch packet rung on
// the queue's doorbell is only recorded (no kernel runs) before its
// completion signal is set. A barrier-AND packet completes when its
// dependency signals are 0; until then the queue stops at it.
//
// FAKE_HSA_FAIL, a comma-separated list, makes it fail on request:
//   alloc          device memory: HSA_STATUS_ERROR_OUT_OF_RESOURCES
//   queue-error    a dispatched kernel faults: its completion signal is
//                  never set, and the queue's error callback gets
//                  HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION from another
//                  thread, as the real runtime reports a memory fault
//   queue-trap     the same with HSA_STATUS_ERROR_EXCEPTION (a trap)
//   hang           a dispatched kernel never completes, and nothing is
//                  reported
//   heap-exhausted a dispatched kernel's operator new finds the device heap
//                  used up: it writes 4096 (the bytes it asked for) to the
//                  heap's exhaustion report, then traps as queue-trap does
//   <entry>=<code> every call of that entry point returning hsa_status_t
//                  (e.g. hsa_agent_get_info=4096) returns <code>
// FAKE_HSA_TRACE=1 prints kernel lookups, dispatches and queue creations on
// stderr, each line starting with "fake-hsa: ".
// FAKE_HSA_XNACK=1 reports XNACK enabled (HMM is always reported), which
// `requires unified_shared_memory` needs.
// FAKE_HSA_HEAP=1 gives every code object the device runtime's heap global
// (`__ompx_device_heap`, DeviceHeapABI.h), so the plugin reserves the heap;
// each dispatch then traces what the plugin wrote into it.
//
// Every entry point counts its calls, and allocations from the GPU agent's
// pool are also counted as "hsa_amd_memory_pool_allocate(device)":
// fake_hsa_call_count(<entry>) (exported) answers how many there were, and
// FAKE_HSA_COUNT=1 prints "fake-hsa: <entry> called <n> times" for each, at
// exit (after the exit handlers registered later, the plugin's included).
// hsa_amd_memory_lock/unlock keep the locked ranges and refuse to unlock an
// unknown pointer.
//
// FakeDriverUnsupported.cpp (test/arch-detect) answers entry points added to
// the plugin's table later with an error until they are implemented here.
#include "amdgpu/HSARuntime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace offload::plugin::hsa;

#define FAKE_DECLARE(Name, Result, Params)                                     \
  extern "C" __attribute__((visibility("default"))) Result Name Params;
OFFLOAD_HSA_FUNCTIONS(FAKE_DECLARE)
OFFLOAD_HSA_OPTIONAL_FUNCTIONS(FAKE_DECLARE)

namespace {

// Codes of hsa.h and hsa_ext_amd.h the fake answers with.
constexpr hsa_status_t ERROR_INVALID_ARGUMENT = 0x1001;
constexpr hsa_status_t ERROR_OUT_OF_RESOURCES = 0x1008;
constexpr hsa_status_t ERROR_INVALID_SYMBOL_NAME = 0x1013;
constexpr hsa_status_t ERROR_EXCEPTION = 0x1016;
constexpr hsa_status_t ERROR_MEMORY_APERTURE_VIOLATION = 41;

struct StatusText {
  hsa_status_t Code;
  const char *Text;
};

// hsa_status_string's answers: the code's name, then what it means.
const StatusText Statuses[] = {
    {HSA_STATUS_SUCCESS, "HSA_STATUS_SUCCESS: The function has been executed "
                         "successfully."},
    {HSA_STATUS_ERROR, "HSA_STATUS_ERROR: A generic error has occurred."},
    {ERROR_INVALID_ARGUMENT,
     "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not "
     "meet a precondition stated in the documentation of the corresponding "
     "formal argument."},
    {ERROR_OUT_OF_RESOURCES,
     "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the "
     "necessary resources."},
    {ERROR_INVALID_SYMBOL_NAME,
     "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given "
     "name."},
    {ERROR_EXCEPTION, "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation "
                      "resulted in a hardware exception."},
    {ERROR_MEMORY_APERTURE_VIOLATION,
     "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to "
     "access memory beyond the largest legal address."},
};

constexpr uint64_t CPUAgent = 1, GPUAgent = 2;
constexpr uint64_t DevicePool = 10, HostPool = 20;

bool listed(const char *Variable, const std::string &Item) {
  const char *List = std::getenv(Variable);
  std::string Text = List ? List : "";
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t Comma = Text.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Text.size();
    if (Text.compare(Start, Comma - Start, Item) == 0)
      return true;
    Start = Comma + 1;
  }
  return false;
}

bool failing(const char *Mode) { return listed("FAKE_HSA_FAIL", Mode); }

/// Calls per entry point (see count()).
std::mutex CountLock;
std::map<std::string, unsigned long> Calls;
bool ReportInstalled = false;
/// Host ranges locked with hsa_amd_memory_lock: start and size.
std::map<void *, size_t> Locked;

void reportCalls() {
  std::lock_guard<std::mutex> Guard(CountLock);
  for (const auto &[Entry, Count] : Calls)
    std::fprintf(stderr, "fake-hsa: %s called %lu times\n", Entry.c_str(),
                 Count);
}

void count(const std::string &Entry) {
  std::lock_guard<std::mutex> Guard(CountLock);
  ++Calls[Entry];
  if (ReportInstalled)
    return;
  ReportInstalled = true;
  const char *Enabled = std::getenv("FAKE_HSA_COUNT");
  if (Enabled && std::strcmp(Enabled, "1") == 0)
    std::atexit(reportCalls);
}

/// The status FAKE_HSA_FAIL asks \p Entry to return ("<entry>=<code>").
hsa_status_t injected(const char *Entry) {
  count(Entry);
  const char *List = std::getenv("FAKE_HSA_FAIL");
  std::string Text = List ? List : "";
  std::string Key = std::string(Entry) + "=";
  size_t At = 0;
  while ((At = Text.find(Key, At)) != std::string::npos) {
    if (At == 0 || Text[At - 1] == ',')
      return hsa_status_t(std::strtol(Text.c_str() + At + Key.size(),
                                      nullptr, 0));
    At += Key.size();
  }
  return HSA_STATUS_SUCCESS;
}

[[gnu::format(printf, 1, 2)]] void trace(const char *Fmt, ...) {
  const char *Enabled = std::getenv("FAKE_HSA_TRACE");
  if (!Enabled || std::strcmp(Enabled, "1") != 0)
    return;
  char Line[512];
  va_list Args;
  va_start(Args, Fmt);
  std::vsnprintf(Line, sizeof(Line), Fmt, Args);
  va_end(Args);
  std::fprintf(stderr, "fake-hsa: %s\n", Line);
}

struct FakeQueue;

struct FakeSignal {
  std::atomic<hsa_signal_value_t> Value{0};
  std::mutex Lock;
  std::condition_variable Changed;
  /// Set for a queue's doorbell: storing to it processes packets.
  FakeQueue *Doorbell = nullptr;

  void store(hsa_signal_value_t V) {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Value.store(V);
    }
    Changed.notify_all();
  }
};

struct FakeQueue {
  hsa_queue_t Public{};
  hsa_queue_callback_t Callback = nullptr;
  void *CallbackData = nullptr;
  std::atomic<uint64_t> WriteIndex{0};
  std::atomic<uint64_t> ReadIndex{0};
  FakeSignal DoorbellSignal;
  bool Stopped = false;
};

/// A kernel symbol; its address is the kernel object of dispatches.
struct FakeSymbol {
  std::string Name;
  /// Set for the one variable: its storage.
  void *Variable = nullptr;
  uint32_t VariableSize = 0;
};

/// `__ompx_device_heap` of every code object, with FAKE_HSA_HEAP=1: the
/// layout of offload/include/DeviceHeapABI.h (the plugin refuses a global of
/// another size, so a change there fails the heap tests).
struct {
  uint64_t Base, Size, ExhaustionReport, Reserved;
} HeapGlobal;
constexpr const char *HeapSymbol = "__ompx_device_heap";

bool enabled(const char *Variable) {
  const char *Value = std::getenv(Variable);
  return Value && std::strcmp(Value, "1") == 0;
}

/// What a kernel would find in its heap global, and the device side of a
/// failing operator new (FAKE_HSA_FAIL=heap-exhausted).
void traceHeap() {
  if (!enabled("FAKE_HSA_HEAP"))
    return;
  trace("device heap: %llu bytes at %s, exhaustion report %s",
        static_cast<unsigned long long>(HeapGlobal.Size),
        HeapGlobal.Base ? "a device address" : "null",
        HeapGlobal.ExhaustionReport ? "in host memory" : "missing");
  if (failing("heap-exhausted") && HeapGlobal.ExhaustionReport)
    __atomic_store_n(reinterpret_cast<uint64_t *>(HeapGlobal.ExhaustionReport),
                     uint64_t(4096), __ATOMIC_SEQ_CST);
}

FakeSignal *signalOf(hsa_signal_t Signal) {
  return reinterpret_cast<FakeSignal *>(Signal.handle);
}

bool satisfied(hsa_signal_value_t Value, int Condition,
               hsa_signal_value_t Compare) {
  switch (Condition) {
  case 0: // EQ
    return Value == Compare;
  case 1: // NE
    return Value != Compare;
  case 2: // LT
    return Value < Compare;
  default: // GTE
    return Value >= Compare;
  }
}

/// Whether every dependency in \p Signals (null handles aside) is 0.
bool dependenciesMet(const hsa_signal_t *Signals, size_t Count) {
  for (size_t I = 0; I < Count; ++I)
    if (Signals[I].handle && signalOf(Signals[I])->Value.load() != 0)
      return false;
  return true;
}

void decrement(hsa_signal_t Signal) {
  if (!Signal.handle)
    return;
  FakeSignal *Done = signalOf(Signal);
  std::lock_guard<std::mutex> Guard(Done->Lock);
  Done->Value.fetch_sub(1);
  Done->Changed.notify_all();
}

/// Runs the packets written to \p Queue up to \p Last: records each
/// dispatch and completes, faults or hangs it as FAKE_HSA_FAIL says.
void ringDoorbell(FakeQueue &Queue, uint64_t Last) {
  while (!Queue.Stopped && Queue.ReadIndex.load() <= Last) {
    uint64_t Index = Queue.ReadIndex.load();
    auto *Packet =
        static_cast<hsa_kernel_dispatch_packet_t *>(Queue.Public.base_address) +
        (Index % Queue.Public.size);
    if ((Packet->header & 0xff) == HSA_PACKET_TYPE_BARRIER_AND) {
      auto *Barrier = reinterpret_cast<hsa_barrier_and_packet_t *>(Packet);
      if (!dependenciesMet(Barrier->dep_signal, 5)) {
        trace("barrier-AND packet waits for a signal that is not 0");
        return;
      }
      Queue.ReadIndex.store(Index + 1);
      decrement(Barrier->completion_signal);
      continue;
    }
    auto *Kernel = reinterpret_cast<FakeSymbol *>(Packet->kernel_object);
    const char *Name = Kernel ? Kernel->Name.c_str() : "(no kernel)";
    unsigned Dims =
        (Packet->setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS) & 3;
    if (Dims > 1) // ompx_bare kernels: every extent, as written
      trace("dispatch %s: grid %ux%ux%u, workgroup %ux%ux%u, %u dimensions",
            Name, Packet->grid_size_x, Packet->grid_size_y,
            Packet->grid_size_z, unsigned(Packet->workgroup_size_x),
            unsigned(Packet->workgroup_size_y),
            unsigned(Packet->workgroup_size_z), Dims);
    else
      trace("dispatch %s: grid %u, workgroup %u, private %u bytes", Name,
            Packet->grid_size_x, unsigned(Packet->workgroup_size_x),
            Packet->private_segment_size);
    traceHeap();
    hsa_status_t Fault = HSA_STATUS_SUCCESS;
    if (failing("queue-error"))
      Fault = ERROR_MEMORY_APERTURE_VIOLATION;
    else if (failing("queue-trap") || failing("heap-exhausted"))
      Fault = ERROR_EXCEPTION;
    if (Fault) {
      // The real runtime reports a queue error from a thread of its own,
      // while the application waits for the completion signal.
      Queue.Stopped = true;
      FakeQueue *Q = &Queue;
      std::thread([Q, Fault] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (Q->Callback)
          Q->Callback(Fault, &Q->Public, Q->CallbackData);
      }).detach();
      return;
    }
    if (failing("hang"))
      return;
    Queue.ReadIndex.store(Index + 1);
    decrement(Packet->completion_signal);
  }
}

} // namespace

#define ENTER(Name)                                                            \
  if (hsa_status_t Failed = injected(Name))                                    \
  return Failed

extern "C" {

__attribute__((visibility("default"))) unsigned long
fake_hsa_call_count(const char *Entry) {
  std::lock_guard<std::mutex> Guard(CountLock);
  auto It = Calls.find(Entry);
  return It == Calls.end() ? 0 : It->second;
}

hsa_status_t hsa_amd_memory_lock(void *Ptr, size_t Size, hsa_agent_t *, int,
                                 void **AgentPtr) {
  ENTER("hsa_amd_memory_lock");
  if (!Ptr || !Size || !AgentPtr)
    return ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> Guard(CountLock);
  Locked[Ptr] = Size;
  // The real runtime answers the address the GPU uses, which on most
  // systems is the host address itself.
  *AgentPtr = Ptr;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_unlock(void *Ptr) {
  ENTER("hsa_amd_memory_unlock");
  std::lock_guard<std::mutex> Guard(CountLock);
  return Locked.erase(Ptr) ? HSA_STATUS_SUCCESS : ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_init() {
  ENTER("hsa_init");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_shut_down() {
  ENTER("hsa_shut_down");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_status_string(hsa_status_t Status, const char **Text) {
  ENTER("hsa_status_string");
  for (const StatusText &S : Statuses)
    if (S.Code == Status) {
      *Text = S.Text;
      return HSA_STATUS_SUCCESS;
    }
  return ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_system_get_info(int Attribute, void *Value) {
  ENTER("hsa_system_get_info");
  // A kernel with HMM; XNACK only on request, as on most MI200 systems.
  if (Attribute == HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED ||
      Attribute == HSA_AMD_SYSTEM_INFO_XNACK_ENABLED) {
    *static_cast<bool *>(Value) =
        Attribute == HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED ||
        std::getenv("FAKE_HSA_XNACK") != nullptr;
    return HSA_STATUS_SUCCESS;
  }
  if (Attribute != HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY)
    return ERROR_INVALID_ARGUMENT;
  // One tick per nanosecond, so wait hints read as nanoseconds here.
  *static_cast<uint64_t *>(Value) = 1000000000;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_iterate_agents(hsa_agent_callback_t Callback, void *Data) {
  ENTER("hsa_iterate_agents");
  for (uint64_t Handle : {CPUAgent, GPUAgent})
    if (hsa_status_t Status = Callback(hsa_agent_t{Handle}, Data))
      return Status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : Status;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_info(hsa_agent_t Agent, int Attribute,
                                void *Value) {
  ENTER("hsa_agent_get_info");
  bool GPU = Agent.handle == GPUAgent;
  if (!GPU && Agent.handle != CPUAgent)
    return ERROR_INVALID_ARGUMENT;
  auto *Word = static_cast<uint32_t *>(Value);
  switch (Attribute) {
  case HSA_AGENT_INFO_DEVICE:
    *static_cast<int *>(Value) =
        GPU ? HSA_DEVICE_TYPE_GPU : HSA_DEVICE_TYPE_CPU;
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_NAME:
    // The API's name field is a 64-byte array.
    std::memset(Value, 0, 64);
    std::strcpy(static_cast<char *>(Value), GPU ? "gfx90a" : "FakeCPU");
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_WAVEFRONT_SIZE:
    *Word = 64;
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
    *Word = 1024;
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
    *Word = GPU ? 4096 : 0;
    return HSA_STATUS_SUCCESS;
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
    *Word = GPU ? 110 : 0;
    return HSA_STATUS_SUCCESS;
  default:
    return ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t Agent,
                                                hsa_pool_callback_t Callback,
                                                void *Data) {
  ENTER("hsa_amd_agent_iterate_memory_pools");
  uint64_t Pool = Agent.handle == GPUAgent ? DevicePool : HostPool;
  hsa_status_t Status = Callback(hsa_amd_memory_pool_t{Pool}, Data);
  return Status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : Status;
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t Pool,
                                          int Attribute, void *Value) {
  ENTER("hsa_amd_memory_pool_get_info");
  switch (Attribute) {
  case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
    *static_cast<int *>(Value) = HSA_AMD_SEGMENT_GLOBAL;
    return HSA_STATUS_SUCCESS;
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
    *static_cast<bool *>(Value) = true;
    return HSA_STATUS_SUCCESS;
  case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
    *static_cast<uint32_t *>(Value) =
        Pool.handle == DevicePool
            ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
            : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
    return HSA_STATUS_SUCCESS;
  default:
    return ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t Pool,
                                          size_t Size, uint32_t, void **Ptr) {
  ENTER("hsa_amd_memory_pool_allocate");
  if (Pool.handle == DevicePool)
    count("hsa_amd_memory_pool_allocate(device)");
  if (Pool.handle == DevicePool && failing("alloc"))
    return ERROR_OUT_OF_RESOURCES;
  *Ptr = std::calloc(1, Size ? Size : 1);
  if (!*Ptr)
    return ERROR_OUT_OF_RESOURCES;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_free(void *Ptr) {
  ENTER("hsa_amd_memory_pool_free");
  std::free(Ptr);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t, const hsa_agent_t *,
                                         const uint32_t *, const void *) {
  ENTER("hsa_amd_agents_allow_access");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_copy(void *Dst, hsa_agent_t, const void *Src,
                                       hsa_agent_t, size_t Size,
                                       uint32_t NumDependencies,
                                       const hsa_signal_t *Dependencies,
                                       hsa_signal_t Completion) {
  ENTER("hsa_amd_memory_async_copy");
  std::vector<hsa_signal_t> Waits(Dependencies, Dependencies + NumDependencies);
  if (dependenciesMet(Waits.data(), Waits.size())) {
    std::memmove(Dst, Src, Size);
    decrement(Completion);
    return HSA_STATUS_SUCCESS;
  }
  // After a kernel that has not completed (one that hangs): the copy waits
  // for it, as the copy engines do.
  std::thread([=] {
    for (hsa_signal_t W : Waits) {
      FakeSignal *S = signalOf(W);
      std::unique_lock<std::mutex> Guard(S->Lock);
      S->Changed.wait(Guard, [&] { return S->Value.load() == 0; });
    }
    std::memmove(Dst, Src, Size);
    decrement(Completion);
  }).detach();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *Ptr, uint32_t Value, size_t Count) {
  ENTER("hsa_amd_memory_fill");
  auto *Words = static_cast<uint32_t *>(Ptr);
  for (size_t I = 0; I < Count; ++I)
    Words[I] = Value;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t Initial, uint32_t,
                               const hsa_agent_t *, hsa_signal_t *Signal) {
  ENTER("hsa_signal_create");
  auto *S = new FakeSignal();
  S->Value.store(Initial);
  Signal->handle = reinterpret_cast<uint64_t>(S);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_destroy(hsa_signal_t Signal) {
  ENTER("hsa_signal_destroy");
  delete signalOf(Signal);
  return HSA_STATUS_SUCCESS;
}

void hsa_signal_store_screlease(hsa_signal_t Signal, hsa_signal_value_t V) {
  FakeSignal *S = signalOf(Signal);
  S->store(V);
  if (S->Doorbell)
    ringDoorbell(*S->Doorbell, uint64_t(V));
}

hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t Signal) {
  return signalOf(Signal)->Value.load();
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t Signal,
                                             int Condition,
                                             hsa_signal_value_t Compare,
                                             uint64_t TimeoutHint, int) {
  FakeSignal *S = signalOf(Signal);
  std::unique_lock<std::mutex> Guard(S->Lock);
  auto Ready = [&] { return satisfied(S->Value.load(), Condition, Compare); };
  if (TimeoutHint == UINT64_MAX)
    S->Changed.wait(Guard, Ready);
  else
    S->Changed.wait_for(Guard, std::chrono::nanoseconds(TimeoutHint), Ready);
  return S->Value.load();
}

hsa_status_t hsa_queue_create(hsa_agent_t Agent, uint32_t Size, uint32_t,
                              hsa_queue_callback_t Callback, void *Data,
                              uint32_t, uint32_t, hsa_queue_t **Queue) {
  ENTER("hsa_queue_create");
  if (Agent.handle != GPUAgent || Size == 0 || (Size & (Size - 1)))
    return ERROR_INVALID_ARGUMENT;
  trace("queue of %u packets", Size);
  auto *Q = new FakeQueue();
  Q->Callback = Callback;
  Q->CallbackData = Data;
  Q->Public.size = Size;
  Q->Public.base_address =
      std::calloc(Size, sizeof(hsa_kernel_dispatch_packet_t));
  Q->DoorbellSignal.Doorbell = Q;
  Q->Public.doorbell_signal.handle =
      reinterpret_cast<uint64_t>(&Q->DoorbellSignal);
  *Queue = &Q->Public;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *Queue) {
  ENTER("hsa_queue_destroy");
  // Public is the first member of FakeQueue.
  auto *Q = reinterpret_cast<FakeQueue *>(Queue);
  std::free(Q->Public.base_address);
  delete Q;
  return HSA_STATUS_SUCCESS;
}

uint64_t hsa_queue_add_write_index_relaxed(const hsa_queue_t *Queue,
                                           uint64_t Count) {
  return reinterpret_cast<FakeQueue *>(const_cast<hsa_queue_t *>(Queue))
      ->WriteIndex.fetch_add(Count);
}

uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t *Queue) {
  return reinterpret_cast<const FakeQueue *>(Queue)->ReadIndex.load();
}

hsa_status_t hsa_code_object_reader_create_from_memory(
    const void *, size_t, hsa_code_object_reader_t *Reader) {
  ENTER("hsa_code_object_reader_create_from_memory");
  Reader->handle = 1;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t) {
  ENTER("hsa_code_object_reader_destroy");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create_alt(int, int, const char *,
                                       hsa_executable_t *Executable) {
  ENTER("hsa_executable_create_alt");
  Executable->handle = 1;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t,
                                                   hsa_agent_t,
                                                   hsa_code_object_reader_t,
                                                   const char *,
                                                   hsa_loaded_code_object_t *) {
  ENTER("hsa_executable_load_agent_code_object");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t, const char *) {
  ENTER("hsa_executable_freeze");
  return HSA_STATUS_SUCCESS;
}

// Every "<name>.kd" is a kernel; the only variable is the heap global (with
// FAKE_HSA_HEAP=1), so the plugin uses its defaults for kernel and device
// environments.
hsa_status_t
hsa_executable_get_symbol_by_name(hsa_executable_t, const char *Name,
                                  const hsa_agent_t *,
                                  hsa_executable_symbol_t *Symbol) {
  ENTER("hsa_executable_get_symbol_by_name");
  std::string Text = Name;
  if (Text == HeapSymbol && enabled("FAKE_HSA_HEAP")) {
    static FakeSymbol Heap{Text, &HeapGlobal, sizeof(HeapGlobal)};
    Symbol->handle = reinterpret_cast<uint64_t>(&Heap);
    return HSA_STATUS_SUCCESS;
  }
  if (Text.size() < 4 || Text.compare(Text.size() - 3, 3, ".kd") != 0)
    return ERROR_INVALID_SYMBOL_NAME;
  trace("kernel %s", Text.substr(0, Text.size() - 3).c_str());
  // Symbols live as long as the process, like the executable they are in.
  auto *S = new FakeSymbol{Text.substr(0, Text.size() - 3)};
  Symbol->handle = reinterpret_cast<uint64_t>(S);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t Symbol,
                                            int Attribute, void *Value) {
  ENTER("hsa_executable_symbol_get_info");
  switch (Attribute) {
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
    *static_cast<uint64_t *>(Value) = reinterpret_cast<uint64_t>(
        reinterpret_cast<FakeSymbol *>(Symbol.handle)->Variable);
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
    *static_cast<uint32_t *>(Value) =
        reinterpret_cast<FakeSymbol *>(Symbol.handle)->VariableSize;
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
    *static_cast<uint64_t *>(Value) = Symbol.handle;
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
    *static_cast<uint32_t *>(Value) = 0;
    return HSA_STATUS_SUCCESS;
  default:
    return ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_executable_destroy(hsa_executable_t) {
  ENTER("hsa_executable_destroy");
  return HSA_STATUS_SUCCESS;
}

} // extern "C"
