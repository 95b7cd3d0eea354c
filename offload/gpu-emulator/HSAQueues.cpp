//===- HSAQueues.cpp - AQL queues of the emulated HSA runtime -------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HSAQueue.h"
#include "SIMTExecutor.h"
#include "Trace.h"

#include <cstdio>
#include <cstdlib>

using namespace gpuemu;
using namespace gpuemu::hsa;

#define HSA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr uint32_t WavefrontSize = 64;

uint16_t packetType(const hsa_kernel_dispatch_packet_t &P) {
  return __atomic_load_n(&P.header, __ATOMIC_ACQUIRE) & 0xff;
}

size_t stackBytes(uint32_t PrivateSegment) {
  size_t Bytes = 64 * 1024;
  if (const char *Env = std::getenv("GPUEMU_STACK_SIZE"))
    Bytes = size_t(std::strtoull(Env, nullptr, 10));
  return std::max<size_t>(Bytes, PrivateSegment);
}

uint32_t blocksOf(uint32_t WorkItems, uint16_t GroupSize) {
  return GroupSize ? (WorkItems + GroupSize - 1) / GroupSize : 0;
}

} // namespace

Queue::Queue(uint32_t Size, hsa_queue_callback_t Callback, void *CallbackData)
    : Ring(new hsa_kernel_dispatch_packet_t[Size]), Callback(Callback),
      CallbackData(CallbackData) {
  for (uint32_t I = 0; I < Size; ++I)
    Ring[I].header = HSA_PACKET_TYPE_INVALID;
  Doorbell.Doorbell = this;
  Public.base_address = Ring.get();
  Public.doorbell_signal.handle = reinterpret_cast<uint64_t>(&Doorbell);
  Public.size = Size;
  Public.id = reinterpret_cast<uint64_t>(this);
  Processor = std::thread(&Queue::process, this);
}

Queue::~Queue() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
  }
  Rung.notify_all();
  Processor.join();
}

void Queue::ring() {
  {
    std::lock_guard<std::mutex> Guard(Lock);
  }
  Rung.notify_all();
}

void Queue::process() {
  for (;;) {
    uint64_t Index = ReadIndex.load();
    hsa_kernel_dispatch_packet_t &Slot = Ring[Index % Public.size];
    {
      std::unique_lock<std::mutex> Guard(Lock);
      Rung.wait(Guard, [&] {
        return Stopping || packetType(Slot) != HSA_PACKET_TYPE_INVALID;
      });
      if (Stopping)
        return;
    }
    if (!runPacket(Slot))
      return;
    __atomic_store_n(&Slot.header, uint16_t(HSA_PACKET_TYPE_INVALID),
                     __ATOMIC_RELEASE);
    ReadIndex.store(Index + 1);
  }
}

bool Queue::runPacket(hsa_kernel_dispatch_packet_t &Slot) {
  hsa_signal_t Completion = Slot.completion_signal;
  switch (packetType(Slot)) {
  case HSA_PACKET_TYPE_KERNEL_DISPATCH:
    if (!dispatch(Slot))
      return false;
    break;
  case HSA_PACKET_TYPE_BARRIER_AND: {
    auto &Barrier = reinterpret_cast<hsa_barrier_and_packet_t &>(Slot);
    Completion = Barrier.completion_signal;
    for (hsa_signal_t Dependency : Barrier.dep_signal)
      if (Dependency.handle) {
        Signal &S = *Signal::of(Dependency);
        std::unique_lock<std::mutex> Guard(S.Lock);
        S.Changed.wait(Guard, [&] { return S.Value.load() == 0; });
      }
    break;
  }
  default:
    fprintf(stderr,
            "gpu-emulator: HSA queue: packet type %u is not "
            "supported\n",
            unsigned(packetType(Slot)));
    fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    return false;
  }
  if (Completion.handle)
    Signal::of(Completion)->update(-1, /*Add=*/true);
  return true;
}

bool Queue::fitsInGroupMemory(const KernelFunction &Kernel,
                              uint64_t DynamicBytes) {
  // The descriptor's group segment size is the image's whole segment; a
  // GPU would see the kernel's own LDS plus the dynamic part.
  uint64_t Bytes = Kernel.StaticSharedBytes + DynamicBytes;
  if (Bytes <= AMDGPUGroupPerWorkGroup)
    return true;
  fprintf(stderr,
          "gpu-emulator: HSA queue: kernel '%s': %llu bytes of group memory "
          "(%llu static, %llu dynamic) are more than the %llu a work-group "
          "may have\n",
          Kernel.Name.c_str(), (unsigned long long)Bytes,
          (unsigned long long)Kernel.StaticSharedBytes,
          (unsigned long long)DynamicBytes,
          (unsigned long long)AMDGPUGroupPerWorkGroup);
  fail(HSA_STATUS_ERROR_INVALID_ALLOCATION);
  return false;
}

