//===- mlir-offload.cpp - Compile an MLIR module to a fat object ----------===//
//
//   mlir-offload -fopenmp-targets=x86_64-pc-linux-gnu[,nvptx64-nvidia-cuda]
//                [--offload-arch=sm_90] -O2 -c kernel.mlir -o kernel.o
//
// Runs our passes (omp-offload-*), lowers the module to the LLVM dialect and
// translates it with MLIR's OpenMP translation, once for the host and once
// per offload target; the device translations read the host module's
// offload-info metadata (omp.host_ir_filepath) so both sides agree on the
// entries. Each device module is compiled as clang's driver does for an
// offload compilation (an object for the CPU device, bitcode for the GPUs)
// and wrapped in an OffloadBinary; the host object carries them all in its
// .llvm.offloading section. Our clang-linker-wrapper links the result.
//
//===----------------------------------------------------------------------===//

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

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace {

const char *ToolName = "mlir-offload";

/// The host bitcode written for the device translations; removed on exit,
/// failures included.
SmallString<128> HostBitcodePath;

struct Options {
  std::string Input;
  std::string Output;
  std::vector<std::string> Triples;
  std::vector<std::string> Archs;
  unsigned OptLevel = 2;
  bool Compile = false;
  bool Verbose = false;
  bool SaveTemps = false;
};

[[noreturn]] void fail(const Twine &Message) {
  errs() << ToolName << ": error: " << Message << "\n";
  if (!HostBitcodePath.empty())
    sys::fs::remove(HostBitcodePath);
  exit(1);
}

void printHelp() {
  outs() << "OVERVIEW: compile an MLIR module with OpenMP offload regions into "
            "a fat host object\n\n"
            "USAGE: mlir-offload -fopenmp-targets=<triple>[,<triple>...] "
            "[--offload-arch=<arch>]... [-O<n>] -c <input.mlir> -o "
            "<output.o>\n\n"
            "OPTIONS:\n"
            "  -fopenmp-targets=<triples>  offload targets: "
            "x86_64-pc-linux-gnu, nvptx64-nvidia-cuda, amdgcn-amd-amdhsa\n"
            "  --offload-arch=<arch>       GPU architecture (sm_XX, gfxNNN); "
            "adds its target if -fopenmp-targets does not name it\n"
            "  -O0 -O1 -O2 -O3             optimization level (default -O2)\n"
            "  -c                          compile only (the only mode)\n"
            "  -o <file>                   output object\n"
            "  -v                          print each step\n"
            "  -save-temps                 keep the LLVM IR of each "
            "compilation next to the output\n"
            "                              (<output>.host.ll, "
            "<output>.<triple>[-<arch>].ll)\n"
            "See docs/MLIR.md.\n";
}

std::string tripleForArch(StringRef Arch) {
  if (Arch.starts_with("sm_"))
    return "nvptx64-nvidia-cuda";
  if (Arch.starts_with("gfx"))
    return "amdgcn-amd-amdhsa";
  return "";
}

Options parseOptions(int Argc, char **Argv) {
  Options Opts;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    auto Value = [&](StringRef Flag) -> std::optional<StringRef> {
      if (Arg == Flag) {
        if (I + 1 >= Argc)
          fail("missing value after '" + Flag + "'");
        return StringRef(Argv[++I]);
      }
      if (Arg.consume_front(Flag) && Arg.consume_front("="))
        return Arg;
      Arg = Argv[I];
      return std::nullopt;
    };
    if (Arg == "-h" || Arg == "--help" || Arg == "-help") {
      printHelp();
      exit(0);
    }
    if (Arg == "-c") {
      Opts.Compile = true;
    } else if (Arg == "-v") {
      Opts.Verbose = true;
    } else if (Arg == "-save-temps" || Arg == "--save-temps") {
      Opts.SaveTemps = true;
    } else if (Arg == "-fopenmp") {
      // Accepted for symmetry with clang; offload is always on.
    } else if (Arg == "-o") {
      if (I + 1 >= Argc)
        fail("missing file name after '-o'");
      Opts.Output = Argv[++I];
    } else if (Arg.starts_with("-o") && Arg.size() > 2) {
      Opts.Output = Arg.drop_front(2).str();
    } else if (Arg.size() == 3 && Arg.starts_with("-O") && Arg[2] >= '0' &&
               Arg[2] <= '3') {
      Opts.OptLevel = Arg[2] - '0';
    } else if (Arg == "-O") {
      Opts.OptLevel = 2;
    } else if (auto Targets = Value("-fopenmp-targets")) {
      SmallVector<StringRef> Parts;
      Targets->split(Parts, ',', -1, /*KeepEmpty=*/false);
      for (StringRef Part : Parts) {
        // Short names as clang accepts them: nvptx64, amdgcn.
        std::string TT = Triple::normalize(Part);
        if (Part == "nvptx64")
          TT = "nvptx64-nvidia-cuda";
        else if (Part == "amdgcn")
          TT = "amdgcn-amd-amdhsa";
        if (!llvm::is_contained(Opts.Triples, TT))
          Opts.Triples.push_back(TT);
      }
    } else if (auto Arch = Value("--offload-arch")) {
      Opts.Archs.push_back(Arch->str());
    } else if (auto Arch = Value("-offload-arch")) {
      Opts.Archs.push_back(Arch->str());
    } else if (Arg.starts_with("-") && Arg != "-") {
      fail("unknown option '" + Arg + "' (see --help)");
    } else if (!Opts.Input.empty()) {
      fail("more than one input file ('" + Opts.Input + "' and '" + Arg + "')");
    } else {
      Opts.Input = Arg.str();
    }
  }
  if (Opts.Input.empty())
    fail("no input file (see --help)");
  if (!Opts.Compile)
    fail("only compilation to an object (-c) is supported; link the object "
         "with clang, clang++ or flang from the same prefix");
  if (Opts.Output.empty()) {
    SmallString<128> Out(sys::path::filename(Opts.Input));
    sys::path::replace_extension(Out, "o");
    Opts.Output = std::string(Out);
  }
  // --offload-arch alone selects the target of its architecture, as clang's.
  for (const std::string &Arch : Opts.Archs) {
    std::string TT = tripleForArch(Arch);
    if (TT.empty())
      fail("unknown offload architecture '" + Arch + "' (sm_XX or gfxNNN)");
    if (!llvm::is_contained(Opts.Triples, TT))
      Opts.Triples.push_back(TT);
  }
  if (Opts.Triples.empty())
    fail("no offload target: pass -fopenmp-targets=<triple> or "
         "--offload-arch=<arch>");
  for (const std::string &TT : Opts.Triples) {
    Triple T(TT);
    if (!T.isNVPTX() && !T.isAMDGPU() && T.getArch() != Triple::x86_64 &&
        T.getArch() != Triple::aarch64)
      fail("unsupported offload target '" + TT +
           "' (x86_64-pc-linux-gnu, nvptx64-nvidia-cuda, amdgcn-amd-amdhsa)");
    if ((T.isNVPTX() || T.isAMDGPU()) &&
        llvm::none_of(Opts.Archs, [&](const std::string &Arch) {
          return tripleForArch(Arch) == TT;
        }))
      fail("offload target '" + TT + "' needs an architecture: pass " +
           "--offload-arch=" + (T.isNVPTX() ? "sm_XX" : "gfxNNN"));
  }
  return Opts;
}

