//===- ABITest.cpp - OffloadABI.h against LLVM 22's own definitions ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every structure and flag in offload/include/OffloadABI.h is compared with
// what LLVM 22 itself uses to emit them: the C++ definitions of the
// installed headers where they exist, otherwise the IR struct types that
// OpenMPIRBuilder and the offload wrapper create, laid out by the x86-64
// data layout.
//
//===----------------------------------------------------------------------===//

#include "OffloadABI.h"

#include "llvm/Frontend/Offloading/OffloadWrapper.h"
#include "llvm/Frontend/Offloading/Utility.h"
#include "llvm/Frontend/OpenMP/OMPConstants.h"
#include "llvm/Frontend/OpenMP/OMPIRBuilder.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include "gtest/gtest.h"

#include <cstddef>

using namespace llvm;
using MapFlags = omp::OpenMPOffloadMappingFlags;
using EntryKinds = OffloadEntriesInfoManager;

// The entry struct has a C++ definition in LLVM: compare field by field.
#define SAME_FIELD(Ours, Theirs)                                               \
  static_assert(offsetof(__tgt_offload_entry, Ours) ==                         \
                    offsetof(offloading::EntryTy, Theirs),                     \
                "__tgt_offload_entry::" #Ours " moved");
SAME_FIELD(Reserved, Reserved)
SAME_FIELD(Version, Version)
SAME_FIELD(Kind, Kind)
SAME_FIELD(Flags, Flags)
SAME_FIELD(Address, Address)
SAME_FIELD(SymbolName, SymbolName)
SAME_FIELD(Size, Size)
SAME_FIELD(Data, Data)
SAME_FIELD(AuxAddr, AuxAddr)
static_assert(sizeof(__tgt_offload_entry) == sizeof(offloading::EntryTy),
              "__tgt_offload_entry size");
static_assert(sizeof(__tgt_offload_entry_legacy) == 32,
              "the legacy entry is five fields, 32 bytes");

#define SAME_MAP_FLAG(Name)                                                    \
  static_assert(OMP_TGT_MAPTYPE_##Name ==                                      \
                    static_cast<uint64_t>(MapFlags::OMP_MAP_##Name),           \
                "map flag " #Name);
SAME_MAP_FLAG(NONE)
SAME_MAP_FLAG(TO)
SAME_MAP_FLAG(FROM)
SAME_MAP_FLAG(ALWAYS)
SAME_MAP_FLAG(DELETE)
SAME_MAP_FLAG(PTR_AND_OBJ)
SAME_MAP_FLAG(TARGET_PARAM)
SAME_MAP_FLAG(RETURN_PARAM)
SAME_MAP_FLAG(PRIVATE)
SAME_MAP_FLAG(LITERAL)
SAME_MAP_FLAG(IMPLICIT)
SAME_MAP_FLAG(CLOSE)
SAME_MAP_FLAG(PRESENT)
SAME_MAP_FLAG(OMPX_HOLD)
SAME_MAP_FLAG(ATTACH)
SAME_MAP_FLAG(NON_CONTIG)
SAME_MAP_FLAG(MEMBER_OF)

static_assert(OMP_DECLARE_TARGET_LINK ==
              EntryKinds::OMPTargetGlobalVarEntryLink);
static_assert(OMP_DECLARE_TARGET_ENTER ==
              EntryKinds::OMPTargetGlobalVarEntryEnter);
static_assert(OMP_DECLARE_TARGET_INDIRECT ==
              EntryKinds::OMPTargetGlobalVarEntryIndirect);
static_assert(OMP_REGISTER_REQUIRES ==
              EntryKinds::OMPTargetGlobalRegisterRequires);
static_assert(OMP_DECLARE_TARGET_INDIRECT_VTABLE ==
              EntryKinds::OMPTargetGlobalVarEntryIndirectVTable);

namespace {

constexpr const char *X86DataLayout =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:"
    "64-S128";

/// Byte offsets of the fields of an IR struct on x86-64.
std::vector<uint64_t> offsetsOf(StructType *Type) {
  DataLayout DL(X86DataLayout);
  const StructLayout *Layout = DL.getStructLayout(Type);
  std::vector<uint64_t> Offsets;
  for (unsigned I = 0; I < Type->getNumElements(); ++I)
    Offsets.push_back(Layout->getElementOffset(I));
  Offsets.push_back(Layout->getSizeInBytes());
  return Offsets;
}

class ABITest : public ::testing::Test {
protected:
  ABITest() : M("abi", Ctx), Builder(M) {
    M.setDataLayout(X86DataLayout);
    M.setTargetTriple(Triple("x86_64-pc-linux-gnu"));
    Builder.initialize();
  }
  LLVMContext Ctx;
  Module M;
  OpenMPIRBuilder Builder;
};

#define OFFSETS(Struct, ...)                                                   \
  (std::vector<uint64_t>{__VA_ARGS__, sizeof(Struct)})

TEST_F(ABITest, KernelArgumentsMatchOMPKinds) {
  ASSERT_NE(Builder.KernelArgs, nullptr);
  EXPECT_EQ(offsetsOf(Builder.KernelArgs),
            OFFSETS(__tgt_kernel_arguments,
                    offsetof(__tgt_kernel_arguments, Version),
                    offsetof(__tgt_kernel_arguments, NumArgs),
                    offsetof(__tgt_kernel_arguments, ArgBasePtrs),
                    offsetof(__tgt_kernel_arguments, ArgPtrs),
                    offsetof(__tgt_kernel_arguments, ArgSizes),
                    offsetof(__tgt_kernel_arguments, ArgTypes),
                    offsetof(__tgt_kernel_arguments, ArgNames),
                    offsetof(__tgt_kernel_arguments, ArgMappers),
                    offsetof(__tgt_kernel_arguments, Tripcount),
                    offsetof(__tgt_kernel_arguments, Flags),
                    offsetof(__tgt_kernel_arguments, NumTeams),
                    offsetof(__tgt_kernel_arguments, ThreadLimit),
                    offsetof(__tgt_kernel_arguments, DynCGroupMem)));
  EXPECT_EQ(OFFLOAD_KERNEL_ARGS_VERSION,
            static_cast<unsigned>(OMP_KERNEL_ARG_VERSION));
}

TEST_F(ABITest, IdentAndAsyncInfoMatchOMPKinds) {
  EXPECT_EQ(offsetsOf(Builder.Ident),
            OFFSETS(ident_t, offsetof(ident_t, reserved_1),
                    offsetof(ident_t, flags), offsetof(ident_t, reserved_2),
                    offsetof(ident_t, reserved_3), offsetof(ident_t, psource)));
  EXPECT_EQ(offsetsOf(Builder.AsyncInfo),
            OFFSETS(__tgt_async_info, offsetof(__tgt_async_info, Queue)));
}

TEST_F(ABITest, EntryMatchesTheIRTypeClangEmits) {
  EXPECT_EQ(offsetsOf(offloading::getEntryTy(M)),
            OFFSETS(__tgt_offload_entry,
                    offsetof(__tgt_offload_entry, Reserved),
                    offsetof(__tgt_offload_entry, Version),
                    offsetof(__tgt_offload_entry, Kind),
                    offsetof(__tgt_offload_entry, Flags),
                    offsetof(__tgt_offload_entry, Address),
                    offsetof(__tgt_offload_entry, SymbolName),
                    offsetof(__tgt_offload_entry, Size),
                    offsetof(__tgt_offload_entry, Data),
                    offsetof(__tgt_offload_entry, AuxAddr)));
}

// The image and descriptor types only exist as IR the wrapper generates:
// wrap one image and read the types back.
TEST_F(ABITest, DescriptorsMatchTheOffloadWrapper) {
  StructType *EntryTy = offloading::getEntryTy(M);
  auto *Begin =
      new GlobalVariable(M, EntryTy, true, GlobalValue::ExternalLinkage,
                         nullptr, "__start_llvm_offload_entries");
  auto *End = new GlobalVariable(M, EntryTy, true, GlobalValue::ExternalLinkage,
                                 nullptr, "__stop_llvm_offload_entries");
  static const char Image[] = "image";
  ArrayRef<char> Images[] = {ArrayRef<char>(Image, sizeof(Image))};
  ASSERT_FALSE(bool(offloading::wrapOpenMPBinaries(M, Images, {Begin, End})));
  StructType *DeviceImage =
      StructType::getTypeByName(Ctx, "__tgt_device_image");
  StructType *BinDesc = StructType::getTypeByName(Ctx, "__tgt_bin_desc");
  ASSERT_NE(DeviceImage, nullptr);
  ASSERT_NE(BinDesc, nullptr);
  EXPECT_EQ(offsetsOf(DeviceImage),
            OFFSETS(__tgt_device_image,
                    offsetof(__tgt_device_image, ImageStart),
                    offsetof(__tgt_device_image, ImageEnd),
                    offsetof(__tgt_device_image, EntriesBegin),
                    offsetof(__tgt_device_image, EntriesEnd)));
  EXPECT_EQ(offsetsOf(BinDesc),
            OFFSETS(__tgt_bin_desc, offsetof(__tgt_bin_desc, NumDeviceImages),
                    offsetof(__tgt_bin_desc, DeviceImages),
                    offsetof(__tgt_bin_desc, HostEntriesBegin),
                    offsetof(__tgt_bin_desc, HostEntriesEnd)));
}

TEST(ABIFlags, MemberOfIndexIsTheTopSixteenBits) {
  uint64_t Type = (uint64_t(3) << 48) | OMP_TGT_MAPTYPE_TO;
  EXPECT_EQ(offload_member_of_index(Type), 3u);
  EXPECT_EQ(offload_member_of_index(OMP_TGT_MAPTYPE_TO), 0u);
}

} // namespace
