//===- mlir-offload.cpp - Compile an MLIR module to a fat object ----------===//
//
//   mlir-offload -fopenmp-targets=x86_64-pc-linux-gnu[,nvptx64-nvidia-cuda]
//                [--offload-arch=sm_90] -O2 -c kernel.mlir -o kernel.o
//
// The command line of the OffloadMLIR library's compiler
// (include/offload-mlir/OffloadCompiler.h, lib/OffloadCompiler.cpp): this
// file parses the options and prints the error a compilation returns; the
// passes, the host and device translations, the device images and the fat
// object with its .llvm.offloading section are the library's.
//
//===----------------------------------------------------------------------===//

#include "offload-mlir/OffloadCompiler.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <string>

using namespace llvm;
using offload::mlir_compiler::CompilerOptions;

namespace {

const char *ToolName = "mlir-offload";

struct Options : CompilerOptions {
  bool Compile = false; // -c, the only mode.
};

[[noreturn]] void fail(const Twine &Message) {
  errs() << ToolName << ": error: " << Message << "\n";
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
      // Normalized (short names included) and deduplicated by the library.
      for (StringRef Part : Parts)
        Opts.Targets.push_back(Part.str());
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
  // The default output, the targets of the architectures and the checks of
  // the targets are the library's (resolveOptions), before it reads the
  // input.
  return Opts;
}

} // namespace

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  Options Opts = parseOptions(Argc, Argv);
  if (Error E = offload::mlir_compiler::compile(Opts))
    fail(toString(std::move(E)));
  return 0;
}
