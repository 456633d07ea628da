#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Campaign runner: a sweep of parameters x seeds, one simulation per run, one JSON line per run.

Runs execute in a local process pool by default (one process per run: ns-3 has one global
simulator per process). With ``--scheduler ADDRESS`` and the ``distributed`` package
(Debian: python3-distributed) importable, runs are submitted to that Dask cluster instead;
``--scheduler local`` starts a local Dask cluster.

Two kinds of run:

* ``--scenario FILE.json``: the JSON scenario runner (``mlnet.run_scenario``). Sweep keys are
  dotted paths into the scenario, e.g. ``--param topology.k=4,8 --param traffic.0.rate=40Gbps,80Gbps``;
  the seed goes to the scenario's ``seed``.
* ``--builtin incast`` (default without --scenario): N senders to one receiver on a k=4
  fat-tree with DCQCN, through ``mlnet.Simulation``; parameters: senders, bytes, rate_ai,
  aggressiveness, cc, k.

Examples::

  PYTHONPATH=build/python python3 contrib-scripts/campaign.py --param senders=2,4,8 \\
      --seeds 1-3 --out incast.jsonl -j 2
  PYTHONPATH=build/python python3 contrib-scripts/campaign.py --scenario my.json \\
      --param traffic.0.rate=40Gbps,80Gbps --seeds 1,2 --scheduler tcp://head:8786

Each output line: {"run": i, "params": {...}, "seed": s, "ok": true, "wall": seconds,
"result": {...}} or, when a run fails, "ok": false and "error": "...". A failing run does not
stop the campaign.
"""

import argparse
import concurrent.futures
import copy
import itertools
import json
import multiprocessing
import os
import sys
import time
import traceback


def parse_value(text):
    """'4' -> 4, '0.5' -> 0.5, 'true' -> True, anything else stays a string."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text.strip()


def parse_param(spec):
    """'name=v1,v2,v3' -> ('name', [v1, v2, v3])."""
    if "=" not in spec:
        raise argparse.ArgumentTypeError(f"--param expects name=v1,v2,...: {spec!r}")
    name, values = spec.split("=", 1)
    vals = [parse_value(v) for v in values.split(",") if v.strip() != ""]
    if not name or not vals:
        raise argparse.ArgumentTypeError(f"--param expects name=v1,v2,...: {spec!r}")
    return name.strip(), vals


def parse_seeds(spec):
    """'1-5' -> [1..5]; '1,3,7' -> [1, 3, 7]."""
    seeds = []
    for part in spec.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        elif part:
            seeds.append(int(part))
    if not seeds or min(seeds) < 1:
        raise argparse.ArgumentTypeError("seeds must be integers >= 1")
    return seeds


def expand(params, seeds):
    """Cartesian product of the parameter values, times the seeds: list of (params, seed)."""
    names = [n for n, _ in params]
    grids = [v for _, v in params] or [[]]
    runs = []
    for combo in itertools.product(*grids) if params else [()]:
        for seed in seeds:
            runs.append((dict(zip(names, combo)), seed))
    return runs


