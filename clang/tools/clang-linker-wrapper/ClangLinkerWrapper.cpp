//===- ClangLinkerWrapper.cpp - Offload-aware wrapper of the host link ----===//
//
// clang's driver runs `clang-linker-wrapper` instead of the host linker when
// a program has offload code. The wrapper
//   1. scans the link's inputs for device images (InputScanner),
//   2. links each (triple, arch) group of images into one device image
//      (DeviceLinker; groups in parallel),
//   3. wraps the images into a binary descriptor with its registration code
//      (offload::wrapOpenMPImages) and compiles it to an object in process,
//   4. runs the host link with the original arguments plus that object, or,
//      for `-r`, produces a self-registering relocatable object.
//
//===----------------------------------------------------------------------===//

#include "CommandRunner.h"
#include "DeviceLinkCache.h"
#include "DeviceLinker.h"
#include "InputScanner.h"
#include "RelocatableOutput.h"
#include "TempFiles.h"
#include "WrapperOptions.h"
#include "offload/Transforms/IndirectCallRewriter.h"

#include "offload/Offloading/BinaryWrapper.h"
#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <mutex>
#include <set>

using namespace llvm;
using namespace llvm::object;
using namespace wrapper;

static constexpr StringLiteral ToolName = "clang-linker-wrapper";

namespace {

/// The images of one device link.
struct ImageGroup {
  Triple TheTriple;
  std::string Arch;
  std::vector<const InputImage *> Images;
  std::unique_ptr<DeviceLinker> Linker;
  DeviceLinkJob Job;
};

/// `x86_64-pc-linux-gnu-generic`: a file-name friendly name of a group.
std::string groupStem(const Triple &T, StringRef Arch) {
  std::string Stem = T.str();
  if (!Arch.empty())
    Stem += "-" + Arch.str();
  return Stem;
}

class LinkerWrapper {
public:
  LinkerWrapper(const WrapperConfig &Config, const ToolchainPaths &Paths)
      : Config(Config), Paths(Paths), Runner(Config.Verbose, Config.DryRun),
        Temps(Config.Output, Config.SaveTemps, Config.DryRun) {}

