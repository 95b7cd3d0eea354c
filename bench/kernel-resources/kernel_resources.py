#!/usr/bin/env python3
"""Kernel resources and the occupancy they allow: ours against upstream.

Builds a set of OpenMP offload programs for sm_90 (the default flow and
-foffload-lto) and gfx90a twice, with our toolchain (the prefix's clang++ /
flang shims: our device runtime and linker wrapper) and with upstream's
(Debian's clang++-22 / flang-22 and wrapper, with upstream LLVM's own device
runtime built from the release source of the installed clang-22), and
prints per kernel what the GPU toolchain reports: registers, stack, spill
stores/loads, static shared memory (LDS), private segment, dynamic stack,
and the theoretical occupancy each implies. Nothing is run; no GPU is
needed. Only a build failure is an error (exit 1); no figure is judged.

  kernel_resources.py [--prefix DIR] [--config sm_90|sm_90-lto|gfx90a]...
                      [--only REGEX] [--jobs N] [--json FILE] [--no-upstream]

How to read the tables: bench/README.md ("Kernel resources").
"""

import argparse
import concurrent.futures
import fcntl
import hashlib
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KIT_TESTS = os.path.join(ROOT, "scripts", "gpu-check", "tests")
KIT_BENCH = os.path.join(ROOT, "scripts", "gpu-check", "bench")
BENCH_PROGRAMS = os.path.join(ROOT, "bench", "programs")
# The bench/ programs whose kernels do work on a GPU (the others measure
# the host runtime: empty regions, maps); every one builds for GPUs.
BENCH_GPU_PROGRAMS = ["StreamKernels.cpp", "StreamKernels.f90",
                      "LaunchPatterns.cpp", "LaunchPatterns.f90",
                      "OverlapChains.cpp", "FirstLaunch.cpp",
                      "EmptyRegion.cpp"]

CONFIGS = {
    # name: (offload arch, extra flags, device triple)
    "sm_90": ("sm_90", [], "nvptx64-nvidia-cuda"),
    "sm_90-lto": ("sm_90", ["-foffload-lto"], "nvptx64-nvidia-cuda"),
    "gfx90a": ("gfx90a", [], "amdgcn-amd-amdhsa"),
}
UPSTREAM_RT_SOURCES = "src/[A-Za-z_]*\\.cpp"


# ---------------------------------------------------------------- programs

# Programs of the GPU lit tests (test/gpu, test/emulator), the ones whose
# kernels exercise the device runtime: (name, sources under test/, why
# upstream's runtime cannot link it or None).
LIT_PROGRAMS = [
    ("gpu/critical", ["gpu/Inputs/critical.cpp"], None),
    ("gpu/generic", ["gpu/Inputs/generic.cpp"], None),
    ("gpu/generic-reduction", ["gpu/Inputs/generic-reduction.cpp"], None),
    ("gpu/reduction", ["gpu/Inputs/reduction.cpp"], None),
    ("gpu/zaxpy", ["gpu/Inputs/zaxpy.cpp"], None),
    ("gpu/multi-tu", ["gpu/Inputs/tu_main.cpp", "gpu/Inputs/tu_lib.cpp"],
     None),
    ("gpu/ompx-all", ["gpu/Inputs/ompx-all.c"], None),
    ("gpu/saxpy-f90", ["gpu/Inputs/saxpy.f90"], None),
    ("emulator/generic-mode", ["emulator/Inputs/generic-mode.cpp"], None),
    ("emulator/generic-beside-spmd",
     ["emulator/Inputs/generic-beside-spmd.cpp"], None),
    ("emulator/link-time-spmd", ["emulator/Inputs/link-time-spmd.cpp",
                                 "emulator/Inputs/link-time-spmd-base.cpp"],
     None),
    ("emulator/state-machine-reduction",
     ["emulator/Inputs/state-machine-reduction.cpp"], None),
    ("emulator/nested-reduction", ["emulator/Inputs/nested-reduction.cpp"],
     None),
    ("emulator/reductions", ["emulator/Inputs/reductions.cpp"], None),
    ("emulator/indirect-virtual", ["emulator/Inputs/indirect-virtual.cpp"],
     None),
    ("emulator/math-library", ["emulator/Inputs/math-library.cpp"], None),
    ("emulator/vector-add", ["emulator/Inputs/vector-add.c"], None),
    ("emulator/task-reductions", ["emulator/Inputs/task-reductions.c"],
     "upstream's runtime has no task reductions on GPUs "
     "(__kmpc_taskred_init undefined)"),
]


class Program:
    def __init__(self, name, sources, flags=(), skip=None, host_c=(),
                 upstream_missing=None):
        self.name = name
        self.sources = list(sources)
        self.c = self.sources[0].endswith(".c")
        # Why upstream's side cannot build it (a feature its runtime
        # lacks): its rows have our side only; not an error.
        self.upstream_missing = upstream_missing
        # C helpers of the host side (bench/programs/StreamReport.c), which
        # Flang cannot compile: built with cc and linked in.
        self.host_c = list(host_c)
        self.flags = list(flags)
        self.fortran = self.sources[0].endswith((".f90", ".F90"))
        # config -> why this program is not built there (not an error)
        self.skip = dict(skip or {})


def marker_lines(paths, marker):
    """Values of `MARKER: value` comment lines (the kit's conventions)."""
    values = []
    for p in paths:
        with open(p, errors="replace") as f:
            for line in f:
                m = re.search(marker + r":\s*(.*)$", line)
                if m:
                    values.append(m.group(1).strip())
    return values


