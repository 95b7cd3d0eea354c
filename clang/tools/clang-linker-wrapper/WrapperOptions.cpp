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

namespace {

/// Applies \p A when it is one of the wrapper's own options; false when it
/// is not one.
Expected<bool> applyWrapperOption(const Arg &A, WrapperConfig &Config) {
  switch (A.getOption().getID()) {
  case OPT_help:
    Config.Help = true;
    return true;
  case OPT_host_triple_EQ:
    Config.HostTriple = Triple(Triple::normalize(A.getValue()));
    return true;
  case OPT_linker_path_EQ:
    Config.LinkerPath = A.getValue();
    return true;
  case OPT_device_linker_EQ:
    Config.DeviceLinkerArgs.push_back(splitDeviceArg(A.getValue()));
    return true;
  case OPT_device_compiler_EQ:
    Config.DeviceCompilerArgs.push_back(splitDeviceArg(A.getValue()));
    return true;
  case OPT_should_extract_EQ:
    Config.ShouldExtract.push_back(A.getValue());
    return true;
  case OPT_wrapper_verbose:
    Config.Verbose = true;
    return true;
  case OPT_save_temps:
    Config.SaveTemps = true;
    return true;
  case OPT_cuda_path_EQ:
    Config.CudaPath = A.getValue();
    return true;
  case OPT_mllvm:
  case OPT_offload_opt_EQ:
    Config.LLVMArgs.push_back(A.getValue());
    return true;
  case OPT_dry_run:
    Config.DryRun = true;
    return true;
  case OPT_wrapper_jobs_EQ: {
    StringRef Value = A.getValue();
    unsigned Jobs = 0;
    // `jobserver` is what clang passes for make's job server; we have no
    // client for it and fall back to the machine's width.
    if (Value != "jobserver" && (Value.getAsInteger(10, Jobs) || Jobs == 0))
      return parseError("--wrapper-jobs= expects a positive number, not '" +
                        Value + "'");
    Config.Jobs = Jobs;
    return true;
  }
  case OPT_wrapper_cache_dir_EQ:
    Config.CacheDir = A.getValue();
    return true;
  case OPT_no_wrapper_cache:
    Config.UseCache = false;
    return true;
  case OPT_wrapper_cache_policy_EQ:
    Config.CachePolicy = A.getValue();
    return true;
  case OPT_print_wrapped_module:
    Config.PrintWrappedModule = true;
    return true;
  default:
    return false;
  }
}

/// Applies \p A when it is a host-link option the wrapper reads too (the
/// inputs, the output, search paths); false when it is not one.
bool applyLinkOption(const Arg &A, WrapperConfig &Config) {
  switch (A.getOption().getID()) {
  case OPT_o:
    Config.Output = A.getValue();
    return true;
  case OPT_library_path:
    Config.LibraryPaths.push_back(A.getValue());
    return true;
  case OPT_library:
    Config.Inputs.push_back({LinkInput::Library, A.getValue()});
    return true;
  case OPT_sysroot_EQ:
    Config.Sysroot = A.getValue();
    return true;
  case OPT_undefined:
  case OPT_entry:
    Config.UndefinedSymbols.push_back(A.getValue());
    return true;
  case OPT_whole_archive:
    Config.Inputs.push_back({LinkInput::WholeArchiveOn, ""});
    return true;
  case OPT_no_whole_archive:
    Config.Inputs.push_back({LinkInput::WholeArchiveOff, ""});
    return true;
  case OPT_start_group:
    Config.Inputs.push_back({LinkInput::GroupStart, ""});
    return true;
  case OPT_end_group:
    Config.Inputs.push_back({LinkInput::GroupEnd, ""});
    return true;
  case OPT_Bstatic:
  case OPT_static:
    Config.Inputs.push_back({LinkInput::StaticOn, ""});
    return true;
  case OPT_Bdynamic:
    Config.Inputs.push_back({LinkInput::StaticOff, ""});
    return true;
  case OPT_relocatable:
    Config.Relocatable = true;
    return true;
  case OPT_v:
    Config.PrintVersion = true;
    return true;
  case OPT_INPUT:
    Config.Inputs.push_back({LinkInput::File, A.getValue()});
    return true;
  default:
    return false;
  }
}

/// Refuses the options upstream's wrapper has and ours does not, and
/// misspelt wrapper options; everything else goes to the host linker.
Error checkOtherOption(const Arg &A, const InputArgList &Args) {
  switch (A.getOption().getID()) {
  case OPT_embed_bitcode:
  case OPT_emit_fatbin_only:
  case OPT_override_image_EQ:
    return parseError(Twine("option '") + A.getSpelling() +
                      "' is not supported by this clang-linker-wrapper "
                      "(JIT images and CUDA/HIP fat binaries are not "
                      "implemented)");
  case OPT_UNKNOWN:
    // Unknown options belong to the host linker, which reports the ones
    // it does not know either. Only our own namespace is checked here, so
    // a misspelt wrapper option is not silently handed to the linker.
    if (StringRef(A.getSpelling()).starts_with("--wrapper-"))
      return parseError(Twine("unknown wrapper option '") +
                        A.getAsString(Args) + "'");
    return Error::success();
  default:
    return Error::success();
  }
}

} // namespace

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
    Expected<bool> Applied = applyWrapperOption(*A, Config);
    if (!Applied)
      return Applied.takeError();
    if (!*Applied && !applyLinkOption(*A, Config))
      if (Error E = checkOtherOption(*A, Args))
        return std::move(E);
    const Option &O = A->getOption();
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
