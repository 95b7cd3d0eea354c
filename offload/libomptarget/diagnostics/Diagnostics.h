//===- Diagnostics.h - Environment settings, messages and fatal errors ---===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime's settings from the environment (upstream names), and the
// message helpers every part of the runtime uses, so all output has the
// upstream prefixes users grep for ("omptarget error:", "omptarget device N
// info:", "omptarget fatal error").
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_DIAGNOSTICS_H
#define OFFLOAD_LIBOMPTARGET_DIAGNOSTICS_H

#include "OffloadABI.h"

#include <cstdint>
#include <string>

namespace offload {

/// LIBOMPTARGET_INFO bits, with upstream's meanings.
enum InfoKind : uint32_t {
  InfoKernelArgs = 0x01,     ///< each kernel/data construct with its maps
  InfoMappingExists = 0x02,  ///< a map found an existing entry
  InfoDumpTable = 0x04,      ///< the mapping table after each construct
  InfoMappingChanges = 0x08, ///< entries created and removed
  InfoPluginKernel = 0x10,   ///< kernel launches, images loaded
  InfoDataTransfers = 0x20,  ///< every copy between host and device
  InfoEmptyMapping = 0x40,   ///< use_device_ptr/addr of unmapped storage
};

uint32_t infoFlags();
void setInfoFlags(uint32_t Flags);
bool debugEnabled();

/// What a location without debug information prints as: upstream prints
/// every location as "%s:%d:%d", an unknown one included.
inline constexpr const char *UnknownLocation = "unknown:0:0";

/// ";file;function;line;col;;" of an ident_t, as "file:line:col" (or
/// UnknownLocation when the compiler had no debug info).
std::string sourceLocation(const ident_t *Loc);
/// The variable name of a map-name string (";name;file;line;col;;").
std::string mapName(const void *Name);
/// The location part of a map-name string, "file:line:col" (or
/// UnknownLocation).
std::string mapLocation(const void *Name);

[[gnu::format(printf, 1, 2)]] void debugMessage(const char *Fmt, ...);
[[gnu::format(printf, 2, 3)]] void infoMessage(int DeviceId, const char *Fmt,
                                               ...);
/// The same from the plugin layer, with upstream's plugins' prefix
/// ("\"PluginInterface\" device N info: "): kernel launches.
[[gnu::format(printf, 2, 3)]] void pluginInfoMessage(int DeviceId,
                                                     const char *Fmt, ...);
[[gnu::format(printf, 1, 2)]] void errorMessage(const char *Fmt, ...);
/// "omptarget message: ...": the first line of a mapping failure, worded as
/// upstream's so existing tests and scripts match it.
[[gnu::format(printf, 1, 2)]] void userMessage(const char *Fmt, ...);
/// "[<Where>: ]omptarget fatal error 1: ..." and abort.
[[noreturn, gnu::format(printf, 2, 3)]] void fatalError(const char *Where,
                                                        const char *Fmt, ...);
/// The same with upstream's error code \p Code (2: inconsistent requires).
[[noreturn, gnu::format(printf, 3, 4)]] void
fatalErrorCode(int Code, const char *Where, const char *Fmt, ...);

#define OFFLOAD_DEBUG(...)                                                     \
  do {                                                                         \
    if (::offload::debugEnabled())                                             \
      ::offload::debugMessage(__VA_ARGS__);                                    \
  } while (0)

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_DIAGNOSTICS_H
