//===- DeviceLimits.h - Per-thread stack and device heap sizes --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sizes a GPU plugin gives each device thread's stack and the device
// heap (malloc in target regions), from the environment variables upstream's
// plugins read: LIBOMPTARGET_STACK_SIZE and LIBOMPTARGET_HEAP_SIZE, in
// bytes.
//
// The stack needs a floor of our own. The CUDA driver starts a context with
// 1 KiB per thread and sizes it up only for what nvlink can see, and nvlink
// cannot follow the device runtime's calls through function pointers (an
// outlined parallel region is one): measured on an H100, a generic-mode
// region that calls a parallel region overflowed 1 KiB (the runtime's
// region dispatch alone takes about 0.6 KiB of frames) and passed with
// 4 KiB. So without the variable the plugin raises the stack to
// DefaultMinimumStackBytes, never lowers it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_DEVICELIMITS_H
#define OFFLOAD_PLUGINS_GPU_DEVICELIMITS_H

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace offload {
namespace plugin {

constexpr size_t DefaultMinimumStackBytes = 4096;

/// Reads \p Value, a variable's text, as a decimal number from 0 to
/// 4294967295 into \p Out; false, with \p Out untouched, when it is not one.
inline bool parseUInt32Setting(const char *Value, uint32_t &Out) {
  errno = 0;
  char *End = nullptr;
  unsigned long long Number = std::strtoull(Value, &End, 10);
  if (*Value < '0' || *Value > '9' || *End || errno == ERANGE ||
      Number > UINT32_MAX)
    return false;
  Out = uint32_t(Number);
  return true;
}

/// One requested size: absent (the variable is unset or empty), a number of
/// bytes, or an error naming the variable and the bad value.
struct RequestedSize {
  bool Present = false;
  size_t Bytes = 0;
  std::string Error;
};

/// Parses \p Value (the content of variable \p Name, may be null): a
/// decimal number of bytes, optionally followed by K, M or G (binary units).
inline RequestedSize parseRequestedSize(const char *Name, const char *Value) {
  RequestedSize Result;
  if (!Value || !*Value)
    return Result;
  auto Bad = [&](const char *Why) {
    Result.Error = std::string(Name) + "='" + Value + "' " + Why +
                   " (expected a number of bytes, e.g. 8192 or 64M)";
    return Result;
  };
  if (*Value < '0' || *Value > '9')
    return Bad("is not a size");
  errno = 0;
  char *End = nullptr;
  unsigned long long Number = std::strtoull(Value, &End, 10);
  if (errno == ERANGE)
    return Bad("is too large");
  unsigned Shift = 0;
  switch (*End) {
  case '\0':
    break;
  case 'k':
  case 'K':
    Shift = 10;
    break;
  case 'm':
  case 'M':
    Shift = 20;
    break;
  case 'g':
  case 'G':
    Shift = 30;
    break;
  default:
    return Bad("is not a size");
  }
  if (Shift && End[1] != '\0')
    return Bad("is not a size");
  if (Number > (uint64_t(SIZE_MAX) >> Shift))
    return Bad("is too large");
  Result.Present = true;
  Result.Bytes = size_t(Number) << Shift;
  return Result;
}

inline RequestedSize requestedSizeFromEnvironment(const char *Name) {
  return parseRequestedSize(Name, std::getenv(Name));
}

/// The stack size to set given the driver's current one: the request when
/// there is one, else at least DefaultMinimumStackBytes. 0 means leave it.
inline size_t stackBytesToSet(const RequestedSize &Request, size_t Current) {
  if (Request.Present)
    return Request.Bytes == Current ? 0 : Request.Bytes;
  return Current < DefaultMinimumStackBytes ? DefaultMinimumStackBytes : 0;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_DEVICELIMITS_H
