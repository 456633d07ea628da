#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures of the host-congestion example (doc/host.rst).

  plot-host.py sweep OUT.png SWEEP.csv
      from examples/host-congestion --mode=sweep --csv: (a) goodput and (b) host drop rate
      against the memory application's demand, IOMMU off/on, hostCC response off/on;
      (c) host queueing delay p99; (d) goodput against the number of flows at 100 and
      200 Gb/s with 4 KiB pages, 2 MiB pages and without IOMMU. Points are the mean over
      seeds, bars span the seeds' minimum to maximum.
  plot-host.py training OUT.png TRAINING.csv
      from examples/host-congestion --mode=training --csv: iteration time per iteration
      (after warm-up) without contention, with the memory-hungry task, and with the hostCC
      response; box plots (p50 line, whiskers p1-p99).
"""

import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def spread(values):
    m = sum(values) / len(values)
    return m, m - min(values), max(values) - m


def plot_sweep(out, path):
    data = rows(path)
    fig, ax = plt.subplots(2, 2, figsize=(11, 8))
    groups = defaultdict(lambda: defaultdict(list))
    for r in data:
        if r["sweep"] != "demand":
            continue
        key = ("IOMMU on" if r["iommu"] == "1" else "IOMMU off") + (
            ", hostCC" if r["response"] != "0" else "")
        d = float(r["demand"]) * 100
        groups[key][d].append(r)
    for key, pts in sorted(groups.items()):
        xs = sorted(pts)
        for panel, col, scale in ((ax[0][0], "goodputGbps", 1), (ax[0][1], "dropRate", 100),
                                  (ax[1][0], "delayP99us", 1)):
            stats = [spread([float(r[col]) * scale for r in pts[x]]) for x in xs]
            panel.errorbar(xs, [s[0] for s in stats],
                           yerr=[[s[1] for s in stats], [s[2] for s in stats]],
                           marker="o", capsize=3, label=key)
    ax[0][0].set(xlabel="memory application demand (% of memory bandwidth)",
                 ylabel="goodput (Gb/s)", title="(a) receiver goodput, 100 Gb/s, 4 flows")
    ax[0][1].set(xlabel="memory application demand (%)", ylabel="host drops (% of arrivals)",
                 title="(b) host drop rate")
    ax[1][0].set(xlabel="memory application demand (%)", ylabel="p99 host delay (us)",
                 title="(c) NIC-buffer queueing delay (arrival to memory)")
    flows = defaultdict(lambda: defaultdict(list))
    for r in data:
        if r["sweep"] != "flows":
            continue
        if r["iommu"] == "0":
            key = "%s Gb/s, no IOMMU" % r["rateGbps"]
        else:
            key = "%s Gb/s, %s pages" % (
                r["rateGbps"], "4 KiB" if r["pageBytes"] == "4096" else "2 MiB")
        flows[key][int(r["flows"])].append(float(r["goodputGbps"]))
    for key, pts in sorted(flows.items()):
        xs = sorted(pts)
        stats = [spread(pts[x]) for x in xs]
        ax[1][1].errorbar(xs, [s[0] for s in stats],
                          yerr=[[s[1] for s in stats], [s[2] for s in stats]],
                          marker="o", capsize=3, label=key)
    ax[1][1].set_xscale("log", base=2)
    ax[1][1].set(xlabel="flows (queue pairs) into the receiver", ylabel="goodput (Gb/s)",
                 title="(d) IOTLB working set, no memory contention")
    for a in ax.flat:
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def plot_training(out, path):
    data = rows(path)
    series = defaultdict(list)
    for r in data:
        if int(r["iteration"]) < 3:
            continue  # warm-up
        d = float(r["demand"])
        if d == 0:
            key = "no memory task"
        elif r["response"] in ("0", "False", "false"):
            key = "memory task %.0f%%" % (d * 100)
        else:
            key = "memory task %.0f%%, hostCC" % (d * 100)
        series[key].append(float(r["iterationUs"]) / 1000.0)
    keys = sorted(series)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.boxplot([series[k] for k in keys], labels=keys, whis=(1, 99), showfliers=True)
    ax.set(ylabel="iteration time (ms)",
           title="ring all-reduce, 4 hosts, cifarnet on A100 (all seeds, steady state)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("sweep", "training"):
        sys.stderr.write(__doc__)
        return 2
    (plot_sweep if argv[1] == "sweep" else plot_training)(argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