bool Queue::dispatch(const hsa_kernel_dispatch_packet_t &Slot) {
  // The packet's slot may be reused once the read index moves on; the
  // kernel reads its copy (the dispatch pointer).
  hsa_kernel_dispatch_packet_t Packet = Slot;
  KernelFunction *Kernel = kernelForObject(Packet.kernel_object);
  if (!Kernel) {
    fprintf(stderr,
            "gpu-emulator: HSA queue: kernel object 0x%llx is not a kernel "
            "descriptor of a loaded executable\n",
            (unsigned long long)Packet.kernel_object);
    fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    return false;
  }
  // The kernel's code assumes no larger work-group than it was compiled
  // for (its metadata's .max_flat_workgroup_size).
  uint64_t WorkItems = uint64_t(Packet.workgroup_size_x) *
                       Packet.workgroup_size_y * Packet.workgroup_size_z;
  if (WorkItems > Kernel->MaxThreadsPerBlock) {
    fprintf(stderr,
            "gpu-emulator: HSA queue: kernel '%s': a work-group of %llu "
            "work-items is more than the %u it was compiled for "
            "(.max_flat_workgroup_size)\n",
            Kernel->Name.c_str(), (unsigned long long)WorkItems,
            Kernel->MaxThreadsPerBlock);
    fail(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
    return false;
  }
  void *Params[2] = {Packet.kernarg_address, &Packet};
  LaunchConfig Config;
  Config.KernelName = Kernel->Name;
  Config.Entry = Kernel->Entry;
  Config.Params = Params;
  Config.Block = {Packet.workgroup_size_x, Packet.workgroup_size_y,
                  Packet.workgroup_size_z};
  Config.Grid = {blocksOf(Packet.grid_size_x, Packet.workgroup_size_x),
                 blocksOf(Packet.grid_size_y, Packet.workgroup_size_y),
                 blocksOf(Packet.grid_size_z, Packet.workgroup_size_z)};
  Config.WarpSize = WavefrontSize;
  Config.StaticSharedBytes = Kernel->Module->StaticSharedBytes;
  if (Packet.group_segment_size > Config.StaticSharedBytes)
    Config.DynamicSharedBytes =
        uint32_t(Packet.group_segment_size - Config.StaticSharedBytes);
  if (!fitsInGroupMemory(*Kernel, Config.DynamicSharedBytes))
    return false;
  Config.StackBytes = stackBytes(Packet.private_segment_size);
  if (tracing())
    fprintf(stderr,
            "gpu-emulator: launching '%s': %ux%ux%u blocks of %ux%ux%u "
            "threads, %llu+%u bytes of group memory\n",
            Kernel->Name.c_str(), Config.Grid.X, Config.Grid.Y, Config.Grid.Z,
            Config.Block.X, Config.Block.Y, Config.Block.Z,
            (unsigned long long)Config.StaticSharedBytes,
            Config.DynamicSharedBytes);
  LaunchResult Result = runGrid(Config);
  if (!Result.Code)
    return true;
  fprintf(stderr, "gpu-emulator: %s\n", Result.Message.c_str());
  fail(HSA_STATUS_ERROR_EXCEPTION);
  return false;
}

void Queue::fail(hsa_status_t Status) {
  if (Callback)
    Callback(Status, &Public, CallbackData);
}

HSA_EXPORT hsa_status_t hsa_queue_create(hsa_agent_t, uint32_t Size, uint32_t,
                                         hsa_queue_callback_t Callback,
                                         void *Data, uint32_t, uint32_t,
                                         hsa_queue_t **Out) {
  if (!Out || Size == 0 || (Size & (Size - 1)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *Out = &(new Queue(Size, Callback, Data))->Public;
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_queue_destroy(hsa_queue_t *Q) {
  if (!Q)
    return HSA_STATUS_ERROR_INVALID_QUEUE;
  delete Queue::of(Q);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT uint64_t hsa_queue_add_write_index_relaxed(const hsa_queue_t *Q,
                                                      uint64_t Count) {
  return Queue::of(Q)->WriteIndex.fetch_add(Count);
}

HSA_EXPORT uint64_t hsa_queue_load_write_index_relaxed(const hsa_queue_t *Q) {
  return Queue::of(Q)->WriteIndex.load();
}

HSA_EXPORT uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t *Q) {
  return Queue::of(Q)->ReadIndex.load();
}

HSA_EXPORT uint64_t hsa_queue_load_read_index_relaxed(const hsa_queue_t *Q) {
  return Queue::of(Q)->ReadIndex.load();
}
