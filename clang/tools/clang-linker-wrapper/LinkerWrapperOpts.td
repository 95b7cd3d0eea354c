// Options of our clang-linker-wrapper. The command line is the one clang's
// driver builds for the host link: options marked WrapperOnly are ours and
// are consumed; everything else (including options this table does not know)
// is a host-linker option and is passed on to the linker in order.
include "llvm/Option/OptParser.td"

def WrapperOnly : OptionFlag;

def help : Flag<["--", "-"], "help">,
  HelpText<"Display available options">, Flags<[WrapperOnly]>;

// Written by clang's driver.
def host_triple_EQ : Joined<["--"], "host-triple=">, Flags<[WrapperOnly]>,
  MetaVarName<"<triple>">, HelpText<"Triple of the host link">;
def linker_path_EQ : Joined<["--"], "linker-path=">, Flags<[WrapperOnly]>,
  MetaVarName<"<path>">, HelpText<"The host linker to run">;
def device_linker_EQ : Joined<["--"], "device-linker=">, Flags<[WrapperOnly]>,
  MetaVarName<"<arg> or <triple>=<arg>">,
  HelpText<"Pass <arg> to the device link (of <triple> only, if given)">;
def device_compiler_EQ : Joined<["--"], "device-compiler=">,
  Flags<[WrapperOnly]>, MetaVarName<"<arg> or <triple>=<arg>">,
  HelpText<"Pass <arg> to the device compilation (of <triple> only, if given)">;
def should_extract_EQ : Joined<["--"], "should-extract=">, Flags<[WrapperOnly]>,
  MetaVarName<"<arch>">,
  HelpText<"Extract the images of <arch> from archive members even when the "
           "host link does not need the member">;
def wrapper_verbose : Flag<["--"], "wrapper-verbose">, Flags<[WrapperOnly]>,
  HelpText<"Print every command the wrapper runs">;
def save_temps : Flag<["--"], "save-temps">, Flags<[WrapperOnly]>,
  HelpText<"Keep the intermediate files next to the output">;
def cuda_path_EQ : Joined<["--"], "cuda-path=">, Flags<[WrapperOnly]>,
  MetaVarName<"<dir>">, HelpText<"CUDA installation (GPU device links)">;
def mllvm : Separate<["-"], "mllvm">, Flags<[WrapperOnly]>,
  MetaVarName<"<arg>">, HelpText<"Pass <arg> to LLVM in device compilations">;
def offload_opt_EQ : Joined<["--", "-"], "offload-opt=">, Flags<[WrapperOnly]>,
  MetaVarName<"<arg>">, HelpText<"Pass <arg> to LLVM in device compilations">;

// clang passes these for --offload-compress. They concern the fat binaries
// of CUDA/HIP offloading; OpenMP images are wrapped uncompressed, so they are
// accepted and change nothing.
def compress : Flag<["--"], "compress">, Flags<[WrapperOnly, HelpHidden]>;
def compression_level_EQ : Joined<["--"], "compression-level=">,
  Flags<[WrapperOnly, HelpHidden]>;

// Upstream features this wrapper does not have: JIT images
// (-fopenmp-target-jit), CUDA/HIP fat binaries, replacing device images.
// They are recognised so that they fail clearly instead of reaching the
// host linker.
def embed_bitcode : Flag<["--"], "embed-bitcode">,
  Flags<[WrapperOnly, HelpHidden]>;
def emit_fatbin_only : Flag<["--"], "emit-fatbin-only">,
  Flags<[WrapperOnly, HelpHidden]>;
def override_image_EQ : Joined<["--"], "override-image=">,
  Flags<[WrapperOnly, HelpHidden]>;

// Ours to use from the command line.
def dry_run : Flag<["--"], "dry-run">, Flags<[WrapperOnly]>,
  HelpText<"Print the commands without running them">;
def wrapper_jobs_EQ : Joined<["--"], "wrapper-jobs=">, Flags<[WrapperOnly]>,
  MetaVarName<"<n>">, HelpText<"Run up to <n> device links in parallel">;
def wrapper_cache_dir_EQ : Joined<["--"], "wrapper-cache-dir=">,
  Flags<[WrapperOnly]>, MetaVarName<"<dir>">,
  HelpText<"Cache device-link outputs in <dir> (default: "
           "$XDG_CACHE_HOME/offload-toolchain)">;
def no_wrapper_cache : Flag<["--"], "no-wrapper-cache">, Flags<[WrapperOnly]>,
  HelpText<"Do not cache device-link outputs">;
