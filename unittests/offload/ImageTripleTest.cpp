//===- ImageTripleTest.cpp - Naming bare device images by their ELF header ===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "images/ImageTriple.h"

#include "gtest/gtest.h"

#include <cstring>
#include <elf.h>
#include <string>

using namespace offload;

namespace {

/// The first bytes of a little-endian ELF file for \p Machine.
std::string elfHeader(uint16_t Machine, unsigned char Class = ELFCLASS64) {
  Elf64_Ehdr Header{};
  std::memcpy(Header.e_ident, ELFMAG, SELFMAG);
  Header.e_ident[EI_CLASS] = Class;
  Header.e_ident[EI_DATA] = ELFDATA2LSB;
  Header.e_type = ET_DYN;
  Header.e_machine = Machine;
  return std::string(reinterpret_cast<const char *>(&Header), sizeof(Header));
}

TEST(ImageTriple, DeviceMachines) {
  EXPECT_EQ(elfImageTriple(elfHeader(EM_X86_64)), "x86_64-pc-linux-gnu");
  EXPECT_EQ(elfImageTriple(elfHeader(EM_CUDA)), "nvptx64-nvidia-cuda");
  EXPECT_EQ(elfImageTriple(elfHeader(EM_AMDGPU)), "amdgcn-amd-amdhsa");
  EXPECT_EQ(elfImageTriple(elfHeader(EM_AARCH64)), "aarch64-unknown-linux-gnu");
}

TEST(ImageTriple, NotADeviceImage) {
  EXPECT_EQ(elfImageTriple(""), "");
  EXPECT_EQ(elfImageTriple("\x7f"
                           "ELF"),
            "");
  EXPECT_EQ(elfImageTriple(elfHeader(EM_SPARC)), "");
  // PTX text and bitcode are no ELF files.
  EXPECT_EQ(elfImageTriple(std::string(64, '.')), "");
  std::string BigEndian = elfHeader(EM_X86_64);
  BigEndian[EI_DATA] = ELFDATA2MSB;
  EXPECT_EQ(elfImageTriple(BigEndian), "");
}

} // namespace
