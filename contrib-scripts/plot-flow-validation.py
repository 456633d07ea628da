#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The flow backend against the packet backend, per iteration (doc/flow-backend.rst,
"Steady state against the packet backend").

  plot-flow-validation.py RESULTS.json [RESULTS.json ...] OUT.png

RESULTS.json ...: what `flow-validation.py --json` wrote (every run's measured iterations at
both levels: the iterations after each job's first, pooled over the scenario's jobs; each
job's last iteration is in them, longer than the others where the job's final all-reduce has
no next forward pass to overlap). Several files are read as one list, in the order given. Prints per
scenario and seed: the packet and flow mean iteration, the packet iterations' p10 / p90 and the
flow ones', the error of the means (flow - packet) / packet, and the CPU speed-up; then the
median and maximum |error| over all runs, over the runs under DCQCN (the packet backend's
default) and over those without it (names ending in -fixed or -nocc). Draws (a) per scenario,
each iteration's time at both levels divided by the packet mean (dots), the means as bars'
ends; (b) the distribution of |error| with the issue's 5 % (median) and 10 % (every bulk
collective) lines, per run and, where the JSON has them (packetJobMs, flowJobMs), per job.
"""

import json
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def pct(xs, q):
    """Nearest-rank percentile of xs (q in [0, 1])."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def rows(results):
    """(name, seed, packet ms list, flow ms list, error %, speed-up) for runs with iterations."""
    out = []
    for r in results:
        p = [x / 1e6 for x in r["packetIterationsNs"]]
        f = [x / 1e6 for x in r["flowIterationsNs"]]
        if not p or not f:
            continue
        mp, mf = statistics.mean(p), statistics.mean(f)
        up = r["packetCpuSeconds"] / max(r["flowCpuSeconds"], 1e-3)
        out.append((r["scenario"], r["seed"], p, f, 100 * (mf - mp) / mp, up))
    return out


def job_errors(results):
    """error % of each job's mean iteration, every job of every run that has them"""
    out = []
    for r in results:
        jp, jf = r.get("packetJobMs"), r.get("flowJobMs")
        if jp and jf and len(jp) == len(jf):
            out += [100 * (f - p) / p for p, f in zip(jp, jf)]
    return out


def without_cc(name):
    return name.endswith("-fixed") or name.endswith("-nocc")


def summary(label, errs, unit="runs"):
    ab = sorted(abs(e) for e in errs)
    if ab:
        print("%s: median |error| %.2f %%, max %.2f %% over %d %s; within 5 %%: %d, within "
              "10 %%: %d" % (label, statistics.median(ab), ab[-1], len(ab), unit,
                             sum(e <= 5 for e in ab), sum(e <= 10 for e in ab)))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    results = []
    for path in argv[1:-1]:
        with open(path) as f:
            results += json.load(f)
    data = rows(results)
    if not data:
        sys.stderr.write("error: no run with measured iterations in %s\n" % " ".join(argv[1:-1]))
        return 1
    print("%-40s %4s %4s %9s %9s %17s %17s %8s %8s" % (
        "scenario", "seed", "n", "pkt ms", "flow ms", "pkt p10-p90 ms", "flow p10-p90 ms",
        "err %", "speed-up"))
    for name, seed, p, f, e, up in data:
        print("%-40s %4d %4d %9.3f %9.3f %8.3f-%-8.3f %8.3f-%-8.3f %8.2f %8.0f" % (
            name, seed, len(p), statistics.mean(p), statistics.mean(f), pct(p, 0.1),
            pct(p, 0.9), pct(f, 0.1), pct(f, 0.9), e, up))
    summary("all runs", [d[4] for d in data])
    summary("under DCQCN (the default)", [d[4] for d in data if not without_cc(d[0])])
    summary("without congestion control (-fixed, -nocc)", [d[4] for d in data
                                                           if without_cc(d[0])])
    jobs = job_errors(results)
    if jobs:
        summary("per job (every job of every run; flow-validation.py's packetJobMs, flowJobMs)",
                jobs, "jobs")

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 0.32 * len(data) + 2),
                                 gridspec_kw={"width_ratios": [3, 1.4]})
    for i, (name, seed, p, f, e, up) in enumerate(data):
        mp = statistics.mean(p)
        y = len(data) - 1 - i
        ax.scatter([x / mp for x in p], [y + 0.15] * len(p), s=6, color="tab:blue",
                   label="packet" if i == 0 else None)
        ax.scatter([x / mp for x in f], [y - 0.15] * len(f), s=6, color="tab:orange",
                   label="flow" if i == 0 else None)
        ax.plot([1, statistics.mean(f) / mp], [y, y], color="grey", lw=2)
    ax.axvline(1, color="k", lw=0.5)
    for v in (0.9, 1.1):
        ax.axvline(v, color="k", lw=0.5, ls=":")
    ax.set_yticks(range(len(data)))
    ax.set_yticklabels(["%s s%d" % (d[0], d[1]) for d in reversed(data)], fontsize=7)
    ax.set_xlabel("iteration time / packet-level mean (dots: every measured iteration; "
                  "bar: flow mean)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("(a) per scenario and seed")
    ab = sorted(abs(d[4]) for d in data)
    bx.step(ab, [(i + 1) / len(ab) for i in range(len(ab))], where="post", label="all runs")
    nocc = sorted(abs(d[4]) for d in data if without_cc(d[0]))
    if nocc:
        bx.step(nocc, [(i + 1) / len(nocc) for i in range(len(nocc))], where="post",
                label="-fixed / -nocc (no DCQCN)")
    if jobs:
        aj = sorted(abs(e) for e in jobs)
        bx.step(aj, [(i + 1) / len(aj) for i in range(len(aj))], where="post",
                label="per job (%d jobs)" % len(aj))
    for v in (5, 10):
        bx.axvline(v, color="k", lw=0.5, ls=":")
    bx.axhline(0.5, color="k", lw=0.5, ls=":")
    bx.set_xscale("symlog", linthresh=1)
    bx.set_xlim(0, 100)
    bx.set_xlabel("|error of the mean iteration| %")
    bx.set_ylabel("fraction of runs (or jobs)")
    bx.legend(loc="lower right", fontsize=8)
    bx.set_title("(b) error distribution")
    fig.tight_layout()
    fig.savefig(argv[-1], dpi=80)
    print("wrote", argv[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