/// One compilation: the host or one device.
struct Target {
  Triple TT;
  std::string Arch; // "generic" for the CPU device; empty for the host.
  bool IsDevice = false;
  bool IsGPU = false;
  std::unique_ptr<TargetMachine> TM;
};

std::unique_ptr<TargetMachine>
createTargetMachine(const Triple &TT, StringRef CPU, unsigned OptLevel) {
  std::string Message;
  const llvm::Target *T = TargetRegistry::lookupTarget(TT, Message);
  if (!T)
    fail("no code generator for '" + TT.str() + "': " + Message);
  TargetOptions Options;
  Options.UseInitArray = true;
  CodeGenOptLevel Level = OptLevel == 0   ? CodeGenOptLevel::None
                          : OptLevel == 1 ? CodeGenOptLevel::Less
                          : OptLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, CPU, /*Features=*/"", Options, Reloc::PIC_, std::nullopt, Level));
  if (!TM)
    fail("cannot create a target machine for '" + TT.str() + "'");
  return TM;
}

void optimize(Module &M, TargetMachine &TM, unsigned OptLevel) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  OptimizationLevel Level = OptLevel == 0   ? OptimizationLevel::O0
                            : OptLevel == 1 ? OptimizationLevel::O1
                            : OptLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager MPM = OptLevel == 0
                              ? PB.buildO0DefaultPipeline(Level)
                              : PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

/// Moves every stack allocation of \p M into \p AddrSpace; its users see
/// the generic pointer they had through an address space cast.
void moveAllocasTo(Module &M, unsigned AddrSpace) {
  SmallVector<AllocaInst *> Allocas;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (AI->getAddressSpace() != AddrSpace)
          Allocas.push_back(AI);
  for (AllocaInst *AI : Allocas) {
    IRBuilder<> B(AI);
    AllocaInst *Moved =
        B.CreateAlloca(AI->getAllocatedType(), AddrSpace, AI->getArraySize());
    Moved->setAlignment(AI->getAlign());
    Moved->takeName(AI);
    Value *Generic = B.CreateAddrSpaceCast(Moved, AI->getType());
    AI->replaceAllUsesWith(Generic);
    AI->eraseFromParent();
  }
}

class Driver {
public:
  explicit Driver(const Options &Opts) : Opts(Opts) {}
  int run();

private:
  const Options &Opts;
  mlir::MLIRContext Context;
  mlir::OwningOpRef<mlir::ModuleOp> Input;
  LLVMContext LLVMCtx;

  std::unique_ptr<Module> translate(Target &T, StringRef HostIRPath);
  void verbose(const Twine &Message) {
    if (Opts.Verbose)
      errs() << ToolName << ": " << Message << "\n";
  }
};

