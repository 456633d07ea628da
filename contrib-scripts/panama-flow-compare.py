#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare two panama-shared-cluster --out directories iteration by iteration (e.g. the packet
and the flow level over the same window: doc/aggregation.rst, "Flow level at k=8 and k=16").

  panama-flow-compare.py [--skip=N] A_DIR B_DIR [SCHEME ...]

For every scheme in both (or the ones named), load and seed: per job the iterations both runs
measured (the same job and iteration index), their mean in A and B and the error (B - A) / A;
then over all such iterations the mean of each and the error of the sum, and the error's range
over the jobs. --skip=N leaves out every job's first N iterations (a job's first iteration
measured from time 0 is its compute alone: no gradient is pending before it).
"""
import csv
import os
import sys
from collections import defaultdict


def iterations(d):
    """(load, seed, scheme) -> job -> (model, [iteration times, s]) of iterations.csv."""
    out = defaultdict(dict)
    with open(os.path.join(d, "iterations.csv")) as f:
        for r in csv.DictReader(f):
            jobs = out[(r["load"], r["seed"], r["scheme"])]
            jobs.setdefault(r["job"], (r["model"], []))[1].append(float(r["duration_s"]))
    return out


def main(argv):
    skip = 0
    if len(argv) > 1 and argv[1].startswith("--skip="):
        skip = int(argv[1].split("=", 1)[1])
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:
        sys.exit(__doc__)
    a, b = iterations(argv[1]), iterations(argv[2])
    only = set(argv[3:])
    for key in sorted(set(a) & set(b)):
        if only and key[2] not in only:
            continue
        print("load %s seed %s %s: %s / %s" % (key + (argv[1], argv[2])))
        print("  %-4s %-13s %5s %10s %10s %8s" % ("job", "model", "iters", "A ms", "B ms", "err %"))
        sa = sb = 0.0
        n = 0
        errs = []
        for job in sorted(set(a[key]) & set(b[key]), key=int):
            model, ta = a[key][job]
            _, tb = b[key][job]
            ta, tb = ta[skip:], tb[skip:]
            m = min(len(ta), len(tb))
            if m == 0:
                continue
            ma, mb = sum(ta[:m]) / m, sum(tb[:m]) / m
            sa, sb, n = sa + sum(ta[:m]), sb + sum(tb[:m]), n + m
            errs.append((mb - ma) / ma * 100)
            print("  %-4s %-13s %5d %10.3f %10.3f %+8.1f" % (job, model, m, ma * 1e3, mb * 1e3,
                                                          errs[-1]))
        if n:
            print("  all  %d iterations of %d jobs: mean %.3f / %.3f ms, error %+.1f %% "
                  "(per job %+.1f .. %+.1f %%)" % (n, len(errs), sa / n * 1e3, sb / n * 1e3,
                                                   (sb - sa) / sa * 100, min(errs), max(errs)))


if __name__ == "__main__":
    main(sys.argv)
