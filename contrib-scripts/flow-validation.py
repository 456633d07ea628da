#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run validation scenarios in both backends ("packet" and "flow") with mlnet-run and print,
per scenario, the mean iteration time and the FCT p50/p99 of RDMA flows at both levels, the
errors, and the wall-clock speed-up; then the error distribution. doc/flow-backend.rst quotes
its output.

usage: flow-validation.py MLNET_RUN [--only NAME ...] [--seeds 1,2]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile


def dp(hosts, model, iterations=5, mode="ring", servers=None, batch=32):
    e = {"type": "data-parallel-job", "hosts": hosts, "model": model, "gpu": "a100",
         "batch": batch, "iterations": iterations}
    if mode == "ps":
        e.update({"mode": "ps", "servers": servers})
    return e


def fat_tree(k, traffic, **extra):
    s = {"topology": {"type": "fat-tree", "k": k}, "duration": "1us", "drain": "10s",
         "traffic": traffic}
    s.update(extra)
    return s


def leaf_spine(leaves, spines, per_leaf, traffic):
    return {"topology": {"type": "leaf-spine", "leaves": leaves, "spines": spines,
                         "hostsPerLeaf": per_leaf},
            "duration": "1us", "drain": "10s", "traffic": traffic}


def scenarios():
    """name -> scenario: bulk collectives, PS, shared fabrics, oversubscription, RDMA flows."""
    s = {}
    s["ring8-googlenet-k4"] = fat_tree(4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "googlenet")])
    s["ring16-resnet50-k4"] = fat_tree(4, [dp(list(range(16)), "resnet50", 3)])
    s["ring4x4-mixed-k4"] = fat_tree(4, [dp([0, 4, 8, 12], "googlenet"),
                                         dp([1, 5, 9, 13], "resnet50", 3),
                                         dp([2, 6, 10, 14], "alexnet", 3),
                                         dp([3, 7, 11, 15], "inception_v3", 3)])
    s["ps4+2-googlenet-k4"] = fat_tree(4, [dp([0, 1, 2, 3], "googlenet", mode="ps",
                                              servers=[8, 12])])
    s["ring8-oversub-leafspine"] = leaf_spine(4, 1, 8, [dp([0, 8, 16, 24, 1, 9, 17, 25],
                                                           "googlenet")])
    s["ring2x8-oversub-leafspine"] = leaf_spine(4, 2, 8, [
        dp([0, 8, 16, 24, 1, 9, 17, 25], "googlenet"),
        dp([2, 10, 18, 26, 3, 11, 19, 27], "googlenet")])
    s["rdma-permutation-1MB-k4"] = fat_tree(4, [{"type": "rdma-permutation", "bytes": "1MB"}])
    s["rdma-permutation-8MB-k8"] = fat_tree(8, [{"type": "rdma-permutation", "bytes": "8MB"}])
    s["rdma-incast-8to1-k4"] = fat_tree(4, [{"type": "rdma", "src": i, "dst": 15,
                                             "bytes": "2MB"} for i in range(8)])
    s["ring32-googlenet-k8"] = fat_tree(8, [dp(list(range(0, 128, 4)), "googlenet", 3)])
    return s


def run(mlnet_run, name, scenario, backend, seed):
    scenario = dict(scenario, backend=backend, name=name, seed=seed)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        out = os.path.join(d, "out")
        subprocess.run([mlnet_run, path, "--out=" + out], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        iters = []
        p = os.path.join(out, "iterations.csv")
        if os.path.exists(p):
            with open(p) as f:
                # steady state: iterations after the first of each job
                iters = [int(r["durationNs"]) for r in csv.DictReader(f) if int(r["iteration"]) > 0]
        fcts = []
        p = os.path.join(out, "flows.csv")
        if os.path.exists(p):
            with open(p) as f:
                fcts = [int(r["fctNs"]) for r in csv.DictReader(f) if r["completed"] == "1"]
    return summary, iters, fcts


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mlnet_run")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--seeds", default="1")
    a = ap.parse_args()
    errors_iter = []
    errors_fct = []
    print("%-28s %4s %12s %12s %7s %10s %10s %7s %10s %10s %7s %8s" % (
        "scenario", "seed", "iter pkt ms", "iter flow ms", "err %", "p50 pkt us", "p50 flow us",
        "err %", "p99 pkt us", "p99 flow us", "err %", "speed-up"))
    for name, sc in scenarios().items():
        if a.only and name not in a.only:
            continue
        for seed in [int(x) for x in a.seeds.split(",")]:
            ps, pi, pf = run(a.mlnet_run, name, sc, "packet", seed)
            fs, fi, ff = run(a.mlnet_run, name, sc, "flow", seed)
            row = [name, seed]
            if pi:
                mp, mf = statistics.mean(pi) / 1e6, statistics.mean(fi) / 1e6
                e = 100 * (mf - mp) / mp
                errors_iter.append(e)
                row += [mp, mf, e]
            else:
                row += [float("nan")] * 3
            for q in (0.5, 0.99):
                if pf:
                    xp, xf = pct(pf, q) / 1e3, pct(ff, q) / 1e3
                    e = 100 * (xf - xp) / xp
                    errors_fct.append((q, e))
                    row += [xp, xf, e]
                else:
                    row += [float("nan")] * 3
            row.append(ps["wallSeconds"] / max(fs["wallSeconds"], 1e-9))
            print("%-28s %4d %12.3f %12.3f %7.2f %10.1f %10.1f %7.2f %10.1f %10.1f %7.2f %8.1f"
                  % tuple(row))
            sys.stdout.flush()
    if errors_iter:
        ab = sorted(abs(e) for e in errors_iter)
        print("iteration time |error| %%: median %.2f, max %.2f over %d runs"
              % (statistics.median(ab), ab[-1], len(ab)))
    for q in (0.5, 0.99):
        ab = sorted(abs(e) for qq, e in errors_fct if qq == q)
        if ab:
            print("FCT p%d |error| %%: median %.2f, max %.2f over %d runs"
                  % (int(q * 100), statistics.median(ab), ab[-1], len(ab)))


if __name__ == "__main__":
    main()
