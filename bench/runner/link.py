"""Link figures: our clang-linker-wrapper against Debian's, same command line.

The inputs are compiled once, by Debian's clang++-22, into the same fat
objects and archive for both sides. Debian's driver is then asked, with
-###, for the clang-linker-wrapper command line it would run; each side's
wrapper is invoked with exactly that line (only the output file differs),
and only that step is timed. Each side's output program is run once,
untimed, to prove the link produced a working program.

The two "driver" relink rows are the exception: each side links through its
own C++ driver (Debian's clang++-22, our shim), so each links its own
libomptarget, as a user's relink does.
"""

import os
import shlex
import shutil
import subprocess
import time

from . import generate
from .execute import clean_environment
from .figures import Figure, mark_sides_missing
from .toolchain import (OFFLOAD_FLAGS, SIDES, BuildError, build, build_all,
                        write_if_changed)

CUDA_PATH = os.environ.get("CUDA_PATH", "/usr/local/cuda")


def link_figures(profile):
    p = profile
    return [
        Figure("link.units", "link of %d translation units" % p.link_units,
               "ms", "lower", "link"),
        Figure("link.archive", "link with a static library of %d members"
               % p.archive_members, "ms", "lower", "link"),
        Figure("link.relink", "relink of the %d units, nothing changed"
               % p.link_units, "ms", "lower", "link"),
        Figure("link.relink_sm90", "relink of the %d units for sm_90, "
               "nothing changed" % p.link_units, "ms", "lower", "link"),
        # The same relinks with the host linker replaced by a stub that only
        # creates the output: what the wrapper itself spends (device links,
        # cached or not, and the registration), without GNU ld's host link,
        # which is the same program on both sides.
        Figure("link.relink_wrapper", "relink of the %d units, wrapper only "
               "(host ld stubbed)" % p.link_units, "ms", "lower", "link"),
        Figure("link.relink_sm90_wrapper", "relink of the %d units for sm_90, "
               "wrapper only (host ld stubbed)" % p.link_units, "ms", "lower",
               "link"),
        # The relinks a user runs: each toolchain's own C++ driver, wrapper
        # and runtime (Debian's clang++-22 linking Debian's libomptarget, our
        # shim linking ours), so the host link differs too: GNU ld reads
        # every library a linked shared library needs, and Debian's
        # libomptarget needs libLLVM.
        Figure("link.relink_driver", "relink of the %d units, each "
               "toolchain's driver and runtime" % p.link_units, "ms", "lower",
               "link"),
        Figure("link.relink_sm90_driver", "relink of the %d units for sm_90, "
               "each toolchain's driver and runtime" % p.link_units, "ms",
               "lower", "link"),
        # Cold GPU links of the same units (one kernel each), no cache: for
        # sm_90 clang ran ptxas on each unit and the link adds the runtime
        # and nvlink; for gfx90a the code is still bitcode, so the link does
        # LTO and code generation of every kernel (docs/GPU.md).
        Figure("link.cold_sm90", "cold link of the %d units for sm_90"
               % p.link_units, "ms", "lower", "link"),
        Figure("link.cold_gfx90a", "cold link of the %d units for gfx90a"
               % p.link_units, "ms", "lower", "link"),
    ]


# The relink rows measure our device-link cache (filled by the untimed
# first link, in a directory of the run's own); the other rows measure
# full links, with the cache off.
CACHED_KEYS = ("link.relink", "link.relink_sm90", "link.relink_wrapper",
               "link.relink_sm90_wrapper", "link.relink_driver",
               "link.relink_sm90_driver")
# sm_90 programs cannot run here, nor can the stub's outputs: those links
# are checked by their output only.
UNRUNNABLE_KEYS = ("link.relink_sm90", "link.cold_sm90", "link.relink_wrapper",
                   "link.relink_sm90_wrapper", "link.relink_sm90_driver")
# Rows whose command is a whole driver line per side (DriverLine), not the
# wrapper's line shared by both sides.
DRIVER_KEYS = ("link.relink_driver", "link.relink_sm90_driver")
STUB_LINKER = """#!/bin/sh
# Stands in for the host linker: creates the output (-o) and nothing else.
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then : > "$2"; exit 0; fi
  shift
done
exit 0
"""


