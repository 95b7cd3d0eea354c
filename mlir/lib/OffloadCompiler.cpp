//===- OffloadCompiler.cpp - Compile an MLIR module to a fat object -------===//
//
// The flow of one compilation (include/offload-mlir/OffloadCompiler.h):
// parse the module, translate it for the host, write the host bitcode whose
// offload-info metadata (omp.host_ir_filepath) the device translations read
// so both sides agree on the entries, translate and compile it once per
// offload target, wrap each device image in an OffloadBinary, embed them all
// in the host module's .llvm.offloading section and compile the host
// object. The LLVM-level steps are in TargetCodeGen.cpp.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/OffloadCompiler.h"
#include "TargetCodeGen.h"
#include "offload-mlir/Passes.h"
#include "offload/Offloading/ObjectEmitter.h"
#include "offload/Offloading/OffloadSection.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <string>
#include <vector>

using namespace llvm;

namespace offload::mlir_compiler {

std::string normalizeOffloadTarget(StringRef Name) {
  // Short names as clang accepts them: nvptx64, amdgcn.
  if (Name == "nvptx64")
    return "nvptx64-nvidia-cuda";
  if (Name == "amdgcn")
    return "amdgcn-amd-amdhsa";
  return Triple::normalize(Name);
}

std::string tripleForOffloadArch(StringRef Arch) {
  if (Arch.starts_with("sm_"))
    return "nvptx64-nvidia-cuda";
  if (Arch.starts_with("gfx"))
    return "amdgcn-amd-amdhsa";
  return "";
}

Error resolveOptions(CompilerOptions &Opts) {
  if (Opts.Output.empty()) {
    SmallString<128> Out(sys::path::filename(Opts.Input));
    sys::path::replace_extension(Out, "o");
    Opts.Output = std::string(Out);
  }
  std::vector<std::string> Targets;
  for (const std::string &Name : Opts.Targets) {
    std::string TT = normalizeOffloadTarget(Name);
    if (!llvm::is_contained(Targets, TT))
      Targets.push_back(TT);
  }
  // --offload-arch alone selects the target of its architecture, as clang's.
  for (const std::string &Arch : Opts.Archs) {
    std::string TT = tripleForOffloadArch(Arch);
    if (TT.empty())
      return createStringError("unknown offload architecture '" + Arch +
                               "' (sm_XX or gfxNNN)");
    if (!llvm::is_contained(Targets, TT))
      Targets.push_back(TT);
  }
  Opts.Targets = std::move(Targets);
  if (Opts.Targets.empty())
    return createStringError(
        Twine("no offload target: pass -fopenmp-targets=<triple> or ") +
        "--offload-arch=<arch>");
  for (const std::string &TT : Opts.Targets) {
    Triple T(TT);
    if (!T.isNVPTX() && !T.isAMDGPU() && T.getArch() != Triple::x86_64 &&
        T.getArch() != Triple::aarch64)
      return createStringError("unsupported offload target '" + TT +
                               "' (x86_64-pc-linux-gnu, nvptx64-nvidia-cuda, "
                               "amdgcn-amd-amdhsa)");
    if ((T.isNVPTX() || T.isAMDGPU()) &&
        llvm::none_of(Opts.Archs, [&](const std::string &Arch) {
          return tripleForOffloadArch(Arch) == TT;
        }))
      return createStringError(
          "offload target '" + TT + "' needs an architecture: pass " +
          "--offload-arch=" + (T.isNVPTX() ? "sm_XX" : "gfxNNN"));
  }
  return Error::success();
}

namespace {

Error failure(const Twine &Message) { return createStringError(Message); }

/// One compilation: the host or one device.
struct Target {
  Triple TT;
  std::string Arch; // "generic" for the CPU device; empty for the host.
  bool IsDevice = false;
  bool IsGPU = false;
  std::unique_ptr<TargetMachine> TM;
};

class Driver {
public:
  /// \p Opts are resolved (resolveOptions).
  explicit Driver(const CompilerOptions &Opts)
      : Opts(Opts), Log(Opts.Log ? *Opts.Log : errs()) {}
  Error run();

private:
  const CompilerOptions &Opts;
  raw_ostream &Log;
  mlir::MLIRContext Context;
  SourceMgr SM;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> Diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> Input;
  LLVMContext LLVMCtx;

