//===- BinaryWrapper.h - Wrap device images into a __tgt_bin_desc -*- C++ -*-//
//
// A host program finds its device images through one binary descriptor per
// linked module, handed to the offload runtime by a constructor:
//
//   struct __tgt_device_image { void *ImageStart, *ImageEnd;
//                               __tgt_offload_entry *EntriesBegin, *EntriesEnd;
//                               };
//   struct __tgt_bin_desc { int32_t NumDeviceImages;
//                           __tgt_device_image *DeviceImages;
//                           __tgt_offload_entry *HostEntriesBegin,
//                           *HostEntriesEnd; };
//
// The entry table is the section the linker gathered from every host object;
// its bounds are the linker-defined __start_<section> / __stop_<section>
// symbols. This file generates that descriptor, the image data and the
// registration code as LLVM IR.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOADING_BINARYWRAPPER_H
#define OFFLOAD_OFFLOADING_BINARYWRAPPER_H

#include "offload/Offloading/OffloadEntries.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace offload {

/// How the descriptor is laid out in the host module.
struct WrapperOptions {
  /// Layout of the host entry table the descriptor points at.
  EntryLayout Layout = EntryLayout::Current;
  /// Section the host entries live in; empty means the layout's usual
  /// section. A relocatable link renames it so its table stays its own.
  std::string EntriesSection;
  /// Section the images are placed in. `.llvm.offloading` keeps them
  /// visible to `llvm-objdump --offloading` in the linked program.
  std::string ImageSection = ".llvm.offloading";
  /// Constructor / destructor priority; 101 runs before any user
  /// initializer (priorities up to 100 are reserved for the implementation).
  unsigned Priority = 101;
};

/// Adds to \p M the descriptor of the OpenMP device images \p Images, each
/// a serialized llvm::object::OffloadBinary holding one linked image, plus
/// the constructor calling `__tgt_register_lib` and the destructor calling
/// `__tgt_unregister_lib`. The descriptor's image bounds point at the image
/// inside each OffloadBinary, which is kept whole so tools can read it.
/// Fails, naming the image, when an image is not a valid OffloadBinary.
llvm::Error wrapOpenMPImages(llvm::Module &M,
                             llvm::ArrayRef<llvm::StringRef> Images,
                             const WrapperOptions &Options = {});

} // namespace offload

#endif // OFFLOAD_OFFLOADING_BINARYWRAPPER_H