class DriverLine:
    """A link through each side's own driver: the argv of each side, with
    "OUTPUT" where the output goes."""

    def __init__(self, upstream, ours):
        self.argv = {"upstream": upstream, "ours": ours}


def _stub_host_linker(args, stub):
    return ["--linker-path=" + stub if a.startswith("--linker-path=") else a
            for a in args]


class LinkInputs:
    """Generated sources, their objects, the archive, and the captured
    wrapper command lines."""

    def __init__(self, toolchain, profile):
        self.tc, self.p = toolchain, profile
        self.dir = os.path.join(toolchain.work_dir, "link")
        os.makedirs(self.dir, exist_ok=True)

    def sm90_flags(self):
        """Flags for sm_90 offload with Debian's clang++, which ships no GPU
        device runtime: ours (bitcode for compiling, the archive for the
        device link) serves both sides; ptxas and nvlink from CUDA."""
        nvptx = os.path.join(self.tc.build_dir, "lib", "nvptx64-nvidia-cuda")
        return (["-fopenmp", "--offload-arch=sm_90",
                 "--cuda-path=" + CUDA_PATH],
                ["--libomptarget-nvptx-bc-path=" +
                 os.path.join(nvptx, "libomptarget-nvptx.bc")],
                ["-Xoffload-linker", "-L" + nvptx])

    def gfx90a_flags(self):
        """Flags for gfx90a offload with Debian's clang++: our AMD device
        runtime and the ROCm device libraries of our prefix serve both
        sides (Debian's LLVM ships neither)."""
        amd = os.path.join(self.tc.build_dir, "lib", "amdgcn-amd-amdhsa")
        return (["-fopenmp", "--offload-arch=gfx90a"],
                ["--rocm-device-lib-path=" + os.path.join(amd, "device-libs")],
                ["-Xoffload-linker", "-L" + amd])

    def gfx90a_missing(self):
        amd = os.path.join(self.tc.build_dir, "lib", "amdgcn-amd-amdhsa")
        if not os.path.exists(os.path.join(amd, "libompdevice.a")):
            return "our AMD device runtime is not built"
        return None

    def sm90_missing(self):
        nvptx = os.path.join(self.tc.build_dir, "lib", "nvptx64-nvidia-cuda")
        for tool in ("ptxas", "nvlink"):
            if not os.access(os.path.join(CUDA_PATH, "bin", tool), os.X_OK):
                return "no %s in %s/bin" % (tool, CUDA_PATH)
        if not os.path.exists(os.path.join(nvptx, "libomptarget-nvptx.bc")):
            return "our NVPTX device runtime is not built"
        return None

    def _compile(self, prefix, count, offload=None, compile_only=()):
        """Writes and compiles `count` units plus a main; returns
        (main object, unit objects, expected output)."""
        tasks, objects = [], []
        flags = ([self.tc.upstream_clangxx, "-O2"] +
                 list(offload or OFFLOAD_FLAGS) + list(compile_only) + ["-c"])
        for i in range(count):
            source = os.path.join(self.dir, "%s%d.cpp" % (prefix, i))
            write_if_changed(source, generate.link_unit(prefix, i))
            obj = source[:-4] + ".o"
            objects.append(obj)
            tasks.append((flags + [source, "-o", obj], [source], obj))
        main_text, expected = generate.link_main(prefix, count)
        main_source = os.path.join(self.dir, "%s_main%d.cpp" % (prefix, count))
        write_if_changed(main_source, main_text)
        main_obj = main_source[:-4] + ".o"
        tasks.append((flags + [main_source, "-o", main_obj], [main_source],
                      main_obj))
        build_all(self.tc.jobs, tasks)
        return main_obj, objects, expected

    def prepare(self):
        p = self.p
        main_u, units, expected_u = self._compile("unit", p.link_units)
        main_a, members, expected_a = self._compile("member", p.archive_members)
        archive = os.path.join(self.dir, "libmembers%d.a" % p.archive_members)
        build([self.tc.llvm_ar, "rcs", archive] + members, members, archive)
        lines = {
            "link.units": (self.wrapper_line([main_u] + units), expected_u),
            "link.archive": (self.wrapper_line([main_a, archive]), expected_a),
        }
        lines["link.relink_driver"] = (
            self.driver_line([main_u] + units, OFFLOAD_FLAGS, OFFLOAD_FLAGS),
            expected_u)
        if not self.sm90_missing():
            offload, compile_only, link_only = self.sm90_flags()
            main_g, units_g, expected_g = self._compile(
                "gpuunit", p.link_units, offload, compile_only)
            lines["link.relink_sm90"] = (
                self.wrapper_line([main_g] + units_g, offload + link_only),
                expected_g)
            # Our shim finds its own NVPTX device runtime.
            ours_offload = ["-fopenmp", "--offload-arch=sm_90",
                            "--cuda-path=" + CUDA_PATH]
            lines["link.relink_sm90_driver"] = (
                self.driver_line([main_g] + units_g, offload + link_only,
                                 ours_offload), expected_g)
            lines["link.cold_sm90"] = lines["link.relink_sm90"]
        if not self.gfx90a_missing():
            offload, compile_only, link_only = self.gfx90a_flags()
            main_a, units_a, expected_a = self._compile(
                "amdunit", p.link_units, offload, compile_only)
            lines["link.cold_gfx90a"] = (
                self.wrapper_line([main_a] + units_a, offload + link_only),
                expected_a)
        return lines

    def driver_line(self, inputs, upstream_flags, ours_flags):
        """Both sides' driver commands linking `inputs`."""
        out = ["-o", "OUTPUT"]
        return DriverLine(
            self.tc.driver("upstream") + list(upstream_flags) + inputs + out,
            self.tc.driver("ours") + list(ours_flags) + inputs + out)

    def wrapper_line(self, inputs, offload=None):
        """The arguments Debian's driver passes its clang-linker-wrapper when
        linking `inputs` (without argv[0]); "-o" is followed by OUTPUT."""
        command = self.tc.driver("upstream") + list(offload or OFFLOAD_FLAGS) + \
            inputs + ["-o", "OUTPUT", "-###"]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError("%s -### failed: %s" % (command[0], proc.stderr))
        for line in proc.stderr.splitlines():
            argv = shlex.split(line)
            if argv and os.path.basename(argv[0]) == "clang-linker-wrapper":
                return argv[1:]
        raise BuildError("the driver's -### shows no clang-linker-wrapper "
                         "call:\n" + proc.stderr)


