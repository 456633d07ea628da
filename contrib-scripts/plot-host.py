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
  plot-host.py iotlb OUT.png SUMMARY.csv
      from examples/host-congestion --mode=iotlb --summary: goodput against line rate for
      IOMMU off, 4 KiB and 2 MiB pages, one panel per host path and sender (lossless with a
      line-rate sender: the IOTLB cost alone; lossless with DCQCN; lossy with DCQCN); points
      are the p50 of every measured interval of every seed, bars span their minimum to
      maximum, open markers on a dashed line are the analytical bound.
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
            what = {"1": "marking", "2": "throttling", "3": "marking+throttling"}
            key = "memory task %.0f%%, hostCC %s" % (
                d * 100, what.get(r["response"], "marking+throttling"))
        series[key].append(float(r["iterationUs"]) / 1000.0)
    keys = sorted(series)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.boxplot([series[k] for k in keys], labels=keys, whis=(1, 99), showfliers=True)
    ax.set(ylabel="iteration time (ms)",
           title="ring all-reduce, 4 hosts, cifarnet on A100 (all seeds, steady state)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def plot_iotlb(out, path):
    data = rows(path)
    panels = [("lossless", "fixed", "(a) lossless host path, line-rate sender:\nthe IOTLB cost alone"),
              ("lossless", "dcqcn", "(b) lossless host path, DCQCN sender"),
              ("lossy", "dcqcn", "(c) lossy host path (drops), DCQCN,\ngo-back-N")]
    names = {"0": "no IOMMU", "4096": "4 KiB pages", "2097152": "2 MiB pages"}
    colours = {"0": "tab:gray", "4096": "tab:red", "2097152": "tab:blue"}
    fig, ax = plt.subplots(1, 3, figsize=(14, 4.5), sharey=True)
    for a, (hostpath, sender, title) in zip(ax, panels):
        for page in ("0", "4096", "2097152"):
            pts = sorted((float(r["rateGbps"]), r) for r in data
                         if r["hostPath"] == hostpath and r["sender"] == sender
                         and r["pageBytes"] == page)
            if not pts:
                continue
            xs = [x for x, _ in pts]
            p50 = [float(r["p50Gbps"]) for _, r in pts]
            lo = [max(p - float(r["minGbps"]), 0) for p, (_, r) in zip(p50, pts)]
            hi = [float(r["maxGbps"]) - p for p, (_, r) in zip(p50, pts)]
            a.errorbar(xs, p50, yerr=[lo, hi], marker="o", capsize=3, color=colours[page],
                       label=names[page] + " (p50, min-max)")
            a.plot(xs, [float(r["boundGbps"]) for _, r in pts], linestyle="--",
                   marker="o", markerfacecolor="none", color=colours[page], alpha=0.6,
                   label=names[page] + " bound")
        a.set_xscale("log", base=2)
        a.set_yscale("log")
        a.set_xticks([100, 200, 400])
        a.set_xticklabels(["100", "200", "400"])
        a.set(xlabel="line rate (Gb/s)", title=title)
        a.grid(alpha=0.3, which="both")
    ax[0].set_ylabel("receiver goodput (Gb/s)")
    ax[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv):
    plots = {"sweep": plot_sweep, "training": plot_training, "iotlb": plot_iotlb}
    if len(argv) != 4 or argv[1] not in plots:
        sys.stderr.write(__doc__)
        return 2
    plots[argv[1]](argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
