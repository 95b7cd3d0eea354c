//===- WrapperOptions.cpp - Command line of clang-linker-wrapper ----------===//

#include "WrapperOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;
using namespace llvm::opt;

namespace wrapper {
namespace {

/// Option flags of LinkerWrapperOpts.td, after LLVM's own DriverFlag bits.
enum WrapperFlags { WrapperOnly = 1 << 4 };

enum ID {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "LinkerWrapperOpts.inc"
#undef OPTION
};

#define OPTTABLE_STR_TABLE_CODE
#include "LinkerWrapperOpts.inc"
#undef OPTTABLE_STR_TABLE_CODE

#define OPTTABLE_PREFIXES_TABLE_CODE
#include "LinkerWrapperOpts.inc"
#undef OPTTABLE_PREFIXES_TABLE_CODE

static constexpr OptTable::Info InfoTable[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "LinkerWrapperOpts.inc"
#undef OPTION
};

class WrapperOptTable : public GenericOptTable {
public:
  WrapperOptTable()
      : GenericOptTable(OptionStrTable, OptionPrefixesTable, InfoTable) {}
};

const WrapperOptTable &getOptTable() {
  static const WrapperOptTable Table;
  return Table;
}

/// Splits `<triple>=<value>` from a plain `<value>`. A value may contain `=`
/// itself (`--device-linker=--defsym=a=1`), so the prefix only counts as a
/// triple when it parses as one.
DeviceArg splitDeviceArg(StringRef Text) {
  auto [Prefix, Rest] = Text.split('=');
  if (!Rest.empty() || Text.contains('=')) {
    if (!Prefix.empty() && !Prefix.starts_with("-") &&
        Triple(Prefix).getArch() != Triple::UnknownArch)
      return {Triple::normalize(Prefix), Rest.str()};
  }
  return {"", Text.str()};
}

Error parseError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

} // namespace

std::vector<std::string> WrapperConfig::forTriple(ArrayRef<DeviceArg> Args,
                                                  const Triple &T) {
  std::vector<std::string> Values;
  for (const DeviceArg &A : Args)
    if (A.Triple.empty() || Triple(A.Triple) == T)
      Values.push_back(A.Value);
  return Values;
}

Expected<WrapperConfig> parseCommandLine(ArrayRef<const char *> Argv) {
  const WrapperOptTable &Table = getOptTable();
  unsigned MissingIndex = 0, MissingCount = 0;
  InputArgList Args = Table.ParseArgs(Argv, MissingIndex, MissingCount);
  if (MissingCount)
    return parseError(Twine("option '") + Args.getArgString(MissingIndex) +
                      "' needs a value");

  WrapperConfig Config;
  ArgStringList Rendered;
  Config.HostTriple = Triple(sys::getDefaultTargetTriple());
  for (const Arg *A : Args) {
    const Option &O = A->getOption();
    switch (O.getID()) {
    case OPT_help:
      Config.Help = true;
      break;
    case OPT_host_triple_EQ:
      Config.HostTriple = Triple(Triple::normalize(A->getValue()));
      break;
    case OPT_linker_path_EQ:
      Config.LinkerPath = A->getValue();
      break;
    case OPT_device_linker_EQ:
      Config.DeviceLinkerArgs.push_back(splitDeviceArg(A->getValue()));
      break;
    case OPT_device_compiler_EQ:
      Config.DeviceCompilerArgs.push_back(splitDeviceArg(A->getValue()));
      break;
    case OPT_should_extract_EQ:
      Config.ShouldExtract.push_back(A->getValue());
      break;
    case OPT_wrapper_verbose:
      Config.Verbose = true;
      break;
    case OPT_save_temps:
      Config.SaveTemps = true;
      break;
    case OPT_cuda_path_EQ:
      Config.CudaPath = A->getValue();
      break;
    case OPT_mllvm:
    case OPT_offload_opt_EQ:
      Config.LLVMArgs.push_back(A->getValue());
      break;
    case OPT_dry_run:
      Config.DryRun = true;
      break;
    case OPT_wrapper_jobs_EQ: {
      StringRef Value = A->getValue();
      unsigned Jobs = 0;
      // `jobserver` is what clang passes for make's job server; we have no
      // client for it and fall back to the machine's width.
      if (Value != "jobserver" && (Value.getAsInteger(10, Jobs) || Jobs == 0))
        return parseError("--wrapper-jobs= expects a positive number, not '" +
                          Value + "'");
      Config.Jobs = Jobs;
      break;
    }
    case OPT_wrapper_cache_dir_EQ:
      Config.CacheDir = A->getValue();
      break;
    case OPT_no_wrapper_cache:
      Config.UseCache = false;
      break;
    case OPT_wrapper_cache_policy_EQ:
      Config.CachePolicy = A->getValue();
      break;
    case OPT_print_wrapped_module:
      Config.PrintWrappedModule = true;
      break;
    case OPT_o:
      Config.Output = A->getValue();
      break;
    case OPT_library_path:
      Config.LibraryPaths.push_back(A->getValue());
      break;
    case OPT_library:
      Config.Inputs.push_back({LinkInput::Library, A->getValue()});
      break;
    case OPT_sysroot_EQ:
      Config.Sysroot = A->getValue();
      break;
    case OPT_undefined:
    case OPT_entry:
      Config.UndefinedSymbols.push_back(A->getValue());
      break;
    case OPT_whole_archive:
      Config.Inputs.push_back({LinkInput::WholeArchiveOn, ""});
      break;
    case OPT_no_whole_archive:
      Config.Inputs.push_back({LinkInput::WholeArchiveOff, ""});
      break;
    case OPT_start_group:
      Config.Inputs.push_back({LinkInput::GroupStart, ""});
      break;
    case OPT_end_group:
      Config.Inputs.push_back({LinkInput::GroupEnd, ""});
      break;
    case OPT_Bstatic:
    case OPT_static:
      Config.Inputs.push_back({LinkInput::StaticOn, ""});
      break;
    case OPT_Bdynamic:
      Config.Inputs.push_back({LinkInput::StaticOff, ""});
      break;
    case OPT_relocatable:
      Config.Relocatable = true;
      break;
    case OPT_v:
      Config.PrintVersion = true;
      break;
    case OPT_embed_bitcode:
    case OPT_emit_fatbin_only:
    case OPT_override_image_EQ:
      return parseError(Twine("option '") + A->getSpelling() +
                        "' is not supported by this clang-linker-wrapper "
                        "(JIT images and CUDA/HIP fat binaries are not "
                        "implemented)");
    case OPT_INPUT:
      Config.Inputs.push_back({LinkInput::File, A->getValue()});
      break;
    case OPT_UNKNOWN:
      // Unknown options belong to the host linker, which reports the ones
      // it does not know either. Only our own namespace is checked here, so
      // a misspelt wrapper option is not silently handed to the linker.
      if (StringRef(A->getSpelling()).starts_with("--wrapper-"))
        return parseError(Twine("unknown wrapper option '") +
                          A->getAsString(Args) + "'");
      break;
    default:
      break;
    }
    if (O.hasFlag(WrapperOnly) || O.getID() == OPT_o)
      continue;
    A->render(Args, Rendered);
  }
  // The rendered strings live in Args; copy them before it goes away.
  Config.LinkerArgs.assign(Rendered.begin(), Rendered.end());
  return Config;
}

void printHelp(raw_ostream &OS, StringRef ProgramName) {
  std::string Usage =
      (ProgramName + " [options] <host linker arguments>").str();
  getOptTable().printHelp(
      OS, Usage.c_str(),
      "Offload toolchain linker wrapper: links the device images embedded "
      "in the\ninputs, registers them with the offload runtime and runs the "
      "host link.\nArguments that are not the wrapper's own go to the host "
      "linker unchanged.",
      /*ShowHidden=*/false, /*ShowAllAliases=*/false);
}

} // namespace wrapper
