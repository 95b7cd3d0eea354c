//===- BinaryWrapperTest.cpp - The generated descriptor and its object ----===//

#include "offload/Offloading/BinaryWrapper.h"
#include "TestHelpers.h"
#include "offload/Offloading/ObjectEmitter.h"
#include "offload/Offloading/OffloadSection.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace llvm::object;
using namespace offload;

namespace {

SmallString<0> makeImage(StringRef Arch, StringRef Bytes) {
  OffloadBinary::OffloadingImage Entry;
  Entry.TheImageKind = IMG_Object;
  Entry.TheOffloadKind = OFK_OpenMP;
  Entry.StringData["triple"] = "x86_64-pc-linux-gnu";
  Entry.StringData["arch"] = Arch;
  Entry.Image = MemoryBuffer::getMemBuffer(Bytes, "", false);
  return OffloadBinary::write(Entry);
}

class BinaryWrapperTest : public ::testing::Test {
protected:
  void SetUp() override {
    M = std::make_unique<Module>("registration", C);
    M->setTargetTriple(Triple("x86_64-pc-linux-gnu"));
    Images.push_back(makeImage("generic", "first device image"));
    Images.push_back(makeImage("other", "second one"));
  }

  std::vector<StringRef> imageRefs() const {
    return std::vector<StringRef>(Images.begin(), Images.end());
  }

  /// The priority and function of the only element of \p ListName.
  std::pair<uint64_t, Function *> structor(StringRef ListName) {
    GlobalVariable *List = M->getGlobalVariable(ListName);
    EXPECT_NE(List, nullptr);
    if (!List)
      return {0, nullptr};
    auto *Init = cast<ConstantArray>(List->getInitializer());
    EXPECT_EQ(Init->getNumOperands(), 1u);
    auto *Element = cast<ConstantStruct>(Init->getOperand(0));
    return {cast<ConstantInt>(Element->getOperand(0))->getZExtValue(),
            dyn_cast<Function>(Element->getOperand(1))};
  }

