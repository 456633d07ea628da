#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""PANAMA's slot window against its speed-up over ring (doc/aggregation.rst, "Slot window").

  plot-slot-window.py OUT.png --ring DIR [DIR ...] --panama BYTES=DIR [BYTES=DIR ...]

DIR: panama-shared-cluster --out directories at one k and load (the seed is read from them);
--ring: ring runs (one per seed); --panama: PANAMA runs, each labelled with the
--ns3::AggregationEngine::BufferBytesPerJob it ran with (2097152 = the default). The slot pool
of a tree, and so the window of its workers, is the largest every point of the tree holds for
the job's trees through it, capped at 512 (AggregationHelper::SetMaxSlots): BYTES / (2 x 1024 B
x T) with T = 2 at an edge uplink device that carries two trees of the job (two workers under
one edge switch at k=4), T = 1 otherwise. The x axis is BYTES / 4096, the window of the T = 2
jobs ("nominal window"); the T = 1 jobs have twice that, up to 512.

Prints per run: the mean iteration (mean over the jobs of each job's mean), every job's mean
with its model, the speed-up over the same seed's ring (mean over the jobs of ring's job mean /
PANAMA's, [min-max] over the jobs), the jobs' idle-network bound (mean over the jobs), the 7 KB
flows' p99 FCT, the ECN marks of all switch ports per simulated second (ports.csv), the PFC
pauses and the run's CPU seconds; draws (a) the mean speed-up per seed against the
nominal window (the seeds drawn slightly apart), bars = the jobs' range, dashed = the bound; (b) every job's speed-up (seed 1,
or the first seed) against the nominal window.
"""

import importlib.util
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("plot_aggregation",
                                               os.path.join(HERE, "plot-aggregation.py"))
pa = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pa)
plt = pa.plt


def parse(argv):
    """(out, ring dirs, [(bytes, dir)]) from the command line, or None."""
    if len(argv) < 5 or argv[2] != "--ring" or "--panama" not in argv:
        return None
    i = argv.index("--panama")
    ring = argv[3:i]
    panama = []
    for a in argv[i + 1:]:
        b, sep, d = a.partition("=")
        if not sep or not b.isdigit() or int(b) < 4096:
            sys.exit("plot-slot-window.py: --panama takes BYTES=DIR with BYTES >= 4096 "
                     "(BufferBytesPerJob), got %r" % a)
        panama.append((int(b), d))
    return (argv[1], ring, panama) if ring and panama else None


def run_jobs(d, scheme):
    """seed -> (job -> plot-aggregation.py's JobMean, summary row) of one run."""
    means = pa.job_means(d)
    out = {}
    for r in pa.read_csv(os.path.join(d, "summary.csv")):
        if r["scheme"] == scheme:
            out[r["seed"]] = (means.get((r["load"], r["seed"], r["scheme"]), {}), r)
    return out


def main(argv):
    args = parse(argv)
    if args is None:
        print(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    out, ring_dirs, panama = args
    ring = {}
    for d in ring_dirs:
        for seed, (jobs, _) in run_jobs(d, "ring").items():
            ring[seed] = jobs
    rows = defaultdict(list)  # seed -> [(nominal window, mean, lo, hi, bound)]
    perjob = defaultdict(list)  # (seed, job, model) -> [(nominal window, speed-up)]
    print("%-8s %-6s %-4s %8s %-24s %6s %8s %9s %6s %6s  %s" % (
        "bytes", "window", "seed", "iter ms", "speed-up [jobs]", "bound", "p99 us", "marks/s",
        "pauses", "CPU s", "jobs: model ms (speed-up)"))
    for nbytes, d in sorted(panama):
        window = min(512, nbytes // 4096)
        for seed, (jobs, r) in sorted(run_jobs(d, "panama").items(), key=lambda x: int(x[0])):
            rj = ring.get(seed)
            if rj is None:
                sys.exit("plot-slot-window.py: no ring run of seed %s among --ring" % seed)
            sp = {j: rj[j].mean / x.mean for j, x in jobs.items() if j in rj and x.mean > 0}
            bound = pa.mean([x.bound for x in jobs.values()])
            it = pa.mean([x.mean for x in jobs.values()])
            rows[seed].append((window, pa.mean(list(sp.values())), min(sp.values()),
                               max(sp.values()), bound))
            for j, x in jobs.items():
                perjob[(seed, j, x.model)].append((window, sp[j]))
            marks = sum(int(p["ecn_marks"]) for p in pa.read_csv(os.path.join(d, "ports.csv"))
                        if p["seed"] == seed and p["scheme"] == "panama")
            print("%-8d %-6d %-4s %8.1f %-24s %6.2f %8.1f %9.0f %6s %6.0f  %s" % (
                nbytes, window, seed, it * 1e3, "%.2f [%.2f-%.2f]" % rows[seed][-1][1:4], bound,
                float(r["short_p99_fct_s"]) * 1e6, marks / float(r["end_s"]), r["pfc_pauses"],
                float(r.get("cpu_s") or "nan"),
                ", ".join("%s %.1f (%.2fx)" % (jobs[j].model, jobs[j].mean * 1e3, sp[j])
                          for j in sorted(jobs, key=int))))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    for i, seed in enumerate(sorted(rows, key=int)):
        v = sorted(rows[seed])
        x = [w * 1.04**i for w, *_ in v]  # seeds side by side (log axis)
        line = ax.errorbar(x, [m for _, m, _, _, _ in v],
                           yerr=[[m - lo for _, m, lo, _, _ in v], [hi - m for _, m, _, hi, _ in v]],
                           marker="o", capsize=3, label="seed %s" % seed)
        ax.plot(x, [b for *_, b in v], ls="--", color=line[0].get_color(), lw=1,
                label="seed %s bound" % seed)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nominal window (slots per tree; BufferBytesPerJob / 4096)")
    ax.set_ylabel("PANAMA speed-up over ring (mean over jobs)")
    ax.set_title("(a) speed-up vs window; bars: jobs' range")
    ax.legend(fontsize=8)
    ax = axes[1]
    first = min(rows, key=int)
    for (seed, job, model), v in sorted(perjob.items(), key=lambda x: int(x[0][1])):
        if seed == first:
            v = sorted(v)
            ax.plot([w for w, _ in v], [s for _, s in v], marker="o", label="%s (job %s)" % (
                model, job))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("nominal window (slots per tree)")
    ax.set_ylabel("job's speed-up over ring")
    ax.set_title("(b) per job, seed %s" % first)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
