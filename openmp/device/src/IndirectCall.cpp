//===- IndirectCall.cpp - Host-to-device function pointer lookup ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Code compiled with indirect calls through host function pointers calls
// __llvm_omp_indirect_call_lookup first. The table (host address -> device
// address, sorted by host address) comes from the device environment, where
// the plugin puts it; without one, or for an address not in it, the pointer
// is returned unchanged (right on the CPU device when host and device share
// the function).
//
//===----------------------------------------------------------------------===//

#include "DeviceEnvironment.h"
#include "Interface.h"

using namespace ompx;

extern "C" void *__llvm_omp_indirect_call_lookup(void *HostPtr) {
  const DeviceEnvironmentTy &Env = deviceEnvironment();
  const IndirectCallEntryTy *Table =
      reinterpret_cast<const IndirectCallEntryTy *>(Env.IndirectCallTable);
  uint64_t Low = 0, High = Table ? Env.IndirectCallTableSize : 0;
  uintptr_t Key = reinterpret_cast<uintptr_t>(HostPtr);
  while (Low < High) {
    uint64_t Mid = Low + (High - Low) / 2;
    uintptr_t Entry = reinterpret_cast<uintptr_t>(Table[Mid].HostPtr);
    if (Entry == Key)
      return Table[Mid].DevicePtr;
    if (Entry < Key)
      Low = Mid + 1;
    else
      High = Mid;
  }
  return HostPtr;
}