def kit_programs():
    """Every program of the GPU check kit, built as scripts/gpu-check/build.sh
    builds it (-DKIT_NAME, KIT-FLAGS, the tests folder on the include path;
    a folder is one program of all its sources)."""
    progs = []
    for entry in sorted(os.listdir(KIT_TESTS)):
        path = os.path.join(KIT_TESTS, entry)
        if os.path.isdir(path):
            srcs = sorted(os.path.join(path, f) for f in os.listdir(path)
                          if f.endswith((".cpp", ".c", ".f90", ".F90")))
            # The main program first: it decides the driver (build.sh links
            # with the main program's language).
            srcs.sort(key=lambda s: os.path.basename(s).startswith("lib"))
            name = entry
        elif entry.endswith((".cpp", ".f90")):
            srcs, name = [path], os.path.splitext(entry)[0]
        else:
            continue
        flags = ["-I" + KIT_TESTS]
        for extra in marker_lines(srcs, "KIT-FLAGS"):
            flags += extra.split()
        if not srcs[0].endswith(".f90"):
            flags.append('-DKIT_NAME="%s"' % name)
        skip = {}
        for why in marker_lines(srcs, "KIT-AMD-UNSUPPORTED"):
            skip["gfx90a"] = "KIT-AMD-UNSUPPORTED: " + why
        progs.append(Program("kit/" + name, srcs, flags, skip))
    for entry in sorted(os.listdir(KIT_BENCH)):
        if entry.endswith((".cpp", ".f90")):
            progs.append(Program("kit-bench/" + os.path.splitext(entry)[0],
                                 [os.path.join(KIT_BENCH, entry)],
                                 ["-I" + KIT_BENCH]))
    return progs


def all_programs():
    progs = []
    kernels = os.path.join(HERE, "kernels")
    for entry in sorted(os.listdir(kernels)):
        if entry.endswith((".cpp", ".f90")):
            progs.append(Program("kr/" + os.path.splitext(entry)[0],
                                 [os.path.join(kernels, entry)]))
    progs += kit_programs()
    for entry in BENCH_GPU_PROGRAMS:
        stem, ext = os.path.splitext(entry)
        name = "bench/" + stem + ("-f90" if ext == ".f90" else "")
        host_c = [os.path.join(BENCH_PROGRAMS, "StreamReport.c")] \
            if entry == "StreamKernels.f90" else []
        progs.append(Program(name, [os.path.join(BENCH_PROGRAMS, entry)],
                             ["-I" + BENCH_PROGRAMS], host_c=host_c))
    for name, srcs, missing in LIT_PROGRAMS:
        progs.append(Program("lit/" + name,
                             [os.path.join(ROOT, "test", s) for s in srcs],
                             upstream_missing=missing))
    for p in progs:
        # Flang has no -foffload-lto (flang-22 rejects it; our shim passes
        # it on): a Fortran sm_90 program is built by the default flow only.
        if p.fortran:
            p.skip.setdefault("sm_90-lto", "Flang has no -foffload-lto")
    return progs


# -------------------------------------------------------------- toolchains

def hang_limit():
    """Seconds one build may take before it is taken for a hang: a guard,
    never a verdict. 600 (the slowest build takes about 90 s at a load of
    8 on 2 cores) times OFFLOAD_TEST_TIMEOUT_SCALE and the load per core."""
    try:
        scale = max(1, int(os.environ.get("OFFLOAD_TEST_TIMEOUT_SCALE", "1")))
    except ValueError:
        scale = 1
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return 600 * scale * max(1.0, load)


def run(argv, env=None, cwd=None, guard=False):
    """(exit code, stdout+stderr) of a command; with guard, killed after
    hang_limit() seconds."""
    limit = hang_limit() if guard else None
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=env,
                              cwd=cwd, errors="replace", timeout=limit)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return 124, out + "\nhang guard fired after %d s" % limit
    return proc.returncode, proc.stdout


