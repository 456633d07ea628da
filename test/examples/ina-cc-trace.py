#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""examples/ina-cc-trace: one PANAMA tree of 4 GoogLeNet workers on a k=4 fat-tree
(flow-validation.py's ina4-googlenet-k4-1tree, 4 iterations) at packet level. Its reaction
points (one per worker) are traced: every CNP cuts RC to RC (1 - alpha / 2) with alpha from
before the CNP (ns3::Dcqcn), the four workers take the same CNPs (their results carry the same
marks, all at one port: marks.csv), the first communication starts at line rate and is cut, and
cc-iterations.csv has one row per iteration whose durations are iterations.csv's. A flow-level scenario is an error (exit
2). Usage: ina-cc-trace.py INA_CC_TRACE WORKDIR"""
import csv
import json
import os
import subprocess
import sys


def main():
    binary, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    sc = {"topology": {"type": "fat-tree", "k": 4}, "duration": "1us", "drain": "10s",
          "traffic": [{"type": "data-parallel-job", "hosts": [0, 5, 10, 15],
                       "model": "googlenet", "gpu": "a100", "batch": 32, "iterations": 4,
                       "mode": "ina", "trees": 1}],
          "aggregation": {"placement": "devices", "tiers": ["edge", "agg", "core"],
                          "ports": "up"}}
    path = os.path.join(work, "ina-cc-trace.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    out = os.path.join(work, "ina-cc-trace-out")
    subprocess.run([binary, path, "--out=" + out], check=True, capture_output=True)
    failures = []
    with open(os.path.join(out, "cc-trace.csv")) as f:
        trace = list(csv.DictReader(f))
    workers = sorted({r["worker"] for r in trace})
    if len(workers) != 4:
        failures.append("%d traced workers, expected 4" % len(workers))
    cnps = {w: [int(r["timeNs"]) for r in trace if r["worker"] == w and r["event"] == "cnp"]
            for w in workers}
    counts = {len(v) for v in cnps.values()}
    if not cnps or 0 in counts or len(counts) != 1:
        failures.append("CNPs per worker %s: expected the same, > 0" % counts)
    # per worker: RC and alpha before each CNP, RC after it (a CNP's rows: the timers'
    # changes applied at its time, then its target, rate and alpha, then "cnp")
    cuts = 0
    for w in workers:
        rows = [r for r in trace if r["worker"] == w]
        for i, r in enumerate(rows):
            if r["event"] != "cnp":
                continue
            t = r["timeNs"]
            before = [x for x in rows[:i] if x["timeNs"] != t]
            rc = next((float(x["value"]) for x in reversed(before) if x["event"] == "rate"),
                      100e9)
            al = next((float(x["value"]) for x in reversed(before) if x["event"] == "alpha"),
                      1.0)
            # the timers' expiries applied at the CNP's time come first
            at = [x for x in rows[:i] if x["timeNs"] == t]
            for x in at[:-2]:
                if x["event"] == "rate":
                    rc = float(x["value"])
                elif x["event"] == "alpha":
                    al = float(x["value"])
            got = next((float(x["value"]) for x in reversed(at) if x["event"] == "rate"), None)
            want = rc * (1 - al / 2)
            if got is None or abs(got - want) > 1e-6 * want:
                failures.append("worker %s at %s ns: RC %s after the CNP, expected %.6g"
                                % (w, t, got, want))
            cuts += 1
    # every mark of this tree is at one port, the one before the root's device that three of the
    # four workers' contributions cross
    with open(os.path.join(out, "marks.csv")) as f:
        ports = {(r["node"], r["port"]) for r in csv.DictReader(f)}
    if len(ports) != 1:
        failures.append("marks at %d ports, expected 1: %s" % (len(ports), sorted(ports)))
    with open(os.path.join(out, "cc-iterations.csv")) as f:
        its = list(csv.DictReader(f))
    with open(os.path.join(out, "iterations.csv")) as f:
        ref = list(csv.DictReader(f))
    if [r["durationNs"] for r in its] != [r["durationNs"] for r in ref]:
        failures.append("cc-iterations.csv's durations differ from iterations.csv's")
    if its and not (float(its[0]["rateStartBps"]) == 100e9 and
                    float(its[0]["rateMinBps"]) < 100e9):
        failures.append("iteration 0: RC %s at the start, lowest %s: expected line rate, then "
                        "a cut" % (its[0]["rateStartBps"], its[0]["rateMinBps"]))
    flow = dict(sc, backend="flow")
    with open(path, "w") as f:
        json.dump(flow, f)
    bad = subprocess.run([binary, path, "--out=" + out], capture_output=True, text=True)
    if bad.returncode != 2 or "packet level only" not in bad.stderr:
        failures.append("flow backend: exit %d, %r" % (bad.returncode, bad.stderr))
    print("workers %d, CNPs per worker %s, cuts checked %d, iterations %d" % (
        len(workers), sorted(counts), cuts, len(its)))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
