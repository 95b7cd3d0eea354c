"""The table printed at the end of a run, and the JSON written beside it."""

import json
import os


def _number(value):
    if value is None:
        return "-"
    magnitude = abs(value)
    if magnitude >= 100:
        return "%.0f" % value
    if magnitude >= 10:
        return "%.1f" % value
    if magnitude >= 1:
        return "%.2f" % value
    return "%.3g" % value


def _cell(figure, side):
    summary = figure.summary(side)
    if summary is None:
        # The whole reason is in the JSON; the table keeps its start.
        reason = figure.reason(side)
        return "n/a: " + (reason if len(reason) <= 60 else reason[:57] + "...")
    return "%s [%s-%s]" % (_number(summary["median"]), _number(summary["min"]),
                           _number(summary["max"]))


HEADERS = ("Figure", "Unit", "Upstream: median [min-max]",
           "Ours: median [min-max]", "Ours/upstream", "Verdict")


def table_rows(figures):
    rows = []
    for f in figures:
        ratio = f.ratio()
        rows.append((f.label, f.unit + (" (higher is better)"
                                        if f.better == "higher" else ""),
                     _cell(f, "upstream"), _cell(f, "ours"),
                     "n/a" if ratio is None else "%.3f" % ratio,
                     f.verdict() if f.group != "control" else
                     "control: should be ~1"))
    return rows


def format_table(figures):
    """A Markdown table, readable in a terminal and pasteable into docs/."""
    rows = [HEADERS] + table_rows(figures)
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in
                                      zip(r, widths)) + " |"
    out = [line(rows[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows[1:]]
    return "\n".join(out)


def write_json(path, document):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(document, f, indent=2, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)
