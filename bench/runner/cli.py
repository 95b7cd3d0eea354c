"""bench/run: builds the benchmark programs, measures our components and the
upstream ones they replace in the same run, prints one table, and writes
JSON and a PNG of the ratios."""

import argparse
import datetime
import os
import subprocess
import sys
import time

from . import machine, report
from .indirect import indirect_figures, measure_indirect
from .launch import launch_figures, measure_launch
from .link import link_figures, measure_link
from .overlap import measure_overlap, overlap_figures
from .plot import plot_speedups
from .profiles import PROFILES
from .runtime import measure_runtime, runtime_figures
from .stream import measure_stream, stream_figures
from .toolchain import Toolchain

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RESULTS = os.path.join(REPO, "bench", "results")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="bench/run", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_const", dest="profile",
                      const="quick", help="small sizes, 3 runs (~1-2 min)")
    size.add_argument("--smoke", action="store_const", dest="profile",
                      const="smoke",
                      help="tiny sizes, one run: checks the runner works; "
                           "the numbers mean nothing")
    parser.set_defaults(profile="full")
    parser.add_argument("--build-dir", default=os.environ.get(
        "OFFLOAD_BUILD_DIR", os.path.join(REPO, "build")),
        help="the project's build tree with the shims, our wrapper and our "
             "runtime (default: $OFFLOAD_BUILD_DIR or <repo>/build)")
    parser.add_argument("--no-project-build", action="store_true",
                        help="do not run cmake/ninja on the build tree first")
    parser.add_argument("--work-dir", default=os.path.join(RESULTS, "scratch"),
                        help="where generated sources and programs go "
                             "(kept between runs: compiles are cached)")
    parser.add_argument("--json", default=os.path.join(RESULTS, "latest.json"))
    parser.add_argument("--plot", default=os.path.join(RESULTS, "ratios.png"))
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--reps", type=int,
                        help="runs per figure and side (default: by profile)")
    parser.add_argument("--bandwidth-mib", type=int,
                        help="size of the map(tofrom) array in MiB "
                             "(default 1024; 64 with --quick)")
    parser.add_argument("--only",
                        choices=("runtime", "launch", "overlap", "link",
                                 "indirect", "stream"),
                        action="append",
                        help="measure only these groups (repeatable)")
    parser.add_argument("--link-programs-with", choices=("ours", "upstream"),
                        default="ours",
                        help="whose driver links the runtime benchmark "
                             "programs (default ours; both runtimes run the "
                             "same file either way)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="parallel compiles (default 2)")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds before one program run is abandoned")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only the table")
    args = parser.parse_args(argv)
    if args.reps is not None and args.reps < 1:
        parser.error("--reps must be at least 1")
    if args.bandwidth_mib is not None and args.bandwidth_mib < 1:
        parser.error("--bandwidth-mib must be at least 1")
    return args


def build_project(build_dir, jobs, log):
    """Configures (if needed) and builds the project, so the measured
    components are the current sources. Returns None or why it failed."""
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        log("configuring %s" % build_dir)
        proc = subprocess.run(["cmake", "-S", REPO, "-B", build_dir, "-G",
                               "Ninja", "-DCMAKE_BUILD_TYPE=Release"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            return "cmake failed:\n" + proc.stderr[-2000:]
    log("building %s (ninja -j%d)" % (build_dir, jobs))
    proc = subprocess.run(["ninja", "-C", build_dir, "-j%d" % jobs],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return "ninja failed:\n" + (proc.stdout + proc.stderr)[-2000:]
    return None


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    profile = PROFILES[args.profile]
    if args.reps:
        profile.reps = args.reps
    if args.bandwidth_mib:
        profile.bandwidth_mib = args.bandwidth_mib
    started = time.time()

    def log(message):
        if not args.quiet:
            print("[bench %5.1fs] %s" % (time.time() - started, message),
                  file=sys.stderr, flush=True)

    notes = []
    if not args.no_project_build:
        problem = build_project(args.build_dir, args.jobs, log)
        if problem:
            # Measure whatever the tree holds; missing parts show as n/a.
            log("project build failed; measuring what is built:\n" + problem)
            notes.append("the project build failed; figures use what was "
                         "already built")
    toolchain = Toolchain(args.build_dir, args.work_dir, args.jobs)
    about = machine.describe(toolchain.llvm_version(), REPO,
                             toolchain.build_dir)

    groups = args.only or ["runtime", "launch", "overlap", "indirect", "link",
                           "stream"]
    figures, runtime_info = [], None
    if "runtime" in groups:
        rt = runtime_figures(profile)
        runtime_info = measure_runtime(toolchain, profile, rt,
                                       args.link_programs_with, log,
                                       args.timeout)
        notes += runtime_info["notes"]
        figures += rt
    if "launch" in groups:
        la = launch_figures(profile)
        measure_launch(toolchain, profile, la, args.link_programs_with, log,
                       args.timeout)
        figures += la
    if "overlap" in groups:
        ov = overlap_figures(profile)
        measure_overlap(toolchain, profile, ov, args.link_programs_with, log,
                        args.timeout)
        figures += ov
    if "indirect" in groups:
        ind = indirect_figures(profile)
        measure_indirect(toolchain, profile, ind, log, args.timeout)
        figures += ind
    if "link" in groups:
        ln = link_figures(profile)
        measure_link(toolchain, profile, ln, log, args.timeout)
        figures += ln
    if "stream" in groups:
        st = stream_figures(profile)
        measure_stream(toolchain, profile, st, log, args.timeout)
        figures += st

    # A busy machine makes every figure noisier; say how busy it was.
    about["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    title = "bench/run (%s profile, %d runs per figure and side)" % (
        profile.name, profile.reps)
    lines = [title] + machine.format_lines(about) + [
        "Upstream: Debian's LLVM 22 (libomptarget, clang-linker-wrapper); "
        "ours: %s" % toolchain.build_dir]
    if runtime_info and runtime_info["linked_by"]:
        lines.append("Runtime programs linked by the %s wrapper; each runs "
                     "unchanged on both runtimes (LD_LIBRARY_PATH)."
                     % runtime_info["linked_by"])
    lines += ["", report.format_table(figures), ""]
    lines.append("Ours/upstream is the ratio of medians; the verdict reads it "
                 "in the figure's direction (lower time or higher bandwidth "
                 "is better).\n\"Runs overlap\": the min-max ranges of the "
                 "two sides overlap, so the difference may be noise.")
    lines += ["Note: " + n for n in notes]

    document = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "profile": profile.to_json(),
        "machine": about,
        "build_dir": toolchain.build_dir,
        "runtime_programs_linked_by": runtime_info and runtime_info["linked_by"],
        "figures": [f.to_json() for f in figures],
        "notes": notes,
        "seconds": round(time.time() - started, 1),
    }
    report.write_json(args.json, document)
    lines.append("JSON: %s" % args.json)
    if not args.no_plot:
        problem = plot_speedups(figures, args.plot, "%s; %s" % (
            title, about["cpu"]))
        lines.append("Plot: %s" % args.plot if problem is None else
                     "Plot: not written (%s)" % problem)
    print("\n".join(lines))
    return 0
