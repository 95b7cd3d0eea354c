//===- PrintfFormat.h - Conversions of a printf format ----------*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Splits a printf format into its conversions and says what argument each
// takes. The device runtime uses it to record printf's arguments
// (openmp/device/gpu/HostStdio.cpp), the host-service server to format them
// again with the host's printf (offload/plugins/gpu/HostServiceStdio.cpp):
// both read the format the same way.
//
// Freestanding: included by the device runtime.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_INCLUDE_PRINTFFORMAT_H
#define OFFLOAD_INCLUDE_PRINTFFORMAT_H

#include <stddef.h>
#include <stdint.h>

namespace ompx {
namespace printf_format {

/// What a conversion reads from the variable arguments.
enum ArgKind : uint8_t {
  ArgNone,    ///< %% (and an unfinished conversion at the end)
  ArgInt,     ///< int (and anything narrower, promoted)
  ArgLong,    ///< long, long long, intmax_t, size_t, ptrdiff_t
  ArgDouble,  ///< double (long double on GPUs is double)
  ArgString,  ///< const char *
  ArgPointer, ///< void *
  ArgCount,   ///< %n: not supported, nothing is written
};

struct Conversion {
  /// The conversion is Format[Start, End) ("%-08.3lf").
  size_t Start = 0, End = 0;
  /// Stars among the flags, width and precision: each reads an int first.
  uint32_t Stars = 0;
  ArgKind Kind = ArgNone;
  char Specifier = 0;
};

/// Finds the next conversion at or after \p Pos in Format[0, Length); false
/// when there is none. \p Pos moves past it.
inline bool nextConversion(const char *Format, size_t Length, size_t &Pos,
                           Conversion &Out) {
  while (Pos < Length && Format[Pos] != '%')
    ++Pos;
  if (Pos >= Length)
    return false;
  Out = Conversion();
  Out.Start = Pos++;
  // Flags, width, precision.
  while (Pos < Length) {
    char C = Format[Pos];
    bool Flag = C == '-' || C == '+' || C == ' ' || C == '#' || C == '0' ||
                C == '.' || C == '\'' || (C >= '1' && C <= '9');
    if (C == '*')
      ++Out.Stars;
    else if (!Flag)
      break;
    ++Pos;
  }
  // Length modifiers.
  bool Wide = false;
  while (Pos < Length) {
    char C = Format[Pos];
    if (C == 'l' || C == 'j' || C == 'z' || C == 't' || C == 'q')
      Wide = true;
    else if (C != 'h' && C != 'L')
      break;
    ++Pos;
  }
  if (Pos >= Length) {
    Out.End = Pos;
    return true;
  }
  Out.Specifier = Format[Pos++];
  Out.End = Pos;
  switch (Out.Specifier) {
  case 'd':
  case 'i':
  case 'u':
  case 'o':
  case 'x':
  case 'X':
  case 'c':
    Out.Kind = Wide ? ArgLong : ArgInt;
    break;
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    Out.Kind = ArgDouble;
    break;
  case 's':
    Out.Kind = ArgString;
    break;
  case 'p':
    Out.Kind = ArgPointer;
    break;
  case 'n':
    Out.Kind = ArgCount;
    break;
  default:
    Out.Kind = ArgNone;
    break;
  }
  return true;
}

} // namespace printf_format
} // namespace ompx

#endif // OFFLOAD_INCLUDE_PRINTFFORMAT_H