  Error run() {
    Expected<ScanResult> ScanOrErr = InputScanner(Config).scan();
    if (!ScanOrErr)
      return ScanOrErr.takeError();
    Scan = std::move(*ScanOrErr);

    if (Scan.Images.empty()) {
      // Nothing to offload: this is a plain host link.
      if (Error E = checkEntriesHaveImages())
        return E;
      return hostLink(/*WrapperObject=*/"", /*PrivateEntries=*/"");
    }

    if (Error E = groupImages())
      return E;
    if (Error E = checkEntriesHaveImages())
      return E;
    if (Error E = chooseEntryLayout())
      return E;
    if (Error E = linkDevices())
      return E;

    Expected<std::vector<SmallString<0>>> WrappedOrErr = packageImages();
    if (!WrappedOrErr)
      return WrappedOrErr.takeError();
    std::vector<StringRef> Images(WrappedOrErr->begin(), WrappedOrErr->end());

    offload::WrapperOptions Options;
    Options.Layout = Layout;
    std::string EntriesSection = offload::getEntriesSectionName(Layout).str();
    std::string PrivateEntries;
    if (Config.Relocatable) {
      PrivateEntries = getPrivateEntriesSection(EntriesSection, Images);
      Options.EntriesSection = PrivateEntries;
      // Not `.llvm.offloading`: that name (and type) marks device code still
      // to be linked, and these images are linked already.
      Options.ImageSection = ".omp_offloading.images";
    }
    Expected<std::string> WrapperOrErr = emitWrapperObject(Images, Options);
    if (!WrapperOrErr)
      return WrapperOrErr.takeError();
    return hostLink(*WrapperOrErr, PrivateEntries);
  }

private:
  Error groupImages() {
    std::map<std::pair<std::string, std::string>, size_t> Index;
    for (const InputImage &Image : Scan.Images) {
      const OffloadBinary &Binary = *Image.File.getBinary();
      if (Binary.getOffloadKind() != OFK_OpenMP)
        return createStringError(
            Image.Origin + ": its device image for '" + Binary.getTriple() +
            "' is a " + getOffloadKindName(Binary.getOffloadKind()) +
            " image; this wrapper links OpenMP offload code only");
      if (Binary.getImageKind() != IMG_Object &&
          Binary.getImageKind() != IMG_Bitcode)
        return createStringError(Image.Origin + ": its device image for '" +
                                 Binary.getTriple() + "' is of kind '" +
                                 getImageKindName(Binary.getImageKind()) +
                                 "'; expected an object file or LLVM bitcode");
      auto Key =
          std::make_pair(Binary.getTriple().str(), Binary.getArch().str());
      auto [It, Inserted] = Index.try_emplace(Key, Groups.size());
      if (Inserted) {
        Groups.emplace_back();
        Groups.back().TheTriple = Triple(Binary.getTriple());
        Groups.back().Arch = Binary.getArch().str();
      }
      Groups[It->second].Images.push_back(&Image);
    }
    // Every group must have a device link before any work starts.
    for (ImageGroup &Group : Groups) {
      Expected<std::unique_ptr<DeviceLinker>> LinkerOrErr =
          createDeviceLinker(Group.TheTriple, Paths);
      if (!LinkerOrErr)
        return createStringError(toString(LinkerOrErr.takeError()) +
                                 " (image from " +
                                 Group.Images.front()->Origin + ")");
      Group.Linker = std::move(*LinkerOrErr);
      if (std::shared_ptr<DeviceLinkCache> Cache = deviceLinkCache())
        Group.Linker = createCachingDeviceLinker(
            std::move(Group.Linker), Cache, Paths,
            [this](const std::string &Line) { verboseLine(Line); });
    }
    return Error::success();
  }

  /// The device-link cache of this link, or null when it is off or cannot
  /// be used (which is said, and the link goes on uncached).
  std::shared_ptr<DeviceLinkCache> deviceLinkCache() {
    if (CacheOpened)
      return Cache;
    CacheOpened = true;
    DeviceLinkCacheSettings Settings = resolveDeviceLinkCacheSettings(Config);
    if (!Settings.Enabled)
      return nullptr;
    Expected<std::unique_ptr<DeviceLinkCache>> CacheOrErr =
        DeviceLinkCache::open(Settings.Directory, Settings.Policy);
    if (!CacheOrErr) {
      WithColor::warning(errs(), ToolName)
          << "device links are not cached: "
          << toString(CacheOrErr.takeError()) << "\n";
      return nullptr;
    }
    Cache = std::move(*CacheOrErr);
    return Cache;
  }

  void verboseLine(const std::string &Line) {
    if (!Config.Verbose)
      return;
    std::lock_guard<std::mutex> Guard(VerboseLock);
    errs() << ToolName << ": " << Line << "\n";
  }

  /// An object with host entries but no image for a target the program is
  /// built for would fail at run time, when its kernels cannot be found on
  /// that device; say so at link time, naming the object.
  Error checkEntriesHaveImages() {
    std::set<std::string> Triples;
    for (const ImageGroup &Group : Groups)
      Triples.insert(Group.TheTriple.str());
    for (const HostObject &Object : Scan.Objects) {
      if (!Object.HasCurrentEntries && !Object.HasLegacyEntries)
        continue;
      if (Triples.empty())
        return createStringError(
            Object.Origin + ": has OpenMP offload entries but the link has no "
                            "device image at all; was the device code removed "
                            "(e.g. by strip or objcopy)?");
      for (const std::string &T : Triples)
        if (!Object.ImageTriples.count(T))
          return createStringError(
              Object.Origin +
              ": has OpenMP offload entries but no device image "
              "for '" +
              T + "'; compile it with -fopenmp-targets=" + T);
    }
    return Error::success();
  }

