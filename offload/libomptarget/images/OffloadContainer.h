//===- OffloadContainer.h - Read a device image's OffloadBinary wrapper ---===//
//
// The linker wrapper registers each device image inside the container LLVM
// calls an OffloadBinary (magic 0x10FF10AD): a header, one entry with the
// image's kind and a key/value string table (triple, arch), and the image
// bytes. The runtime only needs to find the image and two strings, so it
// reads the container itself instead of pulling in libLLVM (which costs tens
// of milliseconds to load) for it. The layout is LLVM 22's version 1.
//
//===----------------------------------------------------------------------===//
#ifndef OFFLOAD_LIBOMPTARGET_OFFLOADCONTAINER_H
#define OFFLOAD_LIBOMPTARGET_OFFLOADCONTAINER_H

#include <cstddef>
#include <string>
#include <string_view>

namespace offload {

/// What the runtime takes from a container: views into the caller's bytes.
struct OffloadContainer {
  std::string_view Image;
  std::string_view Triple;
  std::string_view Arch;
};

/// True when \p Bytes starts with the container's magic.
bool hasOffloadContainerMagic(std::string_view Bytes);

/// Reads the container at the start of \p Bytes (which may continue past
/// it). Returns false and says why in \p Error when a size or offset points
/// outside the container or a string is not terminated.
bool readOffloadContainer(std::string_view Bytes, OffloadContainer &Out,
                          std::string &Error);

} // namespace offload

#endif // OFFLOAD_LIBOMPTARGET_OFFLOADCONTAINER_H
