// Drives the AMDGPU plugin through the plugin interface with real async
// infos, as libomptarget does for `nowait` work, over the emulated HSA
// runtime: async-chain <plugin> <image> <mode>, where the image is
// async-kernels.cpp's linked gfx90a image (its kernels are found by name in
// its symbol table's strings). Modes:
//   order   copy -> kernel -> copy on several async infos at once, issued
//           back to back, then synchronize/queryAsync; the host buffers are
//           pageable (staged, or locked for the copy when larger than
//           LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES) or locked
//   async   a kernel that waits for the host: its launch and the copies
//           after it return while it runs, queryAsync says not done, a copy
//           into locked memory queued after it has not happened, and after
//           synchronize everything has
//   staging a copy to the device of pageable memory, queued behind a kernel
//           that waits for the host, whose source is overwritten before
//           the kernel may end: whether the copy took the bytes at the call
//           (staged) or when it ran (the range locked for the copy, above
//           LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES)
//   fault   a trapping kernel with a copy queued after it: synchronize
//           reports the kernel
#include "PluginInterface.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace offload::plugin;

namespace {

constexpr int N = 1024; // async-kernels.cpp's N
constexpr int64_t Bytes = N * sizeof(int);

struct Kernels {
  KernelHandle Scale, WaitForHost, Fault;
};

[[noreturn]] void stop(const char *Step, const std::string &Message) {
  std::printf("step %s failed: %s\n", Step, Message.c_str());
  std::exit(1);
}

void check(const char *Step, Status S) {
  if (S)
    stop(Step, S.message());
}

/// The kernel whose name contains \p Part: a string of \p Image that
/// starts with "__omp_offloading_" (a symbol name).
std::string kernelName(const std::vector<char> &Image, const char *Part) {
  const std::string Prefix = "__omp_offloading_";
  for (size_t I = 1; I + Prefix.size() < Image.size(); ++I) {
    if (Image[I - 1] != '\0' ||
        std::memcmp(&Image[I], Prefix.data(), Prefix.size()) != 0)
      continue;
    std::string Name(&Image[I]);
    if (Name.find(Part) != std::string::npos &&
        Name.find('.') == std::string::npos &&
        Name.find("_kernel_environment") == std::string::npos)
      return Name;
  }
  stop("finding a kernel", Part);
}

GenericDevice *openDevice(const char *Plugin, const char *ImagePath,
                          Kernels &Out) {
  void *Library = dlopen(Plugin, RTLD_NOW | RTLD_LOCAL);
  if (!Library)
    stop("dlopen", dlerror());
  auto Create = reinterpret_cast<offload_plugin_create_fn>(
      dlsym(Library, OFFLOAD_PLUGIN_ENTRY_SYMBOL));
  GenericPlugin *P = Create ? Create(InterfaceVersion) : nullptr;
  if (!P || P->initialize() < 1)
    stop("initialize", "no device");
  Status Error;
  GenericDevice *Device = P->getDevice(0, Error);
  if (!Device)
    stop("getDevice", Error.message());
  FILE *F = std::fopen(ImagePath, "rb");
  if (!F)
    stop("open image", ImagePath);
  static std::vector<char> Image;
  char Chunk[65536];
  size_t Read;
  while ((Read = std::fread(Chunk, 1, sizeof(Chunk), F)) > 0)
    Image.insert(Image.end(), Chunk, Chunk + Read);
  std::fclose(F);
  DeviceImageRef Ref;
  Ref.Start = Image.data();
  Ref.Size = Image.size();
  Ref.Triple = "amdgcn-amd-amdhsa";
  Ref.Arch = "gfx90a";
  Ref.Description = ImagePath;
  LoadedImage *Loaded = nullptr;
  check("loadImage", Device->loadImage(Ref, Loaded));
  check(
      "getKernel",
      Device->getKernel(Loaded, kernelName(Image, "scale").c_str(), Out.Scale));
  check("getKernel",
        Device->getKernel(Loaded, kernelName(Image, "waitForHost").c_str(),
                          Out.WaitForHost));
  check(
      "getKernel",
      Device->getKernel(Loaded, kernelName(Image, "fault").c_str(), Out.Fault));
  return Device;
}

/// One chain of work: its device buffer and host buffers.
struct Round {
  __tgt_async_info Async{nullptr};
  void *DeviceData = nullptr;
  std::vector<int> In, Out;
  int *InPtr = nullptr, *OutPtr = nullptr; // where the copies go
};

/// Copy in, scale, copy out on \p R's async info without waiting. The
/// source is overwritten right after the copy is queued: a staged copy
/// must have taken the bytes already, so only a direct copy (locked or
/// large) keeps its source as it is until the chain is done.
void queueRound(GenericDevice &D, const Kernels &K, Round &R, int Seed,
                bool SourceReusable) {
  for (int I = 0; I < N; ++I)
    R.InPtr[I] = Seed + I;
  check("dataSubmit", D.dataSubmit(R.DeviceData, R.InPtr, Bytes, &R.Async));
  if (SourceReusable)
    for (int I = 0; I < N; ++I)
      R.InPtr[I] = -1;
  void *Args[1] = {R.DeviceData};
  KernelLaunchParams Params;
  check("launchKernel", D.launchKernel(K.Scale, Args, 1, Params, &R.Async));
  check("dataRetrieve",
        D.dataRetrieve(R.OutPtr, R.DeviceData, Bytes, &R.Async));
}

int wrongValues(const Round &R, int Seed) {
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += R.OutPtr[I] != 2 * (Seed + I) + 1;
  return Wrong;
}

/// \p Kind: "pageable" (staged or, above the limit, locked for the copy) or
/// "locked" (llvm_omp_target_lock_mem's path: lockHostMemory).
void runOrder(GenericDevice &D, const Kernels &K, const char *Kind) {
  bool Locked = std::strcmp(Kind, "locked") == 0;
  bool Staged =
      !Locked && !std::getenv("LIBOMPTARGET_AMDGPU_MAX_ASYNC_COPY_BYTES");
  const int Chains = 3, Rounds = 20;
  std::vector<Round> All(Chains);
  for (Round &R : All) {
    R.DeviceData = D.allocate(Bytes, AllocKind::Device);
    R.In.assign(N, 0);
    R.Out.assign(N, 0);
    R.InPtr = R.In.data();
    R.OutPtr = R.Out.data();
    if (Locked) {
      void *Ignored = nullptr;
      check("lockHostMemory", D.lockHostMemory(R.InPtr, Bytes, Ignored));
      check("lockHostMemory", D.lockHostMemory(R.OutPtr, Bytes, Ignored));
    }
  }
  int Wrong = 0;
  for (int Round = 0; Round < Rounds; ++Round) {
    for (int C = 0; C < Chains; ++C)
      queueRound(D, K, All[C], Round * 10000 + C * 1000, Staged);
    // Half the rounds poll with queryAsync, half synchronize.
    for (int C = 0; C < Chains; ++C) {
      if (Round % 2) {
        bool Done = false;
        while (!Done)
          check("queryAsync", D.queryAsync(&All[C].Async, Done));
      } else {
        check("synchronize", D.synchronize(&All[C].Async));
      }
      if (All[C].Async.Queue)
        stop("synchronize", "the async info still has a queue");
      Wrong += wrongValues(All[C], Round * 10000 + C * 1000);
    }
  }
  std::printf("order %s: %d chains x %d rounds, %d wrong\n", Kind, Chains,
              Rounds, Wrong);
}

void runAsync(GenericDevice &D, const Kernels &K) {
  auto *Flag = static_cast<int *>(D.allocate(sizeof(int), AllocKind::Host));
  void *DeviceOut = D.allocate(Bytes, AllocKind::Device);
  // 99: not written yet (the device's buffer holds zeros, then 7).
  std::vector<int> Pageable(N, 99), LockedOut(N, 99);
  void *Ignored = nullptr;
  check("lockHostMemory", D.lockHostMemory(LockedOut.data(), Bytes, Ignored));
  *Flag = 0;
  __tgt_async_info Async{nullptr};
  std::vector<int> Zeros(N, 0);
  check("dataSubmit", D.dataSubmit(DeviceOut, Zeros.data(), Bytes, &Async));
  void *Args[2] = {Flag, DeviceOut};
  KernelLaunchParams Params;
  // Synchronous, this launch would never return: the kernel waits for the
  // flag written below.
  check("launchKernel", D.launchKernel(K.WaitForHost, Args, 2, Params, &Async));
  check("dataRetrieve",
        D.dataRetrieve(Pageable.data(), DeviceOut, Bytes, &Async));
  check("dataRetrieve",
        D.dataRetrieve(LockedOut.data(), DeviceOut, Bytes, &Async));
  bool Done = true;
  check("queryAsync", D.queryAsync(&Async, Done));
  std::printf("async: launch returned while the kernel waits; query: %s\n",
              Done ? "done" : "not done");
  // The copy engines honour the dependency: the copy into locked memory
  // cannot have run before the kernel.
  std::printf("async: copy queued after the kernel ran early: %s\n",
              LockedOut[0] != 99 ? "yes" : "no");
  __atomic_store_n(Flag, 1, __ATOMIC_RELEASE);
  check("synchronize", D.synchronize(&Async));
  std::printf("async: after synchronize: pageable %d, locked %d\n", Pageable[0],
              LockedOut[0]);
  check("unlockHostMemory", D.unlockHostMemory(LockedOut.data()));
}

void runStaging(GenericDevice &D, const Kernels &K) {
  auto *Flag = static_cast<int *>(D.allocate(sizeof(int), AllocKind::Host));
  void *DeviceData = D.allocate(Bytes, AllocKind::Device);
  std::vector<int> Source(N, 5), Out(N, 0);
  *Flag = 0;
  __tgt_async_info Async{nullptr};
  void *Args[2] = {Flag, DeviceData};
  KernelLaunchParams Params;
  check("launchKernel", D.launchKernel(K.WaitForHost, Args, 2, Params, &Async));
  check("dataSubmit", D.dataSubmit(DeviceData, Source.data(), Bytes, &Async));
  // The kernel still waits, so the copy has not run yet.
  for (int &Value : Source)
    Value = -1;
  check("dataRetrieve", D.dataRetrieve(Out.data(), DeviceData, Bytes, &Async));
  __atomic_store_n(Flag, 1, __ATOMIC_RELEASE);
  check("synchronize", D.synchronize(&Async));
  std::printf("staging: the copy to the device took its source %s\n",
              Out[N - 1] == 5    ? "at the call (staged)"
              : Out[N - 1] == -1 ? "when it ran (direct)"
                                 : "from nowhere");
}

void runFault(GenericDevice &D, const Kernels &K) {
  void *DeviceOut = D.allocate(Bytes, AllocKind::Device);
  std::vector<int> Out(N, 0);
  __tgt_async_info Async{nullptr};
  void *Args[1] = {DeviceOut};
  KernelLaunchParams Params;
  check("launchKernel", D.launchKernel(K.Fault, Args, 1, Params, &Async));
  check("dataRetrieve", D.dataRetrieve(Out.data(), DeviceOut, Bytes, &Async));
  Status S = D.synchronize(&Async);
  std::printf("fault: synchronize: %s\n",
              S ? S.message().c_str() : "succeeded");
  std::printf("fault: async info released: %s\n", Async.Queue ? "no" : "yes");
  // The device refuses more kernels, naming the one that stopped it.
  S = D.launchKernel(K.Scale, Args, 1, Params, nullptr);
  std::printf("fault: next launch: %s\n",
              S ? S.message().c_str() : "succeeded");
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 4) {
    std::printf("usage: %s <plugin> <image> "
                "<order|order-locked|async|staging|fault>\n",
                Argv[0]);
    return 2;
  }
  Kernels K{};
  GenericDevice *D = openDevice(Argv[1], Argv[2], K);
  std::string Mode = Argv[3];
  if (Mode == "order")
    runOrder(*D, K, "pageable");
  else if (Mode == "order-locked")
    runOrder(*D, K, "locked");
  else if (Mode == "async")
    runAsync(*D, K);
  else if (Mode == "staging")
    runStaging(*D, K);
  else if (Mode == "fault")
    runFault(*D, K);
  else
    stop("mode", Mode);
  std::fflush(stdout);
  return 0;
}
