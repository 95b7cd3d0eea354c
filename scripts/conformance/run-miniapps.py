#!/usr/bin/env python3
"""Builds public OpenMP-offload mini-apps the way their users do (their own
CMake, the compiler overridden) with our toolchain and with Debian's LLVM 22,
runs them on the CPU device with OMP_TARGET_OFFLOAD=MANDATORY, interleaved
round by round, checks each run's answer, and prints medians and ratios.

The sources are not part of this project: clone them yourself and name the
checkouts (any subset):

  scripts/conformance/run-miniapps.py \\
      --app miniweather=~/src/miniWeather --app tealeaf=~/src/TeaLeaf \\
      --app minibude=~/src/miniBUDE [--rounds 5] [--gpu-arch sm_90]

  miniweather  https://github.com/mrnorman/miniWeather  (c/, the OpenMP 4.5
               offload version: every kernel `nowait` + `depend`; needs
               mpicxx and libpnetcdf-dev)
  tealeaf      https://github.com/UoB-HPC/TeaLeaf  (MODEL=omp, OFFLOAD=ON)
  minibude     https://github.com/UoB-HPC/miniBUDE  (MODEL=omp, OFFLOAD=ON)

With --gpu-arch, each app is also built with our shims for that GPU
(sm_90, gfx90a...) and the build time is reported: nothing runs on a GPU
here.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LLVM_ROOT = "/usr/lib/llvm-22"
CPU_TRIPLE = "x86_64-pc-linux-gnu"
SIDES = ("upstream", "ours")


def sh(argv, cwd=None, env=None, log=None):
    """Runs argv; returns (exit code, seconds, output)."""
    start = time.monotonic()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - start
    if log:
        with open(log, "a") as out:
            out.write("$ %s\n%s\n" % (" ".join(argv), proc.stdout))
    return proc.returncode, seconds, proc.stdout


class Toolchain:
    """The compiler and link flags of one side."""

    def __init__(self, side, build_dir, work_dir):
        self.side = side
        if side == "ours":
            self.cxx = os.path.join(build_dir, "bin", "clang++")
            self.link_flags = ""
            self.runtime_dir = os.path.join(build_dir, "lib")
        else:
            self.cxx = os.path.join(LLVM_ROOT, "bin", "clang++")
            # Debian ships libomptarget.so.22.1 without the development
            # link the driver looks for.
            link_dir = os.path.join(work_dir, "upstream-lib")
            os.makedirs(link_dir, exist_ok=True)
            link = os.path.join(link_dir, "libomptarget.so")
            if not os.path.lexists(link):
                os.symlink(os.path.join(LLVM_ROOT, "lib",
                                        "libomptarget.so.22.1"), link)
            self.link_flags = "-L%s -Wl,-rpath,%s" % (
                link_dir, os.path.join(LLVM_ROOT, "lib"))
            self.runtime_dir = os.path.join(LLVM_ROOT, "lib")

    def offload_flags(self, arch=None):
        if arch is None:
            return ["-fopenmp", "-fopenmp-targets=" + CPU_TRIPLE]
        return ["-fopenmp", "--offload-arch=" + arch]

    def run_env(self):
        env = dict(os.environ)
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
        env["LD_LIBRARY_PATH"] = self.runtime_dir
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        return env


class App:
    """How one mini-app is configured, built, run and checked."""
    name = ""
    binary = ""
    subdir = ""
    target = None  # the CMake target to build; None: all

    def __init__(self, source):
        self.source = os.path.abspath(os.path.expanduser(source))

    def cmake_args(self, tc, flags):
        raise NotImplementedError

    def run_argv(self, build):
        return [os.path.join(build, self.binary)]

    def prepare_run(self, build):
        """Copies input files next to the binary."""

    def check(self, output):
        """None when the run's answer is right, else why not."""
        raise NotImplementedError