def _with_output(args, output):
    return [output if a == "OUTPUT" else a for a in args]


def _link_once(wrapper, args, timeout):
    """Runs one link; returns (seconds, None) or (None, reason)."""
    start = time.perf_counter()
    try:
        proc = subprocess.run([wrapper] + args, capture_output=True, text=True,
                              timeout=timeout, env=clean_environment())
    except subprocess.TimeoutExpired:
        return None, "link timed out after %d s" % timeout
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["no message"]
        return None, "link failed (exit %d): %s" % (proc.returncode,
                                                     tail[0][:160])
    return seconds, None


def _check_program(path, expected, runtime_dir):
    """Runs a linked program once; returns None or why it is wrong."""
    env = clean_environment({"LD_LIBRARY_PATH": runtime_dir})
    try:
        proc = subprocess.run([path], capture_output=True, text=True,
                              timeout=120, env=env)
    except subprocess.TimeoutExpired:
        return "its program timed out"
    if proc.returncode != 0 or proc.stdout.strip() != expected:
        return "its program printed %r (exit %d), expected %r" % (
            proc.stdout.strip()[:60], proc.returncode, expected)
    return None


def measure_link(toolchain, profile, figures, log, timeout):
    by_key = {f.key: f for f in figures}
    mark_sides_missing(toolchain, figures, SIDES, "wrapper")
    log("compiling the link inputs with Debian's clang++-22 (cached)")
    try:
        lines = LinkInputs(toolchain, profile).prepare()
    except BuildError as e:
        log(str(e))
        for f in figures:
            for side in SIDES:
                f.mark_unavailable(side, "inputs failed to build")
        return
    lines["link.relink"] = lines["link.units"]
    out_dir = os.path.join(toolchain.work_dir, "link")
    stub = os.path.join(out_dir, "stub-host-linker.sh")
    write_if_changed(stub, STUB_LINKER)
    os.chmod(stub, 0o755)
    args, expected = lines["link.units"]
    lines["link.relink_wrapper"] = (_stub_host_linker(args, stub), expected)
    sm90_reason = LinkInputs(toolchain, profile).sm90_missing()
    if sm90_reason:
        for key in ("link.relink_sm90", "link.relink_sm90_wrapper",
                    "link.relink_sm90_driver", "link.cold_sm90"):
            for side in SIDES:
                by_key[key].mark_unavailable(side, sm90_reason)
    gfx90a_reason = LinkInputs(toolchain, profile).gfx90a_missing()
    if gfx90a_reason:
        for side in SIDES:
            by_key["link.cold_gfx90a"].mark_unavailable(side, gfx90a_reason)
    if not sm90_reason and "link.relink_sm90" in lines:
        args, expected = lines["link.relink_sm90"]
        lines["link.relink_sm90_wrapper"] = (_stub_host_linker(args, stub),
                                             expected)
    cache_dir = os.path.join(out_dir, "device-link-cache")
    if os.path.isdir(cache_dir):
        shutil.rmtree(cache_dir)
    # Programs are checked on Debian's runtime: the link figures compare
    # wrappers, not runtimes.
    check_runtime = toolchain.runtime_dirs["upstream"]

    for key in ("link.units", "link.archive", "link.relink",
                "link.relink_sm90", "link.relink_wrapper",
                "link.relink_sm90_wrapper", "link.relink_driver",
                "link.relink_sm90_driver", "link.cold_sm90",
                "link.cold_gfx90a"):
        if key not in lines:
            continue
        upstream_args, expected = lines[key]
        figure = by_key[key]
        active = [s for s in SIDES if s not in figure.unavailable]
        cache = (["--wrapper-cache-dir=" + cache_dir] if key in CACHED_KEYS
                 else ["--no-wrapper-cache"])
        if key in DRIVER_KEYS:
            argv = dict(upstream_args.argv)
            argv["ours"] = argv["ours"] + ["-Wl," + a for a in cache]
            commands = {s: argv[s][0] for s in SIDES}
            side_args = {s: argv[s][1:] for s in SIDES}
            runtimes = toolchain.runtime_dirs
        else:
            side_args = {"upstream": upstream_args,
                         "ours": upstream_args + cache}
            commands = toolchain.wrappers
            runtimes = {s: check_runtime for s in SIDES}
        outputs = {s: os.path.join(out_dir, "%s.%s.out" % (key, s))
                   for s in SIDES}
        # An untimed first link per side: proves it works, and leaves the
        # output a relink finds.
        for side in list(active):
            seconds, reason = _link_once(commands[side],
                                         _with_output(side_args[side],
                                                      outputs[side]),
                                         timeout)
            if key in UNRUNNABLE_KEYS:
                if not reason and not os.path.exists(outputs[side]):
                    reason = "the link wrote no program"
            else:
                reason = reason or _check_program(outputs[side], expected,
                                                  runtimes[side])
            if reason:
                log("%s with the %s wrapper: %s" % (key, side, reason))
                figure.mark_unavailable(side, reason)
                active.remove(side)
        for rep in range(profile.reps):
            order = SIDES if rep % 2 == 0 else tuple(reversed(SIDES))
            for side in order:
                if side not in active:
                    continue
                output = outputs[side]
                if key not in CACHED_KEYS and os.path.exists(output):
                    os.remove(output)
                seconds, reason = _link_once(commands[side],
                                             _with_output(side_args[side],
                                                          output),
                                             timeout)
                if reason:
                    figure.mark_unavailable(side, reason)
                    active.remove(side)
                    continue
                figure.add(side, seconds * 1e3)
        for output in outputs.values():
            if os.path.exists(output):
                os.remove(output)
        log("%s: done" % key)
