//===- DeviceLinker.h - Per-target device link step ------------*- C++ -*-===//
//
// Linking the device images of one (triple, architecture) group into one
// loadable image is the only step that depends on the device. Each kind of
// device implements DeviceLinker; the rest of the wrapper (scanning,
// wrapping, host link) does not know which one it talks to.
//
// To add a device (NVPTX: LTO + ptxas + nvlink; AMDGPU: LTO + lld), write a
// DeviceLinker subclass in its own file and return it from
// createDeviceLinker() for its triples.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_LINKER_WRAPPER_DEVICELINKER_H
#define CLANG_LINKER_WRAPPER_DEVICELINKER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wrapper {

class CommandRunner;

/// Where the wrapper and the tools it drives are installed.
struct ToolchainPaths {
  /// The prefix the wrapper runs from: `<prefix>/bin/clang-linker-wrapper`.
  std::string Prefix;
  /// Debian's clang driver, used to compile and link device code.
  std::string Clang;
  /// LLVM's library directory (libomp).
  std::string LLVMLibDir;
  /// The CUDA installation, for NVPTX links.
  std::string CudaPath;

  /// `<prefix>/lib/<triple>`: where the device runtime and the other device
  /// libraries for \p Triple are installed.
  std::string deviceLibDir(const llvm::Triple &Triple) const;
};

/// One device link: the inputs of one (triple, arch) group.
struct DeviceLinkJob {
  llvm::Triple Triple;
  std::string Arch;
  /// The group's device objects / bitcode files on disk: what the device
  /// linkers read. Empty while WriteInputs is still to run.
  std::vector<std::string> Inputs;
  /// The same inputs in memory, in the same order (views into the linked
  /// files' `.llvm.offloading` sections, which outlive the job), when the
  /// caller has them: the device-link cache hashes these instead of reading
  /// the files back.
  std::vector<llvm::StringRef> InputContents;
  /// When set, Inputs are not written yet: this writes InputContents to
  /// temporary files and returns their paths. A cached link calls it only
  /// on a miss, so a hit creates no file per input.
  std::function<llvm::Expected<std::vector<std::string>>()> WriteInputs;
  /// Pass plugins to run on the bitcode inputs (the indirect-call pass of
  /// docs/IndirectCalls.md, when the program declares indirect functions).
  std::vector<std::string> PassPlugins;
  /// Symbols the pass plugins make the code call: the device runtime's
  /// members defining them must be linked even if no input names them yet.
  std::vector<std::string> RequiredSymbols;
  /// `--device-linker=` values for this triple.
  std::vector<std::string> LinkerArgs;
  /// `--device-compiler=` values for this triple.
  std::vector<std::string> CompilerArgs;
  /// `-mllvm` / `--offload-opt=` values.
  std::vector<std::string> LLVMArgs;
  /// Where the linked image goes.
  std::string Output;

  /// `nvptx64-nvidia-cuda (sm_90)`, or the triple alone when there is no
  /// architecture: how messages name this link.
  std::string describe() const;
};

/// What a device link reads and runs besides its job's inputs and pass
/// plugins: what the device-link cache keys and checks it by.
struct DeviceLinkDependencies {
  /// Files read (archives, libraries, response files), by content.
  std::vector<std::string> Files;
  /// Programs that run and libraries they load, by identity.
  std::vector<std::string> Tools;
  /// Names of environment variables that change what the link does.
  std::vector<std::string> Environment;
  /// Set by linkRecordingReads() when the link could not report what it
  /// read (why): its image must not be cached.
  std::string Unrecorded;
};

class DeviceLinker {
public:
  virtual ~DeviceLinker();

  /// What link(\p Job) will read and run, found by the same lookups link()
  /// makes. Fails where link() would (a library or tool that is missing).
  virtual llvm::Expected<DeviceLinkDependencies>
  dependencies(const DeviceLinkJob &Job) const = 0;

  /// Runs link() and returns what the link read and ran that dependencies()
  /// cannot know before it runs (the CPU link's libraries and linker, which
  /// clang's driver chooses). The default: link(), nothing more.
  virtual llvm::Expected<DeviceLinkDependencies>
  linkRecordingReads(const DeviceLinkJob &Job, CommandRunner &Runner) const;

  /// Links \p Job.Inputs into \p Job.Output, running external tools through
  /// \p Runner (which honours --dry-run and --wrapper-verbose). Must be
  /// callable from several threads for different jobs.
  virtual llvm::Error link(const DeviceLinkJob &Job,
                           CommandRunner &Runner) const = 0;
};

/// True for the triples linked as a CPU device (a host-style shared object).
bool isCPUDeviceTriple(const llvm::Triple &Triple);

/// The linker for \p Triple, or an error naming the triple when no device
/// link exists for it yet.
llvm::Expected<std::unique_ptr<DeviceLinker>>
createDeviceLinker(const llvm::Triple &Triple, const ToolchainPaths &Paths);

/// Creates the CPU device linker (CPUDeviceLinker.cpp).
std::unique_ptr<DeviceLinker>
createCPUDeviceLinker(const ToolchainPaths &Paths);

} // namespace wrapper

#endif // CLANG_LINKER_WRAPPER_DEVICELINKER_H