def wrapper_cache_policy_EQ : Joined<["--"], "wrapper-cache-policy=">,
  Flags<[WrapperOnly]>, MetaVarName<"<policy>">,
  HelpText<"Pruning policy of the device-link cache, in LLVM's cache policy "
           "syntax (e.g. cache_size_bytes=1g:prune_after=168h)">;
def print_wrapped_module : Flag<["--"], "print-wrapped-module">,
  Flags<[WrapperOnly]>,
  HelpText<"Print the IR of the generated registration module to stderr">;

// Host-linker options the wrapper also reads; they stay on the host link.
def o : JoinedOrSeparate<["-"], "o">, MetaVarName<"<path>">,
  HelpText<"Output file">;
def output_EQ : Joined<["--"], "output=">, Alias<o>;
def output : Separate<["--"], "output">, Alias<o>;
def library_path : JoinedOrSeparate<["-"], "L">, MetaVarName<"<dir>">,
  HelpText<"Add <dir> to the library search path">;
def library_path_EQ : Joined<["--", "-"], "library-path=">,
  Alias<library_path>;
def library_path_S : Separate<["--", "-"], "library-path">,
  Alias<library_path>;
def library : JoinedOrSeparate<["-"], "l">, MetaVarName<"<name>">,
  HelpText<"Link library <name>">;
def library_EQ : Joined<["--", "-"], "library=">, Alias<library>;
def library_S : Separate<["--", "-"], "library">, Alias<library>;
def sysroot_EQ : Joined<["--"], "sysroot=">, HelpText<"System root">;
def undefined : Separate<["-"], "u">, MetaVarName<"<symbol>">,
  HelpText<"Start with <symbol> undefined">;
def undefined_EQ : Joined<["--"], "undefined=">, Alias<undefined>;
def entry : Separate<["-"], "e">, MetaVarName<"<symbol>">,
  HelpText<"Entry point symbol">;
def entry_EQ : Joined<["--"], "entry=">, Alias<entry>;
def whole_archive : Flag<["--", "-"], "whole-archive">;
def no_whole_archive : Flag<["--", "-"], "no-whole-archive">;
def start_group : Flag<["--", "-"], "start-group">;
def start_group_short : Flag<["-"], "(">, Alias<start_group>;
def end_group : Flag<["--", "-"], "end-group">;
def end_group_short : Flag<["-"], ")">, Alias<end_group>;
def Bstatic : Flag<["-"], "Bstatic">;
def Bdynamic : Flag<["-"], "Bdynamic">;
def static : Flag<["-", "--"], "static">;
def relocatable : Flag<["--", "-"], "relocatable">,
  HelpText<"Device-link and register now, producing a relocatable object">;
def r : Flag<["-"], "r">, Alias<relocatable>;
def v : Flag<["-", "--"], "v">, HelpText<"Print the version">;
def version : Flag<["--", "-"], "version">, Alias<v>;

// Host-linker options whose value is the next argument. The wrapper only
// needs to know them so that the value is not taken for an input file.
class LinkerSeparate<list<string> prefixes, string name>
  : Separate<prefixes, name>, Flags<[HelpHidden]>;
def linker_m : LinkerSeparate<["-"], "m">;
def linker_dynamic_linker : LinkerSeparate<["-", "--"], "dynamic-linker">;
def linker_z : LinkerSeparate<["-"], "z">;
def linker_soname : LinkerSeparate<["-", "--"], "soname">;
def linker_h : LinkerSeparate<["-"], "h">;
def linker_T : LinkerSeparate<["-"], "T">;
def linker_script : LinkerSeparate<["--"], "script">;
def linker_version_script : LinkerSeparate<["--", "-"], "version-script">;
def linker_dynamic_list : LinkerSeparate<["--", "-"], "dynamic-list">;
def linker_rpath : LinkerSeparate<["-", "--"], "rpath">;
def linker_rpath_link : LinkerSeparate<["-", "--"], "rpath-link">;
def linker_Map : LinkerSeparate<["-", "--"], "Map">;
def linker_plugin : LinkerSeparate<["-", "--"], "plugin">;
def linker_plugin_opt : LinkerSeparate<["-", "--"], "plugin-opt">;
def linker_hash_style : LinkerSeparate<["--"], "hash-style">;
def linker_defsym : LinkerSeparate<["--"], "defsym">;
def linker_y : LinkerSeparate<["-"], "y">;
def linker_R : LinkerSeparate<["-"], "R">;
def linker_format : LinkerSeparate<["-", "--"], "format">;
def linker_b : LinkerSeparate<["-"], "b">;
def linker_sort_section : LinkerSeparate<["--"], "sort-section">;
