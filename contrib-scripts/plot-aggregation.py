#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures and tables of the in-network aggregation examples (doc/aggregation.rst).

  plot-aggregation.py shared-cluster OUT.png DIR [DIR ...]
      from examples/panama-shared-cluster --out=DIR (one DIR per fat-tree size, one row of
      panels each): short-flow p99 FCT and mean FCT vs aggregation load per scheme, and the
      mean training iteration time per scheme relative to ring all-reduce (the mean over seeds
      is drawn; bars span the seeds' minimum to maximum).
  plot-aggregation.py table DIR [DIR ...]
      the numbers behind the figure: per k, load and scheme, mean over seeds of the iteration
      time (and the pooled p50/p99 of the per-iteration times), the speed-up over ring, the
      short-flow mean and p99 FCT and their ratios ring / scheme (ranges over seeds).
  plot-aggregation.py line-rate OUT.png RUN.csv [RUN.csv ...]
      from examples/ina-line-rate --csv (one panel per file, e.g. one per --clock): measured
      per-worker aggregation goodput vs adder lanes, one line per port rate, with
      min(line rate, adder throughput) and the goodput of a line-rate datapath.
"""

import csv
import math
import os
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMES = ["ring", "switchml", "switchml-lb", "panama", "ideal"]
STYLE = {
    "ring": dict(color="tab:gray", marker="o"),
    "switchml": dict(color="tab:orange", marker="s"),
    "switchml-lb": dict(color="tab:red", marker="^"),
    "panama": dict(color="tab:blue", marker="D"),
    "ideal": dict(color="tab:green", marker="v", ls="--"),
}


def nearest_rank(values, p):
    v = sorted(values)
    k = max(1, math.ceil(p / 100.0 * len(v)))
    return v[k - 1]


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def read_run(directory):
    """summary rows and per-iteration times of one panama-shared-cluster --out directory."""
    summary = read_csv(os.path.join(directory, "summary.csv"))
    if not summary:
        sys.exit("%s/summary.csv has no rows" % directory)
    iters = defaultdict(list)  # (load, scheme) -> [s]
    path = os.path.join(directory, "iterations.csv")
    if os.path.exists(path):
        for r in read_csv(path):
            if r.get("duration_s") in (None, ""):
                continue  # a run cut short leaves its last line incomplete
            iters[(float(r["load"]), r["scheme"])].append(float(r["duration_s"]))
    return summary, iters


def by_load(summary, key):
    """scheme -> load -> [value per seed] of a summary column."""
    out = defaultdict(lambda: defaultdict(list))
    for r in summary:
        out[r["scheme"]][float(r["load"])].append(float(r[key]))
    return out


def ratios(summary, key):
    """scheme -> load -> [ring / scheme per seed] of a summary column."""
    ring = {(float(r["load"]), r["seed"]): float(r[key]) for r in summary if r["scheme"] == "ring"}
    out = defaultdict(lambda: defaultdict(list))
    for r in summary:
        k = (float(r["load"]), r["seed"])
        v = float(r[key])
        if k in ring and v > 0:
            out[r["scheme"]][k[0]].append(ring[k] / v)
    return out


def draw(ax, data, scale, ylabel, log=False):
    for scheme in SCHEMES:
        if scheme not in data:
            continue
        loads = sorted(data[scheme])
        ys = [mean(data[scheme][x]) * scale for x in loads]
        lo = [y - min(data[scheme][x]) * scale for x, y in zip(loads, ys)]
        hi = [max(data[scheme][x]) * scale - y for x, y in zip(loads, ys)]
        ax.errorbar(loads, ys, yerr=[lo, hi], label=scheme, capsize=3, ms=4, **STYLE[scheme])
    ax.set_xlabel("aggregation load")
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.grid(alpha=0.3)


def plot_shared_cluster(out, dirs):
    fig, axes = plt.subplots(len(dirs), 3, figsize=(15, 4.0 * len(dirs)), squeeze=False)
    for row, d in zip(axes, dirs):
        summary, _ = read_run(d)
        k = summary[0]["k"]
        seeds = sorted({r["seed"] for r in summary})
        hosts = int(k) ** 3 // 4
        draw(row[0], by_load(summary, "short_p99_fct_s"), 1e6, "7 KB flows: p99 FCT (us)", True)
        row[0].set_title("k=%s (%d hosts): short-flow p99 FCT" % (k, hosts))
        draw(row[1], by_load(summary, "short_mean_fct_s"), 1e6, "7 KB flows: mean FCT (us)", True)
        row[1].set_title("short-flow mean FCT (%d seeds)" % len(seeds))
        speed = ratios(summary, "mean_iter_s")
        draw(row[2], speed, 1.0, "iteration-time speed-up over ring")
        row[2].axhline(1.0, color="grey", lw=0.8)
        row[2].set_title("mean training iteration time, ring / scheme")
        for ax in row:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def span(values, fmt):
    if not values:
        return "-"
    if len(values) == 1:
        return fmt % values[0]
    return (fmt + " [" + fmt + "-" + fmt + "]") % (mean(values), min(values), max(values))


def print_table(dirs):
    for d in dirs:
        summary, iters = read_run(d)
        k = summary[0]["k"]
        seeds = sorted({r["seed"] for r in summary})
        print("k=%s, seeds %s, %s" % (k, ",".join(seeds), d))
        print("%-5s %-12s %5s %9s %9s %9s %-20s %9s %9s %-20s %-20s" % (
            "load", "scheme", "jobs", "iter ms", "p50 ms", "p99 ms", "speed-up vs ring",
            "short us", "p99 us", "mean FCT ring/x", "p99 FCT ring/x"))
        speed = ratios(summary, "mean_iter_s")
        fmean = ratios(summary, "short_mean_fct_s")
        fp99 = ratios(summary, "short_p99_fct_s")
        loads = sorted({float(r["load"]) for r in summary})
        for load in loads:
            for scheme in SCHEMES:
                rows = [r for r in summary if r["scheme"] == scheme and float(r["load"]) == load]
                if not rows:
                    continue
                it = iters.get((load, scheme), [])
                print("%-5g %-12s %5s %9.3f %9s %9s %-20s %9.1f %9.1f %-20s %-20s" % (
                    load, scheme, "/".join(sorted({r["jobs"] for r in rows})),
                    mean([float(r["mean_iter_s"]) for r in rows]) * 1e3,
                    "%.3f" % (nearest_rank(it, 50) * 1e3) if it else "-",
                    "%.3f" % (nearest_rank(it, 99) * 1e3) if it else "-",
                    span(speed[scheme][load], "%.2f"),
                    mean([float(r["short_mean_fct_s"]) for r in rows]) * 1e6,
                    mean([float(r["short_p99_fct_s"]) for r in rows]) * 1e6,
                    span(fmean[scheme][load], "%.2f"), span(fp99[scheme][load], "%.2f")))
        print()


def plot_line_rate(out, paths):
    fig, axes = plt.subplots(1, len(paths), figsize=(6.0 * len(paths), 4.6), squeeze=False)
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for ax, path in zip(axes[0], paths):
        rows = read_csv(path)
        data = OrderedDict()
        for r in rows:
            data.setdefault(float(r["rate_gbps"]), []).append(r)
        for (rate, rs), c in zip(data.items(), colors):
            lanes = [float(r["lanes"]) for r in rs]
            ax.plot(lanes, [float(r["measured_gbps"]) for r in rs], "o-", color=c,
                    label="%g Gb/s port: simulated" % rate)
            ax.plot(lanes, [float(r["predicted_gbps"]) for r in rs], "x", color="k", ms=5,
                    label="min(line rate, adders)" if c == colors[0] else None)
            ax.axhline(float(rs[0]["line_rate_gbps"]), color=c, lw=0.6, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("adder lanes (FP32)")
        ax.set_ylabel("per-worker aggregation goodput (Gb/s)")
        ax.set_title("clock %s MHz (dashed: line-rate datapath)" % rows[0]["clock_mhz"])
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    cmd = argv[1]
    if cmd == "shared-cluster" and len(argv) >= 4:
        plot_shared_cluster(argv[2], argv[3:])
    elif cmd == "table":
        print_table(argv[2:])
    elif cmd == "line-rate" and len(argv) >= 4:
        plot_line_rate(argv[2], argv[3:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
