//===- IndirectCallTable.h - Host-to-device function address table -*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `declare target indirect` functions may be called on a device through
// their HOST address. Device code translates such addresses with
// __llvm_omp_indirect_call_lookup, which searches a table of (host address,
// device address) pairs sorted by host address. This file builds that table
// from the offload entries of the loaded images:
//
//  * an entry flagged OMP_DECLARE_TARGET_INDIRECT names a device global that
//    holds the device address of the function; the host entry's address is
//    the host function;
//  * an entry flagged OMP_DECLARE_TARGET_INDIRECT_VTABLE names a device
//    global that holds the address of the device copy of a vtable of Size
//    bytes; the host entry's address is the host vtable. Every pointer-sized
//    slot of the host vtable is paired with the same slot of the device copy,
//    so a vtable pointer into the middle of the group (the address point)
//    translates too.
//
// A program's function pointer may name a function of any loaded library, so
// each device keeps the pairs of all its images and installs the union in
// every image; it is rebuilt when an image is loaded or unloaded.
//
// Nothing here talks to a plugin directly: device memory is reached through
// the DeviceAccess callbacks, so unit tests can run it on plain memory.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_INDIRECTCALLTABLE_H
#define OFFLOAD_LIBOMPTARGET_INDIRECTCALLTABLE_H

#include "images/EntryTable.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace offload {

struct IndirectCallPair {
  uintptr_t Host = 0;
  uintptr_t Device = 0;
};

/// How the table builder reads an image on a device.
struct IndirectCallDeviceAccess {
  /// Sets \p Address to the device address of the global \p Name of \p Size
  /// bytes; false with \p Error set when the image has no such global.
  std::function<bool(const char *Name, uint64_t Size, void *&Address,
                     std::string &Error)>
      FindGlobal;
  /// Copies \p Size bytes of device memory at \p DeviceSrc to \p HostDst.
  std::function<bool(void *HostDst, const void *DeviceSrc, uint64_t Size,
                     std::string &Error)>
      Read;
};

/// True for the entries the table is made of.
bool isIndirectCallEntry(const ImageEntry &Entry);

/// Appends the pairs of the indirect entries among \p Entries (an image's
/// entries) to \p Out. Returns false with \p Error naming the entry when the
/// image lacks its global, the global cannot be read, or the entry's size is
/// not what its kind needs.
bool collectIndirectCallPairs(const std::vector<ImageEntry> &Entries,
                              const IndirectCallDeviceAccess &Access,
                              std::vector<IndirectCallPair> &Out,
                              std::string &Error);

/// The pairs of every image loaded on one device. Not thread-safe: the
/// owner (the device) serialises image loading.
class IndirectCallRegistry {
public:
  /// Records \p Image (any key that identifies a loaded image) with its
  /// pairs; an image without indirect entries is recorded too, since it gets
  /// the table of the others. Replaces an earlier record of the same image.
  void addImage(const void *Image, std::vector<IndirectCallPair> Pairs);
  void removeImage(const void *Image);

  /// The images recorded, in the order they were added.
  std::vector<const void *> images() const;

  /// The union of all images' pairs, sorted by host address. A host address
  /// registered by several images (an inline function in two libraries)
  /// keeps the device address of the image added first.
  std::vector<IndirectCallPair> table() const;

  /// Number of pairs over all images (duplicates included).
  size_t numPairs() const;

private:
  struct ImagePairs {
    const void *Image;
    std::vector<IndirectCallPair> Pairs;
  };
  std::vector<ImagePairs> Images;
};

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_INDIRECTCALLTABLE_H
