//===- ObjectEmitter.cpp - Compile an IR module to an object file ---------===//

#include "offload/Offloading/ObjectEmitter.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <memory>
#include <mutex>

using namespace llvm;

namespace offload {

void initializeAllTargetsOnce() {
  static std::once_flag Initialized;
  std::call_once(Initialized, [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
  });
}

Expected<SmallString<0>> emitObject(Module &M) {
  // Every registered target, so a host triple other than this machine's
  // (cross links) works as long as LLVM was built with it.
  initializeAllTargetsOnce();

  std::string VerifierMessages;
  raw_string_ostream VerifierOS(VerifierMessages);
  if (verifyModule(M, &VerifierOS))
    return createStringError(inconvertibleErrorCode(),
                             "generated module '" + M.getName() +
                                 "' is invalid: " + VerifierMessages);

  const Triple &TT = M.getTargetTriple();
  std::string Message;
  const Target *T = TargetRegistry::lookupTarget(TT, Message);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "no code generator for '" + TT.str() +
                                 "': " + Message);
  TargetOptions Options;
  // Constructors go in .init_array(.N) as everywhere on modern ELF systems;
  // the .ctors default would order them differently from the compiler's.
  Options.UseInitArray = true;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, /*CPU=*/"", /*Features=*/"", Options, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Default));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for '" + TT.str() +
                                 "'");
  M.setDataLayout(TM->createDataLayout());

  SmallString<0> Object;
  raw_svector_ostream OS(Object);
  legacy::PassManager Passes;
  if (TM->addPassesToEmitFile(Passes, OS, nullptr, CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "the code generator for '" + TT.str() +
                                 "' cannot emit object files");
  Passes.run(M);
  return std::move(Object);
}

} // namespace offload
