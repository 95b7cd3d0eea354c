//===- OffloadCompilerTest.cpp - The MLIR compiler library ----------------===//
//
// Compiles small modules with offload::mlir_compiler::compile, as
// mlir-offload does, and reads what it wrote: the .llvm.offloading section
// of the fat object, the diagnostics and the errors.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/OffloadCompiler.h"
#include "offload/Offloading/OffloadSection.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using namespace offload::mlir_compiler;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

/// The shape of test/mlir/scale-llvm-dialect.mlir: a pointer mapped into an
/// omp.target region in the LLVM dialect.
constexpr const char *ScaleModule = R"mlir(module {
  llvm.func @scale(%p: !llvm.ptr, %n: i32) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %n64 = llvm.sext %n : i32 to i64
    %ub = llvm.sub %n64, %c1 : i64
    %nslot = llvm.alloca %c1 x i32 : (i64) -> !llvm.ptr
    llvm.store %n, %nslot : i32, !llvm.ptr
    %bounds = omp.map.bounds lower_bound(%c0 : i64) upper_bound(%ub : i64) extent(%n64 : i64) stride(%c1 : i64) start_idx(%c0 : i64)
    %mp = omp.map.info var_ptr(%p : !llvm.ptr, i32) map_clauses(tofrom) capture(ByRef) bounds(%bounds) -> !llvm.ptr {name = "p"}
    %mn = omp.map.info var_ptr(%nslot : !llvm.ptr, i32) map_clauses(implicit) capture(ByCopy) -> !llvm.ptr {name = "n"}
    omp.target map_entries(%mp -> %a, %mn -> %an : !llvm.ptr, !llvm.ptr) {
      %zero = llvm.mlir.constant(0 : i64) : i64
      %one = llvm.mlir.constant(1 : i64) : i64
      %two = llvm.mlir.constant(2 : i32) : i32
      %count = llvm.load %an : !llvm.ptr -> i32
      %count64 = llvm.sext %count : i32 to i64
      llvm.br ^loop(%zero : i64)
    ^loop(%i: i64):
      %more = llvm.icmp "slt" %i, %count64 : i64
      llvm.cond_br %more, ^body, ^done
    ^body:
      %q = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %q : !llvm.ptr -> i32
      %w = llvm.mul %v, %two : i32
      llvm.store %w, %q : i32, !llvm.ptr
      %next = llvm.add %i, %one : i64
      llvm.br ^loop(%next : i64)
    ^done:
      omp.terminator
    }
    llvm.return
  }
}
)mlir";

/// Line 3 is missing the type of its constant.
constexpr const char *SyntaxErrorModule = R"mlir(module {
  llvm.func @f() {
    %c0 = llvm.mlir.constant(0 : i64) :
    llvm.return
  }
}
)mlir";

const char *const CPUTarget = "x86_64-pc-linux-gnu";

std::string errorMessage(Error E) {
  if (!E)
    return "<success>";
  return toString(std::move(E));
}

/// A fresh folder per test, removed with what the test left in it.
class OffloadCompilerTest : public ::testing::Test {
protected:
  SmallString<128> Dir;
  std::string Log;
  raw_string_ostream LogStream{Log};

  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("mlir-offload-unit", Dir));
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string path(StringRef Name) {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }

  std::string writeFile(StringRef Name, StringRef Text) {
    std::string P = path(Name);
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Text;
    return P;
  }

  CompilerOptions options(StringRef Input, StringRef Output) {
    CompilerOptions Opts;
    Opts.Input = Input.str();
    Opts.Output = Output.str();
    Opts.Targets = {CPUTarget};
    Opts.Log = &LogStream;
    return Opts;
  }
};

TEST_F(OffloadCompilerTest, WritesOneCPUImageInTheOffloadingSection) {
  std::string Output = path("scale.o");
  CompilerOptions Opts = options(writeFile("scale.mlir", ScaleModule), Output);
  ASSERT_EQ(errorMessage(compile(Opts)), "<success>") << Log;

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Output);
  ASSERT_TRUE(!!Buffer) << Buffer.getError().message();
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
  ASSERT_TRUE(!!Obj) << toString(Obj.takeError());
  EXPECT_TRUE((*Obj)->isRelocatableObject());

  SmallVector<object::OffloadFile, 2> Images;
  ASSERT_EQ(errorMessage(offload::readOffloadImages(**Obj, Output, Images)),
            "<success>");
  ASSERT_EQ(Images.size(), 1u);
  const object::OffloadBinary &Image = *Images[0].getBinary();
  EXPECT_EQ(Image.getTriple(), CPUTarget);
  EXPECT_EQ(Image.getArch(), "generic");
  EXPECT_EQ(Image.getOffloadKind(), object::OFK_OpenMP);
  EXPECT_EQ(Image.getImageKind(), object::IMG_Object);
  // The CPU device image is itself an ELF object defining the kernel.
  ASSERT_GE(Image.getImage().size(), 4u);
  EXPECT_EQ(Image.getImage().take_front(4), "\177ELF");
  EXPECT_THAT(Image.getImage().str(), HasSubstr("__omp_offloading_"));
  // Nothing went to the log without -v, and no -save-temps files were left.
  EXPECT_EQ(Log, "");
  EXPECT_FALSE(sys::fs::exists(Output + ".host.ll"));
}

