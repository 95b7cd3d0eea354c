"""Device-code figures: a triad and a dot product over 2^25 doubles on the CPU
device, in C++ and in Fortran (bench/programs/StreamKernels.*).

Unlike the runtime figures, these measure what each toolchain makes of the
kernels: each side compiles with its own driver (ours: the shims, hence our
wrapper, device runtime and, for Fortran, the loop API inlined into the
kernels; upstream: Debian's clang++/flang and clang-linker-wrapper) and runs
on its own libomptarget. Debian's toolchain cannot link a Fortran program
for the CPU device, so the Fortran rows' upstream side says why instead of
giving a number. The "Fortran as a share of C++" rows put each side's two
languages side by side: how close the Fortran kernels come to the same
kernels in C++ on the same toolchain and runtime.
"""

import os

from .execute import RunFailure, run_figures
from .figures import Figure, mark_all_unavailable, mark_sides_missing
from .toolchain import (CPU_TRIPLE, LLVM_ROOT, OFFLOAD_FLAGS, SIDES,
                        BuildError, build, build_all)

PROGRAMS_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "programs")

# (elements, timed launches per run) by profile: the rows are defined at
# 2^25 doubles (three arrays of 256 MiB), which --quick keeps.
SIZES = {"full": (1 << 25, 10), "quick": (1 << 25, 4), "smoke": (1 << 14, 2)}
KERNELS = ("triad", "dot")
LANGUAGES = ("cxx", "fortran")
LANGUAGE_NAMES = {"cxx": "C++", "fortran": "Fortran"}


def _size_label(elements):
    exponent = elements.bit_length() - 1
    if elements == 1 << exponent:
        return "2^%d doubles" % exponent
    return "%s doubles" % format(elements, ",")


def _key(language, kernel):
    return "stream.%s.%s" % (language, kernel)


def stream_figures(profile):
    elements, _ = SIZES[profile.name]
    size = _size_label(elements)
    figures = []
    for language in LANGUAGES:
        for kernel in KERNELS:
            figures.append(Figure(
                _key(language, kernel), "%s %s over %s, CPU device"
                % (LANGUAGE_NAMES[language], kernel, size),
                "GB/s", "higher", "device-code"))
    for kernel in KERNELS:
        figures.append(Figure(
            _key("fortran_share", kernel),
            "Fortran %s as a share of C++ %s (same toolchain)"
            % (kernel, kernel), "%", "higher", "device-code"))
    return figures


def _builds(toolchain):
    """{(side, language): (task for build(), program path)}."""
    out = os.path.join(toolchain.work_dir, "stream")
    os.makedirs(out, exist_ok=True)
    cxx = os.path.join(PROGRAMS_DIR, "StreamKernels.cpp")
    fortran = os.path.join(PROGRAMS_DIR, "StreamKernels.f90")
    report = os.path.join(PROGRAMS_DIR, "StreamReport.c")
    common = os.path.join(PROGRAMS_DIR, "BenchCommon.h")
    report_object = os.path.join(out, "StreamReport.o")
    flangs = {"ours": [os.path.join(toolchain.build_dir, "bin", "flang")],
              "upstream": [os.path.join(LLVM_ROOT, "bin", "flang"),
                           "-L" + toolchain.upstream_link_dir]}
    tasks = {}
    for side in SIDES:
        program = os.path.join(out, "StreamKernels-cxx-" + side)
        command = toolchain.driver(side) + ["-O3", "-I", PROGRAMS_DIR] + \
            OFFLOAD_FLAGS + [cxx, "-o", program]
        deps = [common] + [p for p in toolchain.link_inputs(side)
                           if os.path.exists(p)]
        tasks[(side, "cxx")] = ((command, [cxx], program, deps), program)
        program = os.path.join(out, "StreamKernels-fortran-" + side)
        command = flangs[side] + ["-O3"] + OFFLOAD_FLAGS + [
            fortran, report_object, "-o", program]
        deps = [p for p in toolchain.link_inputs(side) if os.path.exists(p)]
        if side == "ours":
            lib = os.path.join(toolchain.build_dir, "lib")
            deps += [os.path.join(lib, "flang-offload.cfg"),
                     os.path.join(lib, CPU_TRIPLE, "libompdevice-loops.bc")]
        tasks[(side, "fortran")] = (
            (command, [fortran, report_object], program,
             [p for p in deps if os.path.exists(p)]), program)
    helper = ([os.path.join(LLVM_ROOT, "bin", "clang"), "-O2", "-c", report,
               "-o", report_object], [report], report_object)
    return helper, tasks


