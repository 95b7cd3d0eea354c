//===- Guarded.h - Data reachable only through its lock ---------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Guarded<T> keeps a T together with the mutex that protects it, and hands
// the T out only through an Access, which holds the mutex for as long as it
// lives. "Take the lock before touching this" is then something the
// compiler checks instead of a comment that a reader has to trust.
//
// A function that must run with the lock held takes the Access (by
// reference) as its first parameter: it cannot be called without one.
//
// Each Guarded also has a condition variable, so a thread can wait, with the
// lock released, until another thread changes the data (Access::wait and
// Access::notifyAll).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_COMMON_GUARDED_H
#define OFFLOAD_PLUGINS_COMMON_GUARDED_H

#include <cassert>
#include <condition_variable>
#include <mutex>
#include <utility>

namespace offload {

template <typename T> class Guarded {
public:
  /// The data, with the lock held. Neither copyable nor movable: it is
  /// obtained from lock() (guaranteed copy elision) and lives in one scope.
  class Access {
  public:
    Access(const Access &) = delete;
    Access &operator=(const Access &) = delete;

    T &operator*() const {
      assert(Lock.owns_lock() && "data reached while its lock was released");
      return Owner.Data;
    }
    T *operator->() const { return &**this; }

    /// Blocks until another thread calls notifyAll() (or spuriously), with
    /// the lock released meanwhile; callers re-check what they wait for.
    void wait() {
      ++Owner.Waiters;
      Owner.Changed.wait(Lock);
      --Owner.Waiters;
    }

    /// Wakes every thread blocked in wait(). Call it after a change that a
    /// waiter may be waiting for. Waiters are counted under the lock, so
    /// with none blocked nothing needs waking.
    void notifyAll() {
      if (Owner.Waiters)
        Owner.Changed.notify_all();
    }

    /// Runs \p Fn with the lock released and takes it again afterwards.
    /// For slow work on something the caller made its own while holding the
    /// lock (see MapEntry::State), so that other threads are not held up by
    /// it. The data must not be reached through this Access inside \p Fn.
    template <typename FnT> void unlocked(FnT &&Fn) {
      struct Relock {
        std::unique_lock<std::mutex> &Lock;
        ~Relock() { Lock.lock(); }
      } Again{Lock};
      Lock.unlock();
      Fn();
    }

  private:
    friend class Guarded;
    explicit Access(Guarded &Owner) : Owner(Owner), Lock(Owner.Mutex) {}

    Guarded &Owner;
    std::unique_lock<std::mutex> Lock;
  };

  template <typename... ArgTs>
  explicit Guarded(ArgTs &&...Args) : Data(std::forward<ArgTs>(Args)...) {}
  Guarded(const Guarded &) = delete;
  Guarded &operator=(const Guarded &) = delete;

  /// Takes the lock; it is released when the returned Access goes away.
  Access lock() { return Access(*this); }

private:
  std::mutex Mutex;
  std::condition_variable Changed;
  /// Threads blocked in Access::wait (only changed with Mutex held).
  unsigned Waiters = 0;
  T Data;
};

} // namespace offload

#endif // OFFLOAD_PLUGINS_COMMON_GUARDED_H
