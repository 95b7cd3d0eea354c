//===- HostServiceServer.cpp - Host side of the host-service ring ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HostServiceServer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

using namespace offload::plugin;
using namespace ompx::hostservice;

namespace {

uint64_t loadSequence(const Slot &S) {
  return __atomic_load_n(&S.Header.Sequence, __ATOMIC_ACQUIRE);
}
void storeSequence(Slot &S, uint64_t Value) {
  __atomic_store_n(&S.Header.Sequence, Value, __ATOMIC_RELEASE);
}

} // namespace

HostServiceServer::HostServiceServer(void *Memory, uint32_t NumSlots,
                                     HostServiceHandler &Handler)
    : Ring(static_cast<HostServiceRing *>(Memory)), NumSlots(NumSlots),
      Handler(Handler) {
  std::memset(Memory, 0, ringBytes(NumSlots));
  Ring->NumSlots = NumSlots;
  Ring->SlotSize = sizeof(Slot);
  for (uint32_t I = 0; I < NumSlots; ++I)
    Ring->Slots[I].Header.Sequence = I;
  // Last: a device thread uses the ring only once it sees the magic.
  __atomic_store_n(&Ring->Magic, RingMagic, __ATOMIC_RELEASE);
}

HostServiceServer::~HostServiceServer() {
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    Stopping = true;
  }
  Wake.notify_all();
  if (Poller.joinable())
    Poller.join();
}

void HostServiceServer::kernelQueued() {
  std::lock_guard<std::mutex> Lock(StateMutex);
  ++Running;
  if (!Poller.joinable())
    Poller = std::thread([this] { poll(); });
  Wake.notify_all();
}

void HostServiceServer::kernelsCompleted(uint32_t Kernels, bool Failed) {
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    Running -= Kernels < Running ? Kernels : Running;
  }
  // With no kernel left, a claimed slot will never be submitted: its thread
  // ended (a trap, a STOP in another thread).
  bool Idle;
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    Idle = Running == 0;
  }
  serveReady(Failed && Idle);
  Handler.afterKernel();
}

uint32_t HostServiceServer::serveReady(bool SkipClaimed) {
  std::lock_guard<std::mutex> Lock(ServeMutex);
  uint32_t Served = 0;
  while (serveOne(SkipClaimed))
    ++Served;
  return Served;
}

bool HostServiceServer::serveOne(bool SkipClaimed) {
  Slot &S = Ring->Slots[Head % NumSlots];
  uint64_t Sequence = loadSequence(S);
  if (Sequence != Head + 1) {
    // Claimed (Sequence == Head) and abandoned: free it for the next round.
    uint64_t Claimed = __atomic_load_n(&Ring->NextTicket, __ATOMIC_ACQUIRE);
    if (!SkipClaimed || Sequence != Head || Claimed <= Head)
      return false;
    storeSequence(S, Head + NumSlots);
    ++Head;
    return true;
  }
  // The header is the device's until now; copy it so the handler sees one
  // consistent request.
  SlotHeader Header = S.Header;
  if (Header.Bytes > PayloadBytes)
    Header.Bytes = PayloadBytes;
  S.Header.Result = Handler.perform(Header, S.Payload);
  // A device thread waiting for the answer frees the slot once it has
  // read it; otherwise it is free for the next round now.
  storeSequence(S, Header.Flags & FlagAnswer ? Head + 2 : Head + NumSlots);
  ++Head;
  return true;
}

void HostServiceServer::poll() {
  // Sleeping between polls leaves the host's cores to the program; the
  // pause grows to 1 ms, which bounds how long a waiting request waits.
  auto Pause = std::chrono::microseconds(20);
  std::unique_lock<std::mutex> Lock(StateMutex);
  while (!Stopping) {
    if (!Running) {
      Wake.wait(Lock, [this] { return Stopping || Running; });
      Pause = std::chrono::microseconds(20);
      continue;
    }
    Lock.unlock();
    bool Served = serveReady() != 0;
    Lock.lock();
    if (Served) {
      Pause = std::chrono::microseconds(20);
      continue;
    }
    Wake.wait_for(Lock, Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(1000));
  }
}
