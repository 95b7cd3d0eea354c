//===- InputScannerTest.cpp - Which inputs contribute device code ---------===//
//
// Builds small fat objects in memory (a function, maybe a call, and an
// OffloadBinary in .llvm.offloading whose image is the function's name),
// archives them, and checks which images the scanner collects.
//
//===----------------------------------------------------------------------===//

#include "InputScanner.h"

#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace wrapper;
using ::testing::ElementsAre;

namespace {

class InputScannerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("scanner-test", Dir));
    writeObject("main.o", "main", "foo");
    writeObject("foo.o", "foo", "bar");
    writeObject("bar.o", "bar", "");
    writeObject("baz.o", "baz", "");
    writeArchive("libfoo.a", {"foo.o", "bar.o", "baz.o"});
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string path(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }

  /// An object defining \p Defines (which calls \p Calls, if given) with a
  /// device image whose contents are \p Defines.
  void writeObject(StringRef Name, StringRef Defines, StringRef Calls) {
    LLVMContext C;
    Module M(Name, C);
    M.setTargetTriple(Triple("x86_64-pc-linux-gnu"));
    FunctionType *VoidFn = FunctionType::get(Type::getVoidTy(C), false);
    Function *F =
        Function::Create(VoidFn, GlobalValue::ExternalLinkage, Defines, M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    if (!Calls.empty())
      B.CreateCall(M.getOrInsertFunction(Calls, VoidFn));
    B.CreateRetVoid();

    object::OffloadBinary::OffloadingImage Image;
    Image.TheImageKind = object::IMG_Object;
    Image.TheOffloadKind = object::OFK_OpenMP;
    Image.StringData["triple"] = "x86_64-pc-linux-gnu";
    Image.StringData["arch"] = "generic";
    Image.Image = MemoryBuffer::getMemBuffer(Defines, "", false);
    SmallString<0> Bytes = object::OffloadBinary::write(Image);
    Constant *Data =
        ConstantDataArray::getRaw(Bytes, Bytes.size(), Type::getInt8Ty(C));
    auto *GV = new GlobalVariable(M, Data->getType(), true,
                                  GlobalValue::PrivateLinkage, Data, "image");
    GV->setSection(".llvm.offloading");
    GV->setAlignment(Align(8));
    appendToUsed(M, GV);

    Expected<SmallString<0>> ObjectOrErr = offload::emitObject(M);
    ASSERT_TRUE(!!ObjectOrErr) << toString(ObjectOrErr.takeError());
    std::error_code EC;
    raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << *ObjectOrErr;
  }

  void appendToUsed(Module &M, GlobalValue *GV) {
    Type *Ptr = PointerType::getUnqual(M.getContext());
    ArrayType *T = ArrayType::get(Ptr, 1);
    auto *Used = new GlobalVariable(M, T, false, GlobalValue::AppendingLinkage,
                                    ConstantArray::get(T, {GV}), "llvm.used");
    Used->setSection("llvm.metadata");
  }

  void writeArchive(StringRef Name, std::vector<std::string> Members,
                    object::Archive::Kind Kind = object::Archive::K_GNU) {
    std::vector<NewArchiveMember> NewMembers;
    for (const std::string &Member : Members) {
      Expected<NewArchiveMember> M =
          NewArchiveMember::getFile(path(Member), /*Deterministic=*/true);
      ASSERT_TRUE(!!M) << toString(M.takeError());
      M->MemberName = Member; // As `ar` names it: without the directory.
      NewMembers.push_back(std::move(*M));
    }
    Error E = llvm::writeArchive(path(Name), NewMembers,
                                 SymtabWritingMode::NormalSymtab, Kind,
                                 /*Deterministic=*/true, /*Thin=*/false);
    ASSERT_FALSE(!!E) << toString(std::move(E));
  }

  /// The images (their contents) the scan of \p Inputs finds.
  std::vector<std::string> scan(std::vector<LinkInput> Inputs,
                                std::vector<std::string> Undefined = {}) {
    WrapperConfig Config;
    Config.Inputs = std::move(Inputs);
    Config.LibraryPaths = {std::string(Dir)};
    Config.UndefinedSymbols = std::move(Undefined);
    Expected<ScanResult> ResultOrErr = InputScanner(Config).scan();
    EXPECT_TRUE(!!ResultOrErr) << toString(ResultOrErr.takeError());
    std::vector<std::string> Found;
    if (ResultOrErr)
      for (const InputImage &Image : ResultOrErr->Images)
        Found.push_back(Image.File.getBinary()->getImage().str());
    return Found;
  }

  /// The error the scan of \p Inputs ends with, or "<success>".
  std::string scanError(std::vector<LinkInput> Inputs,
                        std::vector<std::string> Undefined = {}) {
    WrapperConfig Config;
    Config.Inputs = std::move(Inputs);
    Config.UndefinedSymbols = std::move(Undefined);
    Expected<ScanResult> ResultOrErr = InputScanner(Config).scan();
    if (ResultOrErr)
      return "<success>";
    return toString(ResultOrErr.takeError());
  }

  LinkInput file(StringRef Name) { return {LinkInput::File, path(Name)}; }

  SmallString<128> Dir;
};