  /// The host entries of all objects must share one layout, since one
  /// descriptor covers one table.
  Error chooseEntryLayout() {
    const HostObject *Current = nullptr, *Legacy = nullptr;
    for (const HostObject &Object : Scan.Objects) {
      if (Object.HasCurrentEntries && !Current)
        Current = &Object;
      if (Object.HasLegacyEntries && !Legacy)
        Legacy = &Object;
    }
    if (Current && Legacy)
      return createStringError(
          Legacy->Origin + ": has legacy offload entries (" +
          offload::getEntriesSectionName(offload::EntryLayout::Legacy) +
          ") while " + Current->Origin +
          " has current ones; rebuild it with this compiler");
    Layout =
        Legacy ? offload::EntryLayout::Legacy : offload::EntryLayout::Current;
    return Error::success();
  }

  Error linkDevices() {
    for (ImageGroup &Group : Groups) {
      DeviceLinkJob &Job = Group.Job;
      Job.Triple = Group.TheTriple;
      Job.Arch = Group.Arch;
      std::string Stem = groupStem(Group.TheTriple, Group.Arch);
      bool HasBitcode = false;
      std::vector<bool> IsBitcode;
      for (const InputImage *Image : Group.Images) {
        IsBitcode.push_back(Image->File.getBinary()->getImageKind() ==
                            IMG_Bitcode);
        HasBitcode |= IsBitcode.back();
        Job.InputContents.push_back(Image->File.getBinary()->getImage());
      }
      // The device linkers read files; a cached link writes them only when
      // it misses (Config.SaveTemps keeps them, so they are always written
      // then).
      Job.WriteInputs = [this, Stem, IsBitcode, Contents = Job.InputContents]()
          -> Expected<std::vector<std::string>> {
        std::vector<std::string> Paths;
        for (auto [Index, Bytes] : enumerate(Contents)) {
          Expected<std::string> PathOrErr =
              Temps.write(Stem + "." + std::to_string(Index),
                          IsBitcode[Index] ? "bc" : "o", Bytes);
          if (!PathOrErr)
            return PathOrErr.takeError();
          Paths.push_back(std::move(*PathOrErr));
        }
        return Paths;
      };
      if (!Cache || Config.SaveTemps) {
        Expected<std::vector<std::string>> PathsOrErr = Job.WriteInputs();
        if (!PathsOrErr)
          return PathsOrErr.takeError();
        Job.Inputs = std::move(*PathsOrErr);
        Job.WriteInputs = nullptr;
      }
      // Host function pointers called in device bitcode are translated by
      // the indirect-call pass (docs/IndirectCalls.md) when the program has
      // `declare target indirect` entries.
      SmallString<256> IndirectPlugin(Paths.Prefix);
      sys::path::append(IndirectPlugin, "lib", "OffloadIndirectCalls.so");
      if (HasBitcode && sys::fs::exists(IndirectPlugin) &&
          any_of(Group.Images, [](const InputImage *Image) {
            return offload::deviceImageHasIndirectEntries(MemoryBufferRef(
                Image->File.getBinary()->getImage(), Image->Origin));
          })) {
        Job.PassPlugins.push_back(IndirectPlugin.str().str());
        Job.RequiredSymbols.push_back(offload::IndirectCallLookupName.str());
      }
      Job.LinkerArgs =
          WrapperConfig::forTriple(Config.DeviceLinkerArgs, Group.TheTriple);
      Job.CompilerArgs =
          WrapperConfig::forTriple(Config.DeviceCompilerArgs, Group.TheTriple);
      Job.LLVMArgs = Config.LLVMArgs;
      Expected<std::string> OutputOrErr = Temps.create(Stem, "img");
      if (!OutputOrErr)
        return OutputOrErr.takeError();
      Job.Output = *OutputOrErr;
    }

    // Independent links run side by side; each reports its own failure.
    std::vector<Error> Errors;
    for (size_t I = 0; I < Groups.size(); ++I)
      Errors.push_back(Error::success());
    auto LinkOne = [&](size_t I) {
      Errors[I] = Groups[I].Linker->link(Groups[I].Job, Runner);
    };
    unsigned Width = Config.Jobs
                         ? Config.Jobs
                         : hardware_concurrency().compute_thread_count();
    if (Groups.size() == 1 || Width <= 1) {
      for (size_t I = 0; I < Groups.size(); ++I)
        LinkOne(I);
    } else {
      DefaultThreadPool Pool(hardware_concurrency(Width));
      for (size_t I = 0; I < Groups.size(); ++I)
        Pool.async(LinkOne, I);
      Pool.wait();
    }
    Error All = Error::success();
    for (Error &E : Errors)
      All = joinErrors(std::move(All), std::move(E));
    if (Cache)
      Cache->prune();
    return All;
  }