TEST_F(OffloadCompilerTest, VerboseAndSaveTempsGoWhereAsked) {
  std::string Output = path("k.o");
  CompilerOptions Opts = options(writeFile("k.mlir", ScaleModule), Output);
  Opts.Verbose = true;
  Opts.SaveTemps = true;
  Opts.OptLevel = 0;
  Opts.ToolName = "unit";
  ASSERT_EQ(errorMessage(compile(Opts)), "<success>") << Log;
  EXPECT_THAT(Log, HasSubstr("unit: lowering the host module\n"));
  EXPECT_THAT(Log, HasSubstr("unit: device image for x86_64-pc-linux-gnu "
                             "(generic): "));
  EXPECT_THAT(Log, HasSubstr("unit: wrote " + Output + "\n"));
  EXPECT_TRUE(sys::fs::exists(Output));
  EXPECT_TRUE(sys::fs::exists(Output + ".host.ll"));
  EXPECT_TRUE(sys::fs::exists(Output + ".x86_64-pc-linux-gnu.ll"));
}

TEST_F(OffloadCompilerTest, SyntaxErrorNamesTheFileAndLine) {
  std::string Input = writeFile("broken.mlir", SyntaxErrorModule);
  std::string Output = path("broken.o");
  std::string Message = errorMessage(compile(options(Input, Output)));
  EXPECT_EQ(Message, "cannot parse '" + Input + "' (see the errors above)");
  // MLIR's diagnostic, at the file, line and column, went to the log.
  EXPECT_THAT(Log, HasSubstr(Input + ":3:"));
  EXPECT_THAT(Log, HasSubstr("error: "));
  EXPECT_FALSE(sys::fs::exists(Output));
}

TEST_F(OffloadCompilerTest, UnknownTargetIsRefusedByName) {
  std::string Input = writeFile("scale.mlir", ScaleModule);
  std::string Output = path("scale.o");
  CompilerOptions Opts = options(Input, Output);
  Opts.Targets = {"riscv64-unknown-linux-gnu"};
  std::string Message = errorMessage(compile(Opts));
  EXPECT_THAT(Message, HasSubstr("unsupported offload target "
                                 "'riscv64-unknown-linux-gnu'"));
  EXPECT_FALSE(sys::fs::exists(Output));
  // Refused before the module is read: nothing went to the log.
  EXPECT_EQ(Log, "");
}

TEST_F(OffloadCompilerTest, ResolvesTargetsAndArchitectures) {
  CompilerOptions Opts;
  Opts.Input = "dir/kernel.mlir";
  Opts.Targets = {"x86_64-pc-linux-gnu", "nvptx64", "x86_64-pc-linux-gnu"};
  Opts.Archs = {"sm_90", "gfx90a"};
  ASSERT_EQ(errorMessage(resolveOptions(Opts)), "<success>");
  EXPECT_EQ(Opts.Output, "kernel.o");
  EXPECT_THAT(Opts.Targets, ::testing::ElementsAre("x86_64-pc-linux-gnu",
                                                   "nvptx64-nvidia-cuda",
                                                   "amdgcn-amd-amdhsa"));

  CompilerOptions NoArch;
  NoArch.Targets = {"nvptx64-nvidia-cuda"};
  EXPECT_EQ(errorMessage(resolveOptions(NoArch)),
            "offload target 'nvptx64-nvidia-cuda' needs an architecture: "
            "pass --offload-arch=sm_XX");

  CompilerOptions BadArch;
  BadArch.Archs = {"ampere"};
  EXPECT_THAT(errorMessage(resolveOptions(BadArch)),
              HasSubstr("unknown offload architecture 'ampere'"));

  CompilerOptions None;
  EXPECT_THAT(errorMessage(resolveOptions(None)),
              HasSubstr("no offload target"));
}

TEST_F(OffloadCompilerTest, MissingInputIsReported) {
  std::string Input = path("missing.mlir");
  std::string Message = errorMessage(compile(options(Input, path("m.o"))));
  EXPECT_THAT(Message, HasSubstr("cannot read '" + Input + "'"));
  EXPECT_THAT(Message, Not(HasSubstr("<success>")));
}

} // namespace
