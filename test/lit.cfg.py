# lit configuration of the offload toolchain's tests.
#
# Substitutions:
#   %clang %clangxx %flang       the shims of the prefix under test
#   %upstream-clang(xx) %upstream-flang
#                                Debian's drivers, linking Debian's libomptarget
#   %prefix                      the prefix under test (bin/, lib/)
#   %run                         runs a built program (under a hang guard)
#   %hang-guard SECONDS          runs a command under scripts/hang-guard.sh
#   %upstream-run                runs a program on Debian's libomptarget
#   %ours-run                    runs a program on our libomptarget
#   %target-cpu                  the CPU offload triple
#   %llvm-libdir                 Debian's LLVM library directory (libomp)
import os
import shutil

import lit.formats

config.name = "offload-toolchain"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".f90", ".F90", ".ll", ".test", ".s"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.offload_obj_root, "test")

prefix = config.offload_prefix
bindir = os.path.join(prefix, "bin")
libdir = os.path.join(prefix, "lib")

# Debian's LLVM tools (FileCheck, not, llvm-objdump...) by their plain names.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bindir, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR", "OMP_NUM_THREADS", "OFFLOAD_TEST_TIMEOUT_SCALE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The wrapper's device-link cache is off in the suites: a link that hits it
# runs no device-link command, and tests check those commands. The cache's
# own tests turn it on (OFFLOAD_WRAPPER_CACHE=1) with directories of their
# own; nothing is ever written to the user's ~/.cache.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "cache")
config.environment["OFFLOAD_WRAPPER_CACHE"] = "0"
# `--param wrapper_cache=on` (or OFFLOAD_TEST_WRAPPER_CACHE=on): the cache on,
# as users get it, in a directory of this run's own, emptied first (ctest's
# `lit-e2e-wrapper-cache` runs test/e2e so; docs/Testing.md).
if lit_config.params.get("wrapper_cache",
                         os.environ.get("OFFLOAD_TEST_WRAPPER_CACHE",
                                        "")) in ("on", "1"):
    cache_home = os.path.join(config.test_exec_root, "wrapper-cache-on")
    shutil.rmtree(cache_home, ignore_errors=True)
    config.environment["XDG_CACHE_HOME"] = cache_home
    config.environment["OFFLOAD_WRAPPER_CACHE"] = "1"
# Tests choose the runtime explicitly; never inherit one from the caller.
for var in list(config.environment):
    if var.startswith(("LIBOMPTARGET_", "OMP_", "LD_LIBRARY_PATH")):
        del config.environment[var]

cpu_triple = "x86_64-pc-linux-gnu"
upstream_link = "-L{0} -Wl,-rpath,{1}".format(config.upstream_libdir,
                                             config.llvm_libdir)
ld_ours = "env LD_LIBRARY_PATH={0}".format(libdir)
ld_upstream = "env LD_LIBRARY_PATH={0}".format(config.llvm_libdir)
# Every program a test runs, and every step that could hang, runs under
# scripts/hang-guard.sh: a limit many times the normal duration (the
# programs take seconds), stretched by OFFLOAD_TEST_TIMEOUT_SCALE and by the
# machine's load, which says "hang guard fired" when it kills. No test
# judges how long anything took. `%hang-guard <seconds>` is the same guard
# for a RUN line that needs another limit.
hang_guard = os.path.join(config.offload_src_root, "scripts", "hang-guard.sh")
timeout = hang_guard + " 300"

# Sanitizer runs (scripts/sanitize.sh, docs/Testing.md): `--param
# sanitizer=thread|address` (or OFFLOAD_TEST_SANITIZER) tests a prefix whose
# runtime is instrumented. Its libraries leave the sanitizer runtime's symbols
# to the executable, so every test program is compiled and linked with the
# same -fsanitize. flang-22 has no -fsanitize, so %flang and %upstream-flang
# link the runtime archives the way clang's driver does (their programs are
# not instrumented themselves); %sanitizer-link-flags holds those link
# options for the RUN lines that call a driver by its path (empty without a
# sanitizer).
# Features: `tsan` or `asan` (asan means address+undefined) and `sanitizer`,
# for the few tests that cannot run under one (each says why).
sanitizer = lit_config.params.get(
    "sanitizer", os.environ.get("OFFLOAD_TEST_SANITIZER", ""))
