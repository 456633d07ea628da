#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The host-interconnect scenarios at packet and at flow level (doc/flow-backend.rst, "Host
interconnect at flow level"): runs each scenario with both backends through mlnet-run and prints
one row per scenario: the metric at packet level, at flow level, the error and the speed-up
(packet wall time / flow wall time, summary.json's wallSeconds: the simulation loop; the flow
level's is the best of three runs).

Metrics: for RDMA messages the makespan (last completion) and the mean completion time of the
messages (flows.csv completedNs); for training jobs the mean iteration time over the jobs'
iterations after their first two, each job's last one left out (iterations.csv).

usage: host-flow-validation.py MLNET_RUN OUT_DIR [--only NAME[,NAME...]] [--list]
"""

import argparse
import csv
import json
import os
import subprocess
import sys

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "golden",
                      "scenarios", "host-interconnect.json")


def rdma(src, dst, size, n=1, start=None, cc=None):
    out = []
    for _ in range(n):
        e = {"type": "rdma", "src": src, "dst": dst, "bytes": size}
        if start:
            e["start"] = start
        if cc:
            e["cc"] = cc
        out.append(e)
    return out


def dumbbell(left, host, traffic, name, duration="50us", drain="200ms"):
    return {"name": name, "topology": {"type": "dumbbell", "left": left, "right": 1},
            "host": host, "traffic": traffic, "duration": duration, "drain": drain}


def scenarios():
    s = {}
    with open(GOLDEN) as f:
        g = json.load(f)
    g["name"] = "golden-host-interconnect"
    s[g["name"]] = g
    # Memory contention: 4 queue pairs of 2 MB from one sender, lossless host (PFC), IOMMU off.
    for d in [0.0, 0.5, 0.8, 0.9, 1.0]:
        for cc in [None, "fixed"]:
            name = "contention-d%g%s" % (d, "-fixed" if cc else "")
            s[name] = dumbbell(1, {"hosts": [1], "iommu": False, "pfc": True,
                                   "memoryAppDemand": d},
                               rdma(0, 1, "2MB", 4, cc=cc), name)
    # The IOTLB: 16 queue pairs of 2 MB (256 pages of 4 KiB for 64 entries; 16 of 2 MiB).
    for page in ["4KiB", "2MiB"]:
        for cc in [None, "fixed"]:
            name = "iotlb16-%s%s" % (page.lower(), "-fixed" if cc else "")
            s[name] = dumbbell(1, {"hosts": [1], "iommu": True, "pageSize": page, "pfc": True},
                               rdma(0, 1, "2MB", 16, cc=cc), name)
    # Beyond the closed form: 48 queue pairs (2 x 48 > 64 entries), line-rate senders.
    s["iotlb48-4kib-fixed"] = dumbbell(1, {"hosts": [1], "iommu": True, "pfc": True},
                                       rdma(0, 1, "1MB", 48, cc="fixed"), "iotlb48-4kib-fixed")
    # Incast into a Gen3 x8 host: 5 senders (80 pages: misses) then 4 (64 pages: none).
    for cc in [None, "fixed"]:
        inc = []
        for i in range(5):
            inc += rdma(i, 5, "1MB" if i == 4 else "2MB", cc=cc)
        name = "incast5-x8-iommu" + ("-fixed" if cc else "")
        s[name] = dumbbell(5, {"hosts": [5], "pcieLanes": 8, "pfc": True}, inc, name)
    # The memory application's demand changes at 300 us (0 -> 0.9).
    for cc in [None, "fixed"]:
        name = "demand-change" + ("-fixed" if cc else "")
        s[name] = dumbbell(1, {"hosts": [1], "iommu": False, "pfc": True,
                               "demandChanges": [{"at": "300us", "memoryAppDemand": 0.9}]},
                           rdma(0, 1, "4MB", 4, cc=cc), name, duration="400us")
    # The transmit path: a Gen3 x4 sender (28.8 Gb/s of DMA reads) to a plain receiver.
    s["transmit-x4"] = dumbbell(1, {"hosts": [0], "pcieLanes": 4, "iommu": False},
                                rdma(0, 1, "2MB", 2), "transmit-x4")
    # Training (doc/host.rst "Training"): ring all-reduce of cifarnet (A100, batch 32) on the 4
    # hosts of a leaf-spine, every host's memory application at 90%, without / with hostCC.
    for tag, host in [("nomem", None),
                      ("mem0.9", {"memoryAppDemand": 0.9, "pfc": True}),
                      ("mem0.9-hostcc", {"memoryAppDemand": 0.9, "pfc": True,
                                         "hostCcMarking": True, "hostCcThrottling": True})]:
        name = "train-ring4-cifarnet-" + tag
        sc = {"name": name,
              "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
              "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ring",
                           "model": "cifarnet", "gpu": "a100", "batch": 32,
                           "iterations": 20}],
              "duration": "1us", "drain": "1s"}
        if host:
            sc["host"] = host
        s[name] = sc
    # At fat-tree scale (k = 4, 16 hosts): a parameter-server job whose 12 workers push into and
    # pull from one server (12 x 16 pages of receive buffers for 64 IOTLB entries: the working
    # set follows the tensors' messages), 4 KiB and 2 MiB pages; and two rings of 8 with every
    # host's memory application at 90 %.
    for page in ["4KiB", "2MiB"]:
        name = "ps12-googlenet-k4-iommu-" + page.lower()
        s[name] = {"name": name, "topology": {"type": "fat-tree", "k": 4},
                   "host": {"hosts": [15], "pageSize": page, "pfc": True},
                   "traffic": [{"type": "data-parallel-job", "hosts": list(range(12)),
                                "mode": "ps", "servers": [15], "model": "googlenet",
                                "gpu": "a100", "batch": 32, "iterations": 6}],
                   "duration": "1us", "drain": "10s"}
    # the same job without the host section: the flow level's error on this fabric alone
    ps = dict(s["ps12-googlenet-k4-iommu-4kib"], name="ps12-googlenet-k4-nohost")
    del ps["host"]
    s[ps["name"]] = ps
    name = "ring8x2-googlenet-k4-mem0.9"
    s[name] = {"name": name, "topology": {"type": "fat-tree", "k": 4},
               "host": {"memoryAppDemand": 0.9, "pfc": True},
               "traffic": [{"type": "data-parallel-job", "hosts": list(range(0, 16, 2)),
                            "mode": "ring", "model": "googlenet", "gpu": "a100", "batch": 32,
                            "iterations": 6},
                           {"type": "data-parallel-job", "hosts": list(range(1, 16, 2)),
                            "mode": "ring", "model": "googlenet", "gpu": "a100", "batch": 32,
                            "iterations": 6}],
               "duration": "1us", "drain": "10s"}
    ring = dict(s[name], name="ring8x2-googlenet-k4-nohost")
    del ring["host"]
    s[ring["name"]] = ring
    # both with line-rate senders ("cc": "fixed" for every job): DCQCN's part of the error
    for base in ["ring8x2-googlenet-k4-nohost", name]:
        fixed = dict(s[base], name=base + "-fixed", cc="fixed")
        s[fixed["name"]] = fixed
    # and with an eighth of the NIC buffer (128 KiB): what the buffer hides at packet level
    small = dict(s[name + "-fixed"], name=name + "-fixed-rxbuf128k")
    small["host"] = dict(small["host"], rxBuffer="128KiB")
    s[small["name"]] = small
    return s


def run(mlnet_run, sc, backend, out):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "scenario.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    subprocess.run([mlnet_run, path, "--backend=" + backend, "--out=" + out, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    res = {"wall": summary["wallSeconds"]}
    it_path = os.path.join(out, "iterations.csv")
    if os.path.exists(it_path):
        with open(it_path) as f:
            rows = list(csv.DictReader(f))
        if rows:
            # per job, its iterations after the first two, its last one left out
            d = []
            for job in sorted({r["jobId"] for r in rows}):
                mine = [float(r["durationNs"]) for r in rows if r["jobId"] == job]
                d += mine[2:-1]
            res["iter_us"] = sum(d) / len(d) / 1e3
            return res
    with open(os.path.join(out, "flows.csv")) as f:
        rows = list(csv.DictReader(f))
    done = [float(r["completedNs"]) for r in rows if r["completed"] == "1"]
    if len(done) != len(rows):
        raise RuntimeError("%s (%s): %d of %d messages completed" % (sc["name"], backend,
                                                                     len(done), len(rows)))
    res["makespan_us"] = max(done) / 1e3
    res["mean_us"] = sum(float(r["fctNs"]) for r in rows) / len(rows) / 1e3
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mlnet_run")
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    s = scenarios()
    if a.list:
        print("\n".join(s))
        return 0
    names = a.only.split(",") if a.only else list(s)
    print("%-34s %-8s %12s %12s %8s %12s %12s %8s %8s" % (
        "scenario", "metric", "packet us", "flow us", "err %", "mean pkt", "mean flow",
        "err %", "speed-up"))
    for name in names:
        p = run(a.mlnet_run, s[name], "packet", os.path.join(a.out, name, "packet"))
        f = run(a.mlnet_run, s[name], "flow", os.path.join(a.out, name, "flow"))
        # a flow-level run takes milliseconds or less: its wall time is the best of three
        for _ in range(2):
            f["wall"] = min(f["wall"], run(a.mlnet_run, s[name], "flow",
                                           os.path.join(a.out, name, "flow"))["wall"])
        speed = p["wall"] / max(f["wall"], 1e-9)
        if "iter_us" in p:
            print("%-34s %-8s %12.1f %12.1f %+8.1f %12s %12s %8s %8.0f" % (
                name, "iter", p["iter_us"], f["iter_us"],
                100 * (f["iter_us"] / p["iter_us"] - 1), "", "", "", speed))
        else:
            print("%-34s %-8s %12.1f %12.1f %+8.1f %12.1f %12.1f %+8.1f %8.0f" % (
                name, "last", p["makespan_us"], f["makespan_us"],
                100 * (f["makespan_us"] / p["makespan_us"] - 1), p["mean_us"], f["mean_us"],
                100 * (f["mean_us"] / p["mean_us"] - 1), speed))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
