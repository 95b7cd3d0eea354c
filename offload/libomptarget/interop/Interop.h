//===- Interop.h - OpenMP interop objects and their properties --*- C++ -*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `#pragma omp interop init(...: obj)` makes `obj` (an omp_interop_t) point
// to an InteropObject; omp_get_interop_int/ptr/str read its properties.
// The property rules (types, error codes) are plain functions here so unit
// tests reach them without a device.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_INTEROP_H
#define OFFLOAD_LIBOMPTARGET_INTEROP_H

#include "PluginInterface.h"

#include <cstdint>

namespace offload {

/// The omp_interop_property_t values of OpenMP 5.1 (omp.h): all negative;
/// 0 and up would be implementation-defined properties, of which there are
/// none.
enum InteropProperty : int {
  IprForeignRuntimeId = -1,
  IprForeignRuntimeName = -2,
  IprVendor = -3,
  IprVendorName = -4,
  IprDeviceNum = -5,
  IprPlatform = -6,
  IprDevice = -7,
  IprDeviceContext = -8,
  IprTargetSync = -9,
  IprFirst = -9,
};

/// The omp_interop_rc_t values of OpenMP 5.1.
enum InteropRc : int {
  IrcNoValue = 1,
  IrcSuccess = 0,
  IrcEmpty = -1,
  IrcOutOfRange = -2,
  IrcTypeInt = -3,
  IrcTypePtr = -4,
  IrcTypeStr = -5,
  IrcOther = -6,
};

/// The interop types clang passes to __tgt_interop_init (kmp_interop_type_t).
/// For `init(target, targetsync: obj)` clang-22 passes only Target.
enum InteropKind : int32_t { InteropTarget = 1, InteropTargetSync = 2 };

class Device;

struct InteropObject {
  /// Tells a live object from a destroyed one or a stray pointer.
  static constexpr uint32_t LiveMagic = 0x1e70b0b5;
  uint32_t Magic = LiveMagic;
  int32_t DeviceNum = -1;
  int32_t Kind = InteropTarget;
  plugin::InteropProperties Properties;
  /// The foreign synchronization object (CUDA: a stream), or null when the
  /// device has nothing asynchronous.
  void *TargetSync = nullptr;
  Device *Owner = nullptr;
};

/// A property value as the three accessors see it.
struct InteropValue {
  enum Type { None, Int, Ptr, Str } Kind = None;
  intptr_t IntValue = 0;
  void *PtrValue = nullptr;
  const char *StrValue = nullptr;
};

/// The value of \p Property of \p Object, with the error code the
/// accessor expecting \p Wanted returns in `err`: IrcSuccess, IrcEmpty (no
/// object), IrcOutOfRange, IrcNoValue (valid but unavailable), or the
/// IrcType* naming the property's real type.
InteropValue readInteropProperty(const InteropObject *Object, int Property,
                                 InteropValue::Type Wanted, int &Rc);

/// The name of a property ("fr_id", "device"...), or null when out of
/// range.
const char *interopPropertyName(int Property);
/// The C type of a property's value on \p Object's device ("int",
/// "CUstream"...), or null.
const char *interopPropertyType(const InteropObject *Object, int Property);
/// A sentence describing an omp_interop_rc_t value, or null.
const char *interopRcDescription(int Rc);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_INTEROP_H