  /// Puts each linked image into an OffloadBinary of its own, which is what
  /// the program keeps in `.llvm.offloading` for tools to inspect.
  Expected<std::vector<SmallString<0>>> packageImages() {
    std::vector<SmallString<0>> Packaged;
    for (const ImageGroup &Group : Groups) {
      std::unique_ptr<MemoryBuffer> Image;
      if (Config.DryRun) {
        Image = MemoryBuffer::getMemBuffer("", Group.Job.Output);
      } else {
        ErrorOr<std::unique_ptr<MemoryBuffer>> ImageOrErr =
            MemoryBuffer::getFile(Group.Job.Output, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
        if (!ImageOrErr)
          return createStringError("cannot read the linked device image '" +
                                   Group.Job.Output +
                                   "': " + ImageOrErr.getError().message());
        Image = std::move(*ImageOrErr);
      }
      OffloadBinary::OffloadingImage Entry;
      Entry.TheImageKind = IMG_Object;
      Entry.TheOffloadKind = OFK_OpenMP;
      std::string TripleName = Group.TheTriple.str();
      Entry.StringData["triple"] = TripleName;
      Entry.StringData["arch"] = Group.Arch;
      Entry.Image = std::move(Image);
      Packaged.push_back(OffloadBinary::write(Entry));
    }
    return Packaged;
  }

  Expected<std::string>
  emitWrapperObject(ArrayRef<StringRef> Images,
                    const offload::WrapperOptions &Options) {
    LLVMContext Context;
    Module M("offload-registration", Context);
    M.setTargetTriple(Config.HostTriple);
    if (Error E = offload::wrapOpenMPImages(M, Images, Options))
      return std::move(E);
    if (Config.PrintWrappedModule)
      M.print(errs(), nullptr);
    if (Config.DryRun)
      return Temps.create("registration", "o");
    Expected<SmallString<0>> ObjectOrErr = offload::emitObject(M);
    if (!ObjectOrErr)
      return ObjectOrErr.takeError();
    return Temps.write("registration", "o", *ObjectOrErr);
  }

  /// Runs the host linker into a temporary next to the output, then moves
  /// the result into place, so the output is never half written.
  Error hostLink(StringRef WrapperObject, StringRef PrivateEntries) {
    std::string Linked = Config.Output;
    if (!Config.DryRun) {
      SmallString<256> Model(Config.Output);
      Model += ".tmp-%%%%%%";
      SmallString<256> Path;
      sys::fs::createUniquePath(Model, Path, /*MakeAbsolute=*/false);
      Linked = std::string(Path);
      sys::RemoveFileOnSignal(Linked);
    }
    scope_exit RemoveLinked([&] {
      if (Config.DryRun)
        return;
      sys::fs::remove(Linked);
      sys::DontRemoveFileOnSignal(Linked);
    });

    std::vector<std::string> Argv = {Config.LinkerPath};
    Argv.insert(Argv.end(), Config.LinkerArgs.begin(), Config.LinkerArgs.end());
    Argv.push_back("-o");
    Argv.push_back(Linked);
    if (!WrapperObject.empty())
      Argv.push_back(WrapperObject.str());
    if (Error E = Runner.run(Argv, Config.Relocatable ? "relocatable link"
                                                      : "host link"))
      return E;
    if (Config.DryRun)
      return Error::success();

    std::string Final = Linked;
    std::string Rewritten;
    scope_exit RemoveRewritten([&] {
      if (!Rewritten.empty()) {
        sys::fs::remove(Rewritten);
        sys::DontRemoveFileOnSignal(Rewritten);
      }
    });
    if (Config.Relocatable && !PrivateEntries.empty()) {
      Rewritten = Linked + ".r";
      sys::RemoveFileOnSignal(Rewritten);
      if (Error E = finishRelocatableObject(
              Linked, Rewritten, offload::getEntriesSectionName(Layout),
              PrivateEntries))
        return E;
      Final = Rewritten;
    }
    if (std::error_code EC = sys::fs::rename(Final, Config.Output))
      return createStringError("cannot move the linked output to '" +
                               Config.Output + "': " + EC.message());
    return Error::success();
  }

  const WrapperConfig &Config;
  const ToolchainPaths &Paths;
  CommandRunner Runner;
  TempFiles Temps;
  ScanResult Scan;
  std::vector<ImageGroup> Groups;
  offload::EntryLayout Layout = offload::EntryLayout::Current;
  bool CacheOpened = false;
  std::shared_ptr<DeviceLinkCache> Cache;
  std::mutex VerboseLock;
};

/// Anchor for finding our own executable.
void anchor() {}

ToolchainPaths findToolchain(const char *Argv0, const WrapperConfig &Config) {
  ToolchainPaths Paths;
  // getMainExecutable resolves symlinks, so an installed link to the wrapper
  // still finds the prefix it belongs to.
  std::string Self =
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&anchor));
  Paths.Prefix = sys::path::parent_path(sys::path::parent_path(Self)).str();
  Paths.Clang = OFFLOAD_DEVICE_CLANG;
  Paths.LLVMLibDir = OFFLOAD_LLVM_LIBDIR;
  Paths.CudaPath = Config.CudaPath;
  return Paths;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  auto Fail = [](const Twine &Message) {
    WithColor::error(errs(), ToolName) << Message << "\n";
    return 1;
  };

