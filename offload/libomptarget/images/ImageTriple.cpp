//===- ImageTriple.cpp - The target triple of a bare device image --------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "images/ImageTriple.h"

#include <elf.h>

#include <cstring>

std::string offload::elfImageTriple(std::string_view Bytes) {
  // e_machine is at the same offset in 32- and 64-bit headers; device
  // images are little-endian, as the host reading them.
  Elf32_Ehdr Header;
  if (Bytes.size() < sizeof(Header))
    return "";
  std::memcpy(&Header, Bytes.data(), sizeof(Header));
  if (std::memcmp(Header.e_ident, ELFMAG, SELFMAG) != 0 ||
      Header.e_ident[EI_DATA] != ELFDATA2LSB)
    return "";
  switch (Header.e_machine) {
  case EM_X86_64:
    return "x86_64-pc-linux-gnu";
  case EM_AARCH64:
    return "aarch64-unknown-linux-gnu";
  case EM_PPC64:
    return "powerpc64le-unknown-linux-gnu";
  case EM_CUDA:
    return "nvptx64-nvidia-cuda";
  case EM_AMDGPU:
    return "amdgcn-amd-amdhsa";
  default:
    return "";
  }
}
