#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""examples/panama-shared-cluster --out: every row of iterations.csv, flows.csv, summary.csv and
ports.csv has as many fields as its header (the example writes both from one list of columns
per file), on a short packet run and a short flow-level run, two schemes each; a few columns read
by name hold what they should (a column shifted by one would not). Usage: panama-csv-columns.py
PANAMA_SHARED_CLUSTER WORKDIR"""
import csv
import os
import subprocess
import sys

COMMON = ["--k=4", "--loads=0.2", "--seeds=1", "--schemes=ring,panama", "--warmup=1ms",
          "--warmup-iterations=0", "--min-iterations=0"]
RUNS = {
    "packet": COMMON + ["--scale=0.1", "--duration=6ms"],
    "flow": COMMON + ["--backend=flow", "--fluid-background=aggregate", "--mode=fixed",
                      "--duration=40ms"],
}
FILES = ["iterations.csv", "flows.csv", "summary.csv", "ports.csv"]
# columns read by name: each must hold one of these values in every row
VALUES = {
    "flows.csv": {"kind": {"short", "long"}},
    "ports.csv": {"tier": {"edge", "agg", "core"}, "dir": {"up", "down"}},
    "summary.csv": {"gpu": {"v100-amp"}, "placement": {"random"}, "fluid_cc": {"-", "dcqcn"}},
}


def check(out, backend, failures):
    rows_per_file = {}
    for name in FILES:
        with open(os.path.join(out, name), newline="") as f:
            lines = list(csv.reader(f))
        header, rows = lines[0], lines[1:]
        rows_per_file[name] = len(rows)
        if len(set(header)) != len(header):
            failures.append(f"{backend} {name}: a column name twice in {header}")
        for n, row in enumerate(rows, 2):
            if len(row) != len(header):
                failures.append(f"{backend} {name} line {n}: {len(row)} fields, "
                                f"header {len(header)}")
        for row in (dict(zip(header, r)) for r in rows):
            if row["mode"] not in {"free", "fixed"} or row["k"] != "4" or (
                    row["scheme"] not in {"ring", "panama"}):
                failures.append(f"{backend} {name}: mode, k, scheme {row}")
            for column, allowed in VALUES.get(name, {}).items():
                if row[column] not in allowed:
                    failures.append(f"{backend} {name}: {column} {row[column]!r}")
            if name == "summary.csv" and row["backend"] != backend:
                failures.append(f"{backend} summary.csv: backend {row['backend']}")
    for name in FILES:
        if rows_per_file[name] == 0:
            failures.append(f"{backend} {name}: no row")
    return rows_per_file


def main():
    binary, work = sys.argv[1], sys.argv[2]
    failures = []
    for backend, args in RUNS.items():
        out = os.path.join(work, "panama-csv-columns-" + backend)
        subprocess.run([binary] + args + ["--out=" + out], check=True,
                       stdout=subprocess.DEVNULL)
        print(backend, check(out, backend, failures))
    for f in failures[:20]:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
