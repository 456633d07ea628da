#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Figures of the flow-scheduling examples (doc/scheduling.rst).

  plot-flow-scheduling.py cadentflow OUT.png A.csv [B.csv ...]
      one panel per CSV written by examples/cadentflow-ps --csv (or per worker count of a
      campaign's collected table, contrib-scripts/campaigns/cadentflow-ps.json; seeds and runs
      pooled): per model, the mean iteration
      time of each policy relative to the first policy of the file (bars; whiskers from the
      p50 to the p99 when they differ from the mean), and the CCT flexibility ratio.
  plot-flow-scheduling.py cadentflow-table A.csv [B.csv ...]
      the doc's table (reStructuredText on standard output) from the same CSVs: per model and
      worker count, the flexibility ratio, fair sharing's mean / p50 / p99 iteration time (ms;
      seeds and runs pooled), and each other policy's mean relative to fair sharing's, with the
      range of that ratio over the seeds (runs) in brackets.
  plot-flow-scheduling.py echelon OUT.png RUN.csv
      from examples/echelon-pipeline --csv (or the campaign table of
      contrib-scripts/campaigns/echelon-pipeline.json; seeds pooled): per job and policy, the
      iteration time and the maximum tardiness per iteration (mean bars, p50-p99 whiskers).
  plot-flow-scheduling.py echelon-staggered OUT.png RUN.csv SUMMARY.csv [SWEEP.csv ...]
      from examples/echelon-pipeline --scenario=staggered --csv=RUN.csv --summary=SUMMARY.csv
      (seeds pooled): per policy, the pipelines' iteration time with the analytical staggered
      and all-at-once times and the flow-level (fluid) expectation as markers, the consumer's
      first start, and the maximum tardiness per iteration of every job (mean bars, p50-p99
      whiskers). With SWEEP.csv files (more --summary outputs of other --forward/--backward
      values) a last panel: the pipelines' mean iteration time against the stage compute time,
      per policy, with the two analytical curves.
  plot-flow-scheduling.py echelon-table RUN.csv SUMMARY.csv [RUN2.csv SUMMARY2.csv ...]
      the doc's table (reStructuredText on standard output) of the staggered scenario: per run
      and policy, the pipelines pooled (n, iteration time mean / p50 / p99 ms, range of the
      per-seed means, the flow-level expectation, the consumer's first start, the maximum
      tardiness mean / p99) and the coflow job (iteration time mean / p99, maximum tardiness).
"""

import csv
import math
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def nearest_rank(values, p):
    v = sorted(values)
    k = max(1, math.ceil(p / 100.0 * len(v)))
    return v[k - 1]


def summary(values):
    return (sum(values) / len(values), nearest_rank(values, 50), nearest_rank(values, 99))


def read_cadentflow(path):
    """{workers: (model -> policy -> [seconds], model -> flexibility ratio)} of one CSV: a file
    of cadentflow-ps --csv, or a campaign's collected table of it (several worker counts and
    seeds; seeds and runs are pooled)."""
    panels = OrderedDict()
    with open(path) as f:
        for row in csv.DictReader(f):
            data, flex = panels.setdefault(str(row["workers"]), (OrderedDict(), {}))
            data.setdefault(row["model"], OrderedDict()).setdefault(row["policy"], []).append(
                float(row["seconds"]))
            flex[row["model"]] = float(row["flexibility"])
    if not panels:
        raise SystemExit("%s: no rows" % path)
    return panels


def print_rst_table(head, rows):
    """Print a simple reStructuredText table: a header and rows of strings."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    rule = "  ".join("=" * w for w in widths)
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    print(rule)
    print(line(head))
    print(rule)
    for r in rows:
        print(line(r))
    print(rule)


def cadentflow_table(paths):
    """Print the rst table of doc/scheduling.rst's cadentflow-ps section."""
    per_run = defaultdict(list)  # (workers, model, policy, run) -> [seconds]
    flex = {}
    order = OrderedDict()
    policies = OrderedDict()
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                key = (int(row["workers"]), row["model"])
                order.setdefault(key, None)
                policies.setdefault(row["policy"], None)
                per_run[key + (row["policy"], row.get("run", "1"))].append(float(row["seconds"]))
                flex[key] = float(row["flexibility"])
    policies = list(policies)
    base, others = policies[0], policies[1:]
    head = ["model", "W", "n", "flex", "%s mean / p50 / p99 ms" % base] + others
    rows = []
    for key in sorted(order, key=lambda k: (k[0], list(order).index(k))):
        runs = sorted({r for (w, m, p, r) in per_run if (w, m) == key and p == base})
        pooled = [x for r in runs for x in per_run[key + (base, r)]]
        mean, p50, p99 = summary(pooled)
        cells = [key[1], str(key[0]), str(len(pooled)), "%.2f" % flex[key],
                 "%.2f / %.2f / %.2f" % (mean * 1e3, p50 * 1e3, p99 * 1e3)]
        for pol in others:
            mine = [x for r in runs for x in per_run.get(key + (pol, r), [])]
            if not mine:
                cells.append("--")
                continue
            ratio = (sum(mine) / len(mine)) / mean
            per_seed = [(sum(per_run[key + (pol, r)]) / len(per_run[key + (pol, r)]))
                        / (sum(per_run[key + (base, r)]) / len(per_run[key + (base, r)]))
                        for r in runs if per_run.get(key + (pol, r))]
            cells.append("%.3f (%.3f-%.3f)" % (ratio, min(per_seed), max(per_seed))
                         if len(per_seed) > 1 else "%.3f" % ratio)
        rows.append(cells)
    print_rst_table(head, rows)


