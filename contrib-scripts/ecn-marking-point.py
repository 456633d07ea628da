#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ECN marking point on an RDMA incast (doc/fabric.rst, Validation).

  ecn-marking-point.py MLNET_RUN OUTDIR [--senders 16] [--bytes 10MB] [--seeds 1,2,3,4,5]

Runs mlnet-run on a dumbbell (SENDERS hosts on one switch, one receiver on the other, 100 Gb/s
links, 1 us, DCQCN and PFC on: the scenario defaults) where every sender posts one BYTES RDMA
message to the receiver at t = 0, once with "fabric": {"ecnMarking": "enqueue"} and once with
"dequeue", for every seed. Writes
  OUTDIR/<point>-<seed>/            the run's scenario.json, summary.json, flows.csv, ports.csv
  OUTDIR/ecn-marking-point.csv      one row per run: peak egress queue, PFC pauses, ECN marks,
                                    FCT p50/p99/max, last completion
  OUTDIR/ecn-marking-point.png      FCT CDF of all flows of all seeds per marking point, and the
                                    peak queue and PFC pauses per seed
and prints the table.
"""

import argparse
import csv
import json
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POINTS = ["enqueue", "dequeue"]


def percentile(values, p):
    """Nearest-rank percentile (p in [0, 100]) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


def scenario(senders, size, point, seed):
    return {
        "topology": {"type": "dumbbell", "left": senders, "right": 1},
        "fabric": {"ecnMarking": point},
        "traffic": [
            {"type": "rdma", "src": i, "dst": senders, "bytes": size} for i in range(senders)
        ],
        "duration": "100us",
        "drain": "500ms",
        "seed": seed,
    }


def run(mlnet_run, outdir, senders, size, point, seed):
    d = os.path.join(outdir, "%s-%d" % (point, seed))
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "scenario.json")
    with open(path, "w") as f:
        json.dump(scenario(senders, size, point, seed), f, indent=1)
    subprocess.run([mlnet_run, path, "--out=" + d, "--quiet"], check=True)
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    with open(os.path.join(d, "flows.csv")) as f:
        flows = list(csv.DictReader(f))
    fct = [int(r["fctNs"]) / 1e3 for r in flows]  # us
    if min(fct) < 0 or not s.get("drained", True):
        raise SystemExit("%s: a flow did not complete" % d)
    return {
        "point": point,
        "seed": seed,
        "peakQueueBytes": s["maxQueueBytes"],
        "pfcPauses": s["pfcPauses"],
        "ecnMarks": s["ecnMarks"],
        "fctP50Us": percentile(fct, 50),
        "fctP99Us": percentile(fct, 99),
        "fctMaxUs": max(fct),
        "fctMinUs": min(fct),
        "fcts": fct,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mlnet_run")
    ap.add_argument("outdir")
    ap.add_argument("--senders", type=int, default=16)
    ap.add_argument("--bytes", default="10MB")
    ap.add_argument("--seeds", default="1,2,3,4,5")
    a = ap.parse_args()
    seeds = [int(x) for x in a.seeds.split(",")]
    os.makedirs(a.outdir, exist_ok=True)
    rows = [run(a.mlnet_run, a.outdir, a.senders, a.bytes, p, s) for p in POINTS for s in seeds]
    cols = ["point", "seed", "peakQueueBytes", "pfcPauses", "ecnMarks", "fctMinUs", "fctP50Us",
            "fctP99Us", "fctMaxUs"]
    with open(os.path.join(a.outdir, "ecn-marking-point.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    print("\t".join(cols))
    for r in rows:
        print("\t".join(str(r[c]) if not isinstance(r[c], float) else "%.1f" % r[c] for c in cols))

    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(13, 3.8))
    for p, color in zip(POINTS, ["tab:red", "tab:blue"]):
        fcts = sorted(x for r in rows if r["point"] == p for x in r["fcts"])
        ax1.step(fcts, [(i + 1) / len(fcts) for i in range(len(fcts))], where="post",
                 color=color, label="%s marking" % p)
        mine = [r for r in rows if r["point"] == p]
        ax2.plot([r["seed"] for r in mine], [r["peakQueueBytes"] / 1e6 for r in mine], "o-",
                 color=color, label=p)
        ax3.plot([r["seed"] for r in mine], [r["pfcPauses"] for r in mine], "o-", color=color,
                 label=p)
    ax1.set_xlabel("flow completion time (us)")
    ax1.set_ylabel("CDF (all flows, all seeds)")
    ax1.legend(loc="lower right")
    ax2.set_xlabel("seed")
    ax2.set_ylabel("peak egress queue (MB)")
    ax2.set_ylim(bottom=0)
    ax2.legend()
    ax3.set_xlabel("seed")
    ax3.set_ylabel("PFC pause frames sent")
    ax3.set_ylim(bottom=0)
    ax3.legend()
    fig.suptitle("%d-to-1 incast, %s RDMA messages, 100 Gb/s, DCQCN + PFC" % (a.senders, a.bytes))
    fig.tight_layout()
    fig.savefig(os.path.join(a.outdir, "ecn-marking-point.png"), dpi=110)


if __name__ == "__main__":
    main()
