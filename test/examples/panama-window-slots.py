#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""examples/panama-shared-cluster --window-slots: PANAMA's slot pool per tree (its workers'
window). At k=4 with the default BufferBytesPerJob every pool is 512 slots, so
--window-slots=512 is the default run (same iterations to the last digit); a window of 4 chunks
per tree caps a tree at 4 x 1,072 B per round trip, far below the 100 Gb/s line rate, so the
same job's iterations are longer; a value outside [0, 4096] is an error naming the flag and
its range (exit 2). Usage: panama-window-slots.py PANAMA_SHARED_CLUSTER WORKDIR"""
import csv
import os
import subprocess
import sys


def run(binary, out, extra):
    subprocess.run([binary, "--k=4", "--loads=0.05", "--seeds=1", "--schemes=panama",
                    "--models=googlenet", "--short-load=0", "--long-load=0", "--warmup=1ms",
                    "--warmup-iterations=0", "--min-iterations=0", "--duration=32ms",
                    "--out=" + out] + extra, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "iterations.csv")) as f:
        return [(r["job"], r["iteration"], r["duration_s"]) for r in csv.DictReader(f)]


def main():
    binary, work = sys.argv[1], sys.argv[2]
    failures = []
    default = run(binary, os.path.join(work, "window-default"), [])
    same = run(binary, os.path.join(work, "window-512"), ["--window-slots=512"])
    small = run(binary, os.path.join(work, "window-4"), ["--window-slots=4"])
    if not default:
        failures.append("the default run completed no iteration in 32 ms")
    if same != default:
        failures.append("--window-slots=512 changed the run (every pool is 512 by default)")
    first = {j: float(d) for j, i, d in default if i == "0"}
    first_small = {j: float(d) for j, i, d in small if i == "0"}
    if not all(j in first_small and first_small[j] > 1.2 * first[j] for j in first):
        failures.append("a 4-chunk window did not lengthen the first iteration: %s vs %s" % (
            first_small, first))
    bad = subprocess.run([binary, "--window-slots=5000", "--plan-only=1"],
                         capture_output=True, text=True)
    if bad.returncode != 2 or "--window-slots = 5000" not in bad.stderr or (
            "[0, 4096]" not in bad.stderr):
        failures.append("--window-slots=5000: exit %d, %r" % (bad.returncode, bad.stderr))
    for f in failures:
        print("FAIL:", f)
    print("first iteration (s): default %s, 4-chunk window %s" % (first, first_small))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
