#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures of the workload examples (doc/workload.rst).

  plot-workload.py scaling OUT.png RUN.csv [RUN.csv ...]
      from examples/network-bottleneck-whatif --perIteration: the steady-state scaling factor
      (compute of one GPU / mean iteration, the iterations marked steady) against the number
      of GPUs, one line per (link rate, fusion buffer) over all files; whiskers from the
      scaling of the p99 iteration to that of the fastest one. The compute time is taken from
      --compute (seconds) since the CSV holds iteration times only.

  plot-workload.py tensor-priority OUT.png ITER.csv SLICE.csv [SLICE.csv ...]
      left: from examples/tensor-priority --csv, the steady-state iteration time per policy
      (bar: mean, whiskers: p50 to p99) of the first model in the file; right: from
      --summaryCsv files of single-policy P3 runs, the mean iteration time against the slice
      size, one line with and one without the per-message overhead (files whose name
      contains "slice0-" are the overhead-free runs; the slice size is the number in the name).
"""

import argparse
import csv
import math
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def nearest_rank(values, p):
    v = sorted(values)
    k = max(1, math.ceil(p / 100.0 * len(v)))
    return v[k - 1]


def read_scaling(paths):
    runs = defaultdict(list)  # (gbps, fusion, gpus) -> [seconds of steady iterations]
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["steady"] != "1":
                    continue
                key = (float(row["gbps"]), int(row["fusion"]), int(row["gpus"]))
                runs[key].append(float(row["seconds"]))
    return runs


def plot_scaling(out, paths, compute, title):
    runs = read_scaling(paths)
    lines = defaultdict(list)
    for (gbps, fusion, gpus), secs in runs.items():
        mean = sum(secs) / len(secs)
        lines[(gbps, fusion)].append(
            (gpus, compute / mean, compute / nearest_rank(secs, 99), compute / min(secs)))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for (gbps, fusion), pts in sorted(lines.items()):
        pts.sort()
        x = [p[0] for p in pts]
        y = [p[1] for p in pts]
        lo = [p[1] - p[2] for p in pts]
        hi = [p[3] - p[1] for p in pts]
        label = "%g Gb/s, %s" % (gbps, "fusion %d MiB" % (fusion >> 20) if fusion else "no fusion")
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3, label=label)
    ax.axhspan(0.60, 0.76, color="grey", alpha=0.2, label="NetAI 2020: 60-76% at 64 GPUs")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("GPUs (servers x GPUs per server)")
    ax.set_ylabel("scaling factor (1)")
    ax.set_ylim(0, 1.05)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def plot_tensor_priority(out, iter_csv, slice_csvs):
    import re

    per_policy = defaultdict(list)
    order = []
    model = None
    with open(iter_csv) as f:
        for row in csv.DictReader(f):
            model = model or row["model"]
            if row["model"] != model:
                continue
            if row["policy"] not in per_policy:
                order.append(row["policy"])
            per_policy[row["policy"]].append(float(row["seconds"]) * 1e3)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    means = [sum(per_policy[p]) / len(per_policy[p]) for p in order]
    p50 = [nearest_rank(per_policy[p], 50) for p in order]
    p99 = [nearest_rank(per_policy[p], 99) for p in order]
    x = range(len(order))
    ax.bar(x, means, color="tab:blue", alpha=0.7)
    ax.errorbar(x, means, yerr=[[max(0, m - a) for m, a in zip(means, p50)],
                                [max(0, b - m) for m, b in zip(means, p99)]],
                fmt="none", ecolor="k", capsize=3)
    ax.set_xticks(list(x))
    ax.set_xticklabels(order, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("steady-state iteration (ms)")
    ax.set_title("%s: policies (whiskers p50-p99)" % model)
    ax.grid(True, axis="y", alpha=0.3)
    lines = defaultdict(list)
    for path in slice_csvs:
        m = re.search(r"(slice0?)-(\d+)", path)
        if not m:
            continue
        with open(path) as f:
            for row in csv.DictReader(f):
                lines[m.group(1)].append((int(m.group(2)), float(row["mean_ms"])))
    for key, pts in sorted(lines.items()):
        pts.sort()
        bx.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                label="no per-message overhead" if key == "slice0" else "50 us per message")
    bx.set_xscale("log")
    bx.set_xlabel("P3 slice size (parameters)")
    bx.set_ylabel("steady-state iteration (ms)")
    bx.set_title("P3 slice size")
    bx.grid(True, alpha=0.3)
    bx.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    sc = sub.add_parser("scaling")
    sc.add_argument("out")
    sc.add_argument("csv", nargs="+")
    sc.add_argument("--compute", type=float, required=True,
                    help="compute time of one GPU per iteration (s), as printed by the example")
    sc.add_argument("--title", default="ResNet-50, steady state")
    tp = sub.add_parser("tensor-priority")
    tp.add_argument("out")
    tp.add_argument("iterations")
    tp.add_argument("slices", nargs="*")
    a = ap.parse_args()
    if a.what == "scaling":
        plot_scaling(a.out, a.csv, a.compute, a.title)
    elif a.what == "tensor-priority":
        plot_tensor_priority(a.out, a.iterations, a.slices)


if __name__ == "__main__":
    main()
