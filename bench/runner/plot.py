"""A PNG of how ours compares with upstream on every figure.

Bars show the speedup of ours (upstream time / our time, or our bandwidth /
upstream's) from the medians, on a log scale centred on 1, so "twice as
fast" and "twice as slow" are equally long; whiskers show the spread of the
runs. Figures a side could not measure are listed as n/a.
"""

import os


def plot_speedups(figures, path, title):
    """Writes the plot; returns None, or why it could not (the run goes on
    without a plot)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError as e:
        return "matplotlib is not available (%s); install python3-matplotlib" % e

    shown = [f for f in figures if f.group != "control"]
    labels = [f.label for f in shown]
    speedups = [f.speedup() for f in shown]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(shown) + 1.6))
    positions = range(len(shown))
    values = [s if s is not None else 1.0 for s in speedups]
    colors = ["#bbbbbb" if s is None else ("#2a7ab9" if s >= 1 else "#d1495b")
              for s in speedups]
    ax.barh(positions, [v - 1.0 for v in values], left=1.0,
            color=colors, height=0.6)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(
        matplotlib.ticker.FuncFormatter(lambda x, _: "%gx" % x))
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_yticks(list(positions))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    spreads = [x for f in shown for x in (_speedup_spread(f) or [])]
    low = min(values + spreads + [0.5])
    high = max(values + spreads + [2.0])
    ax.set_xlim(low / 1.5, high * 1.5)
    # Whiskers: the widest spread the runs allow (best run of one side
    # against the worst of the other).
    for y, f in zip(positions, shown):
        spread = _speedup_spread(f)
        if spread:
            ax.plot(spread, [y, y], color="black", linewidth=0.8)
    for y, s in zip(positions, speedups):
        text = "n/a" if s is None else "%.2fx" % s
        ax.text(max(values[y], 1.0) * 1.06, y - 0.22, text, va="center",
                fontsize=8)
    ax.set_xlabel("speedup of ours over upstream (log scale; >1: ours better)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)
    return None


def _speedup_spread(figure):
    """[worst, best] speedup over the runs of `figure`, or None."""
    ours, upstream = figure.summary("ours"), figure.summary("upstream")
    if not ours or not upstream or min(ours["min"], upstream["min"]) <= 0:
        return None
    if figure.better == "lower":
        return [upstream["min"] / ours["max"], upstream["max"] / ours["min"]]
    return [ours["min"] / upstream["max"], ours["max"] / upstream["min"]]
