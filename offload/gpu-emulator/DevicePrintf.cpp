//===- DevicePrintf.cpp - vprintf of emulated kernels ---------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each conversion is handed to the C library's snprintf with its own
// argument read from the buffer, so flags, widths and precisions behave as
// on the host. `*` widths are not supported by CUDA's printf either.
//
//===----------------------------------------------------------------------===//

#include "DevicePrintf.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace gpuemu {
namespace {

template <typename T> T take(const char *Args, size_t &Offset) {
  Offset = (Offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  T Value;
  std::memcpy(&Value, Args + Offset, sizeof(T));
  Offset += sizeof(T);
  return Value;
}

template <typename... T>
void append(std::string &Out, const std::string &Spec, T... Value) {
  char Small[256];
  int N = snprintf(Small, sizeof(Small), Spec.c_str(), Value...);
  if (N < 0)
    return;
  if (size_t(N) < sizeof(Small)) {
    Out.append(Small, size_t(N));
    return;
  }
  std::string Big(size_t(N) + 1, '\0');
  snprintf(&Big[0], Big.size(), Spec.c_str(), Value...);
  Out.append(Big.data(), size_t(N));
}

} // namespace

std::string formatDevicePrintf(const char *Format, const char *Args) {
  std::string Out;
  size_t Offset = 0;
  for (const char *P = Format; *P;) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    const char *Start = P++;
    while (*P && std::strchr("-+ #0123456789.", *P))
      ++P;
    bool Long = false;
    while (*P && std::strchr("hlLqjzt", *P))
      Long |= std::strchr("lLqjzt", *P++) != nullptr;
    char Conversion = *P;
    if (!Conversion)
      break;
    ++P;
    std::string Spec(Start, size_t(P - Start));
    if (std::strchr("diouxXc", Conversion)) {
      if (Long)
        append(Out, Spec, take<long long>(Args, Offset));
      else
        append(Out, Spec, take<int>(Args, Offset));
    } else if (std::strchr("fFeEgGaA", Conversion)) {
      append(Out, Spec, take<double>(Args, Offset));
    } else if (Conversion == 's') {
      const char *S = take<const char *>(Args, Offset);
      append(Out, Spec, S ? S : "(null)");
    } else if (Conversion == 'p') {
      append(Out, Spec, take<void *>(Args, Offset));
    } else {
      Out += Spec;
    }
  }
  return Out;
}

} // namespace gpuemu
