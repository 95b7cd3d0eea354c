//===- HSAQueue.h - AQL queues of the emulated HSA runtime ------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A user-mode AQL queue as HSA defines it: a ring of 64-byte packets, a
// write index the producer advances, a read index the packet processor
// advances, and a doorbell signal. The packet processor is a host thread
// of the queue's own, so a dispatch runs asynchronously to its producer,
// as on a GPU. A kernel that fails (a trap, a deadlock) stops the queue:
// its completion signal is never decremented, and the error goes to the
// queue's error callback, as HSA reports a GPU exception.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_GPU_EMULATOR_HSAQUEUE_H
#define OFFLOAD_GPU_EMULATOR_HSAQUEUE_H

#include "HSATypes.h"

#include <memory>
#include <thread>

namespace gpuemu {
namespace hsa {

class Queue {
public:
  /// \p Size packets (a power of two).
  Queue(uint32_t Size, hsa_queue_callback_t Callback, void *CallbackData);
  ~Queue();
  Queue(const Queue &) = delete;
  Queue &operator=(const Queue &) = delete;

  /// The public view, which the handle points to: it is the first member.
  hsa_queue_t Public{};
  std::atomic<uint64_t> WriteIndex{0}, ReadIndex{0};

  static Queue *of(const hsa_queue_t *Q) {
    return reinterpret_cast<Queue *>(const_cast<hsa_queue_t *>(Q));
  }
  /// Wakes the packet processor (a doorbell write).
  void ring();

private:
  void process();
  /// Runs the packet at \p Slot; false when the queue must stop.
  bool runPacket(hsa_kernel_dispatch_packet_t &Slot);
  bool dispatch(const hsa_kernel_dispatch_packet_t &Packet);
  /// Stops the queue, as a GPU's packet processor would, when \p Kernel's
  /// LDS plus \p DynamicBytes are more than a work-group may have.
  bool fitsInGroupMemory(const KernelFunction &Kernel, uint64_t DynamicBytes);
  void fail(hsa_status_t Status);

  Signal Doorbell;
  std::unique_ptr<hsa_kernel_dispatch_packet_t[]> Ring;
  hsa_queue_callback_t Callback;
  void *CallbackData;
  std::mutex Lock;
  std::condition_variable Rung;
  bool Stopping = false;
  std::thread Processor;
};

} // namespace hsa
} // namespace gpuemu

#endif // OFFLOAD_GPU_EMULATOR_HSAQUEUE_H
