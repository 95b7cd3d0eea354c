//===- HostServiceFortran.h - Fortran I/O and STOP from GPUs ----*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replays the Fortran output statements and STOPs GPU threads recorded
// (openmp/device/gpu/FortranIO.cpp) through Flang's runtime on the host, so
// the output is formatted exactly as on the host.
//
// The runtime is the program's own when the program exports it (linked with
// -rdynamic), so device and host output share one unit table and buffer;
// otherwise a copy in libomptarget.fortran-io.so, next to the plugin, which
// flushes after every statement. All functions come from one of the two,
// never a mix: a statement's cookie belongs to the runtime that made it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PLUGINS_GPU_HOSTSERVICEFORTRAN_H
#define OFFLOAD_PLUGINS_GPU_HOSTSERVICEFORTRAN_H

#include "HostServiceServer.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace offload {
namespace plugin {

/// The Flang runtime entry points a replay calls (flang-22's io-api.h and
/// stop.h).
struct FortranIOTable {
  using Cookie = void *;
  Cookie (*BeginList)(int, const char *, int) = nullptr;
  Cookie (*BeginFormatted)(const char *, size_t, const void *, int,
                           const char *, int) = nullptr;
  bool (*Integer8)(Cookie, int8_t) = nullptr;
  bool (*Integer16)(Cookie, int16_t) = nullptr;
  bool (*Integer32)(Cookie, int32_t) = nullptr;
  bool (*Integer64)(Cookie, int64_t) = nullptr;
  bool (*Real32)(Cookie, float) = nullptr;
  bool (*Real64)(Cookie, double) = nullptr;
  bool (*Complex32)(Cookie, float, float) = nullptr;
  bool (*Complex64)(Cookie, double, double) = nullptr;
  bool (*Logical)(Cookie, bool) = nullptr;
  bool (*Ascii)(Cookie, const char *, size_t) = nullptr;
  int (*End)(Cookie) = nullptr;
  Cookie (*BeginFlush)(int, const char *, int) = nullptr;
  void (*Stop)(int, bool, bool) = nullptr;
  void (*StopText)(const char *, size_t, bool, bool) = nullptr;
};

/// Fills \p Table from \p Handle (a dlopen handle or RTLD_DEFAULT); false
/// (with \p Missing naming the first absent function) unless all are there.
bool resolveFortranIO(void *Handle, FortranIOTable &Table,
                      std::string &Missing);

/// The program's runtime or the plugin's copy (see above); null with
/// \p Error saying why neither could be used.
const FortranIOTable *hostFortranIO(std::string &Error);

/// The handler of OpFortranStatement and OpFortranStop requests.
class FortranHostService : public HostServiceHandler {
public:
  /// \p Table: the runtime to replay with; null means find it
  /// (hostFortranIO) on the first request. \p Device names the device in
  /// messages.
  FortranHostService(const FortranIOTable *Table, std::string Device);

  uint64_t perform(const ompx::hostservice::SlotHeader &Header,
                   unsigned char *Payload) override;
  /// Ends the program when a thread executed STOP.
  void afterKernel() override;

  /// Whether a STOP is waiting for its kernel to end.
  bool stopPending() const;

private:
  /// A statement sent in several requests: the pieces so far, joined, and
  /// their flags.
  struct PartialStatement {
    std::vector<unsigned char> Bytes;
    uint32_t Flags = 0;
  };

  /// Keeps a piece of a statement (FlagContinued) or, with the last one,
  /// replays the whole statement.
  void collectStatement(const ompx::hostservice::SlotHeader &Header,
                        const unsigned char *Payload);
  void replayStatement(const ompx::hostservice::SlotHeader &Header,
                       const unsigned char *Payload);
  void recordStop(const unsigned char *Payload, uint32_t Bytes);
  const FortranIOTable *table();

  const FortranIOTable *Table;
  std::string Device;
  /// By SlotHeader::Statement. Requests are performed one at a time (the
  /// server's order), so this needs no lock.
  std::unordered_map<uint32_t, PartialStatement> Partial;
  mutable std::mutex StopMutex;
  bool StopRequested = false;
  int32_t StopCode = 0;
  bool StopIsError = false, StopQuiet = false, StopHasText = false;
  std::string StopText;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOAD_PLUGINS_GPU_HOSTSERVICEFORTRAN_H
