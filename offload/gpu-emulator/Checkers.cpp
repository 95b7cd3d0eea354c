//===- Checkers.cpp - The emulator's checking modes -----------------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The access checks: memcheck (device memory outside a live allocation,
// team-shared memory outside the block's segment, misaligned accesses),
// initcheck (reads of bytes nothing wrote) and racecheck.
//
// Racecheck keeps, per word, the last plain write (thread, and the block's
// synchronisation count at the time) and, per thread, the count at its
// last synchronisation: a barrier or warp operation it was released from,
// an atomic or volatile access it made. Every synchronisation
// increments the count. A plain access to a word another thread of the
// block wrote is ordered after that write when both threads synchronised
// since it; otherwise it is a race. (A release by the writer followed by
// an acquire by the reader gives exactly that; the test also accepts some
// unrelated pairs, which can hide a race but never reports a correct
// program.) Races between blocks are not looked for: blocks synchronise
// only through atomics, which this does not follow across blocks.
//
//===----------------------------------------------------------------------===//

#include "Checkers.h"
#include "MemoryShadow.h"
#include "gpu/CUDAABI.h"

#include "offload/GPUEmulation/EmulatorABI.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <vector>

using offload::gpuemu::CheckSite;
namespace emu = offload::gpuemu;

namespace gpuemu {
namespace {

uint32_t parseChecks(const char *Env) {
  uint32_t Mask = 0;
  std::string List = Env ? Env : "";
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t End = List.find(',', Start);
    if (End == std::string::npos)
      End = List.size();
    std::string Name = List.substr(Start, End - Start);
    Start = End + 1;
    if (Name.empty())
      continue;
    if (Name == "all")
      Mask |= MemCheck | RaceCheck | SyncCheck | InitCheck;
    else if (Name == "memcheck")
      Mask |= MemCheck;
    else if (Name == "racecheck")
      Mask |= RaceCheck;
    else if (Name == "synccheck")
      Mask |= SyncCheck;
    else if (Name == "initcheck")
      Mask |= InitCheck;
    else
      fprintf(stderr,
              "gpu-emulator: GPUEMU_CHECK: unknown check '%s' ignored "
              "(memcheck, racecheck, synccheck, initcheck, all)\n",
              Name.c_str());
  }
  return Mask;
}

/// The block running on this host thread, as the checks see it.
struct BlockChecks {
  const BlockState *Block = nullptr;
  /// Tells this run of a block from the others in global race entries
  /// (RunBits; never 0).
  uint64_t Run = 0;
  uint32_t Sync = 0;
  std::vector<uint32_t> LastSync;
  const char *Shared = nullptr;
  uint64_t SharedBytes = 0;
  std::vector<uint8_t> SharedState;
  std::vector<RaceEntry> SharedRaces;
  const char *StacksBegin = nullptr, *StacksEnd = nullptr;
};
thread_local BlockChecks Checks;
std::atomic<uint64_t> Runs{0};

/// A race entry's stamp, from the low bits up: the writer's
/// synchronisation count, the writer, the block run, and which bytes of
/// the word the write covered (threads that write their own bytes of one
/// word, as the device runtime's per-thread state does, do not race).
constexpr uint64_t SyncBits = 30, ThreadBits = 10, RunBits = 20;
constexpr uint64_t SyncMask = (uint64_t(1) << SyncBits) - 1;
constexpr uint64_t ThreadMask = (uint64_t(1) << ThreadBits) - 1;
constexpr uint64_t RunMask = (uint64_t(1) << RunBits) - 1;
constexpr uint64_t BytesShift = SyncBits + ThreadBits + RunBits;

uint64_t stamp(uint32_t Thread) {
  return Checks.Run << (SyncBits + ThreadBits) |
         uint64_t(Thread & ThreadMask) << SyncBits | (Checks.Sync & SyncMask);
}

/// The bytes of word \p Word (its address) that [P, P+Bytes) covers, one
/// bit per byte.
uint64_t wordBytes(uintptr_t Word, uintptr_t P, uint64_t Bytes) {
  uintptr_t Begin = std::max(Word, P), End = std::min(Word + 4, P + Bytes);
  uint64_t Mask = 0;
  for (uintptr_t B = Begin; B < End; ++B)
    Mask |= uint64_t(1) << (B - Word);
  return Mask;
}

std::string hex(const void *P) {
  char Text[32];
  snprintf(Text, sizeof(Text), "%p", P);
  return Text;
}

std::string describeSite(const CheckSite *Site) {
  if (!Site)
    return "";
  std::string Function = Site->Function ? Site->Function : "";
  int Status = 1;
  char *Plain =
      ::abi::__cxa_demangle(Function.c_str(), nullptr, nullptr, &Status);
  if (Status == 0 && Plain)
    Function = Plain;
  std::free(Plain);
  std::string Text = " in " + Function;
  if (Site->Line && Site->File && *Site->File)
    Text += " at " + std::string(Site->File) + ":" +
            std::to_string(Site->Line) + ":" + std::to_string(Site->Column);
  return Text;
}

const char *verb(uint32_t Kind) {
  return Kind & emu::AccessStore ? "write" : "read";
}

std::string accessWords(uint32_t Kind, const void *P, uint64_t Bytes) {
  return std::string("invalid ") + verb(Kind) + " of " + std::to_string(Bytes) +
         " bytes at " + hex(P);
}

void checkAlignment(const void *P, uint64_t Bytes, uint32_t Kind,
                    const CheckSite *Site) {
  uint64_t Align = uint64_t(1) << (Kind >> emu::AccessAlignShift);
  if (Kind >> emu::AccessAlignShift == 0 || Bytes == 0)
    return;
  // A GPU loads a value of N bytes (a power of two up to 16) in one access
  // when the compiler knew it aligned; it faults when it is not.
  uint64_t Natural = Bytes & (Bytes - 1) ? 1 : std::min<uint64_t>(Bytes, 16);
  uint64_t Needed = std::min(Align, Natural);
  if (uintptr_t(P) % Needed)
    reportCheck("memcheck",
                "misaligned " + std::string(verb(Kind)) + " of " +
                    std::to_string(Bytes) + " bytes at " + hex(P) + " (needs " +
                    std::to_string(Needed) + "-byte alignment)",
                Site);
}

/// Whether a write that conflicts with another thread's is one racecheck
/// lets pass: one of the value already there (threads storing the same
/// constant, which OpenMPOpt's SPMD-isation of a generic region leaves to
/// every thread), or one whose value the image does not give (a vector or
/// memset), which is not compared.
bool harmlessWrite(const void *P, uint64_t Bytes, uint32_t Kind,
                   uint64_t Stored) {
  if (!(Kind & emu::AccessStore))
    return false;
  if (!(Kind & emu::AccessHasValue) || Bytes > sizeof(Stored))
    return true;
  return std::memcmp(P, &Stored, Bytes) == 0;
}

/// Memcheck of an access the compiler knows to be inside the team-shared
/// variable at \p Object (\p ObjectBytes long): an index past its end
/// lands in another variable of the segment, which the segment's bounds
/// do not catch.
void checkObject(const void *P, uint64_t Bytes, uint32_t Kind,
                 const CheckSite *Site, const void *Object,
                 uint64_t ObjectBytes) {
  uintptr_t Start = uintptr_t(Object), At = uintptr_t(P);
  if (At >= Start && At - Start <= ObjectBytes &&
      Bytes <= ObjectBytes - (At - Start))
    return;
  std::string Name = Site && Site->Object && *Site->Object
                         ? std::string(" '") + Site->Object + "'"
                         : std::string();
  uintptr_t End = Start + ObjectBytes;
  std::string Where =
      At >= End     ? std::to_string(At - End) + " bytes past the end of"
      : At >= Start ? std::string("across the end of")
                    : std::to_string(Start - At) + " bytes before";
  reportCheck("memcheck",
              accessWords(Kind, P, Bytes) + ", " + Where +
                  " the team-shared variable" + Name + " (" +
                  std::to_string(ObjectBytes) + " bytes at " + hex(Object) +
                  ")",
              Site);
}

/// Racecheck of an access of [P, P+Bytes) against the word entries at
/// \p Entries.
void checkRace(RaceEntry *Entries, const void *P, uint64_t Bytes, uint32_t Kind,
               const CheckSite *Site, const char *Where, uint64_t Stored) {
  const GPUThread &Self = *CurrentThread;
  uint64_t Words = (uintptr_t(P) % 4 + Bytes + 3) / 4;
  uint64_t SelfStamp = stamp(Self.Index);
  uintptr_t FirstWord = uintptr_t(P) / 4 * 4;
  for (uint64_t W = 0; W < Words; ++W) {
    RaceEntry &E = Entries[W];
    uint64_t Touched = wordBytes(FirstWord + 4 * W, uintptr_t(P), Bytes);
    uint64_t Last = __atomic_load_n(&E.Stamp, __ATOMIC_RELAXED);
    uint64_t LastBytes = Last >> BytesShift;
    Last &= (uint64_t(1) << BytesShift) - 1;
    if ((Last >> (SyncBits + ThreadBits)) == Checks.Run &&
        (LastBytes & Touched)) {
      uint32_t Writer = uint32_t(Last >> SyncBits & ThreadMask);
      uint32_t At = uint32_t(Last & SyncMask);
      if (Writer != Self.Index &&
          !(Checks.LastSync[Writer] > At && Checks.LastSync[Self.Index] > At) &&
          !harmlessWrite(P, Bytes, Kind, Stored))
        reportCheck(
            "racecheck",
            std::string(verb(Kind)) + " of " + std::to_string(Bytes) +
                " bytes at " + hex(P) + " (" + Where + ") races with the " +
                "write by thread " + std::to_string(Writer) +
                describeSite(E.Site) +
                " (no barrier, warp synchronisation or atomic between them)",
            Site);
    }
    if (Kind & emu::AccessStore) {
      // The same thread's writes since its last synchronisation add up;
      // any other write replaces the entry.
      if (Last == SelfStamp)
        Touched |= LastBytes;
      E.Site = Site;
      __atomic_store_n(&E.Stamp, SelfStamp | Touched << BytesShift,
                       __ATOMIC_RELAXED);
    }
  }
}

void synchronised(uint32_t Thread) {
  if (Thread < Checks.LastSync.size())
    Checks.LastSync[Thread] = ++Checks.Sync;
}

/// Memcheck, initcheck and the written marks for the state bytes \p S of
/// an access.
void checkStates(uint8_t *S, const void *P, uint64_t Bytes, uint32_t Kind,
                 const CheckSite *Site, const std::string &Region) {
  uint32_t On = enabledChecks();
  bool Store = Kind & emu::AccessStore;
  for (uint64_t I = 0; I < Bytes; ++I) {
    if (S[I] == Unallocated && (On & MemCheck))
      reportCheck("memcheck", accessWords(Kind, P, Bytes) + ", " + Region,
                  Site);
    if (S[I] == Unwritten && !Store && (On & InitCheck) &&
        !(Kind & (emu::AccessNoInitCheck | emu::AccessAtomic)))
      reportCheck("initcheck",
                  std::string("read of ") + std::to_string(Bytes) +
                      " bytes at " + hex(P) + " (" + Region +
                      ") that nothing wrote (byte " + std::to_string(I) + ")",
                  Site);
  }
  if (Store || (Kind & emu::AccessAtomic))
    for (uint64_t I = 0; I < Bytes; ++I)
      if (S[I] == Unwritten)
        S[I] = Written;
}

void checkShared(const void *P, uint64_t Bytes, uint32_t Kind,
                 const CheckSite *Site, uint64_t Stored) {
  uint64_t Offset = uintptr_t(P) - uintptr_t(Checks.Shared);
  if (Offset >= Checks.SharedBytes || Bytes > Checks.SharedBytes - Offset) {
    if (checking(MemCheck))
      reportCheck("memcheck",
                  accessWords(Kind, P, Bytes) +
                      ", outside the block's team-shared memory (" +
                      std::to_string(Checks.SharedBytes) +
                      " bytes, static and dynamic, at " + hex(Checks.Shared) +
                      ")",
                  Site);
    return;
  }
  std::string Region = "team-shared memory at offset " + std::to_string(Offset);
  if (checking(InitCheck))
    checkStates(&Checks.SharedState[Offset], P, Bytes, Kind, Site, Region);
  if (checking(RaceCheck) && !(Kind & emu::AccessAtomic))
    checkRace(&Checks.SharedRaces[Offset / 4], P, Bytes, Kind, Site,
              Region.c_str(), Stored);
}

void checkGlobal(const void *P, uint64_t Bytes, uint32_t Kind,
                 const CheckSite *Site, uint64_t Stored) {
  MemoryShadow *Shadow = MemoryShadow::get();
  if (!Shadow || !Shadow->covers(P) ||
      !Shadow->covers(static_cast<const char *>(P) + Bytes - 1))
    return;
  if (checking(MemCheck | InitCheck)) {
    uint8_t *S = Shadow->state(P);
    bool Fine = true;
    for (uint64_t I = 0; I < Bytes && Fine; ++I)
      Fine =
          S[I] == Written || (S[I] == Unwritten && (Kind & emu::AccessStore));
    if (!Fine)
      checkStates(S, P, Bytes, Kind, Site, Shadow->describe(P));
    else if (Kind & (emu::AccessStore | emu::AccessAtomic))
      for (uint64_t I = 0; I < Bytes; ++I)
        S[I] = Written;
  }
  if (checking(RaceCheck) && !(Kind & emu::AccessAtomic))
    checkRace(Shadow->race(P), P, Bytes, Kind, Site, "device memory", Stored);
}

} // namespace

