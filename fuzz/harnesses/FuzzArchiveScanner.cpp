//===- FuzzArchiveScanner.cpp - Fuzz the linker wrapper's input scan ------===//
//
// Part of the offload toolchain, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE.TXT for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The input is one link input (an archive, a fat object, anything) behind a
// one-byte header choosing how the link sees it:
//
//   bit 0  --whole-archive before it
//   bit 1  inside --start-group / --end-group
//   bit 2  --should-extract= for the CPU, NVIDIA and AMD architectures
//   bit 3  named twice (an archive searched again after its first pull)
//
// The scanner (clang/tools/clang-linker-wrapper/InputScanner.cpp) is run as
// the wrapper runs it: on a file, through WrapperConfig. The file lives in
// memory (memfd) so a million runs do not touch the disk. The link leaves
// the symbols below undefined, the names the seed archives define, so
// members are pulled by symbol as in a real link.
//
// Two kinds of input are skipped. Bitcode: its symbols come from LLVM's
// bitcode reader, which is LLVM's to fuzz (it has its own fuzzers) and is
// not hardened against hostile input in a release build. Thin archives:
// their members are other files, named by the input, and reading whatever
// file a mutated name points at (a terminal, /proc/self/fd/0) would make
// runs hang or depend on the machine.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "InputScanner.h"
#include "WrapperOptions.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;
using namespace offload_fuzz;
using namespace wrapper;

namespace {

/// The memory file every run writes its input to, and its path.
struct InputFile {
  int FD = -1;
  std::string Path;

  InputFile() {
    FD = memfd_create("fuzz-input", 0);
    if (FD < 0) {
      std::perror("fuzz-archive-scanner: memfd_create");
      std::abort();
    }
    Path = "/proc/self/fd/" + std::to_string(FD);
  }

  void write(const uint8_t *Data, size_t Size) {
    if (ftruncate(FD, 0) != 0 || pwrite(FD, Data, Size, 0) !=
                                     static_cast<ssize_t>(Size)) {
      std::perror("fuzz-archive-scanner: writing the memory file");
      std::abort();
    }
  }
};

/// True for the inputs the harness skips: bitcode, directly or as an
/// archive member, and thin archives (see the file comment).
bool isSkipped(StringRef Bytes) {
  if (Bytes.starts_with("!<thin>\n"))
    return true;
  file_magic Magic = identify_magic(Bytes);
  if (Magic == file_magic::bitcode)
    return true;
  if (Magic != file_magic::archive)
    return false;
  Expected<std::unique_ptr<object::Archive>> ArchiveOrErr =
      object::Archive::create(MemoryBufferRef(Bytes, "fuzz"));
  if (!ArchiveOrErr) {
    consumeError(ArchiveOrErr.takeError());
    return false;
  }
  Error Err = Error::success();
  bool Found = false;
  for (const object::Archive::Child &Child : (*ArchiveOrErr)->children(Err)) {
    Expected<StringRef> Member = Child.getBuffer();
    if (!Member) {
      consumeError(Member.takeError());
      continue;
    }
    if (identify_magic(*Member) == file_magic::bitcode) {
      Found = true;
      break;
    }
  }
  consumeError(std::move(Err));
  return Found;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  uint8_t Flags = Data[0];
  StringRef Bytes(reinterpret_cast<const char *>(Data + 1), Size - 1);
  if (isSkipped(Bytes))
    return 0;

  static InputFile File;
  File.write(Data + 1, Size - 1);

  WrapperConfig Config;
  Config.HostTriple = Triple("x86_64-pc-linux-gnu");
  Config.UndefinedSymbols = {"main", "fuzz_a", "fuzz_b", "fuzz_c"};
  if (Flags & 4)
    Config.ShouldExtract = {"generic", "sm_90", "gfx90a"};
  if (Flags & 2)
    Config.Inputs.push_back({LinkInput::GroupStart, ""});
  if (Flags & 1)
    Config.Inputs.push_back({LinkInput::WholeArchiveOn, ""});
  Config.Inputs.push_back({LinkInput::File, File.Path});
  if (Flags & 8)
    Config.Inputs.push_back({LinkInput::File, File.Path});
  if (Flags & 1)
    Config.Inputs.push_back({LinkInput::WholeArchiveOff, ""});
  if (Flags & 2)
    Config.Inputs.push_back({LinkInput::GroupEnd, ""});

  InputScanner Scanner(Config);
  Expected<ScanResult> ResultOrErr = Scanner.scan();
  if (!ResultOrErr) {
    std::string Message = toString(ResultOrErr.takeError());
    // Errors name the input (and the member, for archives) first.
    FUZZ_CHECK(StringRef(Message).starts_with(File.Path) &&
                   Message.size() > File.Path.size() + 2,
               "a scan error does not name the input file");
    return 0;
  }
  unsigned Sum = 0;
  for (const InputImage &Image : ResultOrErr->Images) {
    const object::OffloadBinary &Binary = *Image.File.getBinary();
    StringRef Bytes = Binary.getImage();
    Sum += touch(std::string_view(Bytes.data(), Bytes.size()));
    Sum += touch(Image.Origin);
    FUZZ_CHECK(StringRef(Image.Origin).starts_with(File.Path),
               "an image's origin does not name the input file");
  }
  keep(Sum);
  return 0;
}
