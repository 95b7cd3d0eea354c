//===- InteropProperties.cpp - What omp_get_interop_* answer --------------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of OpenMP 5.1's interop property routines: each property has one
// type (int, pointer or string); asking for it through another accessor is
// an error naming its real type, a property the device cannot give is
// "no value", and anything outside omp_ipr_first..-1 is out of range (this
// runtime defines no implementation-defined properties).
//
//===----------------------------------------------------------------------===//

#include "interop/Interop.h"

using namespace offload;

namespace {

bool inRange(int Property) { return Property >= IprFirst && Property < 0; }

/// The accessor type of \p Property, whether or not it has a value.
InteropValue::Type typeOf(const InteropObject &Object, int Property) {
  switch (Property) {
  case IprForeignRuntimeId:
  case IprVendor:
  case IprDeviceNum:
    return InteropValue::Int;
  case IprForeignRuntimeName:
  case IprVendorName:
    return InteropValue::Str;
  case IprDevice:
    // A foreign device handle is a number for the runtimes we speak (CUDA's
    // CUdevice is an int); read it with omp_get_interop_int.
    return Object.Properties.HasDeviceHandle ? InteropValue::Int
                                             : InteropValue::Ptr;
  default: // platform, device_context, targetsync
    return InteropValue::Ptr;
  }
}

/// Fills \p Value with \p Property of \p Object; false when it has none.
bool valueOf(const InteropObject &Object, int Property, InteropValue &Value) {
  const plugin::InteropProperties &P = Object.Properties;
  Value.Kind = typeOf(Object, Property);
  switch (Property) {
  case IprForeignRuntimeId:
    Value.IntValue = P.ForeignRuntimeId;
    return P.ForeignRuntimeId != 0;
  case IprForeignRuntimeName:
    Value.StrValue = P.ForeignRuntimeName;
    return P.ForeignRuntimeName != nullptr;
  case IprVendor:
    Value.IntValue = P.VendorId;
    return P.VendorId != 0;
  case IprVendorName:
    Value.StrValue = P.VendorName;
    return P.VendorName != nullptr;
  case IprDeviceNum:
    Value.IntValue = Object.DeviceNum;
    return true;
  case IprDevice:
    // Device and context belong to `target` objects, the synchronization
    // object to `targetsync` ones (clang-22 passes `target` for an object
    // initialized with both, so those get a synchronization object too).
    Value.IntValue = P.DeviceHandle;
    return Object.Kind == InteropTarget && P.HasDeviceHandle;
  case IprDeviceContext:
    Value.PtrValue = P.DeviceContext;
    return Object.Kind == InteropTarget && P.DeviceContext != nullptr;
  case IprTargetSync:
    Value.PtrValue = Object.TargetSync;
    return Object.TargetSync != nullptr;
  default: // platform: none of our foreign runtimes has one
    return false;
  }
}

int typeMismatch(InteropValue::Type Real) {
  switch (Real) {
  case InteropValue::Int:
    return IrcTypeInt;
  case InteropValue::Ptr:
    return IrcTypePtr;
  default:
    return IrcTypeStr;
  }
}

} // namespace

InteropValue offload::readInteropProperty(const InteropObject *Object,
                                          int Property,
                                          InteropValue::Type Wanted, int &Rc) {
  InteropValue Value;
  if (!Object || Object->Magic != InteropObject::LiveMagic) {
    Rc = IrcEmpty;
    return InteropValue();
  }
  if (!inRange(Property)) {
    Rc = IrcOutOfRange;
    return InteropValue();
  }
  bool Present = valueOf(*Object, Property, Value);
  if (Value.Kind != Wanted) {
    Rc = typeMismatch(Value.Kind);
    return InteropValue();
  }
  if (!Present) {
    Rc = IrcNoValue;
    return InteropValue();
  }
  Rc = IrcSuccess;
  return Value;
}

const char *offload::interopPropertyName(int Property) {
  switch (Property) {
  case IprForeignRuntimeId:
    return "fr_id";
  case IprForeignRuntimeName:
    return "fr_name";
  case IprVendor:
    return "vendor";
  case IprVendorName:
    return "vendor_name";
  case IprDeviceNum:
    return "device_num";
  case IprPlatform:
    return "platform";
  case IprDevice:
    return "device";
  case IprDeviceContext:
    return "device_context";
  case IprTargetSync:
    return "targetsync";
  default:
    return nullptr;
  }
}

const char *offload::interopPropertyType(const InteropObject *Object,
                                         int Property) {
  if (!inRange(Property))
    return nullptr;
  const plugin::InteropProperties *P =
      Object && Object->Magic == InteropObject::LiveMagic ? &Object->Properties
                                                          : nullptr;
  switch (Property) {
  case IprForeignRuntimeId:
    return "omp_interop_fr_t";
  case IprVendor:
  case IprDeviceNum:
    return "int";
  case IprForeignRuntimeName:
  case IprVendorName:
    return "const char *";
  case IprDevice:
    return P && P->DeviceHandleType ? P->DeviceHandleType : "void *";
  case IprDeviceContext:
    return P && P->DeviceContextType ? P->DeviceContextType : "void *";
  case IprTargetSync:
    return P && P->SyncType ? P->SyncType : "void *";
  default:
    return "void *";
  }
}

const char *offload::interopRcDescription(int Rc) {
  switch (Rc) {
  case IrcNoValue:
    return "the parameters are valid, but the property has no value on this "
           "device";
  case IrcSuccess:
    return "success";
  case IrcEmpty:
    return "the interop object is omp_interop_none or not initialized";
  case IrcOutOfRange:
    return "the property is out of range";
  case IrcTypeInt:
    return "the property's value is an integer: use omp_get_interop_int";
  case IrcTypePtr:
    return "the property's value is a pointer: use omp_get_interop_ptr";
  case IrcTypeStr:
    return "the property's value is a string: use omp_get_interop_str";
  case IrcOther:
    return "another error";
  default:
    return nullptr;
  }
}