  LLVMContext C;
  std::unique_ptr<Module> M;
  std::vector<SmallString<0>> Images;
};

TEST_F(BinaryWrapperTest, DescriptorCoversImagesAndEntries) {
  ASSERT_NO_ERROR(wrapOpenMPImages(*M, imageRefs()));
  EXPECT_FALSE(verifyModule(*M, &errs()));

  // The linker-defined bounds, hidden, and a dummy entry forcing them.
  GlobalVariable *Begin = M->getGlobalVariable("__start_llvm_offload_entries");
  GlobalVariable *End = M->getGlobalVariable("__stop_llvm_offload_entries");
  ASSERT_TRUE(Begin && End);
  EXPECT_TRUE(Begin->isDeclaration());
  EXPECT_TRUE(Begin->hasHiddenVisibility());
  GlobalVariable *Dummy =
      M->getGlobalVariable("__dummy.llvm_offload_entries", true);
  ASSERT_NE(Dummy, nullptr);
  EXPECT_EQ(Dummy->getSection(), "llvm_offload_entries");
  GlobalVariable *Used = M->getGlobalVariable("llvm.compiler.used");
  ASSERT_NE(Used, nullptr);
  EXPECT_TRUE(Used->getInitializer()->getOperand(0) == Dummy);

  // Each image whole, 8-byte aligned, in .llvm.offloading.
  GlobalVariable *Image0 =
      M->getGlobalVariable(".omp_offloading.device_image", true);
  GlobalVariable *Image1 =
      M->getGlobalVariable(".omp_offloading.device_image.1", true);
  ASSERT_TRUE(Image0 && Image1);
  EXPECT_EQ(Image0->getSection(), ".llvm.offloading");
  EXPECT_EQ(Image0->getAlign(), MaybeAlign(8));
  auto *Bytes0 = cast<ConstantDataArray>(Image0->getInitializer());
  EXPECT_EQ(Bytes0->getRawDataValues(), Images[0].str());

  // The descriptor: two images, the entry bounds.
  GlobalVariable *Desc =
      M->getGlobalVariable(".omp_offloading.descriptor", true);
  ASSERT_NE(Desc, nullptr);
  auto *DescInit = cast<ConstantStruct>(Desc->getInitializer());
  EXPECT_EQ(cast<ConstantInt>(DescInit->getOperand(0))->getZExtValue(), 2u);
  EXPECT_EQ(DescInit->getOperand(2), Begin);
  EXPECT_EQ(DescInit->getOperand(3), End);

  // Image records: [start, end) is the image inside the OffloadBinary.
  auto *Array = cast<GlobalVariable>(DescInit->getOperand(1));
  auto *Records = cast<ConstantArray>(Array->getInitializer());
  ASSERT_EQ(Records->getNumOperands(), 2u);
  auto *First = cast<ConstantStruct>(Records->getOperand(0));
  auto Offset = [](Constant *GEP) {
    auto *CE = cast<ConstantExpr>(GEP);
    return cast<ConstantInt>(CE->getOperand(2))->getZExtValue();
  };
  Expected<std::unique_ptr<OffloadBinary>> Parsed =
      OffloadBinary::create(MemoryBufferRef(Images[0], ""));
  ASSERT_OK(Parsed);
  uint64_t ImageStart = (*Parsed)->getImage().data() - Images[0].data();
  EXPECT_EQ(Offset(First->getOperand(0)), ImageStart);
  EXPECT_EQ(Offset(First->getOperand(1)),
            ImageStart + strlen("first device image"));
  EXPECT_EQ(First->getOperand(2), Begin);
  EXPECT_EQ(First->getOperand(3), End);

  // Registration before user initializers, unregistration after.
  auto [CtorPriority, Ctor] = structor("llvm.global_ctors");
  auto [DtorPriority, Dtor] = structor("llvm.global_dtors");
  EXPECT_EQ(CtorPriority, 101u);
  EXPECT_EQ(DtorPriority, 101u);
  ASSERT_TRUE(Ctor && Dtor);
  auto CalleeOf = [](Function *F) {
    for (Instruction &I : F->getEntryBlock())
      if (auto *Call = dyn_cast<CallInst>(&I))
        return Call->getCalledFunction()->getName().str();
    return std::string();
  };
  EXPECT_EQ(CalleeOf(Ctor), "__tgt_register_lib");
  EXPECT_EQ(CalleeOf(Dtor), "__tgt_unregister_lib");
  EXPECT_EQ(Ctor->getSection(), ".text.startup");
}

TEST_F(BinaryWrapperTest, PrivateEntrySectionAndImageSection) {
  WrapperOptions Options;
  Options.EntriesSection = "llvm_offload_entries_cafe";
  Options.ImageSection = ".omp_offloading.images";
  ASSERT_NO_ERROR(wrapOpenMPImages(*M, imageRefs(), Options));
  EXPECT_NE(M->getGlobalVariable("__start_llvm_offload_entries_cafe"), nullptr);
  EXPECT_EQ(M->getGlobalVariable("__start_llvm_offload_entries"), nullptr);
  EXPECT_EQ(M->getGlobalVariable("__dummy.llvm_offload_entries_cafe", true)
                ->getSection(),
            "llvm_offload_entries_cafe");
  EXPECT_EQ(
      M->getGlobalVariable(".omp_offloading.device_image", true)->getSection(),
      ".omp_offloading.images");
}

TEST_F(BinaryWrapperTest, LegacyLayoutUsesLegacySection) {
  WrapperOptions Options;
  Options.Layout = EntryLayout::Legacy;
  ASSERT_NO_ERROR(wrapOpenMPImages(*M, imageRefs(), Options));
  EXPECT_NE(M->getGlobalVariable("__start_omp_offloading_entries"), nullptr);
  EXPECT_FALSE(verifyModule(*M, &errs()));
}

TEST_F(BinaryWrapperTest, RejectsNonOffloadBinary) {
  std::vector<StringRef> Bad = {Images[0].str(), "definitely not an image"};
  EXPECT_THAT(offload_test::errorMessage(wrapOpenMPImages(*M, Bad)),
              ::testing::HasSubstr("device image 1 is not an offload binary"));
}

TEST_F(BinaryWrapperTest, CompiledObjectKeepsImagesReadable) {
  ASSERT_NO_ERROR(wrapOpenMPImages(*M, imageRefs()));
  Expected<SmallString<0>> ObjectOrErr = emitObject(*M);
  ASSERT_OK(ObjectOrErr);
  Expected<std::unique_ptr<ObjectFile>> ObjOrErr =
      ObjectFile::createObjectFile(MemoryBufferRef(*ObjectOrErr, "wrap.o"));
  ASSERT_OK(ObjOrErr);

  bool SawInitArray = false, SawFiniArray = false, SawOffloading = false;
  for (const SectionRef &Sec : (*ObjOrErr)->sections()) {
    Expected<StringRef> Name = Sec.getName();
    ASSERT_OK(Name);
    SawInitArray |= *Name == ".init_array.101";
    SawFiniArray |= *Name == ".fini_array.101";
    if (*Name == ".llvm.offloading") {
      SawOffloading = true;
      EXPECT_EQ(ELFSectionRef(Sec).getType(), ELF::SHT_LLVM_OFFLOADING);
      EXPECT_TRUE(ELFSectionRef(Sec).getFlags() & ELF::SHF_ALLOC);
    }
  }
  EXPECT_TRUE(SawInitArray);
  EXPECT_TRUE(SawFiniArray);
  EXPECT_TRUE(SawOffloading);

  // The images read back exactly as they went in.
  SmallVector<OffloadFile, 2> ReadBack;
  ASSERT_NO_ERROR(readOffloadImages(**ObjOrErr, "wrap.o", ReadBack));
  ASSERT_EQ(ReadBack.size(), 2u);
  EXPECT_EQ(ReadBack[0].getBinary()->getImage(), "first device image");
  EXPECT_EQ(ReadBack[1].getBinary()->getArch(), "other");
}

TEST(ObjectEmitter, UnknownTripleIsAnError) {
  LLVMContext C;
  Module M("m", C);
  M.setTargetTriple(Triple("nosuchcpu-unknown-none"));
  EXPECT_THAT(offload_test::errorMessage(emitObject(M)),
              ::testing::HasSubstr("no code generator for"));
}

} // namespace
