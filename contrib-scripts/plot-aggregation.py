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
  plot-aggregation.py fct-moved OUT.png DIR [DIR ...]
      short-flow mean and p99 FCT against the gradient load each scheme actually moved
      (grad_load, every run a point; one row per DIR), ring, SwitchML(-LB), PANAMA and ideal.
  plot-aggregation.py ports DIR [DIR ...]
      link-level utilisation from ports.csv (after the warm-up): per run the pod uplinks (edge ->
      aggregation, aggregation -> core) mean, median and largest utilisation, the largest over
      the mean (ECMP collisions: two long transfers hashed onto one uplink), the uplinks above
      80%, PFC pauses and ECN marks.
  plot-aggregation.py steady OUT.png DIR
      steady state of one --out directory (--min-iterations runs): per scheme the mean, p50 and
      p99 iteration time vs load (mean over seeds, bars = min-max over seeds), the per-iteration
      series of every job for one seed at the highest load, and the CDF of the per-iteration
      times at that load (all seeds).
  plot-aggregation.py fixed-load OUT.png DIR [DIR ...]
      short-flow mean and p99 FCT per scheme vs the aggregation load, for --mode=fixed (same
      offered gradient load for every scheme) and --mode=free directories side by side: against
      the nominal load, and against the gradient load each scheme actually moved (grad_load).
  plot-aggregation.py line-rate OUT.png RUN.csv [RUN.csv ...]
      from examples/ina-line-rate --csv (one panel per file, e.g. one per --clock): measured
      per-worker aggregation goodput vs adder lanes, one line per port rate, with
      min(line rate, adder throughput) and the goodput of a line-rate datapath.
  plot-aggregation.py ring-diag OUT.png DIR [DIR ...]
      from examples/panama-shared-cluster --schemes=ring --trace-ring=DIR (runs are named
      DIR:mode-dcqcn-load-seed): per run and ring queue pair the CNPs, the time-weighted DCQCN rate while the queue
      pair has a message outstanding, the share of that time below half the line rate and the
      rate when a message is posted (the rate kept over idle gaps); per ring step the slowest of
      the job's transfers against the median one (the time a step waits on its slowest
      transfer). Figure: per run with DCQCN the rate of every ring queue pair of the job with the
      slowest one; last panel: CDF of the step times (slowest transfer of each step), all runs.
  plot-aggregation.py reproduction OUT.png GRID_DIR
      from contrib-scripts/panama-grid.sh's output for one k (GRID_DIR = OUT/k4 or OUT/k8:
      a-LOAD-sN, SCHEME-LOAD-sN, rack-*, shared-*, fixed-alexnet-*): prints per run and scheme
      the steady-state iteration time (mean, p50, p99 over the jobs' measured iterations), each
      job's speed-up over ring beside its idle-network bound, the gradient load moved,
      short-flow mean / p99 FCT, PFC pauses and the pod-uplink utilisation; then per
      configuration one line per seed and the mean [min-max] over the seeds (free mode); per job
      the schemes with --placement=packed (SCHEME-packed-LOAD-sN) against packed ring; draws
      (a) every job's speed-up over ring against its bound (every seed; open markers: both
      packed), (b) short-flow mean
      and p99 FCT against the gradient load moved, (c) the aggregation -> core uplinks'
      utilisation of ring (random, rack order, packed, ...), PANAMA and ideal.
  plot-aggregation.py jobs DIR [DIR ...]
      per run directory (panama-shared-cluster --out=DIR) and job: the model, its measured
      iterations, their mean, p50, p99 (interpolated between ranks, as summary.csv), min and
      max (ms), the idle-network iteration of the job under the run's scheme and the job's
      bound (the spread behind a mean in the tables above).
  plot-aggregation.py speedups DIR [DIR ...]
      per run (panama-shared-cluster --out=DIR, one scheme or several; ring of the same load
      and seed is taken from any of the DIRs): the jobs and their fewest measured iterations,
      the mean iteration (mean over the jobs of each job's mean) with summary.csv's p50 / p99,
      each job's speed-up over ring (ring's job mean / the scheme's) and its idle-network bound
      as mean [min-max] over the jobs, the scheme's iteration over its own idle-network
      iteration (mean [min-max] over the jobs), the gradient load moved, the simulated time and
      the CPU time; then the speed-up per model, mean [min-max] over its jobs.
"""

import csv
import math
import os
import sys
from collections import OrderedDict, defaultdict, namedtuple

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


def interpolated(values, p):
    """the p-th percentile between the closest ranks, as panama-shared-cluster's summary.csv
    computes p50_iter_s and p99_iter_s."""
    v = sorted(values)
    idx = p / 100.0 * (len(v) - 1)
    lo = int(idx)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (idx - lo)


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
    # Mean iteration time of a run: mean over the jobs with a measured iteration, from
    # iterations.csv (summaries written before that rule averaged in 0 for the others).
    perjob = defaultdict(lambda: defaultdict(list))
    if os.path.exists(os.path.join(directory, "iterations.csv")):
        for r in read_csv(os.path.join(directory, "iterations.csv")):
            if r.get("duration_s") not in (None, ""):
                perjob[(float(r["load"]), r["seed"], r["scheme"])][r["job"]].append(
                    float(r["duration_s"]))
        for r in summary:
            jobs = perjob.get((float(r["load"]), r["seed"], r["scheme"]), {})
            r["mean_iter_s"] = str(mean([mean(v) for v in jobs.values()]) if jobs else 0.0)
            r["jobs_measured"] = str(len(jobs))
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
        mode = summary[0].get("mode", "free")
        seeds = sorted({r["seed"] for r in summary})
        extra = ""
        if "gpu" in summary[0]:
            extra = ", %s, scale %s, pass-through %s, ring order %s" % (
                summary[0]["gpu"], summary[0]["scale"], summary[0]["pass_through"],
                summary[0]["ring_order"])
            if float(summary[0]["scale"]) < 1:
                extra += " (SMOKE TEST: scaled models)"
        print("k=%s, %s mode, seeds %s, %s%s" % (k, mode, ",".join(seeds), d, extra))
        print("%-5s %-11s %5s %5s %-18s %-18s %-18s %-17s %-6s %-17s %7s %7s %-16s %-16s" % (
            "load", "scheme", "jobs", "iters", "iter ms", "p50 ms", "p99 ms", "speed-up vs ring",
            "bound", "grad load", "short", "p99 us", "mean FCT ring/x", "p99 FCT ring/x"))
        speed = ratios(summary, "mean_iter_s")
        fmean = ratios(summary, "short_mean_fct_s")
        fp99 = ratios(summary, "short_p99_fct_s")
        loads = sorted({float(r["load"]) for r in summary})
        for load in loads:
            for scheme in SCHEMES:
                rows = [r for r in summary if r["scheme"] == scheme and float(r["load"]) == load]
                if not rows:
                    continue
                col = lambda c: [float(r[c]) for r in rows]  # noqa: E731
                bound = mean(col("bound_speedup")) if "bound_speedup" in rows[0] else float("nan")
                print("%-5g %-11s %5s %5s %-18s %-18s %-18s %-17s %-6.2f %-17s %7.1f %7.1f %-16s "
                      "%-16s" % (
                    load, scheme, "/".join(sorted({r["jobs_measured"] + "/" + r["jobs"]
                                                   for r in rows})),
                    min(int(r.get("min_job_iterations", 0) or 0) for r in rows),
                    pct_row(col("mean_iter_s"), "%.3f", 1e3),
                    pct_row(col("p50_iter_s"), "%.3f", 1e3),
                    pct_row(col("p99_iter_s"), "%.3f", 1e3),
                    span(speed[scheme][load], "%.2f"), bound,
                    span(col("grad_load") if "grad_load" in rows[0] else [], "%.3f"),
                    mean(col("short_mean_fct_s")) * 1e6, mean(col("short_p99_fct_s")) * 1e6,
                    span(fmean[scheme][load], "%.2f"), span(fp99[scheme][load], "%.2f")))
        print()


def pct_row(values, fmt, scale):
    """mean [min-max] over seeds of a per-seed list."""
    return span([v * scale for v in values], fmt)


def read_iters(directory):
    """per-iteration rows of iterations.csv (complete lines only)."""
    path = os.path.join(directory, "iterations.csv")
    return [r for r in read_csv(path) if r.get("busy_s") not in (None, "")]


def plot_steady(out, d):
    summary, _ = read_run(d)
    rows = read_iters(d)
    k = summary[0]["k"]
    loads = sorted({float(r["load"]) for r in summary})
    seeds = sorted({r["seed"] for r in summary})
    fig, ax = plt.subplots(1, 3, figsize=(16, 4.4))
    for scheme in SCHEMES:
        sub = [r for r in summary if r["scheme"] == scheme]
        if not sub:
            continue
        for col, ls, lab in (("mean_iter_s", "-", "mean"), ("p99_iter_s", ":", "p99")):
            xs, ys, lo, hi = [], [], [], []
            for x in loads:
                v = [float(r[col]) * 1e3 for r in sub if float(r["load"]) == x]
                if v:
                    xs.append(x)
                    ys.append(mean(v))
                    lo.append(mean(v) - min(v))
                    hi.append(max(v) - mean(v))
            st = dict(STYLE[scheme])
            st["ls"] = ls
            ax[0].errorbar(xs, ys, yerr=[lo, hi], capsize=3, ms=4,
                           label="%s %s" % (scheme, lab), **st)
    ax[0].set_yscale("log")
    ax[0].set_xlabel("aggregation load (free-running)")
    ax[0].set_ylabel("iteration time (ms)")
    ax[0].set_title("k=%s: mean (solid) and p99 (dotted), %d seeds" % (k, len(seeds)))
    ax[0].grid(alpha=0.3, which="both")
    ax[0].legend(fontsize=6, ncol=2)
    top = loads[-1]
    seed = seeds[0]
    for scheme in SCHEMES:
        sub = [r for r in rows if float(r["load"]) == top and r["seed"] == seed
               and r["scheme"] == scheme]
        jobs = sorted({r["job"] for r in sub})
        for n, j in enumerate(jobs):
            jr = [r for r in sub if r["job"] == j]
            ax[1].plot([float(r["start_s"]) * 1e3 for r in jr],
                       [float(r["duration_s"]) * 1e3 for r in jr], lw=0.8,
                       color=STYLE[scheme]["color"], label=scheme if n == 0 else None)
        sub = [float(r["duration_s"]) * 1e3 for r in rows
               if float(r["load"]) == top and r["scheme"] == scheme]
        if sub:
            v = sorted(sub)
            ax[2].plot(v, [(i + 1) / len(v) for i in range(len(v))], label="%s (%d)" % (
                scheme, len(v)), color=STYLE[scheme]["color"], ls=STYLE[scheme].get("ls", "-"))
    ax[1].set_yscale("log")
    ax[1].set_xlabel("iteration start (ms of simulated time)")
    ax[1].set_ylabel("iteration time (ms)")
    ax[1].set_title("load %g, seed %s: every measured iteration of every job" % (top, seed))
    ax[1].grid(alpha=0.3, which="both")
    ax[1].legend(fontsize=7)
    ax[2].set_xscale("log")
    ax[2].set_xlabel("iteration time (ms)")
    ax[2].set_ylabel("CDF")
    ax[2].set_title("load %g: measured iterations, all jobs and seeds" % top)
    ax[2].grid(alpha=0.3, which="both")
    ax[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def plot_fixed_load(out, dirs):
    fig, axes = plt.subplots(len(dirs), 3, figsize=(16, 4.2 * len(dirs)), squeeze=False)
    for row, d in zip(axes, dirs):
        summary, _ = read_run(d)
        mode = summary[0].get("mode", "free")
        k = summary[0]["k"]
        for scheme in SCHEMES:
            sub = [r for r in summary if r["scheme"] == scheme]
            if not sub:
                continue
            loads = sorted({float(r["load"]) for r in sub})
            for ax, col in ((row[0], "short_mean_fct_s"), (row[1], "short_p99_fct_s")):
                ys, lo, hi = [], [], []
                for x in loads:
                    v = [float(r[col]) * 1e6 for r in sub if float(r["load"]) == x]
                    ys.append(mean(v))
                    lo.append(mean(v) - min(v))
                    hi.append(max(v) - mean(v))
                ax.errorbar(loads, ys, yerr=[lo, hi], capsize=3, ms=4, label=scheme,
                            **STYLE[scheme])
            row[2].plot([float(r["grad_load"]) for r in sub],
                        [float(r["short_p99_fct_s"]) * 1e6 for r in sub], ls="", label=scheme,
                        **{kk: vv for kk, vv in STYLE[scheme].items() if kk != "ls"})
        row[0].set_title("k=%s, %s mode: 7 KB flows, mean FCT" % (k, mode))
        row[1].set_title("7 KB flows, p99 FCT")
        row[2].set_title("p99 FCT vs gradient load actually moved (every run)")
        for ax in row[:2]:
            ax.set_xlabel("aggregation load (%s)" % ("offered, same for every scheme"
                                                     if mode == "fixed" else "nominal"))
        row[2].set_xlabel("measured gradient load (bits/s / host capacity)")
        row[0].set_ylabel("mean FCT (us)")
        row[1].set_ylabel("p99 FCT (us)")
        row[2].set_ylabel("p99 FCT (us)")
        for ax in row:
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def plot_fct_moved(out, dirs):
    fig, axes = plt.subplots(len(dirs), 2, figsize=(11, 4.2 * len(dirs)), squeeze=False)
    for row, d in zip(axes, dirs):
        summary, _ = read_run(d)
        k = summary[0]["k"]
        mode = summary[0].get("mode", "free")
        for scheme in SCHEMES:
            sub = [r for r in summary if r["scheme"] == scheme]
            if not sub:
                continue
            st = {kk: vv for kk, vv in STYLE[scheme].items() if kk != "ls"}
            for ax, col in ((row[0], "short_mean_fct_s"), (row[1], "short_p99_fct_s")):
                ax.plot([float(r["grad_load"]) for r in sub],
                        [float(r[col]) * 1e6 for r in sub], ls="", label=scheme, **st)
        row[0].set_title("k=%s, %s mode: 7 KB flows, mean FCT" % (k, mode))
        row[1].set_title("7 KB flows, p99 FCT")
        for ax in row:
            ax.set_xlabel("gradient load moved (bits/s / host capacity), every run")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        row[0].set_ylabel("mean FCT (us)")
        row[1].set_ylabel("p99 FCT (us)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def print_ports(dirs):
    for d in dirs:
        rows = read_csv(os.path.join(d, "ports.csv"))
        runs = OrderedDict()
        for r in rows:
            runs.setdefault((r["mode"], r["k"], r["load"], r["seed"], r["scheme"]), []).append(r)
        print(d)
        print("%-6s %-3s %-5s %-4s %-11s %-8s %6s %6s %6s %8s %6s %7s %8s" % (
            "mode", "k", "load", "seed", "scheme", "uplinks", "mean", "p50", "max", "max/mean",
            ">0.8", "pauses", "marks"))
        for key, ports in runs.items():
            for tier in ("edge", "agg"):
                up = [float(p["util"]) for p in ports if p["dir"] == "up" and p["tier"] == tier]
                if not up:
                    continue
                m = mean(up)
                print("%-6s %-3s %-5s %-4s %-11s %-8s %6.3f %6.3f %6.3f %8.2f %6d %7d %8d" % (
                    key[0], key[1], key[2], key[3], key[4], tier + "->",
                    m, nearest_rank(up, 50), max(up), max(up) / m if m > 0 else float("nan"),
                    sum(1 for u in up if u > 0.8),
                    sum(int(p["pfc_pauses"]) for p in ports if p["tier"] == tier),
                    sum(int(p["ecn_marks"]) for p in ports if p["tier"] == tier)))
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


def ring_runs(d):
    """per run tag: {qp key: dict(row, msgs, rates)} from --trace-ring output."""
    runs = OrderedDict()
    for r in read_csv(os.path.join(d, "ring-qps.csv")):
        key = (r["host"], r["peer"], r["qpn"])
        runs.setdefault(r["run"], OrderedDict())[key] = dict(row=r, msgs=[], rates=[])
    for r in read_csv(os.path.join(d, "ring-msgs.csv")):
        q = runs[r["run"]][(r["host"], r["peer"], r["qpn"])]
        q["msgs"].append((float(r["bytes"]), float(r["posted_s"]), float(r["done_s"])))
    for r in read_csv(os.path.join(d, "ring-rates.csv")):
        q = runs[r["run"]][(r["host"], r["peer"], r["qpn"])]
        q["rates"].append((float(r["t_s"]), float(r["rate_bps"]), float(r["target_bps"])))
    return runs


def busy_intervals(msgs):
    """union of the [posted, done] intervals of a queue pair's messages."""
    out = []
    for _, a, b in sorted(msgs, key=lambda m: m[1]):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def rate_at(rates, t):
    r = rates[0][1]
    for x in rates:
        if x[0] > t:
            break
        r = x[1]
    return r


def rate_stats(rates, intervals, line):
    """time-weighted mean rate over the intervals and the time below line / 2."""
    total = weighted = below = 0.0
    for a, b in intervals:
        t, r = a, rate_at(rates, a)
        for x in rates:
            if x[0] <= a:
                continue
            if x[0] >= b:
                break
            weighted += r * (x[0] - t)
            below += (x[0] - t) if r < line / 2 else 0
            t, r = x[0], x[1]
        weighted += r * (b - t)
        below += (b - t) if r < line / 2 else 0
        total += b - a
    return total, (weighted / total if total else float("nan")), below


def rings_of(qps):
    """the job rings: cycles host -> peer -> ... over the traced queue pairs."""
    by_host = {k[0]: k for k in qps}
    seen, rings = set(), []
    for k in qps:
        if k in seen:
            continue
        ring, cur = [], k
        while cur not in seen:
            seen.add(cur)
            ring.append(cur)
            cur = by_host.get(cur[1])
            if cur is None:
                break
        rings.append(ring)
    return rings


def plot_ring_diag(out, dirs, line=100e9):
    runs = OrderedDict()
    for d in dirs:
        for tag, qps in ring_runs(d).items():
            runs["%s:%s" % (os.path.basename(os.path.normpath(d)), tag)] = qps
    varying = [t for t, qps in runs.items()
               if any(len({x[1] for x in q["rates"]}) > 1 for q in qps.values())]
    fig, axes = plt.subplots(1, len(varying) + 1, figsize=(5.5 * (len(varying) + 1), 3.8),
                             squeeze=False)
    panels = dict(zip(varying, axes[0]))
    cdf_ax = axes[0][-1]
    for tag, qps in runs.items():
        ax = panels.get(tag)
        step_times = []
        print("run %s" % tag)
        print("  %-9s %5s %9s %9s %10s %9s %12s" % (
            "qp", "cnps", "busy ms", "rate Gb/s", "below 50%", "min Gb/s", "at post Gb/s"))
        worst, worst_rate = None, float("inf")
        for k, q in qps.items():
            iv = busy_intervals(q["msgs"])
            busy, rate, below = rate_stats(q["rates"], iv, line)
            at_post = mean([rate_at(q["rates"], m[1]) for m in q["msgs"][1:]])
            lo = min(rate_at(q["rates"], m[1]) for m in q["msgs"])
            print("  %-9s %5s %9.2f %9.1f %9.0f%% %9.1f %12.1f" % (
                "%s->%s" % (k[0], k[1]), q["row"]["cnps"], busy * 1e3, rate / 1e9,
                100 * below / busy if busy else 0, lo / 1e9, at_post / 1e9))
            if rate < worst_rate:
                worst, worst_rate = k, rate
        # ring steps: message i of every queue pair of a ring is the same step
        waits, steps, on_worst, nsteps = 0.0, 0.0, 0.0, 0
        for ring in rings_of(qps):
            mean_rate = {k: rate_stats(qps[k]["rates"], busy_intervals(qps[k]["msgs"]), line)[1]
                         for k in ring}
            lowest = min(ring, key=lambda k: mean_rate[k])
            n = min(len(qps[k]["msgs"]) for k in ring)
            for i in range(n):
                durs = sorted((qps[k]["msgs"][i][2] - qps[k]["msgs"][i][1], k) for k in ring)
                step_times.append(durs[-1][0])
                waits += durs[-1][0] - durs[len(durs) // 2][0]
                steps += durs[-1][0]
                on_worst += durs[-1][0] if durs[-1][1] == lowest else 0
                nsteps += 1
            size = mean([m[0] for k in ring for m in qps[k]["msgs"]])
            slow = mean([max(qps[k]["msgs"][i][2] - qps[k]["msgs"][i][1] for k in ring)
                         for i in range(n)])
            med = mean([sorted(qps[k]["msgs"][i][2] - qps[k]["msgs"][i][1]
                               for k in ring)[len(ring) // 2] for i in range(n)])
            print("  ring %s: %d steps, mean message %.0f B (%.2f us at line rate); step: "
                  "slowest transfer %.1f us, median %.1f us; lowest rate %.1f Gb/s"
                  % ("->".join(k[0] for k in ring), n, size, size * 8 / line * 1e6, slow * 1e6,
                     med * 1e6, mean_rate[lowest] / 1e9))
        print("  ring steps %d: summed over steps, the slowest transfer exceeds the (upper) median "
              "one by %.1f%% of the step time; %.0f%% of the step time is spent in steps whose "
              "slowest transfer is on the ring's lowest-rate queue pair"
              % (nsteps, 100 * waits / steps if steps else 0,
                 100.0 * on_worst / steps if steps else 0))
        v = sorted(step_times)
        cdf_ax.step([x * 1e6 for x in v], [(i + 1) / len(v) for i in range(len(v))],
                    where="post", label=tag, lw=1)
        if ax is None:
            continue
        ring = next(r for r in rings_of(qps) if worst in r)
        for k in ring:
            rs = qps[k]["rates"]
            ax.step([x[0] * 1e3 for x in rs], [x[1] / 1e9 for x in rs], where="post",
                    label="%s->%s (%s CNPs)" % (k[0], k[1], qps[k]["row"]["cnps"]), lw=1)
        ax.set_title(tag, fontsize=9)
        ax.set_xlabel("simulated time (ms)")
        ax.set_ylabel("DCQCN rate Rc (Gb/s)")
        ax.set_ylim(0, line / 1e9 * 1.05)
        ax.legend(fontsize=7, loc="lower right")
    cdf_ax.set_xscale("log")
    cdf_ax.set_xlabel("ring step time: slowest transfer (us)")
    cdf_ax.set_ylabel("CDF over steps")
    cdf_ax.legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def grid_runs(grid):
    """name -> directory of every finished run of a panama-grid.sh output directory (a running one
    has an empty summary.csv)."""
    out = OrderedDict()
    for name in sorted(os.listdir(grid)):
        d = os.path.join(grid, name)
        summary = os.path.join(d, "summary.csv")
        if os.path.isdir(d) and os.path.exists(summary) and os.path.getsize(summary) > 0:
            out[name] = d
    return out


JobMean = namedtuple("JobMean", "model mean bound iterations idle")


def job_means(d):
    """(load, seed, scheme) -> job -> JobMean: the model, the mean of the job's measured
    iterations (s), its idle-network bound, how many iterations and the idle-network iteration of
    the job under the run's scheme (s)."""
    per = defaultdict(lambda: defaultdict(list))
    meta = {}
    for r in read_iters(d):
        key = (r["load"], r["seed"], r["scheme"])
        per[key][r["job"]].append(float(r["duration_s"]))
        meta[(key, r["job"])] = (r["model"], float(r.get("bound_speedup") or "nan"),
                                 float(r.get("idle_iter_s") or "nan"))
    out = defaultdict(dict)
    for key, jobs in per.items():
        for job, v in jobs.items():
            model, bound, idle = meta[(key, job)]
            out[key][job] = JobMean(model, mean(v), bound, len(v), idle)
    return out


def uplinks(d, tier):
    """(load, seed, scheme) -> utilisations of the pod uplinks out of `tier` switches."""
    out = defaultdict(list)
    for r in read_csv(os.path.join(d, "ports.csv")):
        if r["dir"] == "up" and r["tier"] == tier and r.get("util") not in (None, ""):
            out[(r["load"], r["seed"], r["scheme"])].append(float(r["util"]))
    return out


def packed_run(name):
    """a free-mode run with --placement=packed: packed-LOAD-sN (ring) or SCHEME-packed-LOAD-sN."""
    return name.startswith("packed-") or any(name.startswith(s + "-packed-") for s in SCHEMES)


def base_run(name):
    """a run of the grid's base configuration: a-LOAD-sN, or SCHEME-LOAD-sN for one scheme."""
    return name.startswith("a-") or any(
        name.startswith(s + "-") and not packed_run(name) for s in SCHEMES)


def variant(name, scheme):
    """the configuration a grid run measures: its scheme, or the scheme and the option changed."""
    if packed_run(name):
        return "%s, packed" % scheme
    for prefix, label in (("shared-", "SharedFifo"), ("rack-", "rack order"),
                          ("nodcqcn-", "no DCQCN"), ("nobg-", "no background")):
        if name.startswith(prefix):
            return "%s, %s" % (scheme, label)
    return scheme


def seed_table(runs):
    """Per configuration and load: one line per seed and the mean [min-max] over the seeds of the
    steady-state iteration (mean over jobs of each job's mean; p50 / p99 pooled over the jobs'
    measured iterations), the speed-up over the same seed's ring (mean over jobs of ring's job
    mean / the configuration's) beside the idle-network bound (mean over jobs), the gradient
    load moved and the 7 KB flows' FCT. Free-mode runs only (a-, SCHEME-, shared-, rack-, ...)."""
    rows = defaultdict(dict)  # (load, label) -> seed -> values
    ring = {}
    order = []
    for name, d in runs.items():
        if name.startswith("fixed"):
            continue
        means = job_means(d)
        for r in read_csv(os.path.join(d, "summary.csv")):
            key = (r["load"], r["seed"], r["scheme"])
            label = variant(name, r["scheme"])
            if base_run(name) and r["scheme"] == "ring":
                ring[(r["load"], r["seed"])] = means.get(key, {})
            if (r["load"], label) not in order:
                order.append((r["load"], label))
            rows[(r["load"], label)][r["seed"]] = dict(
                jobs=means.get(key, {}), p50=float(r["p50_iter_s"]), p99=float(r["p99_iter_s"]),
                moved=float(r["grad_load"]), fct=float(r["short_mean_fct_s"]),
                fct99=float(r["short_p99_fct_s"]),
                nofct=int(r.get("short_flows") or 0) == 0, pauses=int(r["pfc_pauses"]),
                iters=int(r["min_job_iterations"]), cpu=float(r.get("cpu_s") or "nan"),
                sim=float(r["end_s"]))
    print()
    print("%-5s %-19s %-4s %8s %8s %8s %8s %6s %6s %7s %7s %6s %5s %8s" % (
        "load", "configuration", "seed", "iter ms", "p50 ms", "p99 ms", "speed-up", "bound",
        "moved", "7KB us", "p99 us", "pauses", "iters", "CPU s"))
    for load, label in sorted(order, key=lambda x: (float(x[0]), SCHEMES.index(
            x[1].split(",")[0]) if x[1].split(",")[0] in SCHEMES else 9, x[1])):
        per = rows[(load, label)]
        cols = defaultdict(list)
        for seed in sorted(per, key=int):
            v = per[seed]
            jobs = v["jobs"]
            it = mean([x.mean for x in jobs.values()])
            bound = mean([x.bound for x in jobs.values()])
            rj = ring.get((load, seed), {})
            sp = mean([rj[j].mean / x.mean for j, x in jobs.items() if j in rj and x.mean > 0])
            nan = float("nan")  # no 7 KB flows in the run: no FCT
            vals = [it * 1e3, v["p50"] * 1e3, v["p99"] * 1e3, sp, bound, v["moved"],
                    nan if v["nofct"] else v["fct"] * 1e6, nan if v["nofct"] else v["fct99"] * 1e6]
            for i, x in enumerate(vals):
                cols[i].append(x)
            print("%-5s %-19s %-4s %8.1f %8.1f %8.1f %8.2f %6.2f %6.3f %7.1f %7.1f %6d %5d %8.0f" % (
                (load, label, seed) + tuple(vals) + (v["pauses"], v["iters"], v["cpu"])))
        if len(per) > 1:
            fmt = ["%.1f", "%.1f", "%.1f", "%.2f", "%.2f", "%.3f", "%.1f", "%.1f"]
            print("%-5s %-19s %-4s %s" % (load, label, "mean", "  ".join(
                span([x for x in cols[i] if not math.isnan(x)], f)
                for i, f in enumerate(fmt))))


def job_table(runs):
    """Per seed and job of the base runs (free mode): the model, its idle-network ring
    iteration (ms), ring's mean iteration and every other scheme's with its speed-up over ring (the
    measured iterations in brackets), and the job's bound."""
    per = defaultdict(lambda: defaultdict(list))  # (load, seed, job) -> scheme -> [s]
    meta = {}
    for name, d in runs.items():
        if not base_run(name):
            continue
        for r in read_iters(d):
            key = (r["load"], r["seed"], r["job"])
            per[key][r["scheme"]].append(float(r["duration_s"]))
            if r["scheme"] == "ring" or key not in meta:  # the ring's idle-network iteration
                meta[key] = (r["model"], float(r["idle_iter_s"]), float(r["bound_speedup"]))
    print()
    print("%-5s %-4s %-3s %-13s %7s %11s %s %6s" % ("load", "seed", "job", "model", "ring idle",
                                                   "ring ms", " ".join("%-19s" % x for x in (
                                                       "switchml", "panama", "ideal")), "bound"))
    for key in sorted(per, key=lambda x: (float(x[0]), int(x[1]), int(x[2]))):
        model, idle, bound = meta[key]
        ring = per[key].get("ring", [])
        cells = []
        for scheme in ("switchml", "panama", "ideal"):
            v = per[key].get(scheme, [])
            cells.append("%-19s" % ("%.1f (%.2fx) [%d]" % (mean(v) * 1e3, mean(ring) / mean(v),
                                                            len(v)) if v and ring else "-"))
        print("%-5s %-4s %-3s %-13s %7.1f %11s %s %6.2f" % (
            key[0], key[1], key[2], model, idle * 1e3,
            "%.1f [%d]" % (mean(ring) * 1e3, len(ring)) if ring else "-", " ".join(cells),
            bound))


def packed_rows(runs):
    """(load, seed, job) -> {"ring" | SCHEME: (model, mean s, bound, iterations)} of the packed runs
    (every scheme with --placement=packed: the same jobs on the same hosts), and the same of the
    random-placement base runs under the key (SCHEME, "random")."""
    per = defaultdict(dict)
    for name, d in runs.items():
        if not (packed_run(name) or base_run(name)):
            continue
        for (load, seed, scheme), jobs in job_means(d).items():
            for job, v in jobs.items():
                per[(load, seed, job)][scheme if packed_run(name) else (scheme, "random")] = v
    return per


def packed_table(runs):
    """Per seed and job: ring packed (each job on the lowest free hosts) against PANAMA and SwitchML
    packed (the same hosts) and against PANAMA with random placement, each as ring packed's mean
    iteration / the scheme's, beside the job's idle-network bound; then per seed the mean over
    the jobs (the placement explanation predicts PANAMA packed at its bound)."""
    per = packed_rows(runs)
    if not any("ring" in v and ("panama" in v or "switchml" in v) for v in per.values()):
        return
    print()
    print("%-5s %-4s %-3s %-13s %13s %-19s %-19s %-19s %6s" % (
        "load", "seed", "job", "model", "ring packed", "panama packed", "switchml packed",
        "panama random", "bound"))
    seeds = defaultdict(lambda: defaultdict(list))
    for key in sorted(per, key=lambda x: (float(x[0]), int(x[1]), int(x[2]))):
        v = per[key]
        if "ring" not in v:
            continue
        model, ring, bound, nr = v["ring"][:4]
        cells = []
        for scheme in ("panama", "switchml", ("panama", "random")):
            if scheme in v and v[scheme][1] > 0:
                sp = ring / v[scheme][1]
                seeds[(key[0], key[1])][scheme].append(sp)
                cells.append("%-19s" % ("%.1f (%.2fx) [%d]" % (v[scheme][1] * 1e3, sp,
                                                                v[scheme][3])))
            else:
                cells.append("%-19s" % "-")
        seeds[(key[0], key[1])]["bound"].append(bound)
        print("%-5s %-4s %-3s %-13s %13s %s %6.2f" % (
            key[0], key[1], key[2], model, "%.1f [%d]" % (ring * 1e3, nr), " ".join(cells), bound))
    for (load, seed), v in sorted(seeds.items(), key=lambda x: (float(x[0][0]), int(x[0][1]))):
        print("%-5s %-4s mean over jobs: %s  bound %.2f" % (load, seed, "  ".join(
            "%s %.2fx" % (s if isinstance(s, str) else " ".join(s), mean(v[s]))
            for s in ("panama", "switchml", ("panama", "random")) if v.get(s)), mean(v["bound"])))


def reproduction(out, grid):
    runs = grid_runs(grid)
    k = read_csv(os.path.join(next(iter(runs.values())), "summary.csv"))[0]["k"]
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    print("%-24s %-5s %-4s %-9s %4s %5s %8s %8s %8s %7s %7s %9s %8s %7s %6s %6s %6s" % (
        "run", "load", "seed", "scheme", "jobs", "iters", "mean ms", "p50 ms", "p99 ms",
        "offered", "moved", "short us", "p99 us", "pauses", "agg^", "agg^max", "edge^"))
    speed_rows = []
    all_means = OrderedDict()
    fct = defaultdict(list)  # scheme -> (moved, mean, p99)
    shared_fct = []  # PANAMA with --pass-through=shared: (moved, mean, p99)
    util = OrderedDict()  # label -> [agg -> core utilisations]
    for name, d in runs.items():
        summary = read_csv(os.path.join(d, "summary.csv"))
        means = job_means(d)
        agg_up = uplinks(d, "agg")
        edge_up = uplinks(d, "edge")
        for r in summary:
            key = (r["load"], r["seed"], r["scheme"])
            a = agg_up.get(key, [])
            e = edge_up.get(key, [])
            print("%-24s %-5s %-4s %-9s %4s %5s %8.2f %8.2f %8.2f %7.3f %7.3f %9.1f %8.1f %7s "
                  "%6.3f %6.3f %6.3f" % (
                      name, r["load"], r["seed"], r["scheme"], r["jobs"],
                      r["min_job_iterations"], float(r["mean_iter_s"]) * 1e3,
                      float(r["p50_iter_s"]) * 1e3, float(r["p99_iter_s"]) * 1e3,
                      float(r["achieved_load"]), float(r["grad_load"]),
                      float(r["short_mean_fct_s"]) * 1e6, float(r["short_p99_fct_s"]) * 1e6,
                      r["pfc_pauses"], mean(a), max(a) if a else float("nan"), mean(e)))
            if base_run(name) or name.startswith("fixed-alexnet-0"):
                fct[r["scheme"]].append((float(r["grad_load"]), float(r["short_mean_fct_s"]),
                                         float(r["short_p99_fct_s"])))
            elif name.startswith("shared-"):
                shared_fct.append((float(r["grad_load"]), float(r["short_mean_fct_s"]),
                                   float(r["short_p99_fct_s"])))
            if r["scheme"] in ("ring", "panama", "ideal") and a:
                kind = "fixed 0.5" if name.startswith("fixed") else "free 0.2"
                if "0.2" in name or name.startswith("fixed"):
                    order = ("rack" if "rack" in name else "packed" if "packed" in name
                             else "no DCQCN" if "nodcqcn" in name
                             else "no bg" if "nobg" in name else "random")
                    if name.startswith("shared-"):
                        order = "SharedFifo"
                    label = "%s\n%s%s" % (kind, r["scheme"],
                                           "" if r["scheme"] == "ideal" else " " + order)
                    util.setdefault(label, []).extend(a)
        if base_run(name):
            all_means[name] = means
    # Speed-ups: each job's mean iteration in a base run (a-LOAD-sN: every scheme, or
    # SCHEME-LOAD-sN: one scheme of the same grid point run on its own) against ring's.
    ring = {}
    for name, means in all_means.items():
        for (load, seed, scheme), jobs in means.items():
            if scheme == "ring":
                ring[(load, seed)] = jobs
    for name, means in all_means.items():
        for (load, seed, scheme), jobs in means.items():
            r = ring.get((load, seed), {})
            if scheme == "ring":
                continue
            for job, (model, m, bound, n, _) in jobs.items():
                if job in r and m > 0:
                    speed_rows.append((name, scheme, model, r[job][1] / m, bound, n, r[job][3]))
    print()
    print("%-12s %-9s %-13s %8s %6s %6s" % ("run", "scheme", "job", "speed-up", "bound",
                                            "iters"))
    for name, scheme, model, sp, bound, n, nr in sorted(speed_rows):
        print("%-12s %-9s %-13s %8.3f %6.3f %3d/%-3d" % (name, scheme, model, sp, bound, nr, n))
    seed_table(runs)
    job_table(runs)
    packed_table(runs)
    ax = axes[0]
    for scheme in ("switchml", "switchml-lb", "panama", "ideal"):
        pts = [(b, sp) for _, sch, _, sp, b, _, _ in speed_rows if sch == scheme]
        if pts:
            st = {kk: vv for kk, vv in STYLE[scheme].items() if kk != "ls"}
            ax.plot([p[0] for p in pts], [p[1] for p in pts], ls="", label=scheme, **st)
    packed = packed_rows(runs)
    for scheme in ("switchml", "panama"):
        pts = [(v["ring"][2], v["ring"][1] / v[scheme][1]) for v in packed.values()
               if "ring" in v and scheme in v and v[scheme][1] > 0]
        if pts:
            st = {kk: vv for kk, vv in STYLE[scheme].items() if kk != "ls"}
            ax.plot([p[0] for p in pts], [p[1] for p in pts], ls="", mfc="none",
                    label=scheme + " vs ring, both packed", **st)
    lim = [1.0, 1.5]
    ax.plot(lim, lim, color="k", lw=0.8, label="speed-up = bound")
    ax.axhline(1.0, color="grey", lw=0.6)
    ax.set_xlabel("idle-network bound of the job (RingVsAggregationBound)")
    ax.set_ylabel("speed-up over ring (ring iteration / scheme's)")
    ax.set_title("(a) k=%s: each job's speed-up over ring vs its bound" % k)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax = axes[1]
    for scheme in SCHEMES:
        if scheme not in fct:
            continue
        st = {kk: vv for kk, vv in STYLE[scheme].items() if kk not in ("ls", "marker")}
        v = sorted(fct[scheme])
        ax.plot([x[0] for x in v], [x[1] * 1e6 for x in v], ls="", marker=STYLE[scheme]["marker"],
                label=scheme + " mean", **st)
        ax.plot([x[0] for x in v], [x[2] * 1e6 for x in v], ls="", marker=STYLE[scheme]["marker"],
                mfc="none", label=scheme + " p99", **st)
    if shared_fct:
        v = sorted(shared_fct)
        st = dict(color="tab:purple", marker="P")
        ax.plot([x[0] for x in v], [x[1] * 1e6 for x in v], ls="", label="panama SharedFifo mean",
                **st)
        ax.plot([x[0] for x in v], [x[2] * 1e6 for x in v], ls="", mfc="none",
                label="panama SharedFifo p99", **st)
    ax.set_yscale("log")
    ax.set_xlabel("gradient load moved (every run)")
    ax.set_ylabel("7 KB flow completion time (us)")
    ax.set_title("(b) short flows: mean (filled), p99 (open)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6, ncol=2)
    ax = axes[2]
    if util:
        keys = sorted(util, key=lambda x: (x.startswith("fixed"), x))
        ax.boxplot([util[x] for x in keys], labels=[x.replace("\n", ": ") for x in keys],
                   whis=(0, 100))
        ax.tick_params(axis="x", labelsize=7, labelrotation=35)
    ax.set_ylabel("aggregation -> core uplink utilisation")
    ax.set_title("(c) pod uplinks after warm-up, seeds pooled (min-max)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


def print_jobs(dirs):
    print("%-24s %-5s %-4s %-11s %-3s %-13s %5s %8s %8s %8s %8s %8s %8s %6s" % (
        "run", "load", "seed", "scheme", "job", "model", "iters", "mean ms", "p50 ms", "p99 ms",
        "min ms", "max ms", "idle ms", "bound"))
    for d in dirs:
        per = defaultdict(list)
        meta = {}
        for r in read_iters(d):
            key = (r["load"], r["seed"], r["scheme"], int(r["job"]))
            per[key].append(float(r["duration_s"]) * 1e3)
            meta[key] = (r["model"], float(r["idle_iter_s"]) * 1e3, float(r["bound_speedup"]))
        for key in sorted(per):
            v = per[key]
            model, idle, bound = meta[key]
            fmt = "%-24s %-5s %-4s %-11s %-3d %-13s %5d" + " %8.1f" * 6 + " %6.2f"
            print(fmt % ((os.path.basename(os.path.normpath(d)),) + key + (
                    model, len(v), mean(v), interpolated(v, 50), interpolated(v, 99), min(v),
                    max(v), idle, bound)))


def speedups(dirs):
    runs = []  # (name, summary row, jobs)
    ring = {}
    for d in dirs:
        means = job_means(d)
        for r in read_csv(os.path.join(d, "summary.csv")):
            key = (r["load"], r["seed"], r["scheme"])
            runs.append((os.path.basename(os.path.normpath(d)), r, means.get(key, {})))
            if r["scheme"] == "ring":
                ring[(r["load"], r["seed"])] = means.get(key, {})
    print("%-20s %-5s %-4s %-11s %4s %5s %7s %15s %-19s %-19s %-19s %6s %6s %6s" % (
        "run", "load", "seed", "scheme", "jobs", "iters", "iter ms", "p50 / p99 ms",
        "speed-up [jobs]", "bound [jobs]", "/ idle [jobs]", "grad", "sim s", "CPU s"))
    models = []
    for name, r, jobs in sorted(runs, key=lambda x: (float(x[1]["load"]), int(x[1]["seed"]),
                                                   SCHEMES.index(x[1]["scheme"]))):
        if not jobs:
            continue
        rj = ring.get((r["load"], r["seed"]), {})
        sp = {j: rj[j].mean / x.mean for j, x in jobs.items() if j in rj and x.mean > 0}
        print("%-20s %-5s %-4s %-11s %4d %5d %7.1f %15s %-19s %-19s %-19s %6.3f %6.2f %6.0f" % (
            name, r["load"], r["seed"], r["scheme"], len(jobs),
            min(x.iterations for x in jobs.values()), mean([x.mean for x in jobs.values()]) * 1e3,
            "%.1f / %.1f" % (float(r["p50_iter_s"]) * 1e3, float(r["p99_iter_s"]) * 1e3),
            span(list(sp.values()), "%.2f") if rj else "-",
            span([x.bound for x in jobs.values()], "%.2f"),
            span([x.mean / x.idle for x in jobs.values()], "%.2f"), float(r["grad_load"]),
            float(r["end_s"]), float(r.get("cpu_s") or "nan")))
        if r["scheme"] != "ring" and sp:
            by = defaultdict(list)
            for j, v in sp.items():
                by[jobs[j].model].append(v)
            models.append((name, r["seed"], r["scheme"], by))
    for name, seed, scheme, by in models:
        print("%s (seed %s, %s over ring): %s" % (name, seed, scheme, ", ".join(
            "%s %s (%d)" % (m, span(v, "%.2f"), len(v)) for m, v in sorted(by.items()))))


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    cmd = argv[1]
    if cmd == "shared-cluster" and len(argv) >= 4:
        plot_shared_cluster(argv[2], argv[3:])
    elif cmd == "table":
        print_table(argv[2:])
    elif cmd == "fct-moved" and len(argv) >= 4:
        plot_fct_moved(argv[2], argv[3:])
    elif cmd == "ports":
        print_ports(argv[2:])
    elif cmd == "steady" and len(argv) == 4:
        plot_steady(argv[2], argv[3])
    elif cmd == "fixed-load" and len(argv) >= 4:
        plot_fixed_load(argv[2], argv[3:])
    elif cmd == "line-rate" and len(argv) >= 4:
        plot_line_rate(argv[2], argv[3:])
    elif cmd == "reproduction" and len(argv) == 4:
        reproduction(argv[2], argv[3])
    elif cmd == "jobs":
        print_jobs(argv[2:])
    elif cmd == "speedups" and len(argv) >= 3:
        speedups(argv[2:])
    elif cmd == "ring-diag" and len(argv) >= 4:
        plot_ring_diag(argv[2], argv[3:])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