namespace {
uint32_t checksFromEnvironment() {
  uint32_t Mask = parseChecks(std::getenv("GPUEMU_CHECK"));
  // The plugins keep freed small blocks for the next map and round requests
  // up to a size class: memcheck would see neither the end of an array nor
  // its free. The drivers are loaded before the plugins read this (device
  // initialisation); a value the user set stays.
  if (Mask)
    setenv("LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD", "0", /*overwrite=*/0);
  return Mask;
}
} // namespace

// Read when the library is loaded, before any launch: the executor tests
// it with a plain load.
const uint32_t EnabledChecks = checksFromEnvironment();

void reportCheck(const char *Check, const std::string &What,
                 const CheckSite *Site) {
  std::string Text = std::string(Check) + ": " + What;
  if (Site)
    Text += ";" + describeSite(Site);
  // Outside a kernel (a driver call) the caller fails the call.
  if (!CurrentThread) {
    fprintf(stderr, "gpu-emulator: %s\n", Text.c_str());
    return;
  }
  failLaunch(std::strcmp(Check, "memcheck") == 0
                 ? offload::cuda_abi::CUDA_ERROR_ILLEGAL_ADDRESS
                 : offload::cuda_abi::CUDA_ERROR_LAUNCH_FAILED,
             Text);
}