def _build_failure(message):
    """The line of a failed build that says why: the first undefined symbol
    of a link (Debian's CPU device links have no device runtime), else the
    first error."""
    lines = message.splitlines()
    for line in lines:
        if "undefined reference to" in line:
            return "link: undefined reference to" + line.split(
                "undefined reference to", 1)[1][:120]
    errors = [l.strip() for l in lines if "error" in l]
    return (errors[0] if errors else "build failed")[:160]


def _build_programs(toolchain, log):
    """{(side, language): program path or a BuildError's reason}."""
    helper, tasks = _builds(toolchain)
    build(*helper)
    programs = {}
    for (side, language), (task, program) in tasks.items():
        try:
            build_all(1, [task])
            programs[(side, language)] = program
        except BuildError as e:
            reason = _build_failure(str(e))
            log("stream %s %s: %s" % (side, language, reason))
            programs[(side, language)] = BuildError(
                "%s driver cannot build it: %s" % (side, reason))
    return programs


def measure_stream(toolchain, profile, figures, log, timeout):
    by_key = {f.key: f for f in figures}
    mark_sides_missing(toolchain, figures, SIDES, "runtime")
    log("stream kernels: building C++ and Fortran with both drivers")
    try:
        programs = _build_programs(toolchain, log)
    except BuildError as e:
        mark_all_unavailable(figures, "ours", "StreamReport.c: %s" % str(e)[:120])
        mark_all_unavailable(figures, "upstream", "StreamReport.c did not build")
        return
    for (side, language), program in programs.items():
        if isinstance(program, BuildError):
            for kernel in KERNELS:
                by_key[_key(language, kernel)].mark_unavailable(
                    side, str(program))
                by_key[_key("fortran_share", kernel)].mark_unavailable(
                    side, "no Fortran or C++ program on this side")
    elements, launches = SIZES[profile.name]
    argv_tail = [str(elements), str(launches)]
    for rep in range(profile.reps):
        order = SIDES if rep % 2 == 0 else tuple(reversed(SIDES))
        for side in order:
            results = {}
            for language in LANGUAGES:
                program = programs[(side, language)]
                if isinstance(program, BuildError) or \
                        side in by_key[_key(language, "triad")].unavailable:
                    continue
                try:
                    values = run_figures(
                        [program] + argv_tail, toolchain.runtime_dirs[side],
                        toolchain.runtime_library(side), timeout)
                    missing = [k for k in KERNELS
                               if k + "_gbps" not in values]
                    if missing:
                        raise RunFailure("did not print " + ", ".join(
                            k + "_gbps" for k in missing))
                except RunFailure as e:
                    log("stream %s %s: %s" % (side, language, e))
                    for kernel in KERNELS:
                        by_key[_key(language, kernel)].mark_unavailable(
                            side, str(e))
                    continue
                results[language] = values
                for kernel in KERNELS:
                    by_key[_key(language, kernel)].add(
                        side, values[kernel + "_gbps"])
            if len(results) == len(LANGUAGES):
                for kernel in KERNELS:
                    name = kernel + "_gbps"
                    by_key[_key("fortran_share", kernel)].add(
                        side, 100.0 * results["fortran"][name] /
                        results["cxx"][name])
    log("stream kernels: done")
