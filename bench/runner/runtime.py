"""Runtime figures: the same program run on Debian's libomptarget and ours.

Every program is built once, with one side's driver (ours by default: our
shim, hence our clang-linker-wrapper), and the very same file is run on both
runtimes, chosen by LD_LIBRARY_PATH (both libraries have the soname
libomptarget.so.22.1).
"""

import os

from . import generate
from .execute import RunFailure, run_figures
from .figures import Figure
from .toolchain import (LLVM_ROOT, OFFLOAD_FLAGS, SIDES, BuildError, build,
                        build_all, write_if_changed)

PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "programs")
COMMON_HEADER = os.path.join(PROGRAMS_DIR, "BenchCommon.h")


def _mib_label(mib):
    return "%d GiB" % (mib // 1024) if mib % 1024 == 0 else "%d MiB" % mib


class ProgramSet:
    """Builds the runtime benchmark programs with one side's driver."""

    def __init__(self, toolchain, profile, link_side):
        self.tc, self.p, self.link_side = toolchain, profile, link_side
        self.out = os.path.join(toolchain.work_dir, "runtime-" + link_side)
        self.gen = os.path.join(toolchain.work_dir, "generated")
        os.makedirs(self.out, exist_ok=True)
        os.makedirs(self.gen, exist_ok=True)

    def _cxx(self, sources, output, compile_only=False):
        command = self.tc.driver(self.link_side) + [
            "-O2", "-I", PROGRAMS_DIR] + OFFLOAD_FLAGS
        command += (["-c"] if compile_only else []) + sources + ["-o", output]
        # A rebuilt wrapper, device runtime or shim configuration must relink
        # the programs.
        deps = [COMMON_HEADER]
        if not compile_only:
            deps += [path for path in self.tc.link_inputs(self.link_side)
                     if os.path.exists(path)]
        return (command, sources, output, deps)

    def build(self):
        """Builds every program; returns {name: path}."""
        tc, p, out = self.tc, self.p, self.out
        path = {name: os.path.join(out, name) for name in (
            "ExecTimer", "EmptyRegion", "EnterExitData", "MapBandwidth",
            "ParallelMaps", "LiveMappings", "RegisterLaunch", "FirstLaunch",
            "MapUnmapLoop")}
        src = lambda name: os.path.join(PROGRAMS_DIR, name)

        many_maps = os.path.join(self.gen, "ManyMaps%d.cpp" % p.many_maps)
        write_if_changed(many_maps, generate.many_maps(p.many_maps))
        kernel_dir = os.path.join(self.gen, "kernels%d" % p.kernels)
        os.makedirs(kernel_dir, exist_ok=True)
        kernel_objects, tasks = [], []
        for name, text in generate.kernel_units(p.kernels, p.kernel_units):
            source = os.path.join(kernel_dir, name)
            write_if_changed(source, text)
            obj = os.path.join(out, "kernels%d-%s.o" % (p.kernels, name[:-4]))
            kernel_objects.append(obj)
            tasks.append(self._cxx([source], obj, compile_only=True))

        exec_timer = [os.path.join(LLVM_ROOT, "bin", "clang"), "-O2",
                      src("ExecTimer.c"), "-o", path["ExecTimer"]]
        tasks.append((exec_timer, [src("ExecTimer.c")], path["ExecTimer"]))
        for name in ("EmptyRegion", "EnterExitData", "MapBandwidth",
                     "ParallelMaps", "FirstLaunch", "MapUnmapLoop"):
            tasks.append(self._cxx([src(name + ".cpp")], path[name]))
        tasks.append(self._cxx([src("LiveMappings.cpp"), many_maps],
                               path["LiveMappings"]))
        build_all(tc.jobs, tasks)
        # The image of many kernels is linked once all of them are compiled.
        build(*self._cxx([src("RegisterLaunch.cpp")] + kernel_objects,
                         path["RegisterLaunch"]))
        return path


def runtime_figures(profile):
    p = profile
    return [
        Figure("rt.empty_region", "empty target region: latency",
               "us", "lower", "runtime"),
        Figure("rt.enter_exit", "enter+exit data of %s buffers of %d B"
               % (format(p.small_buffers, ","), p.small_buffer_bytes),
               "ms", "lower", "runtime"),
        # Both sides on the CPU device (the programs' only offload target).
        Figure("rt.map_unmap_4k", "map+unmap of 4 KiB in a loop (%s pairs, "
               "CPU device): per pair" % format(p.map_unmap_iterations, ","),
               "us", "lower", "runtime"),
        Figure("rt.map_unmap_64k", "map+unmap of 64 KiB in a loop (%s pairs, "
               "CPU device): per pair" % format(p.map_unmap_iterations, ","),
               "us", "lower", "runtime"),
        Figure("rt.map_unmap_1m", "map+unmap of 1 MiB in a loop (%s pairs, "
               "CPU device): per pair"
               % format(max(p.map_unmap_iterations // 8, 1), ","),
               "us", "lower", "runtime"),
        Figure("rt.many_maps", "region with %d maps, %s mappings live"
               % (p.many_maps, format(p.live_mappings, ",")),
               "us", "lower", "runtime"),
        Figure("rt.map_bandwidth", "map(tofrom) of %s: bandwidth"
               % _mib_label(p.bandwidth_mib), "GB/s", "higher", "runtime"),
        Figure("rt.map_vs_memcpy", "map(tofrom) of %s: share of memcpy speed"
               % _mib_label(p.bandwidth_mib), "%", "higher", "runtime"),
        Figure("rt.memcpy_control", "control: memcpy of %s (no runtime)"
               % _mib_label(p.bandwidth_mib), "GB/s", "higher", "control"),
        Figure("rt.parallel_map_1t", "map(tofrom) of %s, one host thread"
               % _mib_label(p.parallel_map_mib), "GB/s", "higher", "runtime"),
        Figure("rt.parallel_map_2t", "2 threads map(tofrom) their own %s: "
               "aggregate vs one thread" % _mib_label(p.parallel_map_mib),
               "x", "higher", "runtime"),
        Figure("rt.parallel_map_8t", "8 threads map(tofrom) their own %s: "
               "aggregate vs one thread" % _mib_label(p.parallel_map_mib),
               "x", "higher", "runtime"),
        Figure("rt.first_launch", "exec to first launch, one-kernel program",
               "ms", "lower", "runtime"),
        Figure("rt.register_launch", "exec to first launch, %s-kernel image"
               % format(p.kernels, ","), "ms", "lower", "runtime"),
    ]


def measure_runtime(toolchain, profile, figures, link_side, log, timeout):
    """Builds the programs and fills `figures` (from runtime_figures)."""
    by_key = {f.key: f for f in figures}
    notes = []
    missing_runtime = {side: toolchain.missing(side, "runtime")
                       for side in SIDES}
    for side, reason in missing_runtime.items():
        if reason:
            for f in figures:
                f.mark_unavailable(side, reason)

    paths, errors = None, []
    # Programs are linked by `link_side`'s driver; when that fails, by the
    # other one: any binary is a fair test as long as both runtimes run it.
    for side in (link_side, [s for s in SIDES if s != link_side][0]):
        if toolchain.missing(side, "shim") or toolchain.missing(side, "wrapper"):
            errors.append("%s driver/wrapper not built" % side)
            continue
        try:
            log("building runtime benchmark programs with the %s driver" % side)
            paths = ProgramSet(toolchain, profile, side).build()
            if side != link_side:
                notes.append("runtime programs were linked by the %s "
                             "wrapper because the %s build failed"
                             % (side, link_side))
            link_side = side
            break
        except BuildError as e:
            errors.append(str(e))
            log("build with the %s driver failed:\n%s" % (side, e))
    if paths is None:
        for f in figures:
            for side in SIDES:
                f.mark_unavailable(side, "programs failed to build")
        return {"linked_by": None, "notes": errors}

    p = profile
    runs = [
        ([paths["EmptyRegion"], str(p.empty_iterations)],
         {"empty_region_us": "rt.empty_region"}),
        ([paths["EnterExitData"], str(p.small_buffers),
          str(p.small_buffer_bytes)], {"enter_exit_ms": "rt.enter_exit"}),
        ([paths["MapUnmapLoop"], str(p.map_unmap_iterations)],
         {"map_unmap_4k_us": "rt.map_unmap_4k",
          "map_unmap_64k_us": "rt.map_unmap_64k",
          "map_unmap_1m_us": "rt.map_unmap_1m"}),
        ([paths["LiveMappings"], str(p.live_mappings),
          str(p.many_maps_iterations)], {"many_maps_us": "rt.many_maps"}),
        ([paths["MapBandwidth"], str(p.bandwidth_mib)],
         {"map_tofrom_gbps": "rt.map_bandwidth",
          "map_vs_memcpy_percent": "rt.map_vs_memcpy",
          "memcpy_gbps": "rt.memcpy_control"}),
        ([paths["ParallelMaps"], str(p.parallel_map_mib)],
         {"parallel_map_1t_gbps": "rt.parallel_map_1t",
          "parallel_map_2t_ratio": "rt.parallel_map_2t",
          "parallel_map_8t_ratio": "rt.parallel_map_8t"}),
        ([paths["ExecTimer"], paths["FirstLaunch"]],
         {"first_launch_ms": "rt.first_launch"}),
        ([paths["ExecTimer"], paths["RegisterLaunch"]],
         {"register_first_launch_ms": "rt.register_launch"}),
    ]
    for argv, outputs in runs:
        name = os.path.basename(argv[-1] if "ExecTimer" in argv[0] else argv[0])
        failed = {s for s in SIDES if missing_runtime[s]}
        for rep in range(p.reps):
            # Alternate which side goes first, so neither always runs on a
            # machine warmed (or disturbed) by the other.
            order = SIDES if rep % 2 == 0 else tuple(reversed(SIDES))
            for side in order:
                if side in failed:
                    continue
                try:
                    values = run_figures(
                        argv, toolchain.runtime_dirs[side],
                        toolchain.runtime_library(side), timeout)
                    missing = [k for k in outputs if k not in values]
                    if missing:
                        raise RunFailure("did not print " + ", ".join(missing))
                except RunFailure as e:
                    failed.add(side)
                    log("%s on %s runtime: %s" % (name, side, e))
                    for key in outputs.values():
                        by_key[key].mark_unavailable(side, str(e))
                    continue
                for result, key in outputs.items():
                    by_key[key].add(side, values[result])
        log("%s: done" % name)
    return {"linked_by": link_side, "notes": notes}
