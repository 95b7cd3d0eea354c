"""Copy/kernel overlap with `nowait`: N independent {copy in, kernel, copy
out} chains as nowait constructs (chained by `depend` within each chain)
against the same chains run one after the other, their serial sum
(bench/programs/OverlapChains.cpp). The figure is the ratio nowait/serial,
measured in one process: below 1 the chains overlapped.

Two rows. On the CPU device the same executable runs on both runtimes
(LD_LIBRARY_PATH), as for the runtime figures. On a GPU: Debian's
libomptarget has no GPU device on this machine (no GPU, no emulator for its
plugins), so the row runs ours only, on the GPU emulator (an sm_90 image
through our CUDA plugin and the emulated libcuda.so.1), and its upstream
cell says why. On a machine with a GPU, the same program built for it runs
on both runtimes unchanged.
"""

import os

from .execute import RunFailure, run_figures
from .figures import Figure, mark_sides_missing
from .toolchain import OFFLOAD_FLAGS, SIDES, BuildError, build

PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "programs")

# (chains, KiB per chain, rounds per process, recurrence steps per element)
# by profile.
SIZES = {"full": (8, 1024, 5, 16), "quick": (8, 1024, 3, 16),
         "smoke": (2, 64, 1, 4)}

# The emulated GPU build: what test/emulator's %emu-build uses.
EMULATED_FLAGS = ["-fopenmp", "--offload-arch=sm_90", "-foffload-lto",
                  "-Xoffload-linker-nvptx64-nvidia-cuda", "--offload-emulate"]
NO_UPSTREAM_GPU = ("Debian's libomptarget has no GPU device here (ours runs "
                   "on the GPU emulator)")


def _label(profile, where):
    chains, kib, _, _ = SIZES[profile.name]
    size = "%d MiB" % (kib // 1024) if kib % 1024 == 0 else "%d KiB" % kib
    return ("nowait overlap: %d chains {copy in, kernel, copy out} of %s, "
            "time / serial sum, %s" % (chains, size, where))


def overlap_figures(profile):
    return [
        Figure("overlap.cpu", _label(profile, "CPU device"), "x", "lower",
               "overlap"),
        Figure("overlap.emulated_sm90",
               _label(profile, "emulated sm_90 (ours only)"), "x", "lower",
               "overlap"),
    ]


def _first_error(message):
    errors = [l.strip() for l in message.splitlines() if "error" in l]
    return (errors[0] if errors else "build failed")[:160]


def _build(toolchain, link_side, flags, name):
    out = os.path.join(toolchain.work_dir, "overlap")
    os.makedirs(out, exist_ok=True)
    source = os.path.join(PROGRAMS_DIR, "OverlapChains.cpp")
    common = os.path.join(PROGRAMS_DIR, "BenchCommon.h")
    program = os.path.join(out, name)
    deps = [common] + [p for p in toolchain.link_inputs(link_side)
                       if os.path.exists(p)]
    build(toolchain.driver(link_side) + ["-O2", "-I", PROGRAMS_DIR] +
          flags + [source, "-o", program], [source], program, deps)
    return program


def _emulator_dir(toolchain):
    """The folder of the emulated libcuda.so.1, or None."""
    folder = os.path.join(toolchain.build_dir, "lib", "gpu-emulator")
    return folder if os.path.exists(
        os.path.join(folder, "libcuda.so.1")) else None


def _programs(toolchain, link_side, by_key):
    """{figure key: program} for the rows that could be built; the others
    are marked with the reason."""
    programs = {}
    try:
        programs["overlap.cpu"] = _build(toolchain, link_side, OFFLOAD_FLAGS,
                                         "OverlapChains-cpu")
    except BuildError as e:
        for side in SIDES:
            by_key["overlap.cpu"].mark_unavailable(
                side, "OverlapChains.cpp did not build: " +
                _first_error(str(e)))
    emulated = by_key["overlap.emulated_sm90"]
    emulated.mark_unavailable("upstream", NO_UPSTREAM_GPU)
    if not _emulator_dir(toolchain):
        emulated.mark_unavailable("ours", "the GPU emulator is not built")
        return programs
    try:
        programs["overlap.emulated_sm90"] = _build(
            toolchain, "ours", EMULATED_FLAGS, "OverlapChains-sm_90")
    except BuildError as e:
        emulated.mark_unavailable("ours", "the sm_90 build failed: " +
                                  _first_error(str(e)))
    return programs


def _run(program, argv_tail, toolchain, side, timeout, emulated):
    runtime_dir = toolchain.runtime_dirs[side]
    extra_env = None
    if emulated:
        # The emulated driver first; offloading mandatory, so a run that
        # cannot use the emulated GPU fails instead of measuring the host.
        runtime_dir = _emulator_dir(toolchain) + os.pathsep + runtime_dir
        extra_env = {"OMP_TARGET_OFFLOAD": "MANDATORY"}
    values = run_figures([program] + argv_tail, runtime_dir,
                         toolchain.runtime_library(side), timeout, extra_env)
    if "nowait_over_serial" not in values:
        raise RunFailure("did not print nowait_over_serial")
    return values["nowait_over_serial"]


def measure_overlap(toolchain, profile, figures, link_side, log, timeout):
    by_key = {f.key: f for f in figures}
    mark_sides_missing(toolchain, figures, SIDES, "runtime")
    log("nowait overlap: building (CPU device with the %s driver, sm_90 for "
        "the emulator with ours)" % link_side)
    programs = _programs(toolchain, link_side, by_key)
    argv_tail = [str(v) for v in SIZES[profile.name]]
    for rep in range(profile.reps):
        order = SIDES if rep % 2 == 0 else tuple(reversed(SIDES))
        for side in order:
            for key, program in programs.items():
                figure = by_key[key]
                if side in figure.unavailable:
                    continue
                try:
                    figure.add(side, _run(program, argv_tail, toolchain, side,
                                          timeout, key != "overlap.cpu"))
                except RunFailure as e:
                    log("nowait overlap %s on %s: %s" % (key, side, e))
                    figure.mark_unavailable(side, str(e))
    log("nowait overlap: done")