sanitize_c = ""
sanitize_link = ""
if sanitizer:
    rt_dir = os.path.join(os.path.dirname(config.llvm_bindir), "lib", "clang",
                          getattr(config, "llvm_version_major", "22"), "lib",
                          "linux")
    if sanitizer == "thread":
        sanitize_c = "-fsanitize=thread"
        runtimes = ["tsan", "tsan_cxx"]
        config.available_features.add("tsan")
    elif sanitizer == "address":
        # clang-22 crashes generating the host code of declare mappers with
        # -fsanitize=alignment, and of use_device_addr with array-bounds or
        # pointer-overflow ("Invalid instruction with no BB"), so the test
        # programs go without those three checks; the runtime keeps them.
        sanitize_c = "-fsanitize=address,undefined " \
            "-fno-sanitize=alignment,array-bounds,pointer-overflow " \
            "-fno-sanitize-recover=undefined"
        runtimes = ["asan_static", "asan", "asan_cxx"]
        config.available_features.add("asan")
    else:
        lit_config.fatal("sanitizer must be thread or address, not " +
                         repr(sanitizer))
    config.available_features.add("sanitizer")
    sanitize_c += " -fno-omit-frame-pointer"
    archives = [os.path.join(rt_dir, "libclang_rt.{0}-x86_64.a".format(rt))
                for rt in runtimes]
    symbol_lists = ["--dynamic-list=" + archive + ".syms"
                    for archive in archives if os.path.exists(archive + ".syms")]
    sanitize_link = "-Wl," + ",".join(
        ["--whole-archive"] + archives + ["--no-whole-archive"] +
        symbol_lists + ["-lstdc++", "-lm", "-lrt", "-ldl", "-lresolv"])
    # Instrumented programs run several times slower.
    timeout = hang_guard + " 1500"
    # The sanitizers' settings come from the caller (scripts/sanitize.sh).
    for var in ("TSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS",
                "LSAN_OPTIONS"):
        if var in os.environ:
            config.environment[var] = os.environ[var]
    # Debian's libomp is not instrumented: Archer, its OMPT tool for TSan,
    # tells TSan about libomp's synchronisation (barriers, tasks, locks).
    archer = os.path.join(config.llvm_libdir, "libarcher.so")
    if sanitizer == "thread" and os.path.exists(archer):
        config.environment["OMP_TOOL_LIBRARIES"] = archer


def with_flags(command, flags):
    return command + " " + flags if flags else command

config.substitutions += [
    ("%clangxx", with_flags(os.path.join(bindir, "clang++"), sanitize_c)),
    ("%clang", with_flags(os.path.join(bindir, "clang"), sanitize_c)),
    ("%flang", with_flags(os.path.join(bindir, "flang"), sanitize_link)),
    ("%upstream-clangxx",
     with_flags(os.path.join(config.llvm_bindir, "clang++") + " " +
                upstream_link, sanitize_c)),
    ("%upstream-clang",
     with_flags(os.path.join(config.llvm_bindir, "clang") + " " +
                upstream_link, sanitize_c)),
    ("%upstream-flang",
     with_flags(os.path.join(config.llvm_bindir, "flang") + " " +
                upstream_link, sanitize_link)),
    ("%sanitizer-link-flags", sanitize_link),
    ("%upstream-run", ld_upstream + " " + timeout),
    ("%ours-run", ld_ours + " " + timeout),
    ("%run", timeout),
    ("%hang-guard", hang_guard),
    ("%prefix", prefix),
    ("%src_root", config.offload_src_root),
    ("%obj_root", config.offload_obj_root),
    ("%cmake", config.cmake_command),
    ("%target-cpu", cpu_triple),
]
# Debian's LLVM library directory (libomp), for links that do not go through
# the shims.
config.substitutions.append(("%llvm-libdir", config.llvm_libdir))

# Features tests can REQUIRE.
def built_here(path):
    """True when path exists and is ours, not a link to Debian's file."""
    real = os.path.realpath(path)
    return os.path.exists(real) and \
        real.startswith(os.path.realpath(prefix) + os.sep)


# The core pieces every build makes. The tests needing one REQUIRE its
# feature, but a missing core piece (a partial or failed build, or a link to
# Debian's file where ours belongs) must not quietly turn those tests into
# UNSUPPORTED ones: it stops the whole run, naming the file. A developer who
# builds only part of the project sets OFFLOAD_ALLOW_MISSING_CORE=1 to run
# the rest (the tests needing a missing piece are then UNSUPPORTED, and a
# warning names it). test/lit-config/missing-core.test checks all of this.
core_pieces = [
    ("our-libomptarget", os.path.join(libdir, "libomptarget.so")),
    ("our-linker-wrapper", os.path.join(bindir, "clang-linker-wrapper")),
    ("our-cpu-device-runtime",
     os.path.join(libdir, cpu_triple, "libompdevice.a")),
]
missing_core = []
for feature, path in core_pieces:
    if built_here(path):
        config.available_features.add(feature)
    elif os.path.lexists(path):
        missing_core.append("{0} is not ours: it resolves to {1}".format(
            path, os.path.realpath(path)))
    else:
        missing_core.append("{0} does not exist".format(path))
