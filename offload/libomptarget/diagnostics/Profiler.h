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
// chrome://tracing). Without the variable a TraceScope costs one branch:
// a detail that takes work to build is passed as a callable, run only when
// the event is recorded.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_PROFILER_H
#define OFFLOAD_LIBOMPTARGET_PROFILER_H

#include <cstdint>
#include <string>
#include <type_traits>

namespace offload {

bool profilingEnabled();

class TraceScope {
public:
  /// \p Detail is a string, or a callable returning one (for details that
  /// cost a formatting or a parse, such as sizes and source locations).
  template <typename DetailT> TraceScope(const char *Name, DetailT &&Detail) {
    if (!profilingEnabled())
      return;
    if constexpr (std::is_invocable_v<DetailT>)
      start(Name, Detail());
    else
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