def plot_cadentflow(out, paths):
    panels = [(path, w, d, fl) for path in paths for w, (d, fl) in read_cadentflow(path).items()]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 3.6 * len(panels)), squeeze=False)
    for ax, (path, workers, data, flex) in zip(axes[:, 0], panels):
        models = list(data)
        policies = list(next(iter(data.values())))
        width = 0.8 / len(policies)
        for k, pol in enumerate(policies):
            xs, ys, lo, hi = [], [], [], []
            for i, m in enumerate(models):
                base = summary(data[m][policies[0]])[0]
                mean, p50, p99 = summary(data[m][pol])
                xs.append(i + (k - (len(policies) - 1) / 2) * width)
                ys.append(mean / base)
                lo.append(max(0.0, mean / base - min(p50, mean) / base))
                hi.append(max(0.0, p99 / base - mean / base))
            ax.bar(xs, ys, width, label=pol, yerr=[lo, hi], capsize=2)
        for i, m in enumerate(models):
            ax.text(i, 0.02, "flex %.2f" % flex[m], ha="center", va="bottom", fontsize=8,
                    rotation=0, color="black",
                    bbox=dict(boxstyle="round", fc="white", ec="none", alpha=0.7))
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xticks(range(len(models)))
        ax.set_xticklabels(models)
        ax.set_ylabel("iteration time / %s" % policies[0])
        ax.set_title("%s (%s workers + %s servers)" % (path.split("/")[-1], workers, workers))
        ax.set_ylim(0, ax.get_ylim()[1] * 1.18)  # room for the legend above the bars
        ax.legend(fontsize=8, ncol=len(policies), loc="upper left", framealpha=0.9)
    fig.tight_layout()
    fig.savefig(out, dpi=130)


def read_echelon_run(path):
    """job -> policy -> [ms] of an echelon-pipeline --csv: iteration time, maximum tardiness
    and (pipelines of the staggered scenario) the consumer's first forward start."""
    it = defaultdict(lambda: defaultdict(list))
    td = defaultdict(lambda: defaultdict(list))
    cs = defaultdict(lambda: defaultdict(list))
    with open(path) as f:
        for row in csv.DictReader(f):
            it[row["job"]][row["policy"]].append(float(row["seconds"]) * 1e3)
            td[row["job"]][row["policy"]].append(float(row["max_tardiness"]) * 1e3)
            if row.get("consumer_start"):
                cs[row["job"]][row["policy"]].append(float(row["consumer_start"]) * 1e3)
    return it, td, cs


def plot_echelon(out, path):
    it, td, _ = read_echelon_run(path)
    jobs = sorted(it)
    policies = list(OrderedDict.fromkeys(p for j in jobs for p in it[j]))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    for ax, table, label in ((axes[0], it, "iteration time (ms)"),
                             (axes[1], td, "max tardiness per iteration (ms)")):
        bars(ax, jobs, policies, table)
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=130)


def bars(ax, jobs, policies, table):
    """Mean bars with p50-p99 whiskers: one group per job, one bar per policy."""
    width = 0.8 / len(policies)
    for k, pol in enumerate(policies):
        xs, ys, lo, hi = [], [], [], []
        for i, j in enumerate(jobs):
            if not table[j][pol]:
                continue
            mean, p50, p99 = summary(table[j][pol])
            xs.append(i + (k - (len(policies) - 1) / 2) * width)
            ys.append(mean)
            lo.append(max(0.0, mean - min(p50, mean)))
            hi.append(max(0.0, p99 - mean))
        ax.bar(xs, ys, width, label=pol, yerr=[lo, hi], capsize=2)
    ax.set_xticks(range(len(jobs)))
    ax.set_xticklabels(jobs)