std::unique_ptr<Module> Driver::translate(Target &T, StringRef HostIRPath) {
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
    Offload.setTargetTriples(Opts.Triples);
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
    fail("cannot lower the " + What + " of '" + Opts.Input +
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
    fail("cannot translate the " + What + " of '" + Opts.Input +
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
      fail("cannot write '" + Name + "': " + EC.message());
    IR->print(Temp, nullptr);
    verbose("wrote " + Name);
  }
  std::string Message;
  raw_string_ostream OS(Message);
  if (verifyModule(*IR, &OS))
    fail("the LLVM IR of the " + What + " of '" + Opts.Input +
         "' is invalid: " + Message);
  return IR;
}

int Driver::run() {
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
    fail("cannot read '" + Opts.Input + "': " + Message);
  SourceMgr SM;
  SM.AddNewSourceBuffer(std::move(Buffer), SMLoc());
  mlir::SourceMgrDiagnosticHandler Diagnostics(SM, &Context);
  Input = mlir::parseSourceFile<mlir::ModuleOp>(SM, &Context);
  if (!Input)
    fail("cannot parse '" + Opts.Input + "' (see the errors above)");

  // The host first: the device translations read its offload metadata.
  Target Host;
  Host.TT = Triple(Triple::normalize(sys::getDefaultTargetTriple()));
  if (auto Attr =
          (*Input)->getAttrOfType<mlir::StringAttr>("llvm.target_triple"))
    Host.TT = Triple(Triple::normalize(Attr.getValue()));
  Host.TM = createTargetMachine(Host.TT, "", Opts.OptLevel);
  std::unique_ptr<Module> HostIR = translate(Host, "");

  SmallString<128> &HostBC = HostBitcodePath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("mlir-offload-host", "bc", HostBC))
    fail("cannot create a temporary file: " + EC.message());
  FileRemover RemoveHostBC(HostBC);
  sys::RemoveFileOnSignal(HostBC);
  {
    std::error_code EC;
    raw_fd_ostream OS(HostBC, EC, sys::fs::OF_None);
    if (EC)
      fail("cannot write '" + HostBC + "': " + EC.message());
    WriteBitcodeToFile(*HostIR, OS);
  }

  std::vector<SmallString<0>> Binaries;
  for (const std::string &TripleName : Opts.Triples) {
    Target Dev;
    Dev.TT = Triple(TripleName);
    Dev.IsDevice = true;
    Dev.IsGPU = Dev.TT.isNVPTX() || Dev.TT.isAMDGPU();
    if (Dev.IsGPU) {
      for (const std::string &Arch : Opts.Archs)
        if (tripleForArch(Arch) == TripleName)
          Dev.Arch = Arch;
      if (Dev.Arch.empty())
        fail("offload target '" + TripleName +
             "' needs an architecture: pass --offload-arch=" +
             (Dev.TT.isNVPTX() ? "sm_XX" : "gfxNNN"));
    } else if (Dev.TT.getArch() == Triple::x86_64 ||
               Dev.TT.getArch() == Triple::aarch64) {
      Dev.Arch = "generic";
    } else {
      fail("unsupported offload target '" + TripleName + "'");
    }
    Dev.TM =
        createTargetMachine(Dev.TT, Dev.IsGPU ? Dev.Arch : "", Opts.OptLevel);
    std::unique_ptr<Module> DevIR = translate(Dev, HostBC);
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
        fail("cannot compile the device module for " + TripleName + ": " +
             toString(Obj.takeError()));
      Bytes = std::move(*Obj);
      Image.TheImageKind = object::IMG_Object;
    }
    std::unique_ptr<MemoryBuffer> ImageBuffer =
        MemoryBuffer::getMemBuffer(StringRef(Bytes.data(), Bytes.size()), "",
                                   /*RequiresNullTerminator=*/false);
    Image.Image = std::move(ImageBuffer);
    Binaries.push_back(object::OffloadBinary::write(Image));
    verbose("device image for " + TripleName + " (" + Dev.Arch +
            "): " + Twine(Bytes.size()) + " bytes");
  }

  for (const SmallString<0> &Binary : Binaries)
    embedBufferInModule(*HostIR, MemoryBufferRef(Binary.str(), "offload"),
                        offload::OffloadSectionName,
                        Align(object::OffloadBinary::getAlignment()));
  verbose("optimizing and compiling the host module");
  optimize(*HostIR, *Host.TM, Opts.OptLevel);
  Expected<SmallString<0>> HostObj = offload::emitObject(*HostIR);
  if (!HostObj)
    fail("cannot compile the host module: " + toString(HostObj.takeError()));

  std::error_code EC;
  ToolOutputFile Out(Opts.Output, EC, sys::fs::OF_None);
  if (EC)
    fail("cannot write '" + Opts.Output + "': " + EC.message());
  Out.os() << *HostObj;
  Out.os().close();
  if (Out.os().has_error())
    fail("cannot write '" + Opts.Output + "'");
  Out.keep();
  verbose("wrote " + Opts.Output);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  Options Opts = parseOptions(Argc, Argv);
  Driver D(Opts);
  return D.run();
}
