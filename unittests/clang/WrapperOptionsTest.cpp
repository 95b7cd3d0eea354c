//===- WrapperOptionsTest.cpp - Parsing the wrapper's command line --------===//

#include "WrapperOptions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace wrapper;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

WrapperConfig parse(std::vector<const char *> Args) {
  Expected<WrapperConfig> ConfigOrErr = parseCommandLine(Args);
  EXPECT_TRUE(!!ConfigOrErr) << toString(ConfigOrErr.takeError());
  return ConfigOrErr ? std::move(*ConfigOrErr) : WrapperConfig();
}

std::string parseError(std::vector<const char *> Args) {
  Expected<WrapperConfig> ConfigOrErr = parseCommandLine(Args);
  if (ConfigOrErr)
    return "<success>";
  return toString(ConfigOrErr.takeError());
}

TEST(WrapperOptions, DriverLinkLine) {
  // The shape of clang-22's link line for -fopenmp-targets=x86_64-...
  WrapperConfig Config =
      parse({"--device-linker=nvptx64-nvidia-cuda=-lompdevice",
             "--device-compiler=x86_64-pc-linux-gnu=-O2",
             "--host-triple=x86_64-pc-linux-gnu",
             "--wrapper-verbose",
             "--linker-path=/usr/bin/ld",
             "--hash-style=gnu",
             "--build-id",
             "-m",
             "elf_x86_64",
             "-pie",
             "-dynamic-linker",
             "/lib64/ld-linux-x86-64.so.2",
             "-o",
             "a.out",
             "/lib/Scrt1.o",
             "-L/usr/lib",
             "x.o",
             "-lstdc++",
             "--as-needed",
             "-lgcc_s",
             "--no-as-needed"});
  EXPECT_EQ(Config.HostTriple.str(), "x86_64-pc-linux-gnu");
  EXPECT_EQ(Config.LinkerPath, "/usr/bin/ld");
  EXPECT_EQ(Config.Output, "a.out");
  EXPECT_TRUE(Config.Verbose);
  EXPECT_FALSE(Config.Relocatable);

  // Everything but the wrapper's own options (and -o) reaches the linker, in
  // order; values of linker options stay with their option.
  EXPECT_THAT(Config.LinkerArgs,
              ElementsAre("--hash-style=gnu", "--build-id", "-m", "elf_x86_64",
                          "-pie", "-dynamic-linker",
                          "/lib64/ld-linux-x86-64.so.2", "/lib/Scrt1.o", "-L",
                          "/usr/lib", "x.o", "-l", "stdc++", "--as-needed",
                          "-l", "gcc_s", "--no-as-needed"));

  // Inputs: files and libraries only (not elf_x86_64 nor the loader).
  ASSERT_EQ(Config.Inputs.size(), 4u);
  EXPECT_EQ(Config.Inputs[0].Kind, LinkInput::File);
  EXPECT_EQ(Config.Inputs[0].Value, "/lib/Scrt1.o");
  EXPECT_EQ(Config.Inputs[1].Value, "x.o");
  EXPECT_EQ(Config.Inputs[2].Kind, LinkInput::Library);
  EXPECT_EQ(Config.Inputs[2].Value, "stdc++");
  EXPECT_THAT(Config.LibraryPaths, ElementsAre("/usr/lib"));

  // Device arguments keep their triple.
  ASSERT_EQ(Config.DeviceLinkerArgs.size(), 1u);
  EXPECT_EQ(Config.DeviceLinkerArgs[0].Triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(Config.DeviceLinkerArgs[0].Value, "-lompdevice");
  EXPECT_THAT(WrapperConfig::forTriple(Config.DeviceCompilerArgs,
                                       Triple("x86_64-pc-linux-gnu")),
              ElementsAre("-O2"));
  EXPECT_TRUE(WrapperConfig::forTriple(Config.DeviceLinkerArgs,
                                       Triple("x86_64-pc-linux-gnu"))
                  .empty());
}

TEST(WrapperOptions, DeviceArgumentsWithEqualSigns) {
  WrapperConfig Config =
      parse({"--device-linker=--defsym=a=1", "--device-linker=-zdefs",
             "--device-linker=x86_64-pc-linux-gnu=--defsym=b=2"});
  ASSERT_EQ(Config.DeviceLinkerArgs.size(), 3u);
  EXPECT_EQ(Config.DeviceLinkerArgs[0].Triple, "");
  EXPECT_EQ(Config.DeviceLinkerArgs[0].Value, "--defsym=a=1");
  EXPECT_EQ(Config.DeviceLinkerArgs[2].Triple, "x86_64-pc-linux-gnu");
  EXPECT_EQ(Config.DeviceLinkerArgs[2].Value, "--defsym=b=2");
  EXPECT_THAT(WrapperConfig::forTriple(Config.DeviceLinkerArgs,
                                       Triple("x86_64-pc-linux-gnu")),
              ElementsAre("--defsym=a=1", "-zdefs", "--defsym=b=2"));
}

TEST(WrapperOptions, RelocatableAndPositionalState) {
  WrapperConfig Config = parse(
      {"-r", "--whole-archive", "liba.a", "--no-whole-archive", "--start-group",
       "-lx", "--end-group", "-Bstatic", "-ly", "-u", "sym", "--output=out.o"});
  EXPECT_TRUE(Config.Relocatable);
  EXPECT_EQ(Config.Output, "out.o");
  EXPECT_THAT(Config.UndefinedSymbols, ElementsAre("sym"));
  std::vector<LinkInput::KindTy> Kinds;
  for (const LinkInput &Input : Config.Inputs)
    Kinds.push_back(Input.Kind);
  EXPECT_THAT(Kinds,
              ElementsAre(LinkInput::WholeArchiveOn, LinkInput::File,
                          LinkInput::WholeArchiveOff, LinkInput::GroupStart,
                          LinkInput::Library, LinkInput::GroupEnd,
                          LinkInput::StaticOn, LinkInput::Library));
  // -r reaches the linker.
  EXPECT_EQ(Config.LinkerArgs.front(), "--relocatable");

  EXPECT_TRUE(parse({"--relocatable"}).Relocatable);
}

TEST(WrapperOptions, WrapperOnlyOptionsStayHere) {
  WrapperConfig Config =
      parse({"--dry-run", "--save-temps", "--wrapper-jobs=3",
             "--print-wrapped-module", "--should-extract=sm_90", "-mllvm", "-x",
             "--offload-opt=-y", "--cuda-path=/cuda", "--compress",
             "--compression-level=9", "a.o"});
  EXPECT_TRUE(Config.DryRun);
  EXPECT_TRUE(Config.SaveTemps);
  EXPECT_TRUE(Config.PrintWrappedModule);
  EXPECT_EQ(Config.Jobs, 3u);
  EXPECT_THAT(Config.ShouldExtract, ElementsAre("sm_90"));
  EXPECT_THAT(Config.LLVMArgs, ElementsAre("-x", "-y"));
  EXPECT_EQ(Config.CudaPath, "/cuda");
  EXPECT_THAT(Config.LinkerArgs, ElementsAre("a.o"));
}

TEST(WrapperOptions, UnknownLinkerOptionsPassThrough) {
  WrapperConfig Config =
      parse({"--no-such-ld-flag", "-plugin-opt=mcpu=x86-64", "--verbose"});
  EXPECT_THAT(
      Config.LinkerArgs,
      ElementsAre("--no-such-ld-flag", "-plugin-opt=mcpu=x86-64", "--verbose"));
  EXPECT_TRUE(Config.Inputs.empty());
}

TEST(WrapperOptions, Errors) {
  EXPECT_THAT(parseError({"--wrapper-job=2"}),
              HasSubstr("unknown wrapper option '--wrapper-job=2'"));
  EXPECT_THAT(parseError({"--wrapper-jobs=0"}),
              HasSubstr("--wrapper-jobs= expects a positive number"));
  EXPECT_THAT(parseError({"-o"}), HasSubstr("option '-o' needs a value"));
  EXPECT_EQ(parse({"--wrapper-jobs=jobserver"}).Jobs, 0u);
  EXPECT_THAT(parseError({"--embed-bitcode"}),
              HasSubstr("option '--embed-bitcode' is not supported"));
}

TEST(WrapperOptions, VersionAndHelp) {
  EXPECT_TRUE(parse({"-v"}).PrintVersion);
  EXPECT_TRUE(parse({"--version"}).PrintVersion);
  EXPECT_TRUE(parse({"--help"}).Help);
}

} // namespace