def read_summary(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def plot_echelon_staggered(out, run, summ, sweeps):
    it, td, cs = read_echelon_run(run)
    rows = read_summary(summ)
    jobs = sorted(it)
    pipes = [j for j in jobs if j.startswith("pipeline")]
    policies = list(OrderedDict.fromkeys(r["policy"] for r in rows))
    n = 4 if sweeps else 3
    fig, axes = plt.subplots(1, n, figsize=(4.6 * n, 4.0))
    ax = axes[0]
    bars(ax, pipes, policies, it)
    width = 0.8 / len(policies)
    for r in rows:
        if r["job"] in pipes and r["fluid_iter_ms"]:
            i, k = pipes.index(r["job"]), policies.index(r["policy"])
            ax.plot(i + (k - (len(policies) - 1) / 2) * width, float(r["fluid_iter_ms"]), "kx",
                    label="fluid" if (i, k) == (0, 0) else None)
    first = next(r for r in rows if r["job"] in pipes)
    ax.axhline(float(first["staggered_bound_ms"]), color="green", ls="--", lw=1,
               label="staggered, one job alone")
    ax.axhline(float(first["all_at_once_ms"]), color="red", ls=":", lw=1,
               label="all at once, one job alone")
    ax.set_ylabel("pipeline iteration time (ms)")
    ax.legend(fontsize=7)
    ax = axes[1]
    bars(ax, pipes, policies, cs)
    ax.set_ylabel("consumer's first forward start (ms)")
    ax.legend(fontsize=7)
    ax = axes[2]
    bars(ax, jobs, policies, td)
    ax.set_ylabel("max tardiness per iteration (ms)")
    ax.legend(fontsize=7)
    if sweeps:
        ax = axes[3]
        pts = defaultdict(list)
        bound = {}
        for path in [summ] + sweeps:
            for r in read_summary(path):
                if r["job"] not in pipes:
                    continue
                x = float(r["forward_ms"])
                pts[r["policy"]].append((x, float(r["iter_mean_ms"])))
                bound[x] = (float(r["staggered_bound_ms"]), float(r["all_at_once_ms"]))
        for pol in policies:
            agg = defaultdict(list)
            for x, y in pts[pol]:
                agg[x].append(y)
            xs = sorted(agg)
            ax.plot(xs, [sum(agg[x]) / len(agg[x]) for x in xs], "o-", label=pol)
        xs = sorted(bound)
        ax.plot(xs, [bound[x][0] for x in xs], "g--", lw=1, label="staggered, alone")
        ax.plot(xs, [bound[x][1] for x in xs], "r:", lw=1, label="all at once, alone")
        ax.set_xlabel("forward time per micro-batch and stage (ms; backward = 2x)")
        ax.set_ylabel("pipeline iteration time (ms)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=130)


def echelon_table(pairs):
    """Print the rst table of doc/scheduling.rst's staggered Echelon section."""
    head = ["forward / backward / transfer ms", "policy", "n", "pipeline iter mean / p50 / p99",
            "per-seed mean", "fluid", "consumer start", "pipeline tardiness mean / p99",
            "coflow iter mean / p99", "coflow tardiness"]
    rows = []
    for run, summ in pairs:
        it, td, cs = read_echelon_run(run)
        per_seed = defaultdict(lambda: defaultdict(list))  # policy -> run -> [ms]
        with open(run) as f:
            for row in csv.DictReader(f):
                if row["job"].startswith("pipeline"):
                    per_seed[row["policy"]][row["run"]].append(float(row["seconds"]) * 1e3)
        srows = read_summary(summ)
        pipes = sorted({r["job"] for r in srows if r["job"].startswith("pipeline")})
        for pol in OrderedDict.fromkeys(r["policy"] for r in srows):
            mine = [r for r in srows if r["policy"] == pol]
            pooled = lambda t: [x for j in pipes for x in t[j][pol]]
            mean, p50, p99 = summary(pooled(it))
            seeds = [sum(v) / len(v) for v in per_seed[pol].values() if v]
            fluid = [float(r["fluid_iter_ms"]) for r in mine
                     if r["job"] in pipes and r["fluid_iter_ms"]]
            tmean, _, tp99 = summary(pooled(td))
            cells = ["%s / %s / %s" % (mine[0]["forward_ms"], mine[0]["backward_ms"],
                                       mine[0]["transfer_ms"]), pol, str(len(pooled(it))),
                     "%.2f / %.2f / %.2f" % (mean, p50, p99),
                     "%.2f-%.2f" % (min(seeds), max(seeds)),
                     "%.2f" % (sum(fluid) / len(fluid)) if fluid else "--",
                     "%.2f" % summary(pooled(cs))[0],
                     "%.2f / %.2f" % (tmean, tp99)]
            if it.get("coflow", {}).get(pol):
                cm, _, c99 = summary(it["coflow"][pol])
                cells += ["%.2f / %.2f" % (cm, c99), "%.2f" % summary(td["coflow"][pol])[0]]
            else:
                cells += ["--", "--"]
            rows.append(cells)
    print_rst_table(head, rows)


def main(argv):
    if len(argv) >= 4 and argv[1] == "echelon-table" and len(argv) % 2 == 0:
        echelon_table(list(zip(argv[2::2], argv[3::2])))
        return 0
    if len(argv) >= 5 and argv[1] == "echelon-staggered":
        plot_echelon_staggered(argv[2], argv[3], argv[4], argv[5:])
        return 0
    if len(argv) >= 3 and argv[1] == "cadentflow-table":
        cadentflow_table(argv[2:])
        return 0
    if len(argv) < 4 or argv[1] not in ("cadentflow", "echelon"):
        sys.stderr.write(__doc__)
        return 2
    if argv[1] == "cadentflow":
        plot_cadentflow(argv[2], argv[3:])
    else:
        plot_echelon(argv[2], argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
