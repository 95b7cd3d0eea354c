"""Figures: what was measured, on which side, and how the sides compare."""

import statistics


class Figure:
    """One row of the table: the same measurement taken on both sides.

    `better` is "lower" for times and "higher" for bandwidths. A side that
    could not be measured keeps a reason instead of samples; it never gets a
    number it did not produce.
    """

    def __init__(self, key, label, unit, better, group):
        self.key, self.label, self.unit = key, label, unit
        self.better, self.group = better, group
        self.samples = {"upstream": [], "ours": []}
        self.unavailable = {}
        self.note = ""

    def add(self, side, value):
        self.samples[side].append(value)

    def mark_unavailable(self, side, reason):
        # The first reason is the cause; later ones are its consequences.
        self.unavailable.setdefault(side, reason)

    def summary(self, side):
        """{median, min, max, runs} or None when the side has no number."""
        if side in self.unavailable or not self.samples[side]:
            return None
        values = self.samples[side]
        return {"median": statistics.median(values), "min": min(values),
                "max": max(values), "runs": len(values)}

    def reason(self, side):
        if side in self.unavailable:
            return self.unavailable[side]
        if not self.samples[side]:
            return "not measured"
        return None

    def ratio(self):
        """Median of ours divided by median of upstream, or None."""
        ours, upstream = self.summary("ours"), self.summary("upstream")
        if not ours or not upstream or upstream["median"] == 0:
            return None
        return ours["median"] / upstream["median"]

    def speedup(self):
        """How many times better ours is (>1: ours better, <1: ours worse),
        whichever direction `better` points."""
        ratio = self.ratio()
        if ratio is None or ratio == 0:
            return None
        return 1.0 / ratio if self.better == "lower" else ratio

    def ranges_overlap(self):
        """True when some run of each side lies within the other's min-max:
        the difference of the medians may be noise."""
        ours, upstream = self.summary("ours"), self.summary("upstream")
        if not ours or not upstream:
            return False
        return ours["min"] <= upstream["max"] and upstream["min"] <= ours["max"]

    def verdict(self, tolerance=0.03):
        speedup = self.speedup()
        if speedup is None:
            return ""
        if abs(speedup - 1.0) <= tolerance:
            return "same (within 3%)"
        text = ("ours %.2fx better" % speedup if speedup > 1 else
                "ours %.2fx WORSE" % (1.0 / speedup))
        return text + (" (runs overlap)" if self.ranges_overlap() else "")

    def to_json(self):
        return {
            "key": self.key, "label": self.label, "unit": self.unit,
            "better": self.better, "group": self.group,
            "upstream": self.summary("upstream"), "ours": self.summary("ours"),
            "samples": self.samples,
            "unavailable": self.unavailable,
            "ratio_ours_over_upstream": self.ratio(),
            "speedup_of_ours": self.speedup(),
            "verdict": self.verdict(),
            "ranges_overlap": self.ranges_overlap(),
            "note": self.note,
        }


def mark_all_unavailable(figures, side, reason):
    """Marks every figure of a group unavailable on one side."""
    for f in figures:
        f.mark_unavailable(side, reason)


def mark_sides_missing(toolchain, figures, sides, piece):
    """Marks the group unavailable on each side whose toolchain lacks
    \p piece ("runtime", "wrapper"...), with the toolchain's reason."""
    for side in sides:
        reason = toolchain.missing(side, piece)
        if reason:
            mark_all_unavailable(figures, side, reason)