  /// Registers the dialects and parses the input into Input.
  Error parseInput();
  Expected<std::unique_ptr<Module>> translate(Target &T, StringRef HostIRPath);
  /// The device compilation for \p TripleName, with its architecture.
  Expected<Target> deviceTarget(StringRef TripleName) const;
  /// The offload binary of the device image for \p TripleName.
  Expected<SmallString<0>> compileDevice(StringRef TripleName,
                                         StringRef HostBC);
  /// Embeds \p Binaries in \p HostIR and writes the fat object.
  Error writeObject(Module &HostIR, const Target &Host,
                    ArrayRef<SmallString<0>> Binaries);
  void verbose(const Twine &Message) {
    if (Opts.Verbose)
      Log << Opts.ToolName << ": " << Message << "\n";
  }
};

Expected<std::unique_ptr<Module>> Driver::translate(Target &T,
                                                    StringRef HostIRPath) {
  mlir::OwningOpRef<mlir::ModuleOp> Clone(Input->clone());
  mlir::ModuleOp M = *Clone;
  auto Offload = cast<mlir::omp::OffloadModuleInterface>(M.getOperation());
  Offload.setIsTargetDevice(T.IsDevice);
  Offload.setIsGPU(T.IsGPU);
  if (T.IsDevice) {
    Offload.setHostIRFilePath(HostIRPath.str());
    Offload.setFlags(/*debugKind=*/0, /*assumeTeamsOversubscription=*/false,
                     /*assumeThreadsOversubscription=*/false,
                     /*assumeNoThreadState=*/false,
                     /*assumeNoNestedParallelism=*/false,
                     /*openmpDeviceVersion=*/51, /*noGPULib=*/false);
  } else {
    // What a frontend left for a device compilation of its own would make
    // the host translation read another host file.
    M->removeAttr("omp.host_ir_filepath");
    M->removeAttr("omp.flags");
    Offload.setTargetTriples(Opts.Targets);
  }
  mlir::Builder B(&Context);
  // A data layout specification the frontend made for the host does not
  // describe a GPU; the target's data layout below does.
  if (T.IsGPU)
    M->removeAttr("dlti.dl_spec");
  M->setAttr("llvm.target_triple", B.getStringAttr(T.TT.str()));
  M->setAttr(
      "llvm.data_layout",
      B.getStringAttr(T.TM->createDataLayout().getStringRepresentation()));

  std::string What = T.IsDevice ? "device module for " + T.TT.str() +
                                      (T.IsGPU ? " (" + T.Arch + ")" : "")
                                : "host module";
  verbose("lowering the " + What);
  mlir::PassManager PM(&Context);
  offload::mlir_passes::buildOffloadPipeline(PM);
  if (mlir::failed(PM.run(M)) ||
      mlir::failed(offload::mlir_passes::checkLoweredModule(M)))
    return failure("cannot lower the " + What + " of '" + Opts.Input +
                   "' to the LLVM "
                   "dialect (see the errors above)");

  verbose("translating the " + What + " to LLVM IR");
  // The LLVM dialect lowering puts stack slots in address space 0; AMDGPU
  // wants them in its private address space, so they are moved after the
  // translation, and the module is verified then.
  bool IsAMDGPU = T.TT.isAMDGPU();
  std::unique_ptr<Module> IR = mlir::translateModuleToLLVMIR(
      M, LLVMCtx, Opts.Input, /*disableVerification=*/IsAMDGPU);
  if (!IR)
    return failure("cannot translate the " + What + " of '" + Opts.Input +
                   "' to LLVM IR (see the errors above)");
  IR->setTargetTriple(T.TT);
  IR->setDataLayout(T.TM->createDataLayout());
  if (IsAMDGPU)
    moveAllocasTo(*IR, IR->getDataLayout().getAllocaAddrSpace());
  if (T.IsGPU) {
    for (Function &F : *IR) {
      if (F.isDeclaration())
        continue;
      F.addFnAttr("target-cpu", T.Arch);
    }
  }
  if (Opts.SaveTemps) {
    std::string Name = Opts.Output + "." +
                       (T.IsDevice ? T.TT.str() : std::string("host")) +
                       (T.IsGPU ? "-" + T.Arch : std::string()) + ".ll";
    std::error_code EC;
    raw_fd_ostream Temp(Name, EC, sys::fs::OF_Text);
    if (EC)
      return failure("cannot write '" + Name + "': " + EC.message());
    IR->print(Temp, nullptr);
    verbose("wrote " + Name);
  }
  std::string Message;
  raw_string_ostream OS(Message);
  if (verifyModule(*IR, &OS))
    return failure("the LLVM IR of the " + What + " of '" + Opts.Input +
                   "' is invalid: " + Message);
  return std::move(IR);
}

Error Driver::parseInput() {
  mlir::DialectRegistry Registry;
  Registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::DLTIDialect,
                  mlir::ub::UBDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect, mlir::memref::MemRefDialect,
                  mlir::omp::OpenMPDialect, mlir::scf::SCFDialect>();
  mlir::registerBuiltinDialectTranslation(Registry);
  mlir::registerLLVMDialectTranslation(Registry);
  mlir::registerOpenMPDialectTranslation(Registry);
  Context.appendDialectRegistry(Registry);
  Context.loadAllAvailableDialects();

  std::string Message;
  std::unique_ptr<MemoryBuffer> Buffer =
      mlir::openInputFile(Opts.Input, &Message);
  if (!Buffer)
    return failure("cannot read '" + Opts.Input + "': " + Message);
  SM.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  // Reports errors with file:line:col for the whole compilation.
  Diagnostics =
      std::make_unique<mlir::SourceMgrDiagnosticHandler>(SM, &Context, Log);
  Input = mlir::parseSourceFile<mlir::ModuleOp>(SM, &Context);
  if (!Input)
    return failure("cannot parse '" + Opts.Input + "' (see the errors above)");
  return Error::success();
}

Expected<Target> Driver::deviceTarget(StringRef TripleName) const {
  Target Dev;
  Dev.TT = Triple(TripleName);
  Dev.IsDevice = true;
  Dev.IsGPU = Dev.TT.isNVPTX() || Dev.TT.isAMDGPU();
  if (Dev.IsGPU) {
    for (const std::string &Arch : Opts.Archs)
      if (tripleForOffloadArch(Arch) == TripleName)
        Dev.Arch = Arch;
    if (Dev.Arch.empty())
      return failure("offload target '" + TripleName +
                     "' needs an architecture: pass --offload-arch=" +
                     (Dev.TT.isNVPTX() ? "sm_XX" : "gfxNNN"));
  } else if (Dev.TT.getArch() == Triple::x86_64 ||
             Dev.TT.getArch() == Triple::aarch64) {
    Dev.Arch = "generic";
  } else {
    return failure("unsupported offload target '" + TripleName + "'");
  }
  if (Error E =
          createTargetMachine(Dev.TT, Dev.IsGPU ? Dev.Arch : "", Opts.OptLevel)
              .moveInto(Dev.TM))
    return std::move(E);
  return std::move(Dev);
}

Expected<SmallString<0>> Driver::compileDevice(StringRef TripleName,
                                               StringRef HostBC) {
  Expected<Target> DevOrErr = deviceTarget(TripleName);
  if (!DevOrErr)
    return DevOrErr.takeError();
  Target &Dev = *DevOrErr;
  std::unique_ptr<Module> DevIR;
  if (Error E = translate(Dev, HostBC).moveInto(DevIR))
    return std::move(E);
  verbose("optimizing the device module for " + TripleName);
  optimize(*DevIR, *Dev.TM, Opts.OptLevel);

  object::OffloadBinary::OffloadingImage Image;
  Image.TheOffloadKind = object::OFK_OpenMP;
  Image.StringData["triple"] = TripleName;
  Image.StringData["arch"] = Dev.Arch;
  SmallString<0> Bytes;
  if (Dev.IsGPU) {
    // Bitcode, as clang's -foffload-lto: the wrapper's device link runs
    // LTO with the device runtime, then ptxas/nvlink or lld.
    raw_svector_ostream OS(Bytes);
    WriteBitcodeToFile(*DevIR, OS);
    Image.TheImageKind = object::IMG_Bitcode;
  } else {
    // The CPU device gets a relocatable object, as clang's.
    Expected<SmallString<0>> Obj = offload::emitObject(*DevIR);
    if (!Obj)
      return failure("cannot compile the device module for " + TripleName +
                     ": " + toString(Obj.takeError()));
    Bytes = std::move(*Obj);
    Image.TheImageKind = object::IMG_Object;
  }
  Image.Image =
      MemoryBuffer::getMemBuffer(StringRef(Bytes.data(), Bytes.size()), "",
                                 /*RequiresNullTerminator=*/false);
  SmallString<0> Binary = object::OffloadBinary::write(Image);
  verbose("device image for " + TripleName + " (" + Dev.Arch +
          "): " + Twine(Bytes.size()) + " bytes");
  return std::move(Binary);
}

Error Driver::writeObject(Module &HostIR, const Target &Host,
                          ArrayRef<SmallString<0>> Binaries) {
  for (const SmallString<0> &Binary : Binaries)
    embedBufferInModule(HostIR, MemoryBufferRef(Binary.str(), "offload"),
                        offload::OffloadSectionName,
                        Align(object::OffloadBinary::getAlignment()));
  verbose("optimizing and compiling the host module");
  optimize(HostIR, *Host.TM, Opts.OptLevel);
  Expected<SmallString<0>> HostObj = offload::emitObject(HostIR);
  if (!HostObj)
    return failure("cannot compile the host module: " +
                   toString(HostObj.takeError()));

  std::error_code EC;
  ToolOutputFile Out(Opts.Output, EC, sys::fs::OF_None);
  if (EC)
    return failure("cannot write '" + Opts.Output + "': " + EC.message());
  Out.os() << *HostObj;
  Out.os().close();
  if (Out.os().has_error()) {
    Out.os().clear_error();
    return failure("cannot write '" + Opts.Output + "'");
  }
  Out.keep();
  verbose("wrote " + Opts.Output);
  return Error::success();
}

Error Driver::run() {
  if (Error E = parseInput())
    return E;

  // The host first: the device translations read its offload metadata.
  Target Host;
  Host.TT = Triple(Triple::normalize(sys::getDefaultTargetTriple()));
  if (auto Attr =
          (*Input)->getAttrOfType<mlir::StringAttr>("llvm.target_triple"))
    Host.TT = Triple(Triple::normalize(Attr.getValue()));
  if (Error E =
          createTargetMachine(Host.TT, "", Opts.OptLevel).moveInto(Host.TM))
    return E;
  std::unique_ptr<Module> HostIR;
  if (Error E = translate(Host, "").moveInto(HostIR))
    return E;

  SmallString<128> HostBC;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mlir-offload-host", "bc", HostBC))
    return failure("cannot create a temporary file: " + EC.message());
  // Removed on every return, and on a signal while it exists.
  FileRemover RemoveHostBC(HostBC);
  sys::RemoveFileOnSignal(HostBC);
  llvm::scope_exit ForgetHostBC([&] { sys::DontRemoveFileOnSignal(HostBC); });
  {
    std::error_code EC;
    raw_fd_ostream OS(HostBC, EC, sys::fs::OF_None);
    if (EC)
      return failure("cannot write '" + HostBC + "': " + EC.message());
    WriteBitcodeToFile(*HostIR, OS);
  }

  std::vector<SmallString<0>> Binaries;
  for (const std::string &TripleName : Opts.Targets) {
    Expected<SmallString<0>> Binary = compileDevice(TripleName, HostBC);
    if (!Binary)
      return Binary.takeError();
    Binaries.push_back(std::move(*Binary));
  }
  return writeObject(*HostIR, Host, Binaries);
}

} // namespace

Error compile(const CompilerOptions &Options) {
  CompilerOptions Opts = Options;
  if (Opts.Input.empty())
    return failure("no input file");
  if (Error E = resolveOptions(Opts))
    return E;
  offload::initializeAllTargetsOnce();
  return Driver(Opts).run();
}

} // namespace offload::mlir_compiler
