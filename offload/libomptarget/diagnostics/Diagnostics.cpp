//===- Diagnostics.cpp - Environment settings, messages and fatal errors -===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "diagnostics/Diagnostics.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace offload;

namespace {

uint32_t readInfoFromEnvironment() {
  const char *Env = getenv("LIBOMPTARGET_INFO");
  if (!Env || !*Env)
    return 0;
  // Upstream accepts any integer; -1 turns on everything.
  return static_cast<uint32_t>(strtol(Env, nullptr, 0));
}

std::atomic<uint32_t> &infoStorage() {
  static std::atomic<uint32_t> Flags{readInfoFromEnvironment()};
  return Flags;
}

/// Splits ";a;b;c;d;;" into its fields.
std::vector<std::string> splitLocation(const char *Text) {
  std::vector<std::string> Fields;
  if (!Text || *Text != ';')
    return Fields;
  std::string Current;
  for (const char *P = Text + 1; *P; ++P) {
    if (*P == ';') {
      Fields.push_back(Current);
      Current.clear();
    } else {
      Current += *P;
    }
  }
  return Fields;
}

void vprint(const char *Prefix, const char *Fmt, va_list Args) {
  char Buffer[2048];
  vsnprintf(Buffer, sizeof(Buffer), Fmt, Args);
  fprintf(stderr, "%s%s\n", Prefix, Buffer);
}

} // namespace

uint32_t offload::infoFlags() {
  return infoStorage().load(std::memory_order_relaxed);
}
void offload::setInfoFlags(uint32_t Flags) { infoStorage().store(Flags); }

bool offload::debugEnabled() {
  static const bool Enabled = [] {
    const char *Env = getenv("LIBOMPTARGET_DEBUG");
    return Env && *Env && strtol(Env, nullptr, 0) != 0;
  }();
  return Enabled;
}

/// The file part of a source location: its last path component, as
/// upstream prints it (`info.c:12:3`; clang records the path as given).
static std::string fileName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string offload::sourceLocation(const ident_t *Loc) {
  if (!Loc || !Loc->psource)
    return UnknownLocation;
  std::vector<std::string> F = splitLocation(Loc->psource);
  // ";file;function;line;col;;"
  if (F.size() < 4 || F[0] == "unknown")
    return UnknownLocation;
  return fileName(F[0]) + ":" + F[2] + ":" + F[3];
}

namespace {

bool looksLikeSourceFile(const std::string &Field) {
  static const char *const Extensions[] = {
      ".c",   ".cc",  ".cpp", ".cxx", ".C",   ".h",   ".hpp", ".f",
      ".F",   ".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08",
      ".F08", ".for", ".cu",  ".mlir"};
  if (Field.find('/') != std::string::npos)
    return true;
  for (const char *Ext : Extensions) {
    size_t Len = strlen(Ext);
    if (Field.size() > Len && Field.compare(Field.size() - Len, Len, Ext) == 0)
      return true;
  }
  return false;
}

/// The fields of a map name, variable first: clang writes
/// ";variable;file;line;col;;", Flang ";file;variable;line;col;;".
std::vector<std::string> mapNameFields(const void *Name) {
  std::vector<std::string> F = splitLocation(static_cast<const char *>(Name));
  if (F.size() >= 2 && looksLikeSourceFile(F[0]) && !looksLikeSourceFile(F[1]))
    std::swap(F[0], F[1]);
  return F;
}

} // namespace

std::string offload::mapName(const void *Name) {
  std::vector<std::string> F = mapNameFields(Name);
  return F.empty() || F[0].empty() ? "unknown" : F[0];
}

std::string offload::mapLocation(const void *Name) {
  std::vector<std::string> F = mapNameFields(Name);
  if (F.size() < 4 || F[1] == "unknown")
    return UnknownLocation;
  return fileName(F[1]) + ":" + F[2] + ":" + F[3];
}

void offload::debugMessage(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vprint("omptarget --> ", Fmt, Args);
  va_end(Args);
}

void offload::infoMessage(int DeviceId, const char *Fmt, ...) {
  char Prefix[64];
  snprintf(Prefix, sizeof(Prefix), "omptarget device %d info: ", DeviceId);
  va_list Args;
  va_start(Args, Fmt);
  vprint(Prefix, Fmt, Args);
  va_end(Args);
}

void offload::pluginInfoMessage(int DeviceId, const char *Fmt, ...) {
  char Prefix[64];
  snprintf(Prefix, sizeof(Prefix),
           "\"PluginInterface\" device %d info: ", DeviceId);
  va_list Args;
  va_start(Args, Fmt);
  vprint(Prefix, Fmt, Args);
  va_end(Args);
}

void offload::errorMessage(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vprint("omptarget error: ", Fmt, Args);
  va_end(Args);
}

void offload::userMessage(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vprint("omptarget message: ", Fmt, Args);
  va_end(Args);
}

[[noreturn]] static void vfatal(int Code, const char *Where, const char *Fmt,
                                va_list Args) {
  std::string Prefix = "omptarget fatal error " + std::to_string(Code) + ": ";
  if (Where)
    Prefix = std::string(Where) + ": " + Prefix;
  vprint(Prefix.c_str(), Fmt, Args);
  fflush(stderr);
  abort();
}

void offload::fatalError(const char *Where, const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vfatal(1, Where, Fmt, Args);
}

void offload::fatalErrorCode(int Code, const char *Where, const char *Fmt,
                             ...) {
  va_list Args;
  va_start(Args, Fmt);
  vfatal(Code, Where, Fmt, Args);
}
