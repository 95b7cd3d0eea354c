//===- Profiler.h - LIBOMPTARGET_PROFILE Chrome-trace output --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// When LIBOMPTARGET_PROFILE names a file, registrations, image loads, data
// transfers and kernel launches are recorded as complete ("X") events and
// written at exit as Chrome trace JSON (loadable in Perfetto or
// chrome://tracing). Without the variable a TraceScope costs one branch.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_PROFILER_H
#define OFFLOAD_LIBOMPTARGET_PROFILER_H

#include <cstdint>
#include <string>

namespace offload {

bool profilingEnabled();

class TraceScope {
public:
  TraceScope(const char *Name, const std::string &Detail) {
    if (profilingEnabled())
      start(Name, Detail);
  }
  ~TraceScope() {
    if (Active)
      finish();
  }
  TraceScope(const TraceScope &) = delete;
  TraceScope &operator=(const TraceScope &) = delete;

private:
  void start(const char *Name, const std::string &Detail);
  void finish();
  bool Active = false;
  const char *Name = nullptr;
  std::string Detail;
  uint64_t StartMicros = 0;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_PROFILER_H
