//===- CPUDeviceLinker.cpp - Device link for CPU offload targets ----------===//
//
// A CPU device image is a position-independent shared object that the
// runtime's host plugin loads next to the program. It is linked by clang's
// driver for the device triple, with:
//  * -Bsymbolic, so the image's references to its own kernels and globals
//    bind inside the image and never to the host program's copies of the
//    same names;
//  * libomp, which Clang's host-style CPU kernels call (__kmpc_fork_call...);
//  * no --no-undefined: C++ device code refers to the C++ runtime
//    (__gxx_personality_v0, std::terminate...) which the image finds in the
//    host process that loads it, as it does not link the host's libraries;
//  * the CPU device runtime's link options when that runtime is installed:
//    `<prefix>/lib/<triple>/ompdevice-link.rsp`, a response file the device
//    runtime installs (contract with openmp/device).
//
// Which libraries and which linker take part is decided by clang's driver
// and the linker's search, so for the device-link cache the link reports
// them itself: the programs `clang -###` would run and the linker's
// `--dependency-file` (GNU ld 2.35+, lld).
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinker.h"
#include "LinkerArguments.h"
#include "TempFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace wrapper {
namespace {

/// The device runtime's response file in \p RuntimeDir, or "" when the
/// runtime is not installed.
std::string runtimeOptionsFile(StringRef RuntimeDir) {
  SmallString<256> Path(RuntimeDir);
  sys::path::append(Path, "ompdevice-link.rsp");
  return sys::fs::is_regular_file(Path) ? Path.str().str() : std::string();
}

/// The programs of a `clang -###` listing: the first quoted word of each
/// command line.
std::vector<std::string> programsOfJobListing(StringRef Listing) {
  std::vector<std::string> Programs;
  SmallVector<StringRef, 8> Lines;
  Listing.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("\""))
      continue;
    StringRef Program = Line.take_until([](char C) { return C == '"'; });
    if (!Program.empty())
      Programs.push_back(Program.str());
  }
  return Programs;
}

/// The prerequisites of the first rule of a make-style dependency file.
std::vector<std::string> prerequisitesOf(StringRef DepFile) {
  StringRef Rule = DepFile.split("\n\n").first;
  std::vector<std::string> Words;
  std::string Word;
  for (size_t I = 0; I < Rule.size(); ++I) {
    char C = Rule[I];
    if (C == '\\' && I + 1 < Rule.size() && Rule[I + 1] != '\n') {
      Word += Rule[++I]; // An escaped space or backslash.
      continue;
    }
    if (C == '\\' || isSpace(C)) {
      if (!Word.empty())
        Words.push_back(std::move(Word));
      Word.clear();
      continue;
    }
    Word += C;
  }
  if (!Word.empty())
    Words.push_back(std::move(Word));
  if (!Words.empty() && StringRef(Words.front()).ends_with(":"))
    Words.erase(Words.begin()); // The target.
  return Words;
}

