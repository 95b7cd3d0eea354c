//===- Snapshot.h - Data read without a lock, replaced whole ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two building blocks for the kernel launch path, which takes no lock:
//
// - Snapshot<T>: an immutable T that any number of threads read without a
//   lock while, rarely, a writer replaces it with a new one (the kernels of
//   a device change only when a library is loaded or unloaded). A reader
//   pins the version it sees; replace() returns only once no reader can
//   still see the old version, and then destroys it.
//
// - UseCount: how many threads are using something (a loaded image), and a
//   way for its owner to wait until none is before destroying it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_SNAPSHOT_H
#define OFFLOAD_LIBOMPTARGET_SNAPSHOT_H

#include "Guarded.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

namespace offload {

/// Readers announce themselves in one of two counters, chosen by the parity
/// of Epoch. A writer publishes the new version, moves Epoch on (so new
/// readers count in the other counter) and waits for the old counter to
/// drain: every reader that could have seen the old version is in it. A
/// reader re-checks Epoch after counting itself, so one that raced with the
/// move never uses the counter the writer has stopped watching. Reads are
/// two atomic increments and no lock; the operations are sequentially
/// consistent because the argument relies on one order of Epoch and the
/// counters that all threads agree on.
template <typename T> class Snapshot {
public:
  /// The version current when it was made, valid while the Reader lives.
  /// Keep it short-lived and do not block while holding one: replace()
  /// waits for it.
  class Reader {
  public:
    Reader(const Reader &) = delete;
    Reader &operator=(const Reader &) = delete;
    ~Reader() { Count.fetch_sub(1, std::memory_order_release); }
    const T &operator*() const { return *Value; }
    const T *operator->() const { return Value; }

  private:
    friend class Snapshot;
    Reader(std::atomic<uint64_t> &Count, const T *Value)
        : Count(Count), Value(Value) {}
    std::atomic<uint64_t> &Count;
    const T *Value;
  };

  explicit Snapshot(std::unique_ptr<const T> Initial)
      : Current(Initial.release()) {}
  Snapshot(const Snapshot &) = delete;
  Snapshot &operator=(const Snapshot &) = delete;
  ~Snapshot() { delete Current.load(); }

  Reader read() const {
    for (;;) {
      uint64_t Seen = Epoch.load();
      std::atomic<uint64_t> &Count = Readers[Seen & 1];
      Count.fetch_add(1);
      if (Epoch.load() == Seen)
        return Reader(Count, Current.load());
      // A writer moved on in between: it may not be watching this counter.
      Count.fetch_sub(1);
    }
  }

  /// Makes \p Next the current version; returns once every reader of the
  /// previous one has finished, after destroying it.
  void replace(std::unique_ptr<const T> Next) {
    std::lock_guard<std::mutex> OneWriter(WriterLock);
    const T *Old = Current.exchange(Next.release());
    uint64_t Previous = Epoch.fetch_add(1);
    while (Readers[Previous & 1].load(std::memory_order_acquire) != 0)
      std::this_thread::yield();
    delete Old;
  }

private:
  std::atomic<const T *> Current;
  std::atomic<uint64_t> Epoch{0};
  mutable std::atomic<uint64_t> Readers[2] = {};
  /// Two writers would move Epoch twice while one of them waits.
  std::mutex WriterLock;
};

/// Counts the users of something; its owner waits for them to finish
/// before destroying it. acquire() and release() are one atomic operation
/// each, except the release() that ends the owner's wait.
class UseCount {
public:
  void acquire() { State.fetch_add(1); }

  void release() {
    if (State.fetch_sub(1) != (DrainingBit | 1))
      return;
    // The last user, and the owner is waiting: the owner may destroy this
    // object as soon as it sees Unused, so that is set (and the owner woken)
    // under Unused's lock, which the owner must take before it can return.
    Guarded<bool>::Access Done = Unused.lock();
    *Done = true;
    Done.notifyAll();
  }

  /// Returns once no user is left. The owner must first make sure that no
  /// new user can appear (for an image: its kernels are no longer found).
  void waitUntilUnused() {
    if (State.fetch_or(DrainingBit) == 0)
      return;
    Guarded<bool>::Access Done = Unused.lock();
    while (!*Done)
      Done.wait();
  }

private:
  static constexpr uint64_t DrainingBit = uint64_t(1) << 63;
  /// The number of users, and DrainingBit once the owner waits.
  std::atomic<uint64_t> State{0};
  /// Set by the release() that ends the owner's wait.
  Guarded<bool> Unused{false};
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_SNAPSHOT_H