class MiniWeather(App):
    name, binary, subdir = "miniweather", "openmp45", "c"
    target = "openmp45"
    # 200 x 100 cells, 200 s of simulated time, no output files.
    DEFS = ["-DNX=200", "-DNZ=100", "-DSIM_TIME=200", "-DOUT_FREQ=-1",
            "-DDATA_SPEC=DATA_SPEC_THERMAL"]

    def cmake_args(self, tc, flags):
        mpi = lambda what: sh(["mpicxx", "--showme:" + what])[2].strip()
        return self.DEFS + [
            "-DCMAKE_CXX_COMPILER=" + tc.cxx,
            "-DCXXFLAGS=-O3 " + mpi("compile"),
            "-DOPENMP45_FLAGS=" + " ".join(flags),
            "-DLDFLAGS=" + " ".join(filter(None, [tc.link_flags, mpi("link"),
                                                  "-lpnetcdf"]))]

    def check(self, output):
        # The code's own test (build/check_output.sh): mass conserved,
        # total energy decreasing by a little.
        values = dict(line.split()[:2] for line in output.splitlines()
                      if line.startswith(("d_mass", "d_te")))
        try:
            mass = float(values["d_mass:"])
            energy = float(values["d_te:"])
        except (KeyError, ValueError):
            return "no d_mass/d_te lines"
        if abs(mass) >= 1e-13 or not -4.5e-5 < energy < 0:
            return "d_mass %g, d_te %g out of tolerance" % (mass, energy)
        return None


class TeaLeaf(App):
    name, binary = "tealeaf", "omp-tealeaf"
    # A deck of its own benchmark set that tea.problems has a reference for.
    DECK = "\n".join([
        "*tea",
        "state 1 density=100.0 energy=0.0001",
        "state 2 density=0.1 energy=25.0 geometry=rectangle xmin=0.0 "
        "xmax=1.0 ymin=1.0 ymax=2.0",
        "state 3 density=0.1 energy=0.1 geometry=rectangle xmin=1.0 "
        "xmax=6.0 ymin=1.0 ymax=2.0",
        "state 4 density=0.1 energy=0.1 geometry=rectangle xmin=5.0 "
        "xmax=6.0 ymin=1.0 ymax=8.0",
        "state 5 density=0.1 energy=0.1 geometry=rectangle xmin=5.0 "
        "xmax=10.0 ymin=7.0 ymax=8.0",
        "x_cells=1000", "y_cells=1000", "xmin=0.0", "ymin=0.0",
        "xmax=10.0", "ymax=10.0", "initial_timestep=0.004", "end_step=2",
        "max_iters=10000", "use_cg", "eps 1.0e-15", "test_problem 5",
        "use_c_kernels", "*endtea", ""])

    def cmake_args(self, tc, flags):
        return ["-DMODEL=omp", "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_CXX_COMPILER=" + tc.cxx, "-DOFFLOAD=ON",
                "-DOFFLOAD_FLAGS=" + ";".join(flags),
                "-DCMAKE_EXE_LINKER_FLAGS=" + tc.link_flags]

    def prepare_run(self, build):
        with open(os.path.join(build, "tea.in"), "w") as deck:
            deck.write(self.DECK)
        shutil.copy(os.path.join(self.source, "tea.problems"), build)

    def check(self, output):
        if "This run PASSED" in output:
            return None
        return "the code's own check did not pass"


class MiniBUDE(App):
    name, binary = "minibude", "omp-bude"

    def cmake_args(self, tc, flags):
        # Its fasten.hpp writes `template` before a name without a template
        # argument list, which clang 22 rejects by default (both sides).
        return ["-DMODEL=omp", "-DCMAKE_BUILD_TYPE=Release",
                "-DCXX_EXTRA_FLAGS="
                "-Wno-error=missing-template-arg-list-after-template-kw",
                "-DCMAKE_CXX_COMPILER=" + tc.cxx, "-DOFFLOAD=ON",
                "-DOFFLOAD_FLAGS=" + ";".join(flags),
                "-DCMAKE_EXE_LINKER_FLAGS=" + tc.link_flags]

    def run_argv(self, build):
        # 4,096 poses of its first deck, 3 timed iterations after its 2
        # warm-up ones.
        return [os.path.join(build, self.binary), "--deck",
                os.path.join(self.source, "data", "bm1"), "-n", "4096",
                "-i", "3"]

    def check(self, output):
        # It compares its energies with the deck's reference itself.
        for line in output.splitlines():
            if "outcome:" in line:
                return None if "valid: true" in line else line.strip()
        return "no 'outcome:' line"


