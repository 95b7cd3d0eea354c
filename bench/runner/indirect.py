"""Indirect-call lookup figures, measured by bench/indirect (issue 7's work).

bench/indirect/run.sh builds LookupBench against the build tree's CPU device
runtime and prints, per table size and key layout, the nanoseconds of one
lookup by our `__llvm_omp_indirect_call_lookup` ("ours") and by a plain
binary search over the same sorted table ("binary"). Upstream's device
runtime searches its table that way (openmp/device Misc.cpp), but it is
built only for GPUs, so the re-implemented binary search stands in for it.
Only hits are shown: upstream also returns early for addresses outside the
table's range, which the stand-in does not, so its misses would be unfair.
"""

import os
import subprocess

from .execute import clean_environment
from .figures import Figure

INDIRECT_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "indirect")
RUN_SCRIPT = os.path.join(INDIRECT_DIR, "run.sh")

# (layout, entries) pairs shown as rows.
SHOWN = (("uniform", 1000), ("uniform", 100000), ("clustered", 100000))


def _key(layout, entries):
    return "indirect.hit.%s.%d" % (layout, entries)


def indirect_figures(profile):
    return [Figure(_key(layout, entries),
                   "indirect-call lookup (hit), %s entries, %s"
                   % (format(entries, ","), layout),
                   "ns", "lower", "runtime") for layout, entries in SHOWN]


def _parse(output):
    """{(layout, entries): (binary ns, ours ns)} for the hit rows."""
    rows = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) != 6 or parts[2] != "hit":
            continue
        try:
            rows[(parts[0], int(parts[1]))] = (float(parts[3]), float(parts[4]))
        except ValueError:
            continue
    return rows


def measure_indirect(toolchain, profile, figures, log, timeout):
    def unavailable(reason):
        for f in figures:
            for side in ("upstream", "ours"):
                f.mark_unavailable(side, reason)

    if not os.path.exists(RUN_SCRIPT):
        unavailable("bench/indirect/run.sh is not there yet")
        return
    by_key = {f.key: f for f in figures}
    log("indirect-call lookup: bench/indirect/run.sh, %d runs" % profile.reps)
    for _ in range(profile.reps):
        try:
            proc = subprocess.run(
                ["sh", RUN_SCRIPT, toolchain.build_dir,
                 str(profile.indirect_calls)],
                capture_output=True, text=True, timeout=timeout,
                env=clean_environment())
        except subprocess.TimeoutExpired:
            unavailable("bench/indirect/run.sh timed out")
            return
        rows = _parse(proc.stdout)
        if proc.returncode != 0 or not rows:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            unavailable("bench/indirect/run.sh failed: " + tail[:120])
            return
        for layout, entries in SHOWN:
            figure = by_key[_key(layout, entries)]
            if (layout, entries) not in rows:
                figure.mark_unavailable("upstream", "not in run.sh output")
                figure.mark_unavailable("ours", "not in run.sh output")
                continue
            binary, ours = rows[(layout, entries)]
            figure.add("upstream", binary)
            figure.add("ours", ours)