def file_identity(path):
    """What decides whether a cached build is still valid for a tool or a
    library: its real path, size and modification time."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
        return "%s:%d:%d" % (real, st.st_size, st.st_mtime_ns)
    except OSError:
        return path + ":missing"


def tree_identity(folder):
    ids = []
    for dirpath, _, files in os.walk(folder):
        for f in sorted(files):
            ids.append(file_identity(os.path.join(dirpath, f)))
    return ids


def cuda_root():
    """The CUDA toolkit folder, looked for where clang looks: $CUDA_PATH,
    the folder above the ptxas on PATH, /usr/local/cuda. A candidate counts
    only with bin/ptxas and nvvm/libdevice: a ptxas on PATH may be a small
    script (/usr/local/bin/ptxas running the toolkit's), whose folder above
    is no toolkit, and clang then finds no libdevice there."""
    candidates = [os.environ.get("CUDA_PATH", "")]
    ptxas = shutil.which("ptxas")
    if ptxas:
        candidates.append(os.path.dirname(os.path.dirname(
            os.path.realpath(ptxas))))
    candidates.append("/usr/local/cuda")
    for folder in candidates:
        if folder and os.path.isfile(os.path.join(folder, "bin", "ptxas")) \
                and os.path.isdir(os.path.join(folder, "nvvm", "libdevice")):
            return os.path.realpath(folder)
    return None


def cuda_shim(cache):
    """A CUDA folder like the real one whose bin/ptxas is ptxas-shim.sh (see
    there why). Returns (shim folder, real ptxas) or (None, reason)."""
    cuda = cuda_root()
    if cuda is None:
        return None, ("no CUDA toolkit with ptxas and nvvm/libdevice "
                      "(install it in /usr/local/cuda or set CUDA_PATH)")
    real = os.path.realpath(os.path.join(cuda, "bin", "ptxas"))
    # Made once and never changed after: another run may be using it.
    shim = os.path.join(cache, "cuda-shim")
    if os.path.isdir(shim):
        return shim, real
    tmp = tempfile.mkdtemp(dir=cache, prefix="cuda-shim.")
    os.makedirs(os.path.join(tmp, "bin"))
    for entry in os.listdir(cuda):
        if entry != "bin":
            os.symlink(os.path.join(cuda, entry), os.path.join(tmp, entry))
    for tool in os.listdir(os.path.join(cuda, "bin")):
        target = os.path.join(cuda, "bin", tool)
        if tool == "ptxas":
            target = os.path.join(HERE, "ptxas-shim.sh")
        os.symlink(target, os.path.join(tmp, "bin", tool))
    try:
        os.rename(tmp, shim)
    except OSError:              # another run made it first
        shutil.rmtree(tmp)
    return shim, real


def nvptx_flags(config, fortran, cuda):
    """How ptxas's report reaches us (ptxas-shim.sh): clang's driver takes
    --cuda-path; Flang's has no such option and runs the toolkit's ptxas
    itself, but passes -v on to it (the report lands in the build log); the
    linker wrappers find the shim first on PATH."""
    if not CONFIGS[config][2].startswith("nvptx"):
        return []
    return ["-v"] if fortran else ["--cuda-path=" + cuda]


class Side:
    """One toolchain: how it compiles and links a program for a config."""

    def __init__(self, name, cc, cxx, fc, flags_of, identity, env=None):
        self.name = name
        self.cc = cc
        self.cxx = cxx
        self.fc = fc
        self.flags_of = flags_of      # config -> extra flags
        self.identity = identity      # strings that key the build cache
        self.env = env or {}
        # Builds for different prefixes (install/, the build tree under
        # ctest) live apart, so neither undoes the other's.
        self.tag = ""

    def for_prefix(self, prefix):
        self.tag = hashlib.sha256(prefix.encode()).hexdigest()[:8]
        return self


def ours_side(prefix, cuda):
    def flags_of(config, fortran):
        return nvptx_flags(config, fortran, cuda)
    # (bin/clang is the same shim as bin/clang++, over the same compiler.)
    ident = [file_identity(os.path.join(prefix, "bin", t)) for t in
             ("clang++", "flang", "clang-linker-wrapper")]
    ident += tree_identity(os.path.join(prefix, "lib", "nvptx64-nvidia-cuda"))
    ident += tree_identity(os.path.join(prefix, "lib", "amdgcn-amd-amdhsa"))
    ident.append(file_identity(os.path.join(prefix, "lib",
                                            "OffloadIndirectCalls.so")))
    # The device-link cache would skip ptxas, whose report has the spills.
    return Side("ours", os.path.join(prefix, "bin", "clang"),
                os.path.join(prefix, "bin", "clang++"),
                os.path.join(prefix, "bin", "flang"), flags_of, ident,
                {"OFFLOAD_WRAPPER_CACHE": "0"})


def upstream_side(rt, prefix, cuda):
    """Debian's drivers and wrapper with upstream's device runtime (rt:
    {"nvptx": dir, "amdgpu": dir}, built by build_upstream_runtime)."""
    device_libs = os.path.join(prefix, "lib", "amdgcn-amd-amdhsa",
                               "device-libs")

    def flags_of(config, fortran):
        if CONFIGS[config][2].startswith("nvptx"):
            d = rt["nvptx"]
            flags = nvptx_flags(config, fortran, cuda)
            if not fortran:
                # Flang links the runtime only in the wrapper (-lompdevice).
                flags.append("--libomptarget-nvptx-bc-path=" +
                             os.path.join(d, "libomptarget-nvptx.bc"))
        else:
            d = rt["amdgpu"]
            # Debian has no ROCm device libraries; both sides use the ones
            # our prefix ships (as our clang configuration file does).
            flags = ["--rocm-device-lib-path=" + device_libs]
        # -lompdevice (the wrapper's device link) and -lomptarget (the host
        # link, Debian's library through a link in the same folder).
        return flags + ["-L" + d, "-Xoffload-linker", "-L" + d]
    ident = [file_identity(shutil.which(t) or t) for t in
             ("clang++-22", "flang-22",
              "/usr/lib/llvm-22/bin/clang-linker-wrapper")]
    ident += tree_identity(rt["nvptx"]) + tree_identity(rt["amdgpu"])
    ident += tree_identity(device_libs)
    return Side("upstream", "clang-22", "clang++-22", "flang-22", flags_of,
                ident)


def find_release_source(data_dirs, fetch):
    """The unpacked release source (top folder) or (None, why)."""
    helper = os.path.join(ROOT, "scripts", "conformance", "apt_source.py")
    folders = ["openmp/device", "offload/include", "libc/shared",
               "libc/src/__support", "libc/hdr", "libc/include"]
    for data in data_dirs:
        if not os.path.isdir(data):
            continue
        for entry in sorted(os.listdir(data)):
            top = os.path.join(data, entry)
            if (entry.startswith("llvm-toolchain-22_") and os.path.isdir(top)
                    and all(os.path.isdir(os.path.join(top, f))
                            for f in folders)):
                return top, None
    if not fetch:
        return None, ("LLVM's release source is not in %s (and --no-fetch)"
                      % " or ".join(data_dirs))
    # The helper downloads through apt's source mechanism and writes the
    # folder's path to a file of ours (never parsed from its output).
    with tempfile.NamedTemporaryFile("r", suffix=".path") as pf:
        rc, out = run([sys.executable, helper, "--data", data_dirs[0],
                       "--path-file", pf.name] + folders)
        top = pf.read().strip()
    if rc != 0 or not os.path.isdir(os.path.join(top, "openmp", "device")):
        return None, ("LLVM's release source could not be fetched into %s "
                      "(%s)" % (data_dirs[0], out.strip().splitlines()[-1:]))
    return top, None


def build_upstream_runtime(top, cache, jobs):
    """Upstream's device runtime for nvptx64 and amdgcn from openmp/device
    of the release, as its CMakeLists.txt builds it (the flags and sources
    of scripts/gpu-check/bench/upstream.sh; amdgcn with
    -mcode-object-version=none as that CMakeLists.txt adds), kept in the
    cache per source folder and compiler. Returns ({kind: dir}, None) or
    (None, why)."""
    src = os.path.join(top, "openmp", "device")
    with open(os.path.join(src, "CMakeLists.txt")) as f:
        sources = re.findall(UPSTREAM_RT_SOURCES, f.read())
    common = ["-std=c++17", "-O3", "-flto", "-fvisibility=hidden", "-nogpulib",
              "-nostdlibinc", "-fno-rtti", "-fno-exceptions",
              "-fconvergent-functions", "-Wno-unknown-cuda-version",
              "-mllvm", "-vectorize-slp=false", "-DSHARED_SCRATCHPAD_SIZE=512",
              "-I" + os.path.join(src, "include"),
              "-I" + os.path.join(top, "libc"),
              "-I" + os.path.join(top, "offload", "include")]
    kinds = {
        "nvptx": ["--target=nvptx64-nvidia-cuda", "--cuda-feature=+ptx63"],
        "amdgpu": ["--target=amdgcn-amd-amdhsa", "-Xclang",
                   "-mcode-object-version=none"],
    }
    key = hashlib.sha256(json.dumps(
        [top, common, kinds, sources, file_identity(shutil.which("clang++-22")
                                                    or "clang++-22")]
        + tree_identity(src)).encode()).hexdigest()[:16]
    out = {}
    for kind, target in kinds.items():
        d = os.path.join(cache, "upstream-rt", key, kind)
        out[kind] = d
        bc = os.path.join(d, "libomptarget-%s.bc" % kind)
        if os.path.exists(os.path.join(d, "libompdevice.a")):
            continue
        os.makedirs(os.path.join(d, "obj"), exist_ok=True)
        cmds = [["clang++-22"] + target + common +
                ["-c", os.path.join(src, s),
                 "-o", os.path.join(d, "obj", os.path.basename(s) + ".bc")]
                for s in sources]
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for rc, log in pool.map(run, cmds):
                if rc != 0:
                    return None, "upstream's %s runtime did not build:\n%s" % (
                        kind, log)
        objs = [c[-1] for c in cmds]
        for argv in (["llvm-link-22"] + objs + ["-o", bc],
                     ["ar", "rcs", os.path.join(d, "libompdevice.a"), bc]):
            rc, log = run(argv)
            if rc != 0:
                return None, "upstream's %s runtime: %s" % (kind, log)
        # Debian ships libomptarget only versioned; the host link needs
        # -lomptarget.
        link = os.path.join(d, "libomptarget.so")
        if not os.path.lexists(link):
            os.symlink("/usr/lib/llvm-22/lib/libomptarget.so.22.1", link)
        shutil.rmtree(os.path.join(d, "obj"))
    return out, None


# ------------------------------------------------------------------- build

def build(prog, config, side, cache, cuda, ptxas):
    """Builds one program and reads its device image. Returns {"ok": bool,
    "command", "log", "kernels": {name: figures}}. The build is kept (its
    image and ptxas's report, not the program) and redone only when what
    went into it changes; the figures are read again every run."""
    arch, cflags, _ = CONFIGS[config]
    driver = side.fc if prog.fortran else side.cc if prog.c else side.cxx
    argv = ([driver, "-O2", "-fopenmp", "--offload-arch=" + arch] + cflags +
            side.flags_of(config, prog.fortran) + prog.flags + prog.sources)
    contents = [BUILD_FORMAT]
    for s in prog.sources + prog.host_c:
        with open(s, "rb") as f:
            contents.append(hashlib.sha256(f.read()).hexdigest())
    for inc in ("check.h", "bench.h", "BenchCommon.h"):
        for d in (KIT_TESTS, KIT_BENCH, BENCH_PROGRAMS):
            contents.append(file_identity(os.path.join(d, inc)))
    key = hashlib.sha256(json.dumps([argv, contents, side.identity,
                                     file_identity(ptxas or "")]).encode()
                         ).hexdigest()[:20]
    work = os.path.join(cache, "builds", config, side.name + "-" + side.tag,
                        prog.name.replace("/", "__"))
    # Two runs on one cache (ctest and a hand run, or two ctests) take
    # turns per program: the second finds the first's build and reuses it.
    os.makedirs(os.path.dirname(work), exist_ok=True)
    with open(work + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build_locked(prog, config, argv, side, work, cuda, ptxas,
                            key)


def build_locked(prog, config, argv, side, work, cuda, ptxas, key):
    """build() once it holds the program's lock."""
    arch, _, triple = CONFIGS[config]
    done = os.path.join(work, "built-" + key)
    image = os.path.join(work, "image." + arch)
    result = {"ok": True, "command": " ".join(argv), "log": ""}
    if not os.path.exists(done):
        rc, log = build_image(prog, argv, side, work, cuda, ptxas, arch)
        if rc != 0 and wait_for_project_build():
            # The prefix was being rebuilt under us (a tool or library
            # missing for a moment): once that build is over, try again.
            rc, log = build_image(prog, argv, side, work, cuda, ptxas, arch)
        result["ok"], result["log"] = rc == 0, log
        if rc != 0:
            return result
        with open(done, "w") as f:
            f.write(result["command"] + "\n")
    with open(os.path.join(work, "build.log"), errors="replace") as f:
        build_log = f.read()
    try:
        if triple.startswith("nvptx"):
            result["kernels"] = read_cubin(image)
            add_ptxas_report(result["kernels"],
                             os.path.join(work, "ptxas.log"), build_log)
        else:
            result["kernels"] = read_amdgpu(image)
    except (OSError, ValueError, struct.error) as e:
        result["ok"] = False
        result["log"] = "reading the device image %s failed: %s" % (image, e)
    return result


def wait_for_project_build():
    """Waits until no build of the project runs (they hold an exclusive
    flock on $OFFLOAD_BUILD_LOCK, default /tmp/build.lock, while they
    rewrite the build tree and the prefix). False when there is no such
    lock to wait for."""
    path = os.environ.get("OFFLOAD_BUILD_LOCK", "/tmp/build.lock")
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        # Shared and released at once: never keeps a build waiting.
        fcntl.flock(fd, fcntl.LOCK_SH)
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    return True


# Bumped when what a kept build holds changes.
BUILD_FORMAT = "1"


def build_image(prog, argv, side, work, cuda, ptxas, arch):
    """Runs the build in a fresh work folder and extracts the device image
    for arch into it. Returns (exit code, log)."""
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    env = dict(os.environ)
    env.update(side.env)
    for var in list(env):
        if var.startswith(("LIBOMPTARGET_", "OMP_", "KMP_")):
            del env[var]
    env["KR_PTXAS_LOG"] = os.path.join(work, "ptxas.log")
    env["KR_REAL_PTXAS"] = ptxas or "ptxas"
    env["PATH"] = os.path.join(cuda, "bin") + os.pathsep + env["PATH"]
    exe = os.path.join(work, "a.out")
    objs, rc, log = [], 0, ""
    for c in prog.host_c:
        objs.append(os.path.join(work, os.path.basename(c) + ".o"))
        rc, log = run(["cc", "-O2", "-c", c, "-o", objs[-1]])
        if rc:
            return rc, log
    rc, log = run(argv + objs + ["-o", exe], env=env, cwd=work, guard=True)
    with open(os.path.join(work, "build.log"), "w") as f:
        f.write(log)
    if rc != 0:
        return rc, log
    why = extract_image(exe, arch, os.path.join(work, "image." + arch))
    if why:
        return 1, log + "\n" + why
    for f in [exe] + objs:
        os.unlink(f)
    return 0, log


def extract_image(exe, arch, image):
    """exe's device image for arch into the file image; None, or why not."""
    fd, off = tempfile.mkstemp(dir=os.path.dirname(image),
                               suffix=".offloading")
    os.close(fd)
    try:
        rc, out = run(["llvm-objcopy-22",
                       "--dump-section=.llvm.offloading=" + off, exe])
        if rc != 0:
            return "no .llvm.offloading section in %s: %s" % (exe, out)
        rc, out = run(["llvm-offload-binary-22", off,
                       "--image=file=%s,arch=%s" % (image, arch)])
    finally:
        if os.path.exists(off):
            os.unlink(off)
    if rc != 0 or not os.path.exists(image):
        return "no %s image in %s: %s" % (arch, exe, out)
    return None


def elf_sections(data):
    """{name: (offset, size, link)} and the raw headers of an ELF64 file."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    stroff = headers[shstrndx][4]

    def name_at(off):
        end = data.index(b"\0", stroff + off)
        return data[stroff + off:end].decode()
    sections = {}
    for h in headers:
        sections[name_at(h[0])] = (h[4], h[5], h[6], h[1])
    return sections, headers


def eiattr_records(data, off, size):
    """(attribute, payload bytes) of an .nv.info section."""
    pos, end = off, off + size
    while pos + 2 <= end:
        fmt, attr = data[pos], data[pos + 1]
        if fmt == 0x04:
            n, = struct.unpack_from("<H", data, pos + 2)
            yield attr, data[pos + 4:pos + 4 + n]
            pos += 4 + n
        elif fmt in (0x02, 0x03):
            yield attr, data[pos + 2:pos + 4]
            pos += 4
        else:
            yield attr, b""
            pos += 2


# EIATTR attributes read (names as nvdisasm prints them).
EIATTR_REGCOUNT = 0x2F
EIATTR_FRAME_SIZE = 0x11
EIATTR_MIN_STACK_SIZE = 0x12
EIATTR_MAX_STACK_SIZE = 0x23
EIATTR_MAX_THREADS = 0x05
EIATTR_REQNTID = 0x10


def read_cubin(path):
    with open(path, "rb") as f:
        data = f.read()
    sections, headers = elf_sections(data)
    symoff, symsize, strndx, _ = sections[".symtab"]
    stroff = headers[strndx][4]
    names, entries, functions = [], set(), set()
    for i in range(symsize // 24):
        name_off, info, other = struct.unpack_from("<IBB", data,
                                                   symoff + i * 24)
        end = data.index(b"\0", stroff + name_off)
        names.append(data[stroff + name_off:end].decode())
        if info & 0xF == 2:                      # STT_FUNC
            # STO_CUDA_ENTRY marks the kernels; the rest are device
            # functions (outlined regions, runtime functions not inlined).
            (entries if other & 0x10 else functions).add(names[-1])
    kernels = {}

    def kernel(sym):
        return kernels.setdefault(names[sym], {})
    if ".nv.info" in sections:
        off, size, _, _ = sections[".nv.info"]
        for attr, payload in eiattr_records(data, off, size):
            if len(payload) != 8:
                continue
            sym, value = struct.unpack("<II", payload)
            if names[sym] not in entries:
                continue
            field = {EIATTR_REGCOUNT: "regs", EIATTR_FRAME_SIZE: "frame",
                     EIATTR_MIN_STACK_SIZE: "stack",
                     EIATTR_MAX_STACK_SIZE: "max_stack"}.get(attr)
            if field:
                kernel(sym)[field] = value
    for name, fig in kernels.items():
        shared = 0
        for sec, (_, size, _, stype) in sections.items():
            # The kernel's own shared variables, and what the toolchain
            # reserves in every block (.nv.shared.reserved.*).
            if sec == ".nv.shared." + name or sec.startswith(
                    ".nv.shared.reserved"):
                shared += size
        fig["shared"] = shared
        block = None
        info = sections.get(".nv.info." + name)
        if info:
            for attr, payload in eiattr_records(data, info[0], info[1]):
                if attr in (EIATTR_MAX_THREADS, EIATTR_REQNTID) and \
                        len(payload) == 12:
                    x, y, z = struct.unpack("<III", payload)
                    block = x * y * z
        fig["block"] = block or 128    # upstream's default NVPTX block
        fig["block_from"] = "maxntid" if block else "default"
        fig["functions"] = sorted(functions)
    return kernels


def read_amdgpu(path):
    rc, out = run(["llvm-readelf-22", "--notes", path])
    if rc != 0:
        raise ValueError(out)
    kernels, cur, section = {}, None, None
    for line in out.splitlines():
        m = re.match(r"^(\S[^:]*):", line)
        if m:
            section = m.group(1)
            continue
        if section != "amdhsa.kernels":
            continue
        m = re.match(r"^  - \.(\w+):\s*(.*)$", line)
        if m:
            cur = {}
        else:
            m = re.match(r"^    \.(\w+):\s*(.*)$", line)
        if m and cur is not None:
            cur[m.group(1)] = m.group(2).strip()
            if m.group(1) == "name":
                kernels[m.group(2).strip()] = cur
    figures = {}
    for name, md in kernels.items():
        def num(k):
            return int(md.get(k, "0"), 0)
        figures[name] = {
            "vgpr": num("vgpr_count"), "agpr": num("agpr_count"),
            "sgpr": num("sgpr_count"),
            "vgpr_spill": num("vgpr_spill_count"),
            "sgpr_spill": num("sgpr_spill_count"),
            "private": num("private_segment_fixed_size"),
            "lds": num("group_segment_fixed_size"),
            "dyn_stack": md.get("uses_dynamic_stack") == "true",
            "block": num("max_flat_workgroup_size") or 256,
        }
    return figures


def add_ptxas_report(kernels, log_path, build_log):
    """Spill stores/loads from ptxas -v (the shim's log, or the build log
    where Flang's driver ran ptxas -v itself); 'dynamic stack' where the
    stack cannot be bounded (recursion, indirect calls)."""
    text = build_log
    if os.path.exists(log_path):
        with open(log_path, errors="replace") as f:
            text += "\n" + f.read()
    spills = {}
    for m in re.finditer(r"Function properties for (\S+)\s*\n\s*(\d+) bytes "
                         r"stack frame, (\d+) bytes spill stores, (\d+) bytes "
                         r"spill loads", text):
        st, ld = int(m.group(3)), int(m.group(4))
        old = spills.get(m.group(1), (0, 0))
        spills[m.group(1)] = (max(st, old[0]), max(ld, old[1]))
    for name, fig in kernels.items():
        if name in spills:
            fig["spill_st"], fig["spill_ld"] = spills[name]
        # What the image's device functions spill (a kernel that calls them
        # pays it): the functions of the final cubin, as ptxas reported them.
        called = [spills[f] for f in fig.pop("functions", []) if f in spills]
        fig["fn_spill_st"] = sum(st for st, _ in called)
        fig["fn_spill_ld"] = sum(ld for _, ld in called)
        # nvlink's minimum stack is all ones when recursion or an indirect
        # call leaves it unbounded (nvlink also warns).
        fig["dyn_stack"] = fig.get("stack") == 0xFFFFFFFF or bool(re.search(
            r"[Ss]tack size for entry function '%s' cannot be statically"
            % re.escape(name), text))
        if fig.get("stack") == 0xFFFFFFFF:
            fig["stack"] = None


# --------------------------------------------------------------- occupancy

def ceil_to(x, n):
    return (x + n - 1) // n * n


def sm90_occupancy(regs, shared, block):
    """Resident warps per SM on sm_90 (published limits: 65,536 registers
    per SM allocated per warp in units of 256, at most 64 warps and 32
    blocks per SM, 228 KiB shared memory per SM with 1 KiB reserved per
    block, 227 KiB per block at most)."""
    warps = (block + 31) // 32
    limits = [32, 64 // warps]
    if regs:
        per_warp = ceil_to(ceil_to(regs, 8) * 32, 256)
        limits.append((65536 // per_warp) // warps)
    if shared > 227 * 1024:
        return 0
    limits.append((228 * 1024) // (shared + 1024))
    return min(limits) * warps


def gfx90a_occupancy(vgpr, sgpr, lds, block):
    """Waves per SIMD on gfx90a (published limits: 512 unified VGPRs per
    SIMD lane allocated in granules of 8, the metadata's .vgpr_count
    already counting arch VGPRs rounded to 4 plus AGPRs; 800 SGPRs per SIMD
    in granules of 16; 8 waves per SIMD; 4 SIMDs and 64 KiB LDS per CU;
    wave64, a workgroup's waves spread over the CU's 4 SIMDs)."""
    waves_per_group = (block + 63) // 64
    per_simd = [8]
    if vgpr:
        per_simd.append(512 // ceil_to(vgpr, 8))
    if sgpr:
        per_simd.append(800 // ceil_to(sgpr, 16))
    waves = min(per_simd)
    groups = (waves * 4) // waves_per_group
    if lds:
        groups = min(groups, 65536 // lds)
    return min(waves, groups * waves_per_group / 4)


def occupancy(config, fig):
    if CONFIGS[config][2].startswith("nvptx"):
        return sm90_occupancy(fig.get("regs", 0), fig.get("shared", 0),
                              fig["block"])
    return gfx90a_occupancy(fig["vgpr"], fig["sgpr"], fig["lds"], fig["block"])


# ------------------------------------------------------------------ report

def short_name(kernel):
    """__omp_offloading_<dev>_<file>_<function>_l<line> -> <function>_l<line>:
    the device and file ids are the same on both sides (same source file)."""
    return re.sub(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_", "", kernel)


def pair(ours, up, unit=""):
    """'ours/upstream' of one figure; a missing side is '-'."""
    def fmt(v):
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, float) and not v.is_integer():
            return "%.2f" % v
        return "%d%s" % (v, unit)
    return "%s/%s" % (fmt(ours), fmt(up))


def ratio(ours, up):
    if ours is None or up is None:
        return "-"
    if up == 0:
        return "=" if ours == 0 else "inf"
    return "%.2f" % (ours / up)


NV_COLUMNS = [
    # header, figure, with a ratio column
    ("regs", "regs", True), ("stack B", "stack", True),
    ("frame B", "frame", False), ("spill st B", "spill_st", False),
    ("spill ld B", "spill_ld", False), ("shared B", "shared", True),
    ("fn spill st B", "fn_spill_st", False),
    ("fn spill ld B", "fn_spill_ld", False),
    ("dyn stack", "dyn_stack", False), ("block", "block", False),
    ("warps/SM", "occ", True),
]
AMD_COLUMNS = [
    ("VGPR", "vgpr", True), ("AGPR", "agpr", False), ("SGPR", "sgpr", True),
    ("VGPR spill", "vgpr_spill", False), ("SGPR spill", "sgpr_spill", False),
    ("private B", "private", True), ("LDS B", "lds", True),
    ("dyn stack", "dyn_stack", False), ("block", "block", False),
    ("waves/SIMD", "occ", True),
]


def table(config, rows, columns):
    """Rows of (label, ours figures, upstream figures): a Markdown table,
    each figure as ours/upstream, some with their ratio."""
    header = ["kernel"]
    for title, _, with_ratio in columns:
        header.append(title + " ours/up")
        if with_ratio:
            header.append("ratio")
    lines = [header]
    for label, o, u in rows:
        line = [label]
        for _, key, with_ratio in columns:
            ov = o.get(key) if o else None
            uv = u.get(key) if u else None
            line.append(pair(ov, uv))
            if with_ratio:
                line.append(ratio(ov, uv))
        lines.append(line)
    widths = [max(len(l[i]) for l in lines) for i in range(len(header))]
    out = []
    for n, l in enumerate(lines):
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(l, widths))
                   + " |")
        if n == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summary(config, rows):
    """One line: how many kernels, occupancy lower/same/higher, geometric
    means of the ratios."""
    both = [(o, u) for _, o, u in rows if o and u]
    if not both:
        return "%s: %d kernels, ours only" % (config, len(rows))
    lower = sum(1 for o, u in both if o["occ"] < u["occ"])
    higher = sum(1 for o, u in both if o["occ"] > u["occ"])
    regkey = "regs" if CONFIGS[config][2].startswith("nvptx") else "vgpr"
    memkey = "shared" if regkey == "regs" else "lds"
    parts = ["%s: %d kernels on both sides" % (config, len(both)),
             "occupancy ours lower in %d, same in %d, higher in %d" % (
                 lower, len(both) - lower - higher, higher)]
    for title, key in (("registers", regkey), ("occupancy", "occ")):
        g = geomean([o[key] / u[key] for o, u in both if u.get(key)])
        if g:
            parts.append("geomean %s ratio %.2f" % (title, g))
    parts.append("%s ours %d B, upstream %d B in all" % (
        "shared" if memkey == "shared" else "LDS",
        sum(o.get(memkey, 0) for o, _ in both),
        sum(u.get(memkey, 0) for _, u in both)))
    only = [label for label, o, u in rows if not (o and u)]
    if only:
        parts.append("%d kernels on one side only" % len(only))
    return "; ".join(parts)


def report(configs, programs, results, sides, why_no_upstream):
    for config in configs:
        columns = NV_COLUMNS if CONFIGS[config][2].startswith("nvptx") \
            else AMD_COLUMNS
        rows, skipped = [], []
        for prog in programs:
            if config in prog.skip:
                skipped.append("%s (%s)" % (prog.name, prog.skip[config]))
                continue
            res = {s: results.get((config, s, prog.name)) for s in sides}
            kernels = set()
            for r in res.values():
                if r and r["ok"]:
                    kernels.update(r["kernels"])
            for k in sorted(kernels):
                figs = []
                for s in ("ours", "upstream"):
                    r = res.get(s)
                    fig = r["kernels"].get(k) if r and r["ok"] else None
                    if fig is not None:
                        fig = dict(fig, occ=occupancy(config, fig))
                    figs.append(fig)
                rows.append(("%s %s" % (prog.name, short_name(k)), *figs))
        arch = CONFIGS[config]
        print("\n### %s (--offload-arch=%s%s)\n" % (
            config, arch[0], "".join(" " + f for f in arch[1])))
        print(table(config, rows, columns))
        print("\n" + summary(config, rows))
        if skipped:
            print("not built for %s: %s" % (config, "; ".join(skipped)))
        missing = ["%s (%s)" % (p.name, p.upstream_missing)
                   for p in programs if p.upstream_missing and
                   "upstream" in sides and config not in p.skip]
        if missing:
            print("upstream side not built: %s" % "; ".join(missing))
    if why_no_upstream:
        print("\nupstream: not measured: %s" % why_no_upstream)


def read_built(images, arch, cache):
    """--images: the programs two sides already built (the GPU check kit's
    bench/ours and bench/upstream), read without building anything. No
    ptxas report, so no spill figures. Returns (programs, results)."""
    config = "sm_90" if arch.startswith("sm_") else arch
    dirs = dict(i.split("=", 1) for i in images)
    names = sorted(set.intersection(*(set(os.listdir(d))
                                      for d in dirs.values())))
    programs, results = [], {}
    for name in names:
        programs.append(Program(name, [name]))
        for side, d in dirs.items():
            img = os.path.join(cache, "%s.%s.%s" % (side, name, arch))
            why = extract_image(os.path.join(d, name), arch, img)
            res = {"ok": why is None, "command": "read " + name,
                   "log": why or "", "kernels": {}}
            if why is None:
                res["kernels"] = (read_cubin(img) if config == "sm_90"
                                  else read_amdgpu(img))
                for fig in res["kernels"].values():
                    if fig.pop("functions", None) is not None:
                        fig["dyn_stack"] = fig.get("stack") == 0xFFFFFFFF
                        if fig["dyn_stack"]:
                            fig["stack"] = None
                os.unlink(img)
            results[(config, side, name)] = res
    return config, programs, results


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prefix", default=os.environ.get(
        "OFFLOAD_PREFIX", os.path.join(ROOT, "install")),
        help="our toolchain: an install prefix or a build tree (default "
             "$OFFLOAD_PREFIX or install/)")
    ap.add_argument("--cache", default=os.environ.get(
        "KERNEL_RESOURCES_CACHE", os.path.join(ROOT, "build",
                                               "kernel-resources")),
        help="builds, upstream's runtime (default $KERNEL_RESOURCES_CACHE "
             "or build/kernel-resources)")
    ap.add_argument("--upstream-data", action="append", default=[],
                    help="where LLVM's release source is (or is fetched to); "
                         "default $UPSTREAM_DATA, ../conformance-data, "
                         "../upstream-data beside the checkout")
    ap.add_argument("--no-fetch", action="store_true",
                    help="do not download the release source when absent")
    ap.add_argument("--no-upstream", action="store_true")
    ap.add_argument("--config", action="append", choices=sorted(CONFIGS))
    ap.add_argument("--only", help="programs whose name matches this regex")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--list", action="store_true", help="list the programs")
    ap.add_argument("--images", action="append", metavar="SIDE=DIR",
                    help="read programs already built (twice: ours=DIR "
                         "upstream=DIR, same program names) instead of "
                         "building; with --arch")
    ap.add_argument("--arch", default="sm_90", help="with --images")
    args = ap.parse_args()
    if args.images:
        with tempfile.TemporaryDirectory() as tmp:
            config, programs, results = read_built(args.images, args.arch,
                                                   tmp)
        report([config], programs, results,
               [i.split("=", 1)[0] for i in args.images], None)
        print("(read from the programs: no ptxas report, so no spill "
              "figures; stack includes spills)")
        if args.arch not in CONFIGS:
            print("(built for %s; the occupancy is sm_90's or gfx90a's "
                  "model, not that architecture's)" % args.arch)
        return 1 if any(not r["ok"] for r in results.values()) else 0
    configs = args.config or ["sm_90", "sm_90-lto", "gfx90a"]
    programs = all_programs()
    if args.only:
        programs = [p for p in programs if re.search(args.only, p.name)]
    if args.list:
        for p in programs:
            print(p.name,
                  " ".join(os.path.relpath(s, ROOT) for s in p.sources))
        return 0
    prefix = os.path.abspath(args.prefix)
    cache = os.path.abspath(args.cache)
    os.makedirs(cache, exist_ok=True)
    cuda, ptxas = cuda_shim(cache)
    if cuda is None:
        # Not a build error: this machine cannot build for NVIDIA GPUs.
        dropped = [c for c in configs if CONFIGS[c][2].startswith("nvptx")]
        configs = [c for c in configs if c not in dropped]
        if dropped:
            print("not measured: %s (%s)" % (", ".join(dropped), ptxas))
        cuda, ptxas = cache, None
    sides = {"ours": ours_side(prefix, cuda).for_prefix(prefix)}
    why = None
    if args.no_upstream:
        why = "--no-upstream"
    else:
        beside = os.path.dirname(ROOT)
        data = args.upstream_data or [
            d for d in (os.environ.get("UPSTREAM_DATA"),
                        os.path.join(beside, "conformance-data"),
                        os.path.join(beside, "upstream-data")) if d]
        top, why = find_release_source(data, not args.no_fetch)
        if top:
            # One run builds it; another on the same cache waits.
            with open(os.path.join(cache, "upstream-rt.lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                rt, why = build_upstream_runtime(top, cache, args.jobs)
            if rt:
                sides["upstream"] = upstream_side(rt, prefix,
                                                  cuda).for_prefix(prefix)
                print("upstream: Debian's %s with upstream's device runtime "
                      "built from %s/openmp/device" % (
                          run(["clang++-22", "--version"])[1].splitlines()[0],
                          top))
    print("ours: %s" % prefix)
    jobs = [(c, s, p) for c in configs for p in programs for s in sides
            if c not in p.skip and not (s == "upstream" and
                                        p.upstream_missing)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(build, p, c, sides[s], cache, cuda,
                               ptxas): (c, s, p)
                   for c, s, p in jobs}
        for fut in concurrent.futures.as_completed(futures):
            c, s, p = futures[fut]
            results[(c, s, p.name)] = fut.result()
    failed = [(c, s, n) for (c, s, n), r in sorted(results.items())
              if not r["ok"]]
    report(configs, programs, results, sides, why)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s|%s|%s" % k: v for k, v in results.items()}, f,
                      indent=1)
    for c, s, n in failed:
        r = results[(c, s, n)]
        print("\nBUILD FAILED: %s %s %s\n  %s\n%s" % (
            c, s, n, r["command"], "\n".join(
                "  " + l for l in r["log"].splitlines()[-40:])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
