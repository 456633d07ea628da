#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run validation scenarios in both backends ("packet" and "flow") with mlnet-run and print,
per scenario, the mean iteration time and the FCT p50/p99 of RDMA flows at both levels, the
errors, and the wall-clock speed-up; then the error distribution. doc/flow-backend.rst quotes
its output.

Background traffic is RDMA flows with sizes from the web-search (DCTCP) or data-mining (VL2)
CDF (model/workload/data/*.cdf, sampled as FlowSizeCdf::Sample does) and Poisson arrivals per
host at a load of the host link, drawn here with a fixed seed, so both backends run the very
same flows.

usage: flow-validation.py MLNET_RUN [--only NAME ...] [--seeds 1,2] [--list] [--json F]
                          [--write DIR]
                          [--cache DIR] [--iterations N]
                          [--coarse group,phased] [--aggregate 100us,1ms]
                          [--fluid-cc none|dcqcn|dcqcn-other] [--sharing input-port]

--aggregate runs every scenario with background flows (the "rdma" entries with a "start")
also with "fluid": "aggregate" at flow level, once per FluidAggregate::Interval given, and
prints its iteration time and background FCT p50/p99 with their errors against the packet
backend and against per-flow fluid (one fluid flow per background flow).
"""
import argparse
import bisect
import csv
import hashlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_cdf(name):
    pts = []
    with open(os.path.join(ROOT, "model", "workload", "data", name + ".cdf")) as f:
        for line in f:
            line = line.split("#")[0].split()
            if line:
                pts.append((float(line[0]), float(line[1])))
    return pts


def sample(pts, u):
    """FlowSizeCdf::Sample: linear interpolation of the inverse CDF, at least 1 byte."""
    for (x0, p0), (x1, p1) in zip(pts, pts[1:]):
        if u <= p1 and p1 > p0:
            return max(1, round(x0 + (u - p0) / (p1 - p0) * (x1 - x0)))
    return max(1, round(pts[-1][0]))


def cdf_mean(pts):
    return sum((p1 - p0) * (x0 + x1) / 2 for (x0, p0), (x1, p1) in zip(pts, pts[1:]))


def background(hosts, cdf, load, window_us, seed, link_bps=100e9):
    """RDMA flows: Poisson arrivals per host at `load` of the host link, uniform destinations."""
    pts = read_cdf(cdf)
    rate = load * link_bps / 8 / cdf_mean(pts)  # flows per second per host
    rng = random.Random(seed)
    flows = []
    for src in hosts:
        t = rng.expovariate(rate)
        while t * 1e6 < window_us:
            dst = rng.choice([h for h in hosts if h != src])
            flows.append({"type": "rdma", "src": src, "dst": dst,
                          "bytes": sample(pts, rng.random()), "start": "%dns" % int(t * 1e9)})
            t += rng.expovariate(rate)
    return flows


def dp(hosts, model, iterations=5, mode="ring", servers=None, batch=32, trees=1):
    e = {"type": "data-parallel-job", "hosts": hosts, "model": model, "gpu": "a100",
         "batch": batch, "iterations": iterations}
    if mode == "ps":
        e.update({"mode": "ps", "servers": servers})
    if mode == "ina":
        e.update({"mode": "ina", "trees": trees})
    return e


# In-network aggregation points: PANAMA's devices (16 lanes at 300 MHz) on the edge and
# aggregation uplinks and every core port, or line-rate aggregators in every switch.
PANAMA = {"placement": "devices", "tiers": ["edge", "agg", "core"], "ports": "up"}
SWITCHES = {"placement": "switches"}


# --fluid-cc's values: the flow runs' "fluidCc" key
FLUID_CC = {"none": "none", "dcqcn": "dcqcn",
            "dcqcn-other": {"model": "dcqcn", "otherLoad": True}}


def fat_tree(k, traffic, duration="1us", **extra):
    s = {"topology": {"type": "fat-tree", "k": k}, "duration": duration, "drain": "10s",
         "traffic": traffic}
    s.update(extra)
    return s


def leaf_spine(leaves, spines, per_leaf, traffic, duration="1us"):
    return {"topology": {"type": "leaf-spine", "leaves": leaves, "spines": spines,
                         "hostsPerLeaf": per_leaf},
            "duration": duration, "drain": "10s", "traffic": traffic}


def scenarios(seed=1):
    """name -> scenario: bulk collectives, PS, pipeline and tensor parallel, shared fabrics,
    oversubscription, RDMA incast and permutations, web-search and data-mining background."""
    s = {}
    k4 = list(range(16))
    ls32 = list(range(32))
    s["ring8-googlenet-k4"] = fat_tree(4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "googlenet")])
    s["ring16-resnet50-k4"] = fat_tree(4, [dp(k4, "resnet50", 3)])
    s["ring4x4-mixed-k4"] = fat_tree(4, [dp([0, 4, 8, 12], "googlenet"),
                                         dp([1, 5, 9, 13], "resnet50", 3),
                                         dp([2, 6, 10, 14], "alexnet", 3),
                                         dp([3, 7, 11, 15], "inception_v3", 3)])
    s["ring4-inception-k4"] = fat_tree(4, [dp([0, 5, 10, 15], "inception_v3", 4)])
    s["ps4+2-googlenet-k4"] = fat_tree(4, [dp([0, 1, 2, 3], "googlenet", mode="ps",
                                              servers=[8, 12])])
    s["ps8+4-resnet50-k4"] = fat_tree(4, [dp([0, 1, 2, 3, 4, 5, 6, 7], "resnet50", 3,
                                             mode="ps", servers=[8, 10, 12, 14])])
    s["pipeline4-1f1b-k4"] = fat_tree(4, [{"type": "pipeline-job", "hosts": [0, 4, 8, 12],
                                           "iterations": 5, "microBatches": 8,
                                           "forward": "200us", "backward": "400us",
                                           "activationBytes": "8MB"}])
    s["tensor4-k4"] = fat_tree(4, [{"type": "tensor-parallel-job", "hosts": [1, 6, 11, 12],
                                    "iterations": 5, "layers": 8, "forward": "50us",
                                    "backward": "100us", "allReduceBytes": "4MB"}])
    s["ring8-leafspine-1:1"] = leaf_spine(4, 4, 4, [dp([0, 4, 8, 12, 1, 5, 9, 13],
                                                       "googlenet")])
    s["ring8-oversub-leafspine"] = leaf_spine(4, 1, 8, [dp([0, 8, 16, 24, 1, 9, 17, 25],
                                                           "googlenet")])
    s["ring2x8-oversub-leafspine"] = leaf_spine(4, 2, 8, [
        dp([0, 8, 16, 24, 1, 9, 17, 25], "googlenet"),
        dp([2, 10, 18, 26, 3, 11, 19, 27], "googlenet")])
    s["ring32-googlenet-k8"] = fat_tree(8, [dp(list(range(0, 128, 4)), "googlenet", 3)])
    s["ring4x16-k8"] = fat_tree(8, [dp(list(range(j, 128, 8))[:16], m, 3) for j, m in
                                    enumerate(["googlenet", "resnet50", "inception_v3",
                                               "googlenet"])])
    s["rdma-permutation-1MB-k4"] = fat_tree(4, [{"type": "rdma-permutation", "bytes": "1MB"}])
    s["rdma-permutation-8MB-k8"] = fat_tree(8, [{"type": "rdma-permutation", "bytes": "8MB"}])
    # UDP constant-rate flows (no congestion control at either level): a permutation below the
    # line rate (at most two flows per link: no queue) and one at it (ECMP collisions share a
    # link: FIFO at packet level, max-min at flow level)
    s["udp-permutation-40G-k4"] = fat_tree(4, [{"type": "permutation", "rate": "40Gbps",
                                                "bytes": "2MB"}], duration="2ms")
    s["udp-permutation-100G-k4"] = fat_tree(4, [{"type": "permutation", "rate": "100Gbps",
                                                 "bytes": "2MB"}], duration="2ms")
    # Periodic jobs (compute, then one message to a peer): alone on their paths, and two
    # pairs sharing a destination host link
    s["periodic4-k4"] = fat_tree(4, [{"type": "periodic-job", "src": a, "dst": b,
                                      "compute": "200us", "bytes": "4MB", "iterations": 10}
                                     for a, b in [(0, 5), (6, 11), (12, 1), (7, 14)]])
    s["periodic2-shared-k4"] = fat_tree(4, [{"type": "periodic-job", "src": a, "dst": 15,
                                             "compute": "200us", "bytes": "4MB",
                                             "iterations": 10} for a in (0, 4)])
    for name in ["periodic4-k4", "periodic2-shared-k4"]:
        s[name + "-fixed"] = dict(s[name], cc="fixed")
    s["rdma-incast-8to1-k4"] = fat_tree(4, [{"type": "rdma", "src": i, "dst": 15,
                                             "bytes": "2MB"} for i in range(8)])
    s["rdma-incast-16to1-leafspine"] = leaf_spine(4, 2, 8, [
        {"type": "rdma", "src": i, "dst": 31, "bytes": "1MB"} for i in range(0, 32, 2)])
    s["websearch-30-k4"] = fat_tree(4, background(k4, "websearch", 0.3, 5000, seed),
                                    duration="5ms")
    s["websearch-60-k4"] = fat_tree(4, background(k4, "websearch", 0.6, 3000, seed),
                                    duration="3ms")
    s["datamining-30-k4"] = fat_tree(4, background(k4, "datamining", 0.3, 10000, seed),
                                     duration="10ms")
    s["websearch-30-oversub-leafspine"] = leaf_spine(
        4, 1, 8, background(ls32, "websearch", 0.3, 3000, seed), duration="3ms")
    s["ring8+websearch-30-k4"] = fat_tree(
        4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "googlenet")]
        + background([1, 3, 4, 6, 9, 11, 12, 14], "websearch", 0.3, 20000, seed),
        duration="20ms")
    s["ring8+datamining-30-k4"] = fat_tree(
        4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "resnet50", 3)]
        + background(k4, "datamining", 0.3, 20000, seed), duration="20ms")
    s["ring16+websearch-20-k8"] = fat_tree(
        8, [dp(list(range(0, 128, 8)), "googlenet", 3)]
        + background(list(range(4, 128, 8)), "websearch", 0.2, 5000, seed), duration="5ms")
    # In-network aggregation ("mode": "ina", the "aggregation" section): each tree one fluid
    # flow at flow level.
    s["ina4-googlenet-k4-panama"] = fat_tree(4, [dp([0, 5, 10, 15], "googlenet", mode="ina",
                                                    trees=4)], aggregation=PANAMA)
    s["ina4-googlenet-k4-1tree"] = fat_tree(4, [dp([0, 5, 10, 15], "googlenet", mode="ina")],
                                            aggregation=PANAMA)
    # the same without the workers' congestion control (the slot pool as a fixed window)
    s["ina4-googlenet-k4-1tree-nocc"] = fat_tree(
        4, [dict(dp([0, 5, 10, 15], "googlenet", mode="ina"), aggregationCc="none")],
        aggregation=PANAMA)
    # ... and with small slot pools: below the tree's bandwidth-delay product the pool is the
    # window that limits the tree (FluidAggregator::TreeSpec::windowRate at flow level)
    for slots in (8, 16, 32):
        s["ina4-googlenet-k4-1tree-nocc-slots%d" % slots] = fat_tree(
            4, [dict(dp([0, 5, 10, 15], "googlenet", mode="ina"), aggregationCc="none",
                     slots=slots)], aggregation=PANAMA)
    # SwitchML: in-switch aggregation of INT32 on one tree, a fixed window of 256 slots
    s["ina4-googlenet-k4-switchml"] = fat_tree(
        4, [dict(dp([0, 5, 10, 15], "googlenet", mode="ina"), aggregationCc="none", slots=256,
                 elementType="int32")], aggregation=dict(SWITCHES, elementType="int32"))
    s["ina8-resnet50-k4-switches"] = fat_tree(4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "resnet50", 3,
                                                     mode="ina", trees=4)],
                                              aggregation=SWITCHES)
    s["ina16-alexnet-k4-panama"] = fat_tree(4, [dp(k4, "alexnet", 3, mode="ina", trees=4)],
                                            aggregation=PANAMA)
    s["ina4x4-mixed-k4-panama"] = fat_tree(4, [dp([0, 4, 8, 12], "googlenet", mode="ina",
                                                  trees=4),
                                               dp([1, 5, 9, 13], "resnet50", 3, mode="ina",
                                                  trees=4),
                                               dp([2, 6, 10, 14], "alexnet", 3, mode="ina",
                                                  trees=4),
                                               dp([3, 7, 11, 15], "inception_v3", 3,
                                                  mode="ina", trees=4)], aggregation=PANAMA)
    s["ina4+ring4-k4-panama"] = fat_tree(4, [dp([0, 5, 10, 15], "alexnet", 3, mode="ina",
                                                trees=4),
                                             dp([1, 4, 11, 14], "googlenet")],
                                         aggregation=PANAMA)
    s["ina8+websearch-30-k4-panama"] = fat_tree(
        4, [dp([0, 2, 5, 7, 8, 10, 13, 15], "googlenet", mode="ina", trees=4)]
        + background([1, 3, 4, 6, 9, 11, 12, 14], "websearch", 0.3, 20000, seed),
        duration="20ms", aggregation=PANAMA)
    s["ina4-googlenet-leafspine-switches"] = leaf_spine(4, 2, 4, [
        dp([0, 4, 8, 12], "googlenet", mode="ina", trees=2)])
    s["ina4-googlenet-leafspine-switches"]["aggregation"] = SWITCHES
    # Flow schedulers (the "scheduler" section): parameter servers and a pipeline whose
    # messages are posted through a policy's classes and rate caps.
    for pol in ["fair", "madd", "echelon", "cadentflow-priority", "cadentflow-deadline"]:
        s["ps4+2-googlenet-k4-" + pol] = fat_tree(
            4, [dp([0, 1, 2, 3], "googlenet", mode="ps", servers=[8, 12])],
            scheduler={"policy": pol})
    s["pipeline4-1f1b-k4-echelon"] = dict(s["pipeline4-1f1b-k4"],
                                          scheduler={"policy": "echelon"})
    # The same without DCQCN (line-rate senders held back by PFC alone): what the packet
    # backend's congestion control costs, apart from the fluid model's own error.
    for name in ["ring4x4-mixed-k4", "ps4+2-googlenet-k4", "ps8+4-resnet50-k4",
                 "pipeline4-1f1b-k4", "ring8-oversub-leafspine", "rdma-incast-8to1-k4",
                 "ring8+websearch-30-k4", "websearch-30-k4", "ps4+2-googlenet-k4-fair",
                 "ps4+2-googlenet-k4-echelon", "ps4+2-googlenet-k4-cadentflow-priority"]:
        s[name + "-fixed"] = dict(s[name], cc="fixed")
    # ... and with a packet-level retransmission timeout of 100 ms instead of RdmaNic's 1 ms:
    # without the spurious go-back-N resends that the many queue pairs of the scheduler's
    # scenarios cause there ("packetArgs": mlnet-run arguments of the packet runs only; the flow
    # runs are the scenario's own)
    for name in ["ps4+2-googlenet-k4-fair", "ps4+2-googlenet-k4-cadentflow-priority",
                 "ps4+2-googlenet-k4-fair-fixed", "ps4+2-googlenet-k4-cadentflow-priority-fixed",
                 "ps4+2-googlenet-k4", "ps4+2-googlenet-k4-fixed"]:
        s[name + "-rto100ms"] = dict(s[name],
                                     packetArgs=["--ns3::RdmaNic::RetransmitTimeout=100ms"])
    # ... and the parameter servers without DCQCN with every packet-level queue pair capped at
    # its max-min share of the busiest server's downlink (1/workers of 100 Gb/s): the line-rate
    # senders' shares of a congested port then no longer depend on the input ports they arrive
    # by (doc/flow-backend.rst, *Without congestion control*); "-balanced":
    # the job's "serverAssignment": "balanced-bytes"
    s["ps4+2-googlenet-k4-fixed-balanced"] = dict(
        s["ps4+2-googlenet-k4-fixed"],
        traffic=[dict(t, serverAssignment="balanced-bytes")
                 for t in s["ps4+2-googlenet-k4-fixed"]["traffic"]])
    for name, rate in [("ps4+2-googlenet-k4-fixed", "25Gbps"),
                       ("ps8+4-resnet50-k4-fixed", "12.5Gbps"),
                       ("ps4+2-googlenet-k4-fixed-balanced", "25Gbps")]:
        s[name + "-capfair"] = dict(s[name], packetArgs=["--ns3::RdmaFixedRate::Rate=" + rate])
    # ... and with a window of 40 KB per queue pair at packet level (RdmaNic::MaxInflightBytes):
    # window-limited senders share a congested port per queue pair, as the fluid model does
    for name in ["ps4+2-googlenet-k4-fixed", "ps8+4-resnet50-k4-fixed",
                 "ps4+2-googlenet-k4-fixed-balanced", "ps4+2-googlenet-k4-fair-fixed"]:
        s[name + "-win40k"] = dict(s[name], packetArgs=["--ns3::RdmaNic::MaxInflightBytes=40000"])
    # ... and the in-network aggregation mixes without any congestion control: the trees' slot
    # pools as fixed windows ("aggregationCc": "none"), the RDMA flows at line rate (PFC only)
    for name in ["ina4x4-mixed-k4-panama", "ina4+ring4-k4-panama", "ina8+websearch-30-k4-panama"]:
        s[name + "-nocc"] = dict(s[name], cc="fixed",
                                 traffic=[dict(t, aggregationCc="none") if t.get("mode") == "ina"
                                          else t for t in s[name]["traffic"]])
    return s


# What a run's iteration times are (--measure): "steady", each job's iterations but its first
# (the warm-up) and its last (which also waits for its own final synchronisation, with no next
# forward pass to overlap: 8.16 against 5.42 ms in ring8-googlenet-k4), as TrainingJob's
# GetSteadyStateIterationTime measures them; "with-last", every iteration but the first (the
# measure of the doc's tables before December 2026). Part of the packet cache's key.
MEASURES = ("steady", "with-last")
MEASURE = ["steady"]


def steady_iterations(rows):
    """rows of iterations.csv -> durations (ns) of the iterations MEASURE[0] keeps"""
    return [int(r["durationNs"]) for r in kept_rows(rows)]


def steady_by_job(rows):
    """rows of iterations.csv -> {job: durations (ns) MEASURE[0] keeps}, in the file's order
    (job after job, in the scenario's order: ScenarioRunner writes each job's rows together)"""
    jobs = {}
    for r in kept_rows(rows):
        jobs.setdefault(r["job"], []).append(int(r["durationNs"]))
    return jobs


def kept_rows(rows):
    """the rows of iterations.csv whose iterations MEASURE[0] keeps"""
    last = {}
    for r in rows:
        last[r["job"]] = max(last.get(r["job"], 0), int(r["iteration"]))
    keep_last = MEASURE[0] == "with-last"
    return [r for r in rows
            if 0 < int(r["iteration"]) and (keep_last or int(r["iteration"]) < last[r["job"]])]


def job_means(summary, iters, like=None):
    """each job's mean measured iteration (ms), in the scenario's order: from the run's
    jobIterationsNs, or, for a packet run cached before it was recorded, its iterations split
    as LIKE's (the flow run's) per-job counts split them (the files are job after job in the
    scenario's order at both levels); None where neither applies"""
    jobs = summary.get("jobIterationsNs")
    if jobs is None and like is not None and sum(map(len, like.values())) == len(iters):
        jobs, i = {}, 0
        for name, xs in like.items():
            jobs[name] = iters[i:i + len(xs)]
            i += len(xs)
    if jobs is None or any(not xs for xs in jobs.values()):
        return None
    return [statistics.mean(xs) / 1e6 for xs in jobs.values()]


def cache_key(cache, scenario, args=()):
    """the packet cache's file of a run: the scenario text, the extra arguments and the measure
    (results of an earlier measure are not reused; "with-last" keeps the keys it had)"""
    text = json.dumps(scenario, sort_keys=True) + (json.dumps(list(args)) if args else "")
    text += "" if MEASURE[0] == "with-last" else MEASURE[0]
    return os.path.join(cache, hashlib.sha256(text.encode()).hexdigest()[:16] + ".json")


def self_test():
    """--self-test: the measures' iteration selection and cache keys on made-up rows"""
    rows = [{"job": j, "iteration": str(i), "durationNs": str(d)}
            for j, i, d in [("a", 0, 90), ("b", 0, 80), ("a", 1, 10), ("b", 1, 20), ("a", 2, 11),
                            ("b", 2, 99), ("a", 3, 95)]]
    failures = []
    keys = {}
    for measure, want in (("steady", [10, 20, 11]), ("with-last", [10, 20, 11, 99, 95])):
        MEASURE[0] = measure
        got = steady_iterations(rows)
        if got != want:
            failures.append("%s: %s, expected %s" % (measure, got, want))
        keys[measure] = cache_key("c", {"name": "x"})
    if keys["steady"] == keys["with-last"]:
        failures.append("the measures share a cache key")
    MEASURE[0] = "steady"
    # a job with one iteration has none in steady state
    if steady_iterations([{"job": "a", "iteration": "0", "durationNs": "5"}]) != []:
        failures.append("a one-iteration job is measured")
    # per job: the steady iterations by job, and a cached run without them split as another's
    by_job = steady_by_job(rows)
    if by_job != {"a": [10, 11], "b": [20]}:
        failures.append("per job: %s, expected a: [10, 11], b: [20]" % by_job)
    got = job_means({}, [2e6, 4e6, 9e6], {"x": [1, 1], "y": [1]})
    if got != [3.0, 9.0]:
        failures.append("a cached run split as the flow run's jobs: %s, expected [3.0, 9.0]" % got)
    if job_means({}, [2e6, 4e6], {"x": [1, 1], "y": [1]}) is not None:
        failures.append("a cached run of other counts was split")
    for f in failures:
        print("flow-validation self-test:", f)
    return 1 if failures else 0


def run(mlnet_run, name, scenario, backend, seed, cache=None, args=()):
    scenario = dict(scenario, backend=backend, name=name, seed=seed)
    key = None
    if cache and backend == "packet":
        # packet runs are the slow ones and do not depend on the flow model: reuse them for the
        # same scenario text (and the same extra arguments, if any)
        key = cache_key(cache, scenario, args)
        if os.path.exists(key):
            with open(key) as f:
                return tuple(json.load(f))
    result = run_once(mlnet_run, scenario, args)
    if key:
        os.makedirs(cache, exist_ok=True)
        with open(key, "w") as f:
            json.dump(result, f)
    return result


def run_once(mlnet_run, scenario, args=()):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        out = os.path.join(d, "out")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([mlnet_run, path, "--out=" + out] + list(args), check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        iters = []
        p = os.path.join(out, "iterations.csv")
        if os.path.exists(p):
            with open(p) as f:
                rows = list(csv.DictReader(f))
            iters = steady_iterations(rows)
            summary["jobIterationsNs"] = steady_by_job(rows)
        fcts = []
        p = os.path.join(out, "flows.csv")
        if os.path.exists(p):
            with open(p) as f:
                fcts = [int(r["fctNs"]) for r in csv.DictReader(f) if r["completed"] == "1"]
    summary["cpuSeconds"] = cpu
    return summary, iters, fcts


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def selected(a, seed):
    """(name, scenario) of the scenarios --only selects for SEED, with --iterations applied
    (the same files for --write and for the runs)"""
    for name, sc in scenarios(seed).items():
        if a.only and name not in a.only:
            continue
        if a.iterations and not any(t["type"] == "rdma" for t in sc["traffic"]):
            sc = dict(sc, traffic=[dict(t, iterations=a.iterations) if "iterations" in t
                                   else t for t in sc["traffic"]])
        yield name, dict(sc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mlnet_run", nargs="?")
    ap.add_argument("--self-test", action="store_true",
                    help="check the measures' iteration selection on made-up rows and stop")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--list", action="store_true", help="print the scenario names and stop")
    ap.add_argument("--write", metavar="DIR",
                    help="write the selected scenarios (--only, --seeds) as mlnet-run files "
                         "DIR/NAME-sSEED-BACKEND.json and stop (per-job iteration times are in "
                         "a run's iterations.csv)")
    ap.add_argument("--json", help="also write every run's numbers to this file")
    ap.add_argument("--cache", help="directory keeping the packet-level runs' results")
    ap.add_argument("--iterations", type=int,
                    help="iterations of every job in the scenarios without background flows "
                         "(default: 3-5 as listed)")
    ap.add_argument("--coarse", default="",
                    help="comma-separated ringGranularity values (group, phased) to run at flow "
                         "level besides message (one fluid flow per ring-step message): their "
                         "iteration time, error against packet level and speed-up in extra "
                         "columns")
    ap.add_argument("--aggregate", default="",
                    help="comma-separated FluidAggregate::Interval values: run the scenarios "
                         "with background flows also with \"fluid\": \"aggregate\" at flow "
                         "level, once per interval")
    ap.add_argument("--measure", choices=MEASURES, default="steady",
                    help="iterations measured per job: steady (all but the first and the last, "
                         "the default) or with-last (all but the first)")
    ap.add_argument("--fluid-cc", default="", choices=["", "none", "dcqcn", "dcqcn-other"],
                    help="the flow-level runs' \"fluidCc\" (without it the scenario's default, "
                         "\"dcqcn\": DCQCN at flow level, FluidDcqcn, with the scenario's "
                         "\"cc\"; \"none\": max-min rates only; \"dcqcn-other\": DCQCN with "
                         "\"otherLoad\": true; the packet runs unchanged)")
    ap.add_argument("--sharing", default="", choices=["", "flow", "input-port"],
                    help="the flow-level runs' \"fluidSharing\" (\"input-port\": a congested "
                         "link shared per input port and recursively upstream, as a packet "
                         "switch without congestion control shares it, the default of the "
                         "scenarios with \"cc\": \"fixed\"; \"flow\": max-min by flow, the "
                         "others' default; FluidNetwork::Sharing; the packet runs and their "
                         "cache unchanged)")
    a = ap.parse_args()
    # what the flow-level runs add to the scenario (the packet runs are the scenario's own)
    flow_keys = {"fluidSharing": a.sharing} if a.sharing else {}
    if a.fluid_cc:
        flow_keys["fluidCc"] = FLUID_CC[a.fluid_cc]
    if a.self_test:
        sys.exit(self_test())
    if not a.mlnet_run:
        ap.error("MLNET_RUN is required (the path of build/mlnet-run)")
    MEASURE[0] = a.measure
    if a.list:
        for name, sc in scenarios().items():
            print(name, len(sc["traffic"]), "traffic entries")
        return
    if a.write:
        os.makedirs(a.write, exist_ok=True)
        for seed in [int(x) for x in a.seeds.split(",")]:
            for name, sc in selected(a, seed):
                pargs = sc.pop("packetArgs", [])
                for backend in ("packet", "flow"):
                    extra = dict(ringGranularity="message", **flow_keys) if backend == "flow" \
                        else {}
                    path = os.path.join(a.write, "%s-s%d-%s.json" % (name, seed, backend))
                    with open(path, "w") as f:
                        json.dump(dict(sc, backend=backend, name=name, seed=seed, **extra), f,
                                  indent=1)
                    # the packet run's extra mlnet-run arguments, if any, after the file
                    print(" ".join([path] + (pargs if backend == "packet" else [])))
        return
    errors_iter = []
    errors_coarse = {}
    coarse = [g for g in a.coarse.split(",") if g]
    errors_fct = []
    errors_aggregate = {}
    print("%-28s %4s %12s %12s %7s %10s %10s %7s %10s %10s %7s %8s" % (
        "scenario", "seed", "iter pkt ms", "iter flow ms", "err %", "p50 pkt us", "p50 flow us",
        "err %", "p99 pkt us", "p99 flow us", "err %", "speed-up")
        + "".join(" %12s %7s %8s" % ("iter %s ms" % g[:5], "err %", "speed-up") for g in coarse))
    results = []
    bulk = []
    errors_job = []  # per job, in the runs of several jobs
    jobs_rows = []
    for seed in [int(x) for x in a.seeds.split(",")]:
        for name, sc in selected(a, seed):
            pargs = sc.pop("packetArgs", [])
            ps, pi, pf = run(a.mlnet_run, name, sc, "packet", seed, a.cache, pargs)
            fs, fi, ff = run(a.mlnet_run, name,
                             dict(sc, ringGranularity="message", **flow_keys), "flow", seed)
            row = [name, seed]
            if pi:
                mp, mf = statistics.mean(pi) / 1e6, statistics.mean(fi) / 1e6
                e = 100 * (mf - mp) / mp
                errors_iter.append(e)
                row += [mp, mf, e]
                jp, jf = job_means(ps, pi, fs.get("jobIterationsNs")), job_means(fs, fi)
                if jp and jf and len(jp) == len(jf) and len(jf) > 1:
                    jerr = [100 * (f - p) / p for p, f in zip(jp, jf)]
                    errors_job.extend(jerr)
                    jobs_rows.append((name, seed, e, jp, jf, jerr))
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
            # speed-up in CPU seconds (the machine is shared: wall time is not the measure)
            row.append(ps["cpuSeconds"] / max(fs["cpuSeconds"], 1e-3))
            result = {"scenario": name, "seed": seed,
                      "packetCpuSeconds": ps["cpuSeconds"], "flowCpuSeconds": fs["cpuSeconds"],
                      "row": row[2:], "packetIterationsNs": pi, "flowIterationsNs": fi,
                      "packetFctNs": pf, "flowFctNs": ff,
                      "packetJobMs": job_means(ps, pi, fs.get("jobIterationsNs")),
                      "flowJobMs": job_means(fs, fi)}
            extra = ""
            for g in coarse:
                cs, ci, cf = run(a.mlnet_run, name, dict(sc, ringGranularity=g, **flow_keys), "flow",
                                 seed)
                mc = statistics.mean(ci) / 1e6 if ci else float("nan")
                ec = 100 * (mc - row[2]) / row[2] if pi else float("nan")
                if pi:
                    errors_coarse.setdefault(g, []).append(ec)
                sc_up = ps["cpuSeconds"] / max(cs["cpuSeconds"], 1e-3)
                extra += " %12.3f %7.2f %8.1f" % (mc, ec, sc_up)
                result.update({g + "CpuSeconds": cs["cpuSeconds"], g + "IterationsNs": ci,
                               g + "FctNs": cf})
            for iv in [x for x in a.aggregate.split(",") if x]:
                bgs = [t for t in sc["traffic"] if t["type"] == "rdma" and "start" in t]
                if not bgs:
                    continue
                agg = dict(sc, ringGranularity="message", **flow_keys,
                           traffic=[dict(t, fluid="aggregate") if t["type"] == "rdma" and "start"
                                    in t else t for t in sc["traffic"]])
                gs, gi, gf = run(a.mlnet_run, name, agg, "flow", seed,
                                 args=["--ns3::FluidAggregate::Interval=" + iv])
                cols = []
                if pi:
                    mg = statistics.mean(gi) / 1e6
                    cols += [mg, 100 * (mg - row[2]) / row[2], 100 * (mg - row[3]) / row[3]]
                for q in (0.5, 0.99):
                    xp, xf, xg = pct(pf, q) / 1e3, pct(ff, q) / 1e3, pct(gf, q) / 1e3
                    cols += [xg, 100 * (xg - xp) / xp, 100 * (xg - xf) / xf]
                cols += [ps["cpuSeconds"] / max(gs["cpuSeconds"], 1e-3),
                         fs["cpuSeconds"] / max(gs["cpuSeconds"], 1e-3)]
                result["aggregate-" + iv] = {"cpuSeconds": gs["cpuSeconds"], "iterationsNs": gi,
                                             "fctNs": gf, "row": cols}
                errors_aggregate.setdefault(iv, []).append((name, seed, cols))
                print("  aggregate %s: %s" % (iv, " ".join("%.2f" % c for c in cols)))
            results.append(result)
            if pi and not pf:
                bulk.append(abs(row[4]))  # jobs without background flows
            print("%-28s %4d %12.3f %12.3f %7.2f %10.1f %10.1f %7.2f %10.1f %10.1f %7.2f %8.1f"
                  % tuple(row) + extra)
            sys.stdout.flush()
    if errors_iter:
        ab = sorted(abs(e) for e in errors_iter)
        print("iteration time |error| %%: median %.2f, max %.2f over %d runs"
              % (statistics.median(ab), ab[-1], len(ab)))
    if jobs_rows:
        print("per job, in the runs of several jobs (mean measured iteration ms, packet -> "
              "flow, error %; the run's error over all its jobs' iterations first):")
        for name, seed, e, jp, jf, jerr in jobs_rows:
            print("  %-40s %d %+7.2f: %s" % (name, seed, e, ", ".join(
                "%.3f->%.3f %+.2f" % x for x in zip(jp, jf, jerr))))
        ab = sorted(abs(e) for e in errors_job)
        print("per-job iteration time |error| %%: median %.2f, max %.2f over %d jobs of %d runs"
              % (statistics.median(ab), ab[-1], len(ab), len(jobs_rows)))
    for g, errs in errors_coarse.items():
        ab = sorted(abs(e) for e in errs)
        print("iteration time |error| %% with ringGranularity %s: median %.2f, max %.2f "
              "over %d runs" % (g, statistics.median(ab), ab[-1], len(ab)))
    if bulk:
        print("jobs without background |error| %%: median %.2f, max %.2f over %d runs"
              % (statistics.median(bulk), max(bulk), len(bulk)))
    for q in (0.5, 0.99):
        ab = sorted(abs(e) for qq, e in errors_fct if qq == q)
        if ab:
            print("FCT p%d |error| %%: median %.2f, max %.2f over %d runs"
                  % (int(q * 100), statistics.median(ab), ab[-1], len(ab)))

    for iv, rows in errors_aggregate.items():
        print("aggregate background, interval %s (iteration ms, err %% vs packet, err %% vs "
              "per-flow, if any jobs; p50 us, err %% vs packet, vs per-flow; p99 likewise; "
              "speed-up vs packet, vs per-flow):" % iv)
        for name, seed, cols in rows:
            print("  %-30s %d %s" % (name, seed, " ".join("%.2f" % c for c in cols)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f)


if __name__ == "__main__":
    main()
