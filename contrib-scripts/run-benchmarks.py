#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run the mlnet benchmarks (bench/) and write a markdown table and a plot.

Runs every scenario program (each prints one JSON line), the mainline ns-3 baselines of
scenarios (1) and (2) in the same run, repeats every run (interleaved, to spread out machine
noise) and keeps the median of the repeats (--stat=best: the fastest), prints the mlnet/mainline ratio of
packet-hops per wall second, checks the targets, and runs the Google Benchmark
micro-benchmarks if they were built.

    cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DMLNET_BUILD_BENCH=ON
    cmake --build build-bench -j2
    python3 contrib-scripts/run-benchmarks.py --build-dir build-bench

Outputs (prefix --out, default bench-results): <out>.md (tables), <out>.png (plot),
<out>.jsonl (every raw JSON line).
"""

import argparse
import json
import os
import subprocess
import sys
import time

# (key, program, arguments, simulator); the key pairs mlnet and mainline runs.
SCENARIOS = [
    ("incast16", "mlnet-bench-incast", ["--duration=0.002"], "mlnet"),
    ("incast16", "mainline-incast", ["--duration=0.002"], "mainline"),
    ("fattree4-permutation", "mlnet-bench-fattree",
     ["--k=4", "--pattern=permutation", "--duration=0.001"], "mlnet"),
    ("fattree4-permutation", "mainline-fattree",
     ["--k=4", "--pattern=permutation", "--duration=0.001"], "mainline"),
    ("fattree8-shuffle", "mlnet-bench-fattree",
     ["--k=8", "--pattern=shuffle", "--duration=0.0002"], "mlnet"),
    ("fattree16-permutation", "mlnet-bench-fattree",
     ["--k=16", "--pattern=permutation", "--duration=0.00003"], "mlnet"),
    # issue 14: the event-loop floor, RDMA (DCQCN) with per-packet and coalesced ACKs, the
    # classic 16-to-1 incast of 10 MB messages to completion, web-search background traffic.
    ("floor", "mlnet-bench-floor", ["--events=10000000"], "ns-3"),
    ("fattree4-rdma", "mlnet-bench-fattree",
     ["--k=4", "--pattern=permutation", "--transport=rdma", "--duration=0.004"], "mlnet"),
    ("fattree4-rdma-ack16", "mlnet-bench-fattree",
     ["--k=4", "--pattern=permutation", "--transport=rdma", "--ackInterval=16",
      "--duration=0.004"], "mlnet"),
    ("incast16-10MB", "mlnet-bench-incast",
     ["--flowBytes=10000000", "--duration=0.1"], "mlnet"),
    ("fattree8-websearch50", "mlnet-bench-fattree",
     ["--k=8", "--pattern=websearch", "--load=0.5", "--transport=rdma", "--duration=0.0005"],
     "mlnet"),
]
QUICK_DURATION = {"incast16": "0.0002", "fattree4-permutation": "0.0001",
                  "fattree8-shuffle": "0.00002", "fattree16-permutation": "0.000005",
                  "fattree4-rdma": "0.0002", "fattree4-rdma-ack16": "0.0002",
                  "incast16-10MB": "0.1", "fattree8-websearch50": "0.00005"}
# issue 14's before/after table (--baseline-build-dir): these scenarios, both builds interleaved.
COMPARE_BENCHES = ["floor", "fattree4-rdma", "fattree4-rdma-ack16", "incast16-10MB",
                   "fattree8-websearch50", "fattree4-permutation", "fattree8-shuffle",
                   "fattree16-permutation"]
RATIO_BENCHES = ["incast16", "fattree4-permutation"]
SCHEDULERS = ["ns3::MapScheduler", "ns3::HeapScheduler", "ns3::ListScheduler",
              "ns3::CalendarScheduler", "ns3::PriorityQueueScheduler",
              "ns3::QuadHeapScheduler", "ns3::TimingWheelScheduler"]
# --scheduler-sweep: these scenarios under every scheduler (CPU ns per hop; the floor per event)
SWEEP_BENCHES = ["floor", "fattree4-rdma", "incast16-10MB", "fattree8-websearch50"]
# deterministic fields that must not depend on the scheduler
SAME_FIELDS = ["events", "packet_hops", "rx_bytes", "ecn_marks", "pfc_pauses", "drops",
               "flows_done", "completion_s", "floor_events"]


NICE = 0


def run_one(path, args):
    """Run a benchmark program; return its JSON result."""
    pre = ["nice", "-n", str(NICE)] if NICE else []
    out = subprocess.run(pre + [path] + args, check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.startswith("{")]
    if len(lines) != 1:
        raise RuntimeError(f"{path} {args}: expected one JSON line, got:\n{out}")
    return json.loads(lines[0])


STAT = "median"


def rate_of(r):
    """Speed of a run: packet-hops (events for the floor) per wall second."""
    return r["hops_per_wall_s"] if r.get("packet_hops") else r.get("events_per_wall_s", 0)


def best_of(results):
    """The run kept of repeats: the median run by speed (or the fastest with --stat=best);
    runs keep their own RSS."""
    ranked = sorted(results, key=rate_of)
    if STAT == "best":
        return ranked[-1]
    return ranked[(len(ranked) - 1) // 2]


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def fmt(x, digits=3):
    if isinstance(x, float):
        if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3):
            return f"{x:.{digits}g}"
        return f"{x:.{digits}g}" if abs(x) < 1 else f"{x:,.{max(0, digits - 1)}f}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def run_before(a, prog, args, key, rep, raw, before):
    """One run of the baseline build (--baseline-build-dir)."""
    r = run_one(os.path.join(a.baseline_build_dir, "bench", prog), args)
    r["_cmd"] = " ".join([prog] + args)
    r["_key"], r["_role"] = key, "before"
    raw.append(r)
    before.setdefault(key, []).append(r)
    print(f"[{rep + 1}/{a.repeat}] {key:24s} before   "
          f"{rate_of(r) / 1e6:7.3f} M/s wall, cpu {r['cpu_s']:.2f} s", flush=True)


def before_after_table(before, after):
    """Markdown: median of every metric over the repeats, before and after, per scenario."""
    md = ["## Before / after (issue 14; median of each metric over the interleaved repeats)\n",
          "| bench | build | runs | M hops / wall s | M hops / CPU s | events / hop | "
          "ns per hop (CPU) | p10-p90 ns per hop | floor ns / event | hop / floor | "
          "peak RSS (MB) | speed-up (CPU) |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key in COMPARE_BENCHES:
        if key not in before or key not in after:
            continue
        ref = None
        for label, rs in (("before", before[key]), ("after", after[key])):
            if key == "floor":
                ns = [r["floor_ns_per_event"] for r in rs]
                md.append(f"| floor ({rs[0]['floor_events']:,} trivial events) | {label} | "
                          f"{len(rs)} | {median([r['events_per_wall_s'] for r in rs]) / 1e6:.2f}"
                          f" M ev/s | {median([r['floor_events_per_cpu_s'] for r in rs]) / 1e6:.2f}"
                          f" M ev/s | - | {median(ns):.1f} (per event) | "
                          f"{sorted(ns)[0]:.1f}-{sorted(ns)[-1]:.1f} | {median(ns):.1f} | 1 | "
                          f"{median([r['peak_rss_mb'] for r in rs]):.1f} | - |")
                continue
            ns = sorted(r["ns_per_hop"] for r in rs)
            lo, hi = ns[int(0.1 * (len(ns) - 1))], ns[int(round(0.9 * (len(ns) - 1)))]
            m = median(ns)
            sp = "" if ref is None else f"{ref / m:.2f}x"
            ref = m if ref is None else ref
            md.append(f"| {key} | {label} | {len(rs)} | "
                      f"{median([r['hops_per_wall_s'] for r in rs]) / 1e6:.3f} | "
                      f"{median([r['hops_per_cpu_s'] for r in rs]) / 1e6:.3f} | "
                      f"{median([r['events_per_hop'] for r in rs]):.3f} | {m:.0f} | "
                      f"{lo:.0f}-{hi:.0f} | "
                      f"{median([r['floor_ns_per_event'] for r in rs]):.1f} | "
                      f"{median([r['hop_vs_floor'] for r in rs]):.2f} | "
                      f"{median([r['peak_rss_mb'] for r in rs]):.1f} | {sp} |")
    md.append("")
    md += same_results_lines(before, after)
    return md


def same_results_lines(before, after):
    """Markdown list: per scenario, whether every run of both builds gave the same
    deterministic fields (an optimisation must not change results)."""
    md = []
    for key in COMPARE_BENCHES:
        if key not in before or key not in after:
            continue
        sigs = {tuple(r.get(f) for f in SAME_FIELDS) for r in before[key] + after[key]}
        md.append(f"- {key}: deterministic fields ({', '.join(SAME_FIELDS)}) "
                  + ("identical in every run of both builds" if len(sigs) == 1
                     else f"DIFFER: {len(sigs)} distinct sets"))
    md.append("")
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build-bench", help="CMake build directory")
    ap.add_argument("--repeat", type=int, default=5,
                    help="runs per scenario (interleaved); the median is kept (--stat)")
    ap.add_argument("--stat", choices=["median", "best"], default="median",
                    help="which run of the repeats the tables show")
    ap.add_argument("--baseline-build-dir", default="",
                    help="also run the issue-14 scenarios with this (earlier) build, "
                         "interleaved run by run with --build-dir, and write a before/after "
                         "table (medians of every metric over the repeats)")
    ap.add_argument("--nice", type=int, default=0, help="run every program under nice -n N")
    ap.add_argument("--out", default="bench-results", help="output prefix (.md, .png, .jsonl)")
    ap.add_argument("--quick", action="store_true", help="short runs, one repeat (smoke test)")
    ap.add_argument("--duration-scale", type=float, default=1.0,
                    help="multiply every simulated duration (e.g. 0.25 on a loaded machine)")
    ap.add_argument("--scheduler", default="",
                    help="ns-3 scheduler for every scenario program (both simulators; default: "
                         "the programs' own, EventSchedulerHelper::DefaultType())")
    ap.add_argument("--scheduler-sweep", action="store_true",
                    help="also run the floor, RDMA k=4, 16x10 MB incast and k=8 web-search "
                         "lines under every ns-3 scheduler (interleaved, --repeat times)")
    ap.add_argument("--no-micro", action="store_true", help="skip the micro-benchmarks")
    ap.add_argument("--only", default="", help="comma-separated scenario keys to run")
    ap.add_argument("--from-jsonl", default="",
                    help="do not run: re-render the tables and plot from a .jsonl of an earlier run")
    a = ap.parse_args()
    global STAT, NICE
    STAT = a.stat
    NICE = a.nice

    bindir = os.path.join(a.build_dir, "bench")
    if a.quick:
        a.repeat = 1
    scenarios = [s for s in SCENARIOS if not a.only or s[0] in a.only.split(",")]
    missing = [s for s in scenarios if not os.path.exists(os.path.join(bindir, s[1]))]
    for s in missing:
        print(f"not built, skipped: {s[1]} ({s[0]}, {s[3]})", file=sys.stderr)
    scenarios = [s for s in scenarios if s not in missing] if not a.from_jsonl else scenarios
    raw = []
    runs = {}
    before = {}
    t0 = time.time()
    sweep = {}
    micro = []
    loaded = []
    if a.from_jsonl:
        with open(a.from_jsonl) as f:
            loaded = [json.loads(l) for l in f if l.strip()]
        a.repeat = max(1, max((sum(1 for r in loaded if r.get("_key") == k and r["simulator"] == s)
                               for k, _, _, s in scenarios), default=1))
    for r in loaded:
        if r.get("_role") == "before":
            before.setdefault(r["_key"], []).append(r)
        elif r.get("_role") == "scenario" and r["_key"] in [x[0] for x in scenarios]:
            runs.setdefault((r["_key"], r["simulator"]), []).append(r)
        elif r.get("_role") == "sweep":
            sweep.setdefault((r["scheduler"], r["_sim"]), []).append(r)
        elif r.get("_role") == "micro":
            micro = r["benchmarks"]
        raw.append(r)
    for rep in range(0 if a.from_jsonl else a.repeat):
        for key, prog, args, sim in scenarios:
            args = list(args) + ([f"--scheduler={a.scheduler}"] if a.scheduler else [])
            if a.quick and key in QUICK_DURATION:
                args = [x for x in args if not x.startswith("--duration")]
                args.append(f"--duration={QUICK_DURATION[key]}")
            if a.quick and key == "floor":
                args = ["--events=1000000"] + args[1:]
            if a.duration_scale != 1.0:
                args = [f"--duration={float(x.split('=')[1]) * a.duration_scale:g}"
                        if x.startswith("--duration") else x for x in args]
            compare = bool(a.baseline_build_dir) and key in COMPARE_BENCHES and sim != "mainline"
            # Interleave before/after run by run, alternating which goes first.
            if compare and rep % 2 == 0:
                run_before(a, prog, args, key, rep, raw, before)
            r = run_one(os.path.join(bindir, prog), args)
            if compare and rep % 2 == 1:
                run_before(a, prog, args, key, rep, raw, before)
            r["_cmd"] = " ".join([prog] + args)
            r["_key"], r["_role"] = key, "scenario"
            raw.append(r)
            runs.setdefault((key, sim), []).append(r)
            print(f"[{rep + 1}/{a.repeat}] {key:24s} {sim:8s} "
                  f"{r['hops_per_wall_s'] / 1e6:7.3f} M hops/s  wall {r['wall_s']:.2f} s",
                  flush=True)
    best = {k: best_of(v) for k, v in runs.items()}
    after = {k[0]: v for k, v in runs.items() if k[0] in COMPARE_BENCHES and k[1] != "mainline"}

    if a.scheduler_sweep and not a.from_jsonl:
        sweep_list = [x for x in SCENARIOS if x[0] in SWEEP_BENCHES and x[3] != "mainline"]
        for rep in range(a.repeat):
            for key, prog, args, _ in sweep_list:
                for sched in SCHEDULERS:
                    args2 = list(args)
                    if a.quick:
                        args2 = [x for x in args2 if not x.startswith("--duration")
                                 and not x.startswith("--events")]
                        args2.append("--events=1000000" if key == "floor"
                                     else f"--duration={QUICK_DURATION[key]}")
                    r = run_one(os.path.join(bindir, prog), args2 + [f"--scheduler={sched}"])
                    r["_role"], r["_sim"], r["_key"] = "sweep", key, key
                    r["_cmd"] = " ".join([prog] + args2 + [f"--scheduler={sched}"])
                    raw.append(r)
                    sweep.setdefault((sched, key), []).append(r)
                    print(f"[{rep + 1}/{a.repeat}] sweep {key:22s} {sched:28s} "
                          f"{(r['floor_ns_per_event'] if key == 'floor' else r['ns_per_hop']):7.1f}"
                          f" ns", flush=True)

    micro_path = os.path.join(bindir, "micro-bench")
    if not a.from_jsonl and not a.no_micro and os.path.exists(micro_path):
        out = subprocess.run([micro_path, "--benchmark_format=json"], check=True,
                             capture_output=True, text=True).stdout
        micro = json.loads(out)["benchmarks"]
        raw.append({"_role": "micro", "benchmarks": micro})

    if not a.from_jsonl:
        with open(a.out + ".jsonl", "w") as f:
            for r in raw:
                f.write(json.dumps(r) + "\n")

    # ---- markdown ----
    md = []
    md.append("# mlnet benchmark results\n")
    md.append(f"Generated by `contrib-scripts/run-benchmarks.py` on {time.strftime('%Y-%m-%d %H:%M')}"
              f" ({os.cpu_count()} cores, load average before the run "
              f"{os.getloadavg()[0]:.2f}); {a.stat} of {a.repeat} interleaved runs; scheduler "
              f"{a.scheduler or 'default of the programs'}; total {time.time() - t0:.0f} s.\n")
    md.append("| bench | simulator | sim time (s) | wall (s) | events | packet-hops | "
              "M hops / wall s | M hops / CPU s | M events / wall s | events / hop | build (s) | "
              "peak RSS (MB) |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, _, _, sim in scenarios:
        if (key, sim) not in best:
            continue
        r = best[(key, sim)]
        best.pop((key, sim))
        md.append(f"| {key} | {sim} | {r['sim_time_s']:g} | {r['wall_s']:.3f} | "
                  f"{r['events']:,} | {r['packet_hops']:,} | {r['hops_per_wall_s'] / 1e6:.3f} | "
                  f"{r.get('hops_per_cpu_s', 0) / 1e6:.3f} | "
                  f"{r['events_per_wall_s'] / 1e6:.3f} | {r['events_per_hop']:.2f} | "
                  f"{r['build_wall_s']:.3f} | {r['peak_rss_mb']:.1f} |")
        best[(key, sim)] = r
    md.append("")

    md.append("## mlnet / mainline, packet-hops per wall second (same run)\n")
    md.append("| bench | mlnet M hops/s | mainline M hops/s | ratio (wall) | ratio (CPU time) "
              "| target |")
    md.append("|---|---:|---:|---:|---:|---|")
    ratios = {}
    for key in RATIO_BENCHES:
        m, b = best.get((key, "mlnet")), best.get((key, "mainline"))
        if m and b:
            ratios[key] = m["hops_per_wall_s"] / b["hops_per_wall_s"]
            ok = "met" if ratios[key] >= 4 else "NOT met"
            md.append(f"| {key} | {m['hops_per_wall_s'] / 1e6:.3f} | "
                      f"{b['hops_per_wall_s'] / 1e6:.3f} | {ratios[key]:.2f}x | "
                      f"{m.get('hops_per_cpu_s', 0) / max(b.get('hops_per_cpu_s', 0), 1e-9):.2f}x"
                      f" | >= 4x: {ok} |")
            print(f"ratio mlnet/mainline {key}: {ratios[key]:.2f}x")
    md.append("")

    if before:
        md.extend(before_after_table(before, after))

    md.append("## Targets\n")
    ft4 = best.get(("fattree4-permutation", "mlnet"))
    k16 = best.get(("fattree16-permutation", "mlnet"))
    if ft4:
        v = ft4["hops_per_wall_s"] / 1e6
        md.append(f"- (2) >= 1 M packet-hops/s: {v:.3f} M -> {'met' if v >= 1 else 'NOT met'}")
    if k16:
        bt, rss = k16["topology_build_s"], k16["peak_rss_mb"]
        md.append(f"- (4) 1024-host fat-tree builds in < 10 s: topology {bt:.2f} s, with "
                  f"flows and sinks {k16['build_wall_s']:.2f} s -> "
                  f"{'met' if k16['build_wall_s'] < 10 else 'NOT met'}")
        md.append(f"- (4) < 2 GB peak RSS: {k16['topology_rss_mb']:.0f} MB after the topology, "
                  f"{k16['build_rss_mb']:.0f} MB after flows, {rss:.0f} MB peak after "
                  f"{k16['sim_time_s'] * 1e6:.0f} us of traffic -> "
                  f"{'met' if rss < 2048 else 'NOT met'}")
    md.append("")

    md.append("## Scenario details (best run)\n")
    md.append("| bench | simulator | hosts | flows | rx Gbps/host | drops | ECN marks | "
              "PFC pauses | command |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for (key, sim), r in best.items():
        if "hosts" not in r:
            continue  # the event-loop floor
        gbps = r.get("rx_gbps_per_host")
        if gbps is None and r["sim_time_s"] > 0:
            gbps = r["rx_bytes"] * 8 / r["sim_time_s"] / 1e9
        md.append(f"| {key} | {sim} | {r['hosts']} | {r.get('flows', r['hosts'] - 1)} | "
                  f"{gbps:.1f} | {r.get('drops', 0):,} | {r.get('ecn_marks', 0):,} | "
                  f"{r.get('pfc_pauses', '-')} | `{r['_cmd']}` |")
    md.append("")

    if sweep:
        md.extend(sweep_table(sweep))

    if micro:
        md.append("## Micro-benchmarks (Google Benchmark)\n")
        md.append("| benchmark | time per iteration | unit | items/s |")
        md.append("|---|---:|---|---:|")
        for b in micro:
            ips = b.get("items_per_second")
            md.append(f"| {b['name']} | {b['real_time']:.2f} | {b['time_unit']} | "
                      f"{(f'{ips / 1e6:.2f} M' if ips else '')} |")
        md.append("")

    with open(a.out + ".md", "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))

    # ---- plot ----
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: no plot", file=sys.stderr)
        return
    keys = []
    for key, _, _, _ in scenarios:
        if key not in keys:
            keys.append(key)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.38
    for i, (sim, color) in enumerate((("mlnet", "tab:blue"), ("mainline", "tab:gray"))):
        xs, ys = [], []
        for j, key in enumerate(keys):
            r = best.get((key, sim))
            if r:
                xs.append(j + (i - 0.5) * width)
                ys.append(rate_of(r) / 1e6)
        bars = ax.bar(xs, ys, width, label=sim, color=color)
        ax.bar_label(bars, fmt="%.2f", fontsize=8)
    for j, key in enumerate(keys):
        if key in ratios:
            ax.annotate(f"{ratios[key]:.1f}x", (j, 0), xytext=(0, -28),
                        textcoords="offset points", ha="center", fontsize=9, color="tab:red")
    ax.axhline(1.0, ls="--", color="tab:green", lw=1, label="1 M hops/s target")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, fontsize=8)
    ax.set_ylabel("simulated packet-hops per wall second (M)")
    ax.set_title(f"mlnet vs mainline ns-3 ({a.stat} of {a.repeat}, one core, Release)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out + ".png", dpi=120)
    print(f"wrote {a.out}.md, {a.out}.png, {a.out}.jsonl")
    if before:
        plot_before_after(plt, before, after, a.out + "-before-after.png")
        print(f"wrote {a.out}-before-after.png")


def sweep_table(sweep):
    """Markdown: CPU ns per packet-hop (per event for the floor) under every scheduler, median
    and p10-p90 over the repeats, and whether the deterministic fields agree."""
    keys = [k for k in SWEEP_BENCHES if any((s, k) in sweep for s in SCHEDULERS)]
    md = ["## Scheduler sweep: CPU ns per packet-hop (floor: per event), median [p10-p90]\n",
          "| scheduler | " + " | ".join(keys) + " |", "|---|" + "---:|" * len(keys)]
    for sched in SCHEDULERS:
        cells = []
        for k in keys:
            rs = sweep.get((sched, k), [])
            if not rs:
                cells.append("-")
                continue
            ns = sorted(r["floor_ns_per_event"] if k == "floor" else r["ns_per_hop"] for r in rs)
            lo, hi = ns[int(0.1 * (len(ns) - 1))], ns[int(round(0.9 * (len(ns) - 1)))]
            cells.append(f"{median(ns):.0f} [{lo:.0f}-{hi:.0f}]")
        md.append(f"| {sched} | " + " | ".join(cells) + " |")
    md.append("")
    for k in keys:
        sigs = {}
        for sched in SCHEDULERS:
            for r in sweep.get((sched, k), []):
                sigs.setdefault(tuple(r.get(f) for f in SAME_FIELDS), []).append(sched)
        md.append(f"- {k}: deterministic fields ({', '.join(SAME_FIELDS)}) "
                  + ("identical under every scheduler" if len(sigs) == 1
                     else f"DIFFER: {len(sigs)} distinct sets"))
    md.append("")
    return md


def plot_before_after(plt, before, after, path):
    """CPU ns per packet-hop before and after (median, p10-p90 bars) with the floor's ns per
    event measured in the same processes."""
    keys = [k for k in COMPARE_BENCHES if k != "floor" and k in before and k in after]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.38
    for i, (label, data, color) in enumerate((("before", before, "tab:gray"),
                                              ("after", after, "tab:blue"))):
        meds, lo, hi = [], [], []
        for k in keys:
            ns = sorted(r["ns_per_hop"] for r in data[k])
            m = median(ns)
            meds.append(m)
            lo.append(m - ns[int(0.1 * (len(ns) - 1))])
            hi.append(ns[int(round(0.9 * (len(ns) - 1)))] - m)
        bars = ax.bar([j + (i - 0.5) * width for j in range(len(keys))], meds, width,
                      yerr=[lo, hi], capsize=3, label=label, color=color)
        ax.bar_label(bars, fmt="%.0f", fontsize=7)
    floor = median([r["floor_ns_per_event"] for k in keys for r in after[k]])
    ax.axhline(floor, ls=":", color="k", lw=1, label=f"floor: {floor:.0f} ns per trivial event")
    ax.axhline(3 * floor, ls="--", color="tab:red", lw=1, label="3x floor (issue 14 target)")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, fontsize=7)
    ax.set_ylabel("CPU ns per packet-hop (median, p10-p90)")
    ax.set_title("mlnet packet engine before / after (interleaved runs, same machine)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
