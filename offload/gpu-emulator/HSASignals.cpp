//===- HSASignals.cpp - Signals of the emulated HSA runtime ---------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A signal is an atomic value with a condition variable, so that a blocked
// wait sleeps until a store, a subtraction or its timeout. Writing a
// queue's doorbell wakes the queue's packet processor (HSAQueues.cpp). The
// runtime itself can also ask to act when a signal completes (drops below
// 1): an asynchronous copy starts once its dependencies have completed.
//
//===----------------------------------------------------------------------===//

#include "HSAQueue.h"
#include "HSATypes.h"

#include <chrono>

using namespace gpuemu::hsa;

#define HSA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

bool satisfied(hsa_signal_value_t V, int Condition, hsa_signal_value_t With) {
  switch (Condition) {
  case HSA_SIGNAL_CONDITION_EQ:
    return V == With;
  case HSA_SIGNAL_CONDITION_NE:
    return V != With;
  case HSA_SIGNAL_CONDITION_LT:
    return V < With;
  default:
    return V >= With;
  }
}

} // namespace

void Signal::update(hsa_signal_value_t V, bool Add) {
  std::vector<std::function<void()>> Ready;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Add)
      Value += V;
    else
      Value = V;
    if (Value.load() < 1)
      Ready.swap(BelowOne);
  }
  Changed.notify_all();
  for (auto &Action : Ready)
    Action();
  if (Doorbell)
    Doorbell->ring();
}

void Signal::whenBelowOne(std::function<void()> Action) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Value.load() >= 1) {
      BelowOne.push_back(std::move(Action));
      return;
    }
  }
  Action();
}

HSA_EXPORT hsa_status_t hsa_signal_create(hsa_signal_value_t Initial, uint32_t,
                                          const hsa_agent_t *,
                                          hsa_signal_t *Out) {
  if (!Out)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *S = new Signal();
  S->Value = Initial;
  Out->handle = reinterpret_cast<uint64_t>(S);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT hsa_status_t hsa_signal_destroy(hsa_signal_t S) {
  if (!S.handle)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  delete Signal::of(S);
  return HSA_STATUS_SUCCESS;
}

HSA_EXPORT void hsa_signal_store_screlease(hsa_signal_t S,
                                           hsa_signal_value_t V) {
  Signal::of(S)->update(V, /*Add=*/false);
}

HSA_EXPORT void hsa_signal_store_relaxed(hsa_signal_t S, hsa_signal_value_t V) {
  Signal::of(S)->update(V, /*Add=*/false);
}

HSA_EXPORT void hsa_signal_subtract_screlease(hsa_signal_t S,
                                              hsa_signal_value_t V) {
  Signal::of(S)->update(-V, /*Add=*/true);
}

HSA_EXPORT hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t S) {
  return Signal::of(S)->Value.load();
}

HSA_EXPORT hsa_signal_value_t hsa_signal_load_relaxed(hsa_signal_t S) {
  return Signal::of(S)->Value.load();
}

/// Waits until the condition holds or \p Timeout ticks (nanoseconds: the
/// system timestamp frequency is 1 GHz) pass; returns the value seen last.
HSA_EXPORT hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t Handle,
                                                        int Condition,
                                                        hsa_signal_value_t With,
                                                        uint64_t Timeout, int) {
  Signal &S = *Signal::of(Handle);
  std::unique_lock<std::mutex> Guard(S.Lock);
  auto Done = [&] { return satisfied(S.Value.load(), Condition, With); };
  if (Timeout >= uint64_t(INT64_MAX))
    S.Changed.wait(Guard, Done);
  else
    S.Changed.wait_for(Guard, std::chrono::nanoseconds(Timeout), Done);
  return S.Value.load();
}

HSA_EXPORT hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t Handle,
                                                      int Condition,
                                                      hsa_signal_value_t With,
                                                      uint64_t Timeout,
                                                      int State) {
  return hsa_signal_wait_scacquire(Handle, Condition, With, Timeout, State);
}