APPS = {cls.name: cls for cls in (MiniWeather, TeaLeaf, MiniBUDE)}


def build_app(app, tc, work_dir, arch=None):
    """Configures and builds; returns (build dir, seconds) or raises."""
    tag = "%s-%s-%s" % (app.name, tc.side, arch or "cpu")
    build = os.path.join(work_dir, tag)
    log = os.path.join(work_dir, tag + ".log")
    shutil.rmtree(build, ignore_errors=True)
    if os.path.exists(log):
        os.remove(log)
    source = os.path.join(app.source, app.subdir)
    code, _, _ = sh(["cmake", "-S", source, "-B", build] +
                    app.cmake_args(tc, tc.offload_flags(arch)), log=log)
    if code == 0:
        target = ["--target", app.target] if app.target else []
        code, seconds, _ = sh(["cmake", "--build", build, "-j2"] + target,
                              log=log)
    if code != 0:
        raise RuntimeError("%s: build failed, see %s" % (tag, log))
    return build, seconds


def measure(apps, sides, args):
    """Runs every app on both sides, interleaved; returns {app: {side:
    [seconds]}} and prints each run."""
    times = {app.name: {tc.side: [] for tc in sides} for app in apps}
    builds = {}
    for app in apps:
        for tc in sides:
            try:
                builds[app.name, tc.side] = build_app(app, tc,
                                                      args.work_dir)[0]
                app.prepare_run(builds[app.name, tc.side])
            except RuntimeError as error:
                print("  %s" % error)
    for round_ in range(args.rounds):
        for app in apps:
            for tc in sides:
                build = builds.get((app.name, tc.side))
                if not build:
                    continue
                code, seconds, output = sh(app.run_argv(build), cwd=build,
                                           env=tc.run_env())
                why = "exit code %d" % code if code else app.check(output)
                print("  round %d %-12s %-9s %7.2f s %s" % (
                    round_ + 1, app.name, tc.side, seconds,
                    "ok" if why is None else "WRONG: " + why))
                if why is None:
                    times[app.name][tc.side].append(seconds)
    return times


def report(times):
    print("\n| App | Upstream: median [min-max] s | Ours: median [min-max] s"
          " | Ours/upstream |")
    print("|---|---|---|---|")
    for name, by_side in times.items():
        cells = []
        for side in SIDES:
            runs = by_side.get(side, [])
            cells.append("%.2f [%.2f-%.2f] (%d runs)" % (
                statistics.median(runs), min(runs), max(runs), len(runs))
                if runs else "n/a")
        up, ours = by_side.get("upstream"), by_side.get("ours")
        ratio = ("%.2f" % (statistics.median(ours) / statistics.median(up))
                 if up and ours else "n/a")
        print("| %s | %s | %s | %s |" % (name, cells[0], cells[1], ratio))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--app", action="append", default=[],
                        metavar="NAME=DIR", help="one of: " +
                        ", ".join(APPS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work-dir", default="/tmp/offload-miniapps")
    parser.add_argument("--gpu-arch", action="append", default=[],
                        help="also build with our shims for this GPU")
    args = parser.parse_args()
    apps = []
    for spec in args.app:
        name, _, path = spec.partition("=")
        if name not in APPS or not path:
            parser.error("--app wants NAME=DIR with NAME one of %s: %r"
                         % (", ".join(APPS), spec))
        if not os.path.isdir(os.path.expanduser(path)):
            parser.error("%s: no such checkout: %s" % (name, path))
        apps.append(APPS[name](path))
    if not apps:
        parser.error("name at least one checkout with --app")
    os.makedirs(args.work_dir, exist_ok=True)
    sides = [Toolchain(side, args.build_dir, args.work_dir)
             for side in SIDES]
    report(measure(apps, sides, args))
    for arch in args.gpu_arch:
        for app in apps:
            try:
                _, seconds = build_app(app, sides[1], args.work_dir, arch)
                print("%s for %s with our shims: built in %.1f s" % (
                    app.name, arch, seconds))
            except RuntimeError as error:
                print("%s for %s: %s" % (app.name, arch, error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