if missing_core:
    why = "core piece(s) of the prefix under test are missing:\n  " + \
        "\n  ".join(missing_core)
    if os.environ.get("OFFLOAD_ALLOW_MISSING_CORE", "0") not in ("", "0"):
        lit_config.warning(why + "\nOFFLOAD_ALLOW_MISSING_CORE is set: the "
                           "tests that need them are UNSUPPORTED")
    else:
        lit_config.fatal(why + "\nBuild the project (scripts/build.sh), or "
                         "set OFFLOAD_ALLOW_MISSING_CORE=1 to run the other "
                         "tests (see docs/Testing.md)")
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
if config.mlir_found:
    config.available_features.add("mlir")

# GPU targets on this machine (used by test/gpu, test/arch-detect and
# test/indirect):
#   gpu-runtime-nvptx / gpu-runtime-amdgpu  our GPU device runtimes are built
#   amd-device-libs                         AMD device libraries for the shims
#   nvlink                                  the CUDA toolkit's nvlink is there
#   cuda-stub-driver                        the toolkit's stub libcuda.so
#   hsa-runtime                             libhsa-runtime64.so.1 is installed
#   cuda-plugin / amdgpu-plugin             our GPU plugins are built
#   %nvptx-runtime-dir %amdgpu-runtime-dir  lib/<triple> of the prefix
#   %cuda-stub                              the stub libcuda.so
nvptx_dir = os.path.join(libdir, "nvptx64-nvidia-cuda")
amdgpu_dir = os.path.join(libdir, "amdgcn-amd-amdhsa")
if os.path.exists(os.path.join(nvptx_dir, "libomptarget-nvptx.bc")):
    config.available_features.add("gpu-runtime-nvptx")
if os.path.exists(os.path.join(amdgpu_dir, "libomptarget-amdgpu.bc")):
    config.available_features.add("gpu-runtime-amdgpu")
if os.path.exists(os.path.join(amdgpu_dir, "device-libs", "ocml.bc")):
    config.available_features.add("amd-device-libs")
if config.ptxas and os.path.exists(
        os.path.join(os.path.dirname(config.ptxas), "nvlink")):
    config.available_features.add("nvlink")
cuda_stub = "/usr/local/cuda/lib64/stubs/libcuda.so"
if os.path.exists(cuda_stub):
    config.available_features.add("cuda-stub-driver")
for candidate in ("/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1",
                  "/opt/rocm/lib/libhsa-runtime64.so.1"):
    if os.path.exists(candidate):
        config.available_features.add("hsa-runtime")
        break
for plugin in ("cuda", "amdgpu"):
    if os.path.exists(
            os.path.join(libdir, "libomptarget.rtl." + plugin + ".so")):
        config.available_features.add(plugin + "-plugin")
config.substitutions += [
    ("%nvptx-runtime-dir", nvptx_dir),
    ("%amdgpu-runtime-dir", amdgpu_dir),
    ("%cuda-stub", cuda_stub),
]

# MPI + offload programs (test/mpi), with Debian's Open MPI, which
# scripts/install-deps.sh installs:
#   mpi         mpirun, mpicxx and mpifort are on PATH
#   %mpicxx     Open MPI's C++ wrapper driving the prefix's clang++ shim
#   %mpifort    Open MPI's Fortran wrapper driving the prefix's flang shim
#   %mpirun     mpirun for a single machine with more ranks than cores, as
#               root too (CI runs as root), with a time limit
# test/mpi/tools.test fails when the pieces are missing, so the tests that
# REQUIRE mpi are never skipped unnoticed.
mpi_path = config.environment["PATH"]
mpi_tools = {name: shutil.which(name, path=mpi_path)
             for name in ("mpirun", "mpicxx", "mpifort")}
if all(mpi_tools.values()):
    config.available_features.add("mpi")
mpirun = "{0} {1} --oversubscribe".format(timeout,
                                          mpi_tools["mpirun"] or "mpirun")
if os.getuid() == 0:
    mpirun += " --allow-run-as-root"
config.substitutions += [
    ("%mpicxx", "env OMPI_CXX={0} {1}".format(
        os.path.join(bindir, "clang++"), mpi_tools["mpicxx"] or "mpicxx")),
    ("%mpifort", "env OMPI_FC={0} {1}".format(
        os.path.join(bindir, "flang"), mpi_tools["mpifort"] or "mpifort")),
    ("%mpirun", mpirun),
]