void startBlockChecks(const BlockState &Block, uint64_t SharedBytes,
                      const void *StacksBegin, const void *StacksEnd) {
  Checks.Block = &Block;
  uint64_t Run;
  do
    Run = ++Runs & RunMask;
  while (Run == 0);
  Checks.Run = Run;
  Checks.Sync = 0;
  Checks.LastSync.assign(Block.Threads.size(), 0);
  Checks.Shared = Block.Shared;
  Checks.SharedBytes = SharedBytes;
  if (checking(InitCheck))
    Checks.SharedState.assign(SharedBytes, Unwritten);
  if (checking(RaceCheck))
    Checks.SharedRaces.assign((SharedBytes + 3) / 4, RaceEntry());
  Checks.StacksBegin = static_cast<const char *>(StacksBegin);
  Checks.StacksEnd = static_cast<const char *>(StacksEnd);
}

void noteSynchronised(const GPUThread &T) { synchronised(T.Index); }

} // namespace gpuemu

using namespace gpuemu;

extern "C" __attribute__((visibility("default"))) void
__gpuemu_check_access(const void *P, uint64_t Bytes, uint32_t Kind,
                      const void *SiteAddress, uint64_t Stored,
                      const void *Object, uint64_t ObjectBytes) {
  auto *Site = static_cast<const CheckSite *>(SiteAddress);
  // A fence orders nothing by itself between two threads, only with an
  // atomic access or a barrier, which count on their own: counting fences
  // hid every race around an AMD barrier (fence, s_barrier, fence).
  if (Kind & emu::AccessAtomic)
    synchronised(CurrentThread->Index);
  if (Kind & emu::AccessFence || Bytes == 0)
    return;
  if (checking(MemCheck)) {
    checkAlignment(P, Bytes, Kind, Site);
    if (ObjectBytes)
      checkObject(P, Bytes, Kind, Site, Object, ObjectBytes);
  }
  const char *C = static_cast<const char *>(P);
  // A thread's own stack (a local whose address a call was given).
  if (C >= Checks.StacksBegin && C < Checks.StacksEnd)
    return;
  if ((Kind & emu::AccessShared) ||
      uintptr_t(C) - uintptr_t(Checks.Shared) < Checks.SharedBytes)
    return checkShared(P, Bytes, Kind, Site, Stored);
  checkGlobal(P, Bytes, Kind, Site, Stored);
}
