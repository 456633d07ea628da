#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""examples/panama-shared-cluster --short-records=false: the 7 KB flows are summarised
(FctSummary) instead of recorded one by one; the same run gives the same count and mean FCT
in summary.csv, a p99 within the summary's half log bin (1.2 %), and no short rows in
flows.csv. Usage: panama-short-records.py PANAMA_SHARED_CLUSTER WORKDIR"""
import csv
import os
import subprocess
import sys


def run(binary, out, records):
    subprocess.run([binary, "--k=4", "--backend=flow", "--loads=0.2", "--seeds=1",
                    "--schemes=ring", "--warmup=2ms", "--warmup-iterations=0",
                    "--min-iterations=0", "--duration=20ms",
                    "--short-records=" + records, "--out=" + out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.csv")) as f:
        summary = list(csv.DictReader(f))[0]
    with open(os.path.join(out, "flows.csv")) as f:
        kinds = [row["kind"] for row in csv.DictReader(f)]
    return summary, kinds


def main():
    binary, work = sys.argv[1], sys.argv[2]
    full, full_kinds = run(binary, os.path.join(work, "short-records-true"), "true")
    summ, summ_kinds = run(binary, os.path.join(work, "short-records-false"), "false")
    failures = []
    n = int(full["short_flows"])
    if n < 1000:
        failures.append(f"too few 7 KB flows to compare: {n}")
    if n != full_kinds.count("short"):
        failures.append(f"records: short_flows {n} != flows.csv short rows")
    if int(summ["short_flows"]) != n:
        failures.append(f"short_flows {summ['short_flows']} != {n}")
    mean, mean2 = float(full["short_mean_fct_s"]), float(summ["short_mean_fct_s"])
    if abs(mean - mean2) > 1e-9 * mean:
        failures.append(f"short_mean_fct_s {mean2} != {mean}")
    p99, p992 = float(full["short_p99_fct_s"]), float(summ["short_p99_fct_s"])
    if abs(p99 - p992) > 0.012 * p99:
        failures.append(f"short_p99_fct_s {p992} not within 1.2 % of {p99}")
    if "short" in summ_kinds:
        failures.append("flows.csv has short rows with --short-records=false")
    if summ_kinds.count("long") != full_kinds.count("long"):
        failures.append("long rows differ")
    if float(summ["mean_iter_s"]) != float(full["mean_iter_s"]):
        failures.append("the run changed: mean_iter_s differs")
    for f in failures:
        print("FAIL:", f)
    print(f"{n} short flows, mean {mean} / {mean2} s, p99 {p99} / {p992} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
