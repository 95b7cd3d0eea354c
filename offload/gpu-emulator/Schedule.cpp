//===- Schedule.cpp - The order the threads of a block take turns ---------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Schedule.h"
#include "BlockState.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

extern "C" {
/// Read by every function of an image on entry (SchedulePoints.cpp):
/// nonzero sends it to its copy with schedule points. A plain flag set
/// once, before the first launch, keeps the in-order schedule at the cost
/// of a load and a branch per call.
__attribute__((visibility("default"))) uint32_t __gpuemu_schedule_points = 0;
}

namespace gpuemu {
namespace {

/// One schedule point in this many ends the thread's turn: often enough
/// that a thread between reading and writing a shared variable is
/// overtaken in most launches, seldom enough that a block of 1024 threads
/// still makes progress between switches.
constexpr uint32_t PreemptOdds = 8;

/// Exiting here instead would run the program's exit handlers on a
/// stream's thread while the main thread waits for that stream: a hang.
ScheduleSettings badSetting(const char *Value) {
  static std::string Error = std::string("GPUEMU_SCHEDULE='") + Value +
                             "' is not 'in-order', 'random' or 'random:SEED' "
                             "(SEED a decimal number)";
  fprintf(stderr, "gpu-emulator: %s\n", Error.c_str());
  ScheduleSettings Settings;
  Settings.Error = Error.c_str();
  return Settings;
}

ScheduleSettings readOrder();

ScheduleSettings readSettings() {
  ScheduleSettings Settings = readOrder();
  const char *Lockstep = std::getenv("GPUEMU_WAVEFRONT_LOCKSTEP");
  Settings.WavefrontLockstep = Lockstep && !std::strcmp(Lockstep, "1");
  return Settings;
}

ScheduleSettings readOrder() {
  ScheduleSettings Settings;
  const char *Value = std::getenv("GPUEMU_SCHEDULE");
  if (!Value || !*Value || !std::strcmp(Value, "in-order"))
    return Settings;
  if (std::strncmp(Value, "random", 6) != 0)
    return badSetting(Value);
  Settings.Random = true;
  if (Value[6] == ':') {
    char *End = nullptr;
    Settings.Seed = std::strtoull(Value + 7, &End, 10);
    if (End == Value + 7 || *End)
      return badSetting(Value);
  } else if (Value[6]) {
    return badSetting(Value);
  } else {
    std::random_device Device;
    Settings.Seed =
        (uint64_t(Device()) << 32 ^ Device() ^
         uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
    // Short enough to retype.
    Settings.Seed %= 1000000000;
  }
  fprintf(stderr,
          "gpu-emulator: random schedule, seed %llu "
          "(GPUEMU_SCHEDULE=random:%llu replays it)\n",
          (unsigned long long)Settings.Seed, (unsigned long long)Settings.Seed);
  __gpuemu_schedule_points = 1;
  return Settings;
}

uint64_t mix(uint64_t Z) {
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

} // namespace

const ScheduleSettings &scheduleSettings() {
  static const ScheduleSettings Settings = readSettings();
  return Settings;
}

void ScheduleRandom::start(uint64_t Seed, uint64_t Launch, uint64_t Block) {
  State = mix(mix(mix(Seed) ^ Launch) ^ Block);
}

uint64_t ScheduleRandom::next() {
  State += 0x9e3779b97f4a7c15ULL;
  return mix(State);
}

} // namespace gpuemu

using namespace gpuemu;

extern "C" {

// Only the copies of functions that random mode runs call it.
__attribute__((visibility("default"))) void __gpuemu_schedule_point() {
  if (CurrentBlock->Random.below(PreemptOdds) == 0)
    switchToScheduler();
}
}