TEST_F(InputScannerTest, MembersNeededByTheLink) {
  // main needs foo, foo needs bar; nothing needs baz.
  EXPECT_THAT(scan({file("main.o"), file("libfoo.a")}),
              ElementsAre("main", "foo", "bar"));
  EXPECT_THAT(scan({file("main.o"), {LinkInput::Library, "foo"}}),
              ElementsAre("main", "foo", "bar"));
}

TEST_F(InputScannerTest, ArchiveBeforeItsUser) {
  // Nothing is undefined yet when the archive is searched.
  EXPECT_THAT(scan({file("libfoo.a"), file("main.o")}), ElementsAre("main"));
}

TEST_F(InputScannerTest, WholeArchive) {
  EXPECT_THAT(scan({{LinkInput::WholeArchiveOn, ""},
                    file("libfoo.a"),
                    {LinkInput::WholeArchiveOff, ""}}),
              ElementsAre("foo", "bar", "baz"));
}

TEST_F(InputScannerTest, CommandLineUndefined) {
  EXPECT_THAT(scan({file("libfoo.a")}, {"baz"}), ElementsAre("baz"));
}

TEST_F(InputScannerTest, MissingFilesAreTheLinkersBusiness) {
  EXPECT_THAT(scan({file("nonexistent.o"),
                    {LinkInput::Library, "nosuch"},
                    file("main.o")}),
              ElementsAre("main"));
}

TEST_F(InputScannerTest, OriginsNameArchiveMembers) {
  WrapperConfig Config;
  Config.Inputs = {file("main.o"), file("libfoo.a")};
  Expected<ScanResult> ResultOrErr = InputScanner(Config).scan();
  ASSERT_TRUE(!!ResultOrErr) << toString(ResultOrErr.takeError());
  ASSERT_EQ(ResultOrErr->Images.size(), 3u);
  EXPECT_EQ(ResultOrErr->Images[1].Origin, path("libfoo.a") + "(foo.o)");
  ASSERT_EQ(ResultOrErr->Objects.size(), 3u);
  EXPECT_EQ(ResultOrErr->Objects[0].ImageTriples.count("x86_64-pc-linux-gnu"),
            1u);
}

TEST_F(InputScannerTest, SymbolIndexPointingOutsideTheArchive) {
  // Found by fuzz/ (archive-scanner): LLVM's Archive::Symbol::getMember read
  // a member header wherever the index pointed, past the end of the file.
  auto BufferOrErr = MemoryBuffer::getFile(path("libfoo.a"));
  ASSERT_TRUE(!!BufferOrErr);
  std::string Bytes = (*BufferOrErr)->getBuffer().str();
  // "!<arch>\n", the index's 60-byte header, its symbol count, and then the
  // member offset of its first symbol, big-endian.
  ASSERT_EQ(Bytes.substr(8, 2), "/ ");
  const char Outside[4] = {0x7f, 0x00, 0x00, 0x00};
  Bytes.replace(72, 4, Outside, 4);
  {
    std::error_code EC;
    raw_fd_ostream OS(path("libbad.a"), EC);
    ASSERT_FALSE(EC);
    OS << Bytes;
  }
  EXPECT_EQ(scanError({file("libbad.a")}, {"foo", "bar", "baz"}),
            path("libbad.a") +
                ": malformed archive: its symbol index puts 'foo' in a member "
                "at offset 2130706432, where no member starts");
}

TEST_F(InputScannerTest, TruncatedLastMember) {
  // Found by fuzz/ (archive-scanner): LLVM hands out the last member before
  // noticing that it runs past the end of the archive, and the object reader
  // then read past the file.
  auto BufferOrErr = MemoryBuffer::getFile(path("libfoo.a"));
  ASSERT_TRUE(!!BufferOrErr);
  StringRef Bytes = (*BufferOrErr)->getBuffer();
  {
    std::error_code EC;
    raw_fd_ostream OS(path("libtrunc.a"), EC);
    ASSERT_FALSE(EC);
    OS << Bytes.drop_back(100);
  }
  EXPECT_THAT(scanError({{LinkInput::WholeArchiveOn, ""}, file("libtrunc.a")}),
              ::testing::MatchesRegex(".*libtrunc\\.a\\(baz\\.o\\): malformed "
                                      "archive: the member's [0-9]+ bytes run "
                                      "past the end of the archive"));
}

TEST_F(InputScannerTest, OnlyGNUSymbolIndexes) {
  writeArchive("libbsd.a", {"foo.o"}, object::Archive::K_BSD);
  EXPECT_THAT(scanError({file("libbsd.a")}, {"foo"}),
              ::testing::HasSubstr("libbsd.a: its symbol index is not in a "
                                   "GNU ar format"));
}

} // namespace
