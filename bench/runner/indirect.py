"""The indirect-call lookup figure, measured by bench/indirect (issue 7).

That benchmark belongs to the indirect-calls work; this runner only shows
its figures in the table when it is there.
"""

import os

from .figures import Figure

INDIRECT_DIR = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "indirect")


def indirect_figures(profile):
    return [Figure("indirect.lookup", "indirect-call lookup, per call", "ns",
                   "lower", "runtime")]


def measure_indirect(toolchain, profile, figures, log, timeout):
    if not os.path.isdir(INDIRECT_DIR):
        for f in figures:
            for side in ("upstream", "ours"):
                f.mark_unavailable(side, "bench/indirect/ is not there yet")
        return
    for f in figures:
        for side in ("upstream", "ours"):
            f.mark_unavailable(side, "bench/indirect/ has no runner interface "
                               "this runner knows")