class CPUDeviceLinker final : public DeviceLinker {
public:
  explicit CPUDeviceLinker(const ToolchainPaths &Paths) : Paths(Paths) {}

  Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &Job) const override {
    DeviceLinkDependencies Deps;
    std::string RuntimeDir = Paths.deviceLibDir(Job.Triple);
    if (std::string Rsp = runtimeOptionsFile(RuntimeDir); !Rsp.empty())
      Deps.Files.push_back(Rsp);
    // What the -Xoffload-linker arguments name now, wherever the link runs
    // (the linker's report after the link holds the rest).
    LinkerArguments Resolved =
        resolveLinkerArguments(Job.LinkerArgs, {RuntimeDir, Paths.LLVMLibDir},
                               LibraryKind::SharedThenStatic);
    for (const std::string &File : Resolved.Files)
      Deps.Files.push_back(absolutePath(File));
    Deps.Files.insert(Deps.Files.end(), Resolved.Libraries.begin(),
                      Resolved.Libraries.end());
    Deps.Tools = {Paths.Clang};
    // What steers clang's choice of linker and libraries (PATH counts by
    // what it finds, in the entry's record), and what GNU ld writes into the
    // image (LD_RUN_PATH) or what the tools load (LD_LIBRARY_PATH...).
    Deps.Environment = {"COMPILER_PATH",        "LIBRARY_PATH",
                        "CCC_OVERRIDE_OPTIONS", "LD_RUN_PATH",
                        "LD_LIBRARY_PATH",      "LD_PRELOAD"};
    return Deps;
  }

  Error link(const DeviceLinkJob &Job, CommandRunner &Runner) const override {
    return Runner.run(linkCommand(Job), "device link for " + Job.describe());
  }

  Expected<DeviceLinkDependencies>
  linkRecordingReads(const DeviceLinkJob &Job,
                     CommandRunner &Runner) const override {
    std::vector<std::string> Argv = linkCommand(Job);
    DeviceLinkDependencies Read;
    std::vector<std::string> Listing = Argv;
    Listing.push_back("-###");
    Expected<std::string> Jobs =
        Runner.capture(Listing, "clang -### for " + Job.describe());
    if (!Jobs)
      return Jobs.takeError();
    Read.Tools = programsOfJobListing(*Jobs);
    // gold has no --dependency-file: such a link runs as it is, uncached.
    if (any_of(Read.Tools, [](const std::string &Tool) {
          return sys::path::filename(Tool).contains("gold");
        })) {
      Read.Unrecorded = "the linker (gold) cannot report the files it reads";
      if (Error E = link(Job, Runner))
        return std::move(E);
      return Read;
    }

    Expected<ScopedTempFile> DepFile = ScopedTempFile::create(Job.Output, ".d");
    if (!DepFile)
      return DepFile.takeError();
    Argv.push_back("-Wl,--dependency-file=" + DepFile->path());
    if (Error E = Runner.run(Argv, "device link for " + Job.describe()))
      return std::move(E);
    ErrorOr<std::unique_ptr<MemoryBuffer>> Deps =
        MemoryBuffer::getFile(DepFile->path());
    if (!Deps)
      return createStringError("the linker wrote no dependency file for " +
                               Job.describe() + ": " +
                               Deps.getError().message());
    // Inputs are keyed by content already, and the driver's temporary
    // objects (made from them) are gone.
    StringSet<> Inputs;
    for (const std::string &Input : Job.Inputs)
      Inputs.insert(absolutePath(Input));
    for (std::string &File : prerequisitesOf((*Deps)->getBuffer())) {
      std::string Absolute = absolutePath(File);
      if (!Inputs.contains(Absolute) && sys::fs::exists(Absolute))
        Read.Files.push_back(std::move(Absolute));
    }
    return Read;
  }

private:
  std::vector<std::string> linkCommand(const DeviceLinkJob &Job) const {
    std::vector<std::string> Argv = {
        Paths.Clang,
        // Only what we pass: no user or distribution configuration file.
        "--no-default-config",
        "--target=" + Job.Triple.str(),
        "-shared",
        "-Wl,-Bsymbolic",
        "-o",
        Job.Output,
    };
    Argv.insert(Argv.end(), Job.Inputs.begin(), Job.Inputs.end());
    // Options of the device compilation (-O2, -g, -flto=full...) matter when
    // the inputs are bitcode that clang compiles here.
    Argv.insert(Argv.end(), Job.CompilerArgs.begin(), Job.CompilerArgs.end());
    for (const std::string &Plugin : Job.PassPlugins)
      Argv.push_back("-fpass-plugin=" + Plugin);
    for (const std::string &Arg : Job.LLVMArgs) {
      Argv.push_back("-mllvm");
      Argv.push_back(Arg);
    }

    std::string RuntimeDir = Paths.deviceLibDir(Job.Triple);
    Argv.push_back("-L" + RuntimeDir);
    if (std::string Rsp = runtimeOptionsFile(RuntimeDir); !Rsp.empty())
      Argv.push_back("@" + Rsp);
    Argv.push_back("-L" + Paths.LLVMLibDir);
    Argv.push_back("-lomp");

    for (const std::string &Arg : Job.LinkerArgs) {
      Argv.push_back("-Xlinker");
      Argv.push_back(Arg);
    }
    return Argv;
  }

  ToolchainPaths Paths;
};

} // namespace

std::unique_ptr<DeviceLinker>
createCPUDeviceLinker(const ToolchainPaths &Paths) {
  return std::make_unique<CPUDeviceLinker>(Paths);
}

} // namespace wrapper