def set_path(doc, path, value):
    """Set doc['a']['b'][0]... from the dotted path 'a.b.0'."""
    keys = path.split(".")
    cur = doc
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur.setdefault(k, {})
    last = keys[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


def run_scenario(scenario, params, seed):
    import mlnet

    doc = copy.deepcopy(scenario)
    for path, value in params.items():
        set_path(doc, path, value)
    doc["seed"] = seed
    r = mlnet.run_scenario(doc)
    return {"summary": r["summary"], "flows": r["flows"]}


def run_incast(params, seed):
    import mlnet

    p = {"senders": 4, "bytes": 1_000_000, "cc": "dcqcn", "k": 4, "aggressiveness": 1.0,
         "until": "50ms"}
    unknown = set(params) - set(p) - {"rate_ai", "rate_hai", "g", "timer"}
    if unknown:
        raise ValueError(f"unknown incast parameters: {sorted(unknown)}")
    p.update(params)
    cc_params = {k: params[k] for k in ("rate_ai", "rate_hai", "g", "timer") if k in params}
    with mlnet.Simulation(seed=seed) as sim:
        topo = sim.fat_tree(k=p["k"])
        sim.install_rdma(cc=p["cc"], **cc_params)
        dst = topo.hosts - 1
        if p["senders"] >= topo.hosts:
            raise ValueError("senders must be < number of hosts")
        flows = [sim.rdma_flow(src=i, dst=dst, bytes=p["bytes"],
                               aggressiveness=p["aggressiveness"])
                 for i in range(p["senders"])]
        sim.run(until=p["until"])
        ports = sim.port_stats()
        fcts = [f.fct for f in flows if f.fct is not None]
        return {
            "flows": [f.as_dict() for f in flows],
            "completed": len(fcts),
            "fct_max": max(fcts) if fcts else None,
            "fct_mean": sum(fcts) / len(fcts) if fcts else None,
            "ecn_marks": sum(x["ecn_marks"] for x in ports),
            "pfc_pauses": sum(x["pause_sent"] for x in ports),
            "drops": sum(x["drops"] for x in ports),
        }


def one_run(index, params, seed, scenario):
    """Execute one run in the current (worker) process; never raises."""
    t0 = time.time()
    line = {"run": index, "params": params, "seed": seed}
    try:
        if scenario is not None:
            line["result"] = run_scenario(scenario, params, seed)
        else:
            line["result"] = run_incast(params, seed)
        line["ok"] = True
    except Exception as e:  # a failed run is recorded, the campaign goes on
        line["ok"] = False
        line["error"] = f"{type(e).__name__}: {e}"
        line["traceback"] = traceback.format_exc(limit=3)
    line["wall"] = time.time() - t0
    return line


def dask_client(address):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return None
    if address == "local":
        return Client(LocalCluster(processes=True, threads_per_worker=1))
    return Client(address)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", help="JSON scenario file (default: the built-in incast)")
    ap.add_argument("--param", action="append", type=parse_param, default=[],
                    help="name=v1,v2,... (repeatable; the sweep is their product)")
    ap.add_argument("--seeds", type=parse_seeds, default=[1], help="e.g. 1-5 or 1,3,7")
    ap.add_argument("--out", default="-", help="JSON-lines output file ('-': stdout)")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, (os.cpu_count() or 1)),
                    help="local worker processes")
    ap.add_argument("--scheduler", help="Dask scheduler address, or 'local' for a local Dask "
                                        "cluster (needs the distributed package)")
    ap.add_argument("--dry-run", action="store_true", help="list the runs and exit")
    args = ap.parse_args(argv)

    scenario = None
    if args.scenario:
        with open(args.scenario) as f:
            scenario = json.load(f)
    runs = expand(args.param, args.seeds)
    if args.dry_run:
        for i, (p, s) in enumerate(runs):
            print(json.dumps({"run": i, "params": p, "seed": s}))
        return 0

    out = sys.stdout if args.out == "-" else open(args.out, "w")
    failed = 0

    def emit(line):
        nonlocal failed
        failed += 0 if line["ok"] else 1
        out.write(json.dumps(line) + "\n")
        out.flush()
        status = "ok" if line["ok"] else "FAILED " + line["error"]
        print(f"run {line['run']} {line['params']} seed {line['seed']}: {status} "
              f"({line['wall']:.1f} s)", file=sys.stderr)

    client = dask_client(args.scheduler) if args.scheduler else None
    if args.scheduler and client is None:
        print("campaign: 'distributed' is not importable; using the local process pool",
              file=sys.stderr)
    try:
        if client is not None:
            from distributed import as_completed

            futures = [client.submit(one_run, i, p, s, scenario, pure=False)
                       for i, (p, s) in enumerate(runs)]
            for fut in as_completed(futures):
                emit(fut.result())
        else:
            # one process per run (max_tasks_per_child=1): every run starts from a fresh ns-3
            ctx = multiprocessing.get_context("spawn")
            kwargs = {"max_workers": max(1, args.jobs), "mp_context": ctx}
            if sys.version_info >= (3, 11):
                kwargs["max_tasks_per_child"] = 1
            with concurrent.futures.ProcessPoolExecutor(**kwargs) as pool:
                futures = [pool.submit(one_run, i, p, s, scenario)
                           for i, (p, s) in enumerate(runs)]
                for fut in concurrent.futures.as_completed(futures):
                    emit(fut.result())
    finally:
        if client is not None:
            client.close()
        if out is not sys.stdout:
            out.close()
    print(f"campaign: {len(runs)} runs, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
