"""Launch-pattern figures: the time-step loops of real offload codes.

Every step runs four small `target teams distribute parallel for` kernels
over 1 MiB arrays (bench/programs/LaunchPatterns.cpp). The rows differ in
who launches: (a) the main thread; (b) `nowait` target tasks chained by
`depend`, with a `taskwait` per step (libomp runs them on its hidden helper
threads); (c) one thread of a host `parallel` region, and two host threads
each stepping their own arrays; (d) the same loop as (a) in Fortran.

As for the runtime figures, the very same executable runs on both runtimes
(LD_LIBRARY_PATH). The Fortran program is built by our flang shim; the
upstream side tries Debian's flang first and says why it cannot be built
when it cannot (it has no device runtime for the CPU device). The "relative
to (a)" rows divide each run of a pattern by the main-thread run of the
same round and side: what the launching thread costs, on each runtime.
"""

import os

from .execute import RunFailure, run_figures
from .figures import Figure, mark_sides_missing
from .toolchain import (LLVM_ROOT, OFFLOAD_FLAGS, SIDES, BuildError, build)

PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "programs")

# Time steps per run, by profile (the rows are defined at 1,000 steps).
STEPS = {"full": 1000, "quick": 1000, "smoke": 20}

# (key, pattern argument, label) of the C++ rows.
PATTERNS = (
    ("main", "main", "(a) main thread"),
    ("nowait", "nowait", "(b) nowait+depend, taskwait per step"),
    ("single", "single", "(c) single in a host parallel region"),
    ("threads2", "threads2", "(c) 2 host threads, own arrays"),
)
RELATIVE = ("nowait", "single", "threads2")
LABEL = "time step, 4 kernels on 1 MiB"


def launch_figures(profile):
    labels = {key: label for key, _, label in PATTERNS}
    figures = [Figure("launch." + key, "%s: %s" % (LABEL, labels[key]),
                      "us", "lower", "launch") for key, _, _ in PATTERNS]
    figures.append(Figure("launch.fortran", "%s: (d) Fortran, main thread"
                          % LABEL, "us", "lower", "launch"))
    for key in RELATIVE:
        figures.append(Figure(
            "launch.%s_vs_main" % key, "%s: %s / (a)"
            % (LABEL, labels[key]), "x", "lower", "launch"))
    return figures


def _first_error(message):
    """The line of a failed build that says why."""
    for line in message.splitlines():
        if "undefined reference to" in line:
            return "link: undefined reference to" + line.split(
                "undefined reference to", 1)[1][:120]
    errors = [l.strip() for l in message.splitlines() if "error" in l]
    return (errors[0] if errors else "build failed")[:160]


def _build(toolchain, link_side, log):
    """{"cxx": path, "fortran": path or BuildError, "fortran_upstream":
    None or the reason Debian's flang cannot build it}."""
    out = os.path.join(toolchain.work_dir, "launch")
    os.makedirs(out, exist_ok=True)
    cxx = os.path.join(PROGRAMS_DIR, "LaunchPatterns.cpp")
    common = os.path.join(PROGRAMS_DIR, "BenchCommon.h")
    programs = {}
    program = os.path.join(out, "LaunchPatterns")
    deps = [common] + [p for p in toolchain.link_inputs(link_side)
                       if os.path.exists(p)]
    build(toolchain.driver(link_side) + ["-O2", "-I", PROGRAMS_DIR] +
          OFFLOAD_FLAGS + [cxx, "-o", program], [cxx], program, deps)
    programs["cxx"] = program

    fortran = os.path.join(PROGRAMS_DIR, "LaunchPatterns.f90")
    flangs = {"ours": [os.path.join(toolchain.build_dir, "bin", "flang")],
              "upstream": [os.path.join(LLVM_ROOT, "bin", "flang"),
                           "-L" + toolchain.upstream_link_dir]}
    for side in ("ours", "upstream"):
        program = os.path.join(out, "LaunchPatterns-f90-" + side)
        deps = [p for p in toolchain.link_inputs(side) if os.path.exists(p)]
        try:
            build(flangs[side] + ["-O2"] + OFFLOAD_FLAGS +
                  [fortran, "-o", program], [fortran], program, deps)
            programs["fortran-" + side] = program
        except BuildError as e:
            reason = "%s flang cannot build it: %s" % (
                side, _first_error(str(e)))
            log("launch patterns: " + reason)
            programs["fortran-" + side] = BuildError(reason)
    return programs


def _run(argv, toolchain, side, timeout):
    values = run_figures(argv, toolchain.runtime_dirs[side],
                         toolchain.runtime_library(side), timeout)
    if "step_us" not in values:
        raise RunFailure("did not print step_us")
    return values["step_us"]


def measure_launch(toolchain, profile, figures, link_side, log, timeout):
    by_key = {f.key: f for f in figures}
    mark_sides_missing(toolchain, figures, SIDES, "runtime")
    log("launch patterns: building (C++ with the %s driver, Fortran with "
        "each side's flang)" % link_side)
    try:
        programs = _build(toolchain, link_side, log)
    except BuildError as e:
        for f in figures:
            for side in SIDES:
                f.mark_unavailable(side, "LaunchPatterns.cpp did not build: "
                                   + _first_error(str(e)))
        return
    steps = str(STEPS[profile.name])
    runs = [("launch." + key, [programs["cxx"], pattern, steps])
            for key, pattern, _ in PATTERNS]
    for rep in range(profile.reps):
        order = SIDES if rep % 2 == 0 else tuple(reversed(SIDES))
        for side in order:
            if side in by_key["launch.main"].unavailable:
                continue
            got = {}
            for key, argv in runs:
                try:
                    got[key] = _run(argv, toolchain, side, timeout)
                    by_key[key].add(side, got[key])
                except RunFailure as e:
                    log("launch patterns %s on %s: %s" % (key, side, e))
                    by_key[key].mark_unavailable(side, str(e))
            for key in RELATIVE:
                if "launch." + key in got and "launch.main" in got:
                    by_key["launch.%s_vs_main" % key].add(
                        side, got["launch." + key] / got["launch.main"])
            _run_fortran(programs, side, steps, toolchain, by_key, log,
                         timeout)
    log("launch patterns: done")


def _run_fortran(programs, side, steps, toolchain, by_key, log, timeout):
    """(d): each side runs the program its own flang built."""
    figure = by_key["launch.fortran"]
    program = programs["fortran-" + side]
    if isinstance(program, BuildError):
        figure.mark_unavailable(side, str(program))
        return
    if side in figure.unavailable:
        return
    try:
        figure.add(side, _run([program, steps], toolchain, side, timeout))
    except RunFailure as e:
        log("launch patterns fortran on %s: %s" % (side, e))
        figure.mark_unavailable(side, str(e))
