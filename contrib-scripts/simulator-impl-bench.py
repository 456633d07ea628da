#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare ns-3's DefaultSimulatorImpl with mlnet's MlnetSimulatorImpl on the same build.

Runs the event-loop floor, the RDMA k=4 fat-tree permutation (DCQCN, an ACK per packet) and the
16 x 10 MB RDMA incast to completion under both simulator implementations (selected with
NS_GLOBAL_VALUE=SimulatorImplementationType=...), interleaved run by run (the order alternates)
so that machine noise hits both alike; repeat r uses --RngRun=r for both (the fat-tree's
permutation changes with it; the floor and the incast are deterministic). Checks that both give
the same events, packet-hops and deterministic results in every pair, prints a table of CPU ns
per packet-hop (floor: per event; CPU time of Simulator::Run()) as median [p10-p90] and writes
a figure.

    cmake -S . -B build-x -DCMAKE_BUILD_TYPE=Release -DMLNET_BUILD_BENCH=ON
    cmake --build build-x -j2 --target mlnet-bench-floor mlnet-bench-fattree mlnet-bench-incast
    python3 contrib-scripts/simulator-impl-bench.py --build-dir build-x --repeat 7

Outputs (prefix --out, default simulator-impl-bench): <out>.jsonl (every raw line, with the
implementation and repeat), <out>.png (the figure). --from-jsonl re-renders both from a file.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

IMPLS = ["ns3::DefaultSimulatorImpl", "ns3::MlnetSimulatorImpl"]
# (key, label, program, arguments); floor values are per event, the others per packet-hop.
LINES = [
    ("floor", "floor (10 M trivial events)", "mlnet-bench-floor", ["--events=10000000"]),
    ("rdma-k4", "RDMA k=4 permutation, 4 ms", "mlnet-bench-fattree",
     ["--transport=rdma", "--duration=0.004", "--floorEvents=0"]),
    ("incast", "incast 16 x 10 MB", "mlnet-bench-incast",
     ["--flowBytes=10000000", "--duration=0.1", "--floorEvents=0"]),
]
# Fields that must be identical under both implementations (the simulation's results).
SAME = ["events", "packet_hops", "rx_bytes", "ecn_marks", "pfc_pauses", "drops", "completion_s",
        "flows_done"]


def ns_per_unit(row):
    """CPU ns per packet-hop (floor: per event)."""
    if row["bench"] == "floor":
        return row["floor_ns_per_event"]
    return row["cpu_s"] * 1e9 / row["packet_hops"]  # cpu_s: CPU time of Simulator::Run()


def run(build_dir, repeat, out):
    rows = []
    with open(out + ".jsonl", "w") as f:
        for rep in range(1, repeat + 1):
            for key, _, program, args in LINES:
                impls = IMPLS if rep % 2 else list(reversed(IMPLS))
                for impl in impls:
                    env = dict(os.environ, NS_GLOBAL_VALUE="SimulatorImplementationType=" + impl)
                    cmd = [os.path.join(build_dir, "bench", program)] + args + [
                        "--RngRun=%d" % rep]
                    text = subprocess.run(cmd, env=env, check=True, capture_output=True,
                                          text=True).stdout.strip().splitlines()[-1]
                    row = {"key": key, "impl": impl, "rep": rep, "cmd": " ".join(cmd[0:1] + args),
                           "result": json.loads(text)}
                    rows.append(row)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    print("%-8s rep %d %-27s %8.1f ns" % (key, rep, impl,
                                                          ns_per_unit(row["result"])),
                          file=sys.stderr)
    return rows


def check_same(rows):
    """Every deterministic field identical within each (line, repeat) pair."""
    ok = True
    pairs = {}
    for r in rows:
        pairs.setdefault((r["key"], r["rep"]), []).append(r["result"])
    for (key, rep), results in sorted(pairs.items()):
        for field in SAME:
            values = {json.dumps(x.get(field)) for x in results}
            if len(values) > 1:
                print("DIFFERENT %s in %s repeat %d: %s" % (field, key, rep, values))
                ok = False
    return ok


def pct(values, p):
    values = sorted(values)
    i = (len(values) - 1) * p / 100.0
    lo = int(i)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (i - lo)


def table_and_figure(rows, out):
    stats = {}
    print("%-30s %-27s %8s %17s %6s" % ("line", "implementation", "median", "p10-p90", "runs"))
    for key, label, _, _ in LINES:
        for impl in IMPLS:
            v = [ns_per_unit(r["result"]) for r in rows if r["key"] == key and r["impl"] == impl]
            if not v:
                continue
            stats[(key, impl)] = (statistics.median(v), pct(v, 10), pct(v, 90), v)
            print("%-30s %-27s %8.1f %8.1f-%-8.1f %6d" % (label, impl, stats[(key, impl)][0],
                                                        stats[(key, impl)][1],
                                                        stats[(key, impl)][2], len(v)))
        if (key, IMPLS[0]) in stats and (key, IMPLS[1]) in stats:
            ratios = []
            for rep in sorted({r["rep"] for r in rows if r["key"] == key}):
                pair = {r["impl"]: ns_per_unit(r["result"]) for r in rows
                        if r["key"] == key and r["rep"] == rep}
                if len(pair) == 2:
                    ratios.append(pair[IMPLS[0]] / pair[IMPLS[1]])
            print("%-30s speed-up median %.3fx, per pair %s" % (
                "", statistics.median(ratios), " ".join("%.2f" % x for x in ratios)))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no figure", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, len(LINES), figsize=(10, 3.4))
    for ax, (key, label, _, _) in zip(axes, LINES):
        for i, impl in enumerate(IMPLS):
            if (key, impl) not in stats:
                continue
            med, p10, p90, v = stats[(key, impl)]
            ax.bar(i, med, color=["#999999", "#1f77b4"][i], width=0.6)
            ax.errorbar(i, med, yerr=[[med - p10], [p90 - med]], color="black", capsize=4)
            ax.plot([i] * len(v), v, "k.", markersize=3, alpha=0.5)
        ax.set_xticks(range(len(IMPLS)))
        ax.set_xticklabels(["Default", "Mlnet"])
        ax.set_title(label, fontsize=9)
        ax.set_ylabel("CPU ns per event" if key == "floor" else "CPU ns per packet-hop")
        ax.set_ylim(bottom=0)
    fig.suptitle("SimulatorImpl: median, p10-p90 and every run", fontsize=10)
    fig.tight_layout()
    fig.savefig(out + ".png", dpi=120)
    print("figure: %s.png" % out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default="build", help="build with MLNET_BUILD_BENCH=ON")
    ap.add_argument("--repeat", type=int, default=7, help="runs per line and implementation")
    ap.add_argument("--only", default="", help="comma-separated line keys: floor,rdma-k4,incast")
    ap.add_argument("--out", default="simulator-impl-bench", help="output prefix")
    ap.add_argument("--from-jsonl", help="re-render the table and figure from a .jsonl")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be >= 1")
    if a.only:
        keys = a.only.split(",")
        unknown = [k for k in keys if k not in [line[0] for line in LINES]]
        if unknown:
            ap.error("--only: unknown line(s) %s; accepted: floor, rdma-k4, incast" % unknown)
        LINES[:] = [line for line in LINES if line[0] in keys]
    if a.from_jsonl:
        rows = [json.loads(x) for x in open(a.from_jsonl)]
    else:
        rows = run(a.build_dir, a.repeat, a.out)
    same = check_same(rows)
    table_and_figure(rows, a.out)
    print("deterministic fields identical in every pair: %s" % ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
