#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures of examples/dcqcn-unfairness (doc/rdma.rst).

  plot-unfairness.py PREFIX OUT [--run N] [--start phase|offset] [--configs a,b,...]
                     [--warmup 50] [--threshold 0.1] [--window 10]

PREFIX is the --out prefix of dcqcn-unfairness. Every number is computed from
PREFIX-iterations.csv with the example's definitions (so the figures and the printed table also
work for runs cut short): per run, the iterations until the largest overlap averaged over
--window iterations is <= --threshold, and over iterations >= --warmup the mean of the jobs'
mean iteration times, the pooled p50/p99 and the speed-up over fair with the same seed.
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
    """Rows of a CSV; a truncated last row (a run still being written) is dropped."""
    with open(path) as f:
        return [r for r in csv.DictReader(f) if None not in r.values()]


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


def nearest_rank(values, p):
    v = sorted(values)
    return v[max(1, math.ceil(p / 100.0 * len(v))) - 1]


def runs_from_iterations(rows, warmup, threshold, window):
    """One dict per (config, start, run), as in PREFIX-runs.csv."""
    runs = OrderedDict()
    for r in rows:
        key = (r["config"], r["start"], r["run"])
        d = runs.setdefault(key, {"config": r["config"], "mode": r["mode"],
                                  "aggressiveness": r["aggressiveness"], "start": r["start"],
                                  "run": r["run"], "jobs": defaultdict(dict)})
        d["jobs"][int(r["job"])][int(r["iteration"])] = (float(r["duration_ms"]),
                                                          float(r["overlap"]))
    out = []
    full = max(max(len(v) for v in d["jobs"].values()) for d in runs.values())
    for d in runs.values():
        jobs = d.pop("jobs")
        n = min(len(v) for v in jobs.values())
        if max(len(v) for v in jobs.values()) < full:
            continue  # a run cut short
        largest = [max(jobs[j][k][1] for j in jobs) for k in range(n)]
        to = -1
        for k in range(0, n - window + 1):
            if sum(largest[k:k + window]) / window <= threshold + 1e-12:
                to = k
                break
        means, pooled = [], []
        for j, it in jobs.items():
            steady = [it[k][0] for k in sorted(it) if k >= warmup]
            if steady:
                means.append(sum(steady) / len(steady))
                pooled += steady
        if not pooled:
            continue
        d.update(iterations_to_interleave=to, mean_ms=sum(means) / len(means),
                 durations=pooled,
                 overlap=sum(largest[warmup:]) / max(1, len(largest[warmup:])))
        out.append(d)
    fair = {(d["start"], d["run"]): d["mean_ms"] for d in out if d["mode"] == "fair"}
    for d in out:
        f = fair.get((d["start"], d["run"]))
        d["speedup_vs_fair"] = f / d["mean_ms"] if f else float("nan")
    return out


def print_table(runs):
    groups = OrderedDict()
    for d in runs:
        groups.setdefault((d["config"], d["start"]), []).append(d)
    print("%-14s %-7s %5s %-24s %8s %8s %8s %8s %s" % (
        "config", "start", "seeds", "iters_to_interleave", "mean_ms", "p50_ms", "p99_ms",
        "overlap", "speedup_vs_fair"))
    for (config, start), ds in groups.items():
        to = sorted(d["iterations_to_interleave"] for d in ds)
        show = ["never" if x < 0 else str(x) for x in to]
        pooled = [x for d in ds for x in d["durations"]]
        sp = [d["speedup_vs_fair"] for d in ds]
        print("%-14s %-7s %5d %-24s %8.3f %8.3f %8.3f %8.3f %.3fx [%.3f, %.3f]" % (
            config, start, len(ds), ",".join(show), sum(d["mean_ms"] for d in ds) / len(ds),
            nearest_rank(pooled, 50), nearest_rank(pooled, 99),
            sum(d["overlap"] for d in ds) / len(ds), sum(sp) / len(sp), min(sp), max(sp)))


def plot_sweep(runs, out):
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
            vals = sorted(v if v >= 0 else math.inf for v in vals)
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
    p.add_argument("--warmup", type=int, default=50, help="first steady-state iteration")
    p.add_argument("--threshold", type=float, default=0.1, help="interleaved: mean overlap <=")
    p.add_argument("--window", type=int, default=10, help="iterations of that mean")
    a = p.parse_args()
    rows = read(a.prefix + "-iterations.csv")
    configs = [c for c in a.configs.split(",") if c]
    data = series(rows, a.run, a.start, configs)
    if not data:
        raise SystemExit("no rows for run %d, start %s" % (a.run, a.start))
    plot_series(data, a.out, a.run, a.start)
    plot_phase(data, a.out, a.run, a.start)
    runs = runs_from_iterations(rows, a.warmup, a.threshold, a.window)
    print_table(runs)
    plot_sweep(runs, a.out)


if __name__ == "__main__":
    main()