  // clang's driver hands over very long command lines in a response file.
  BumpPtrAllocator Allocator;
  StringSaver Saver(Allocator);
  SmallVector<const char *, 64> Args(Argv + 1, Argv + Argc);
  if (!cl::ExpandResponseFiles(Saver, cl::TokenizeGNUCommandLine, Args))
    return Fail("cannot read a response file (@file) of the command line");

  Expected<WrapperConfig> ConfigOrErr = parseCommandLine(Args);
  if (!ConfigOrErr)
    return Fail(toString(ConfigOrErr.takeError()));
  const WrapperConfig &Config = *ConfigOrErr;
  if (Config.Help) {
    printHelp(outs(), ToolName);
    return 0;
  }
  if (Config.PrintVersion) {
    outs() << ToolName << " (offload toolchain " OFFLOAD_TOOLCHAIN_VERSION
           << ") for LLVM " LLVM_VERSION_STRING "\n";
    // `-v` is also the host linker's version option: with inputs, the link
    // goes on and the linker prints its own version too.
    if (Config.Inputs.empty())
      return 0;
  }
  if (Config.LinkerPath.empty())
    return Fail("no host linker given; pass --linker-path=<path>");

  ToolchainPaths Paths = findToolchain(Argv[0], Config);
  if (Error E = LinkerWrapper(Config, Paths).run())
    return Fail(toString(std::move(E)));
  return 0;
}
