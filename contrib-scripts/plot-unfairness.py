#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures of examples/dcqcn-unfairness (doc/rdma.rst).

  plot-unfairness.py PREFIX OUT [--run N] [--start phase|offset] [--configs a,b,...]

PREFIX is the --out prefix of dcqcn-unfairness (PREFIX-iterations.csv, PREFIX-runs.csv).
Writes
  OUT-series.png      per-iteration time of every job and the largest overlap, one panel per
                      configuration (seed --run, start --start)
  OUT-phase.png       phase of job 1 within job 0's cycle over the iterations (0 or 1 = in
                      phase), one line per configuration
  OUT-sweep.png       iterations until the jobs interleave (median and range over the seeds;
                      "never" drawn at the top) and the steady-state speed-up over fair sharing
                      (mean and range over the seeds) against the aggressiveness a of job 0
"""

import argparse
import csv
import math
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def series(rows, run, start, configs):
    """config -> job -> (iterations, duration_ms, overlap, phase)"""
    out = OrderedDict()
    for r in rows:
        if r["run"] != str(run) or r["start"] != start:
            continue
        if configs and r["config"] not in configs:
            continue
        job = out.setdefault(r["config"], OrderedDict()).setdefault(
            int(r["job"]), ([], [], [], []))
        job[0].append(int(r["iteration"]))
        job[1].append(float(r["duration_ms"]))
        job[2].append(float(r["overlap"]))
        job[3].append(float(r["phase"]) if r["phase"] else math.nan)
    return out


def plot_series(data, out, run, start):
    n = len(data)
    fig, axes = plt.subplots(n, 1, figsize=(10, 2.4 * n), sharex=True, squeeze=False)
    for ax, (config, jobs) in zip(axes[:, 0], data.items()):
        for j, (it, dur, _, _) in jobs.items():
            ax.plot(it, dur, lw=0.8, label="job %d" % j)
        ax.set_ylabel("iteration (ms)")
        ax.set_title("%s (start %s, RngRun %s)" % (config, start, run), fontsize=9)
        ov = ax.twinx()
        k = min(len(v[0]) for v in jobs.values())
        largest = [max(v[2][i] for v in jobs.values()) for i in range(k)]
        ov.fill_between(range(k), largest, step="mid", color="grey", alpha=0.25,
                        label="largest overlap")
        ov.set_ylim(0, 1)
        ov.set_ylabel("overlap (fraction)")
        ax.legend(loc="upper right", fontsize=7)
    axes[-1, 0].set_xlabel("iteration")
    fig.tight_layout()
    fig.savefig(out + "-series.png", dpi=110)
    plt.close(fig)


def plot_phase(data, out, run, start):
    fig, ax = plt.subplots(figsize=(10, 3.6))
    for config, jobs in data.items():
        if 1 in jobs:
            it, _, _, ph = jobs[1]
            ax.plot(it, ph, ".", ms=2.5, label=config)
    ax.set_ylim(0, 1)
    ax.set_xlabel("iteration of job 0")
    ax.set_ylabel("phase of job 1 in job 0's cycle")
    ax.set_title("start %s, RngRun %s (0 or 1 = in phase)" % (start, run), fontsize=9)
    ax.legend(fontsize=7, markerscale=3, ncol=3)
    fig.tight_layout()
    fig.savefig(out + "-phase.png", dpi=110)
    plt.close(fig)


def plot_sweep(runs, out):
    iterations = None
    by = defaultdict(lambda: defaultdict(list))  # start -> a (fair = 1) -> rows
    for r in runs:
        if r["mode"] == "mltcp":
            continue
        a = 1.0 if r["mode"] == "fair" else float(r["aggressiveness"])
        by[r["start"]][a].append(r)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    for start, per_a in by.items():
        xs = sorted(per_a)
        med, lo, hi, never = [], [], [], []
        for a in xs:
            vals = sorted(int(r["iterations_to_interleave"]) for r in per_a[a])
            top = max(1, max(v for v in vals)) if vals else 1
            iterations = iterations or top
            vals = [v if v >= 0 else math.inf for v in vals]
            med.append(vals[len(vals) // 2])
            lo.append(vals[0])
            hi.append(vals[-1])
            never.append(sum(1 for v in vals if v == math.inf))
        cap = max([v for v in med + hi if v != math.inf] + [10]) * 1.15
        clip = [min(v, cap) for v in med]
        ax1.errorbar(xs, clip, yerr=[[c - min(l, cap) for c, l in zip(clip, lo)],
                                     [min(h, cap) - c for c, h in zip(clip, hi)]],
                     marker="o", capsize=3, label="start " + start)
        for x, v, nv in zip(xs, med, never):
            if nv:
                ax1.annotate("%d never" % nv, (x, min(v, cap)), fontsize=7,
                             textcoords="offset points", xytext=(4, 4))
        sp = [[float(r["speedup_vs_fair"]) for r in per_a[a]] for a in xs]
        mean = [sum(s) / len(s) for s in sp]
        ax2.errorbar(xs, mean, yerr=[[m - min(s) for m, s in zip(mean, sp)],
                                     [max(s) - m for m, s in zip(mean, sp)]],
                     marker="o", capsize=3, label="start " + start)
    ax1.set_xscale("log")
    ax1.set_xlabel("aggressiveness a of job 0 (1 = fair)")
    ax1.set_ylabel("iterations until interleaved")
    ax1.set_title("median and range over seeds (top = never)", fontsize=9)
    ax1.legend(fontsize=7)
    ax2.axhline(1.0, color="grey", lw=0.8)
    ax2.set_xscale("log")
    ax2.set_xlabel("aggressiveness a of job 0 (1 = fair)")
    ax2.set_ylabel("steady-state speed-up vs fair")
    ax2.set_title("average iteration time, mean and range over seeds", fontsize=9)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out + "-sweep.png", dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("prefix", help="--out prefix of dcqcn-unfairness")
    p.add_argument("out", help="prefix of the figures")
    p.add_argument("--run", type=int, default=1, help="seed (RngRun) of the series figures")
    p.add_argument("--start", default="phase", choices=["phase", "offset"])
    p.add_argument("--configs", default="", help="comma-separated configurations to show")
    a = p.parse_args()
    rows = read(a.prefix + "-iterations.csv")
    configs = [c for c in a.configs.split(",") if c]
    data = series(rows, a.run, a.start, configs)
    if not data:
        raise SystemExit("no rows for run %d, start %s" % (a.run, a.start))
    plot_series(data, a.out, a.run, a.start)
    plot_phase(data, a.out, a.run, a.start)
    plot_sweep(read(a.prefix + "-runs.csv"), a.out)


if __name__ == "__main__":
    main()
