//===- FuzzOffloadContainer.cpp - Fuzz the OffloadBinary readers ----------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The input is the contents of a `.llvm.offloading` section (one or more
// OffloadBinary containers, 8-byte aligned), as a corrupt or hostile object
// would carry it. Two readers see it:
//
//  * the runtime's (offload/libomptarget/images/OffloadContainer.cpp), which
//    reads the first container of a registered device image;
//  * the linker wrapper's (llvm/lib/Offloading/OffloadSection.cpp), which
//    checks every record before LLVM's OffloadBinary reader, which trusts its
//    offsets, is let loose on it.
//
// Besides memory errors, the harness checks that views stay inside the input,
// that errors carry a message naming where the input went wrong, and that
// the runtime reads what the wrapper accepted: the wrapper only ever
// registers containers it could read itself.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "images/OffloadContainer.h"
#include "offload/Offloading/OffloadSection.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Object/OffloadBinary.h"

#include <cstdint>
#include <string>
#include <string_view>

using namespace llvm;
using namespace offload_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Bytes(reinterpret_cast<const char *>(Data), Size);

  // The runtime's reader.
  offload::OffloadContainer Container;
  std::string Why;
  bool RuntimeRead = offload::readOffloadContainer(Bytes, Container, Why);
  if (RuntimeRead) {
    FUZZ_CHECK(offload::hasOffloadContainerMagic(Bytes),
               "a container without the magic was read");
    FUZZ_CHECK(within(Container.Image, Bytes) &&
                   within(Container.Triple, Bytes) &&
                   within(Container.Arch, Bytes),
               "a view of the runtime's container lies outside the input");
    keep(touch(Container.Image) + touch(Container.Triple) +
         touch(Container.Arch));
  } else {
    FUZZ_CHECK(!Why.empty(), "the runtime rejected a container silently");
  }

  // The wrapper's reader of the whole section.
  SmallVector<object::OffloadFile, 2> Images;
  if (Error E = offload::readOffloadSection(StringRef(Bytes.data(), Size),
                                            "fuzz.o", Images)) {
    std::string Message = toString(std::move(E));
    FUZZ_CHECK(StringRef(Message).starts_with(
                   "fuzz.o: corrupt .llvm.offloading section at offset "),
               "a section error does not name the file and the offset");
    return 0;
  }
  FUZZ_CHECK(Size == 0 || !Images.empty(),
             "a non-empty section was read as no images");
  for (const object::OffloadFile &File : Images) {
    const object::OffloadBinary &Binary = *File.getBinary();
    // LLVM's accessors compute their views from the offsets our validation
    // let through; reading them whole is what would go out of bounds.
    unsigned Sum = touch(std::string_view(Binary.getImage().data(),
                                          Binary.getImage().size()));
    for (const auto &[Key, Value] : Binary.strings())
      Sum += touch(std::string_view(Key.data(), Key.size())) +
             touch(std::string_view(Value.data(), Value.size()));
    keep(Sum);
  }
  if (Images.empty())
    return 0;

  // The runtime must read the first record the way the wrapper did.
  const object::OffloadBinary &First = *Images.front().getBinary();
  FUZZ_CHECK(RuntimeRead,
             "the runtime rejects a container the wrapper accepted");
  FUZZ_CHECK(StringRef(Container.Image.data(), Container.Image.size()) ==
                 First.getImage(),
             "the runtime and the wrapper see different image bytes");
  FUZZ_CHECK(StringRef(Container.Triple.data(), Container.Triple.size()) ==
                 First.getTriple(),
             "the runtime and the wrapper see different triples");
  FUZZ_CHECK(StringRef(Container.Arch.data(), Container.Arch.size()) ==
                 First.getArch(),
             "the runtime and the wrapper see different architectures");
  return 0;
}
