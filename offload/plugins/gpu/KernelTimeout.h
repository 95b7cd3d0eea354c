//===- KernelTimeout.h - The limit on waits for GPU work --------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel that never finishes (a deadlock in the region, a spin on a flag
// the host never sets, a GPU that stopped answering) would leave the host
// waiting forever. LIBOMPTARGET_KERNEL_TIMEOUT_MS bounds every wait of the
// CUDA and AMDGPU plugins for queued device work: past it, the wait fails
// with an error naming the kernel, and libomptarget ends the program as for
// any other failed construct. Upstream has no such variable; the name
// follows its LIBOMPTARGET_ convention.
//
// Unset, empty or 0 means no limit, the default: a legitimate kernel may run
// for hours, and only the user knows how long is too long.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_KERNELTIMEOUT_H
#define OFFLOAD_PLUGINS_GPU_KERNELTIMEOUT_H

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace offload {
namespace plugin {

constexpr const char *KernelTimeoutVariable = "LIBOMPTARGET_KERNEL_TIMEOUT_MS";

/// The configured limit: none (Milliseconds 0), a number of milliseconds,
/// or an error naming the variable and the bad value.
struct KernelTimeout {
  uint64_t Milliseconds = 0;
  std::string Error;

  bool enabled() const { return Milliseconds != 0; }
};

/// Parses \p Value (may be null): a decimal number of milliseconds.
inline KernelTimeout parseKernelTimeout(const char *Value) {
  KernelTimeout Result;
  if (!Value || !*Value)
    return Result;
  auto Bad = [&](const char *Why) {
    Result.Error = std::string(KernelTimeoutVariable) + "='" + Value + "' " +
                   Why + " (expected a number of milliseconds; 0 or unset "
                         "means no limit)";
    return Result;
  };
  if (*Value < '0' || *Value > '9')
    return Bad("is not a number");
  errno = 0;
  char *End = nullptr;
  unsigned long long Number = std::strtoull(Value, &End, 10);
  if (*End != '\0')
    return Bad("is not a number");
  // Beyond about 292 years the deadline no longer fits the steady clock.
  if (errno == ERANGE || Number > (uint64_t(1) << 53))
    return Bad("is too large");
  Result.Milliseconds = Number;
  return Result;
}

inline KernelTimeout kernelTimeoutFromEnvironment() {
  return parseKernelTimeout(std::getenv(KernelTimeoutVariable));
}

/// When a wait that starts now must give up under \p Timeout.
class WaitDeadline {
public:
  explicit WaitDeadline(const KernelTimeout &Timeout)
      : Enabled(Timeout.enabled()),
        End(std::chrono::steady_clock::now() +
            std::chrono::milliseconds(Timeout.Milliseconds)) {}

  bool passed() const {
    return Enabled && std::chrono::steady_clock::now() >= End;
  }

private:
  bool Enabled;
  std::chrono::steady_clock::time_point End;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_KERNELTIMEOUT_H
