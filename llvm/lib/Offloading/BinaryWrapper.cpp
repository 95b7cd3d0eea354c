//===- BinaryWrapper.cpp - Wrap device images into a __tgt_bin_desc -------===//

#include "offload/Offloading/BinaryWrapper.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace offload {
namespace {

/// Builds the descriptor and its registration code in one module.
class DescriptorBuilder {
public:
  DescriptorBuilder(Module &M, const WrapperOptions &Options)
      : M(M), C(M.getContext()), Options(Options),
        Ptr(PointerType::getUnqual(C)), I32(Type::getInt32Ty(C)),
        I64(Type::getInt64Ty(C)) {
    EntriesSection = Options.EntriesSection.empty()
                         ? getEntriesSectionName(Options.Layout).str()
                         : Options.EntriesSection;
  }

  Error build(ArrayRef<StringRef> Images) {
    createEntryTableBounds();
    SmallVector<Constant *, 4> ImageRecords;
    for (auto [Index, Image] : enumerate(Images)) {
      Expected<Constant *> RecordOrErr = createImage(Index, Image);
      if (!RecordOrErr)
        return RecordOrErr.takeError();
      ImageRecords.push_back(*RecordOrErr);
    }
    GlobalVariable *Descriptor = createDescriptor(ImageRecords);
    createRegistration(Descriptor);
    return Error::success();
  }

private:
  /// The linker defines __start_<sec> and __stop_<sec> around the section
  /// only when some input has such a section, so a zero-sized record of our
  /// own is placed there: a program without any entry still links.
  void createEntryTableBounds() {
    StructType *EntryTy = getEntryType(M, Options.Layout);
    ArrayType *NoEntries = ArrayType::get(EntryTy, 0);
    auto Bound = [&](StringRef Prefix) {
      auto *GV = new GlobalVariable(M, NoEntries, /*Constant=*/true,
                                    GlobalValue::ExternalLinkage, nullptr,
                                    Prefix + EntriesSection);
      // Hidden: each linked module must see its own table, never one that a
      // shared library it depends on exports.
      GV->setVisibility(GlobalValue::HiddenVisibility);
      return GV;
    };
    EntriesBegin = Bound("__start_");
    EntriesEnd = Bound("__stop_");

    auto *Dummy = new GlobalVariable(
        M, NoEntries, /*Constant=*/true, GlobalValue::InternalLinkage,
        ConstantAggregateZero::get(NoEntries), "__dummy." + EntriesSection);
    Dummy->setSection(EntriesSection);
    Dummy->setAlignment(Align(Options.Layout == EntryLayout::Current ? 8 : 1));
    appendToCompilerUsed(M, {Dummy});
  }

  /// Places one OffloadBinary in the image section and returns its
  /// __tgt_device_image record.
  Expected<Constant *> createImage(size_t Index, StringRef Image) {
    MemoryBufferRef Buffer(Image, "device image " + std::to_string(Index));
    Expected<std::unique_ptr<object::OffloadBinary>> BinaryOrErr =
        object::OffloadBinary::create(Buffer);
    if (!BinaryOrErr)
      return createStringError(inconvertibleErrorCode(),
                               "device image " + Twine(Index) +
                                   " is not an offload binary: " +
                                   toString(BinaryOrErr.takeError()));
    StringRef Inner = (*BinaryOrErr)->getImage();
    uint64_t Begin = Inner.data() - Image.data();
    uint64_t End = Begin + Inner.size();

    Constant *Data = ConstantDataArray::get(
        C, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Image.data()),
                             Image.size()));
    std::string Name = ".omp_offloading.device_image";
    if (Index)
      Name += "." + std::to_string(Index);
    auto *GV = new GlobalVariable(M, Data->getType(), /*Constant=*/true,
                                  GlobalValue::InternalLinkage, Data, Name);
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    GV->setSection(Options.ImageSection);
    // OffloadBinary readers expect their header 8-byte aligned.
    GV->setAlignment(Align(object::OffloadBinary::getAlignment()));

    auto At = [&](uint64_t Offset) {
      return ConstantExpr::getGetElementPtr(
          Data->getType(), GV,
          ArrayRef<Constant *>{ConstantInt::get(I64, 0),
                               ConstantInt::get(I64, Offset)});
    };
    return ConstantStruct::get(getImageType(),
                               {At(Begin), At(End), EntriesBegin, EntriesEnd});
  }

  StructType *getImageType() {
    if (StructType *T = StructType::getTypeByName(C, "__tgt_device_image"))
      return T;
    return StructType::create({Ptr, Ptr, Ptr, Ptr}, "__tgt_device_image");
  }

  GlobalVariable *createDescriptor(ArrayRef<Constant *> ImageRecords) {
    ArrayType *ImagesTy = ArrayType::get(getImageType(), ImageRecords.size());
    auto *Images = new GlobalVariable(
        M, ImagesTy, /*Constant=*/true, GlobalValue::InternalLinkage,
        ConstantArray::get(ImagesTy, ImageRecords),
        ".omp_offloading.device_images");
    Images->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);

    StructType *DescTy =
        StructType::create({I32, Ptr, Ptr, Ptr}, "__tgt_bin_desc");
    Constant *Desc =
        ConstantStruct::get(DescTy, {ConstantInt::get(I32, ImageRecords.size()),
                                     Images, EntriesBegin, EntriesEnd});
    return new GlobalVariable(M, DescTy, /*Constant=*/true,
                              GlobalValue::InternalLinkage, Desc,
                              ".omp_offloading.descriptor");
  }

  /// A void() function in .text.startup calling \p Callee(descriptor).
  Function *createCaller(StringRef Name, StringRef Callee,
                         GlobalVariable *Descriptor) {
    auto *Fn = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                GlobalValue::InternalLinkage, Name, M);
    Fn->setSection(".text.startup");
    FunctionCallee Runtime = M.getOrInsertFunction(
        Callee, FunctionType::get(Type::getVoidTy(C), {Ptr}, false));
    IRBuilder<> Builder(BasicBlock::Create(C, "entry", Fn));
    Builder.CreateCall(Runtime, {Descriptor});
    Builder.CreateRetVoid();
    return Fn;
  }

  /// Registration runs as a high-priority constructor so that the images
  /// are known before any user initializer can reach a target region, and
  /// unregistration as the matching destructor, after every user destructor.
  void createRegistration(GlobalVariable *Descriptor) {
    Function *Reg = createCaller(".omp_offloading.descriptor_reg",
                                 "__tgt_register_lib", Descriptor);
    Function *Unreg = createCaller(".omp_offloading.descriptor_unreg",
                                   "__tgt_unregister_lib", Descriptor);
    appendToGlobalCtors(M, Reg, Options.Priority);
    appendToGlobalDtors(M, Unreg, Options.Priority);
  }

  Module &M;
  LLVMContext &C;
  const WrapperOptions &Options;
  Type *Ptr, *I32, *I64;
  std::string EntriesSection;
  GlobalVariable *EntriesBegin = nullptr, *EntriesEnd = nullptr;
};

} // namespace

Error wrapOpenMPImages(Module &M, ArrayRef<StringRef> Images,
                       const WrapperOptions &Options) {
  return DescriptorBuilder(M, Options).build(Images);
}

} // namespace offload
