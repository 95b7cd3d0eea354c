//===- IndirectCallDevice.h - Indirect-call tables of a device ---*- C++
//-*-===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two calls a device makes to keep the `declare target indirect` table
// of its images current (IndirectCallTable.h has the table itself): after
// it loads an image and before it unloads one. Both run under the device's
// image lock.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIBOMPTARGET_INDIRECTCALLDEVICE_H
#define OFFLOAD_LIBOMPTARGET_INDIRECTCALLDEVICE_H

#include "PluginInterface.h"
#include "indirect/IndirectCallTable.h"

namespace offload {

/// Reads the indirect entries of the just loaded \p Image (described by
/// \p Description, with \p Entries), records them in \p Registry and
/// installs the device's table in every image that needs it; the image's
/// own pairs are appended to \p ImagePairs. Returns false after printing an
/// error naming device \p DeviceId and the image.
bool addImageIndirectCalls(plugin::GenericDevice &Device, int32_t DeviceId,
                           plugin::LoadedImage *Image, const char *Description,
                           const std::vector<ImageEntry> &Entries,
                           IndirectCallRegistry &Registry,
                           std::vector<IndirectCallPair> &ImagePairs);

/// Forgets \p Image, frees its table and reinstalls a smaller table in the
/// other images when the image contributed pairs.
void removeImageIndirectCalls(plugin::GenericDevice &Device, int32_t DeviceId,
                              plugin::LoadedImage *Image,
                              IndirectCallRegistry &Registry);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_INDIRECTCALLDEVICE_H
