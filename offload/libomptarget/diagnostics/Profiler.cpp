//===- Profiler.cpp - LIBOMPTARGET_PROFILE Chrome-trace output ------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Profiler.h"
#include "diagnostics/Diagnostics.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

using namespace offload;

namespace {

struct Event {
  const char *Name;
  std::string Detail;
  uint64_t Start, Duration;
  long Thread;
};

uint64_t nowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string jsonEscape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Buffer[8];
      snprintf(Buffer, sizeof(Buffer), "\\u%04x", C);
      Out += Buffer;
    } else {
      Out += C;
    }
  }
  return Out;
}

/// Collects events and writes them when the process exits.
class TraceRecorder {
public:
  explicit TraceRecorder(const char *Path) : Path(Path ? Path : "") {}

  bool enabled() const { return !Path.empty(); }
  void add(Event E) {
    std::lock_guard<std::mutex> Guard(Lock);
    if (!Written)
      Events.push_back(std::move(E));
  }

  /// Runs once, at exit; later events are dropped.
  void write() {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Path.empty() || Written)
      return;
    Written = true;
    // Written next to the destination and renamed, so a reader never sees
    // half a trace.
    std::string Temp = Path + ".tmp." + std::to_string(getpid());
    FILE *Out = fopen(Temp.c_str(), "w");
    if (!Out) {
      errorMessage("LIBOMPTARGET_PROFILE: cannot write '%s'", Temp.c_str());
      return;
    }
    fprintf(Out, "{\"traceEvents\":[\n");
    for (size_t I = 0; I < Events.size(); ++I) {
      const Event &E = Events[I];
      fprintf(Out,
              "%s{\"name\":\"%s\",\"cat\":\"omptarget\",\"ph\":\"X\","
              "\"ts\":%llu,\"dur\":%llu,\"pid\":%d,\"tid\":%ld,"
              "\"args\":{\"detail\":\"%s\"}}\n",
              I ? "," : "", jsonEscape(E.Name).c_str(),
              static_cast<unsigned long long>(E.Start),
              static_cast<unsigned long long>(E.Duration), getpid(), E.Thread,
              jsonEscape(E.Detail).c_str());
    }
    fprintf(Out, "],\"displayTimeUnit\":\"us\"}\n");
    bool Failed = fclose(Out) != 0;
    if (Failed || rename(Temp.c_str(), Path.c_str()) != 0) {
      errorMessage("LIBOMPTARGET_PROFILE: cannot write '%s'", Path.c_str());
      remove(Temp.c_str());
    }
  }

  std::string Path;
  bool Written = false;
  std::mutex Lock;
  std::vector<Event> Events;
};

TraceRecorder &recorder() {
  // Never destroyed, so events from other exit-time code stay safe.
  static TraceRecorder *Recorder = [] {
    auto *R = new TraceRecorder(getenv("LIBOMPTARGET_PROFILE"));
    if (R->enabled())
      atexit([] { recorder().write(); });
    return R;
  }();
  return *Recorder;
}

} // namespace

bool offload::profilingEnabled() {
  static const bool Enabled = recorder().enabled();
  return Enabled;
}

void TraceScope::start(const char *EventName, const std::string &EventDetail) {
  Active = true;
  Name = EventName;
  Detail = EventDetail;
  StartMicros = nowMicros();
}

void TraceScope::finish() {
  recorder().add({Name, Detail, StartMicros, nowMicros() - StartMicros,
                  static_cast<long>(syscall(SYS_gettid))});
}
