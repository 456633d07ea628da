#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""examples/dcqcn-convergence --backend=flow: the same 4-flow dumbbell under the fluid DCQCN
model (FluidDcqcn) and at packet level. After the start-up cuts both keep the 100 Gb/s
bottleneck busy (30-60 ms: the four flows' goodput within 1 % of each other and above 90 Gb/s,
the payload's share of the line being 1000/1082), share it fairly (Jain's index above 0.95) and
hold a queue near the switch's marking thresholds (Kmin 400 KB, Kmax 1600 KB at 100 Gb/s; at
DCQCN's fixed point the queue sits just above Kmin: mean queue within [100, 1600] KB); both
backends send CNPs. The start-up cuts compound at both levels (each CNP 50 us after the last,
before the 55 us rate-increase timer recovers the rate): the lowest goodput over 1-5 ms below
45 Gb/s (RngRun 1: packet 31.3, flow 40.0; a flow level that applied each CNP at its step's end,
after the timer, gave 49.4-52.5 over RngRun 1-5). A bad --backend, --step or --linkDelay is an
error naming the flag (exit 2). Usage: dcqcn-convergence-flow.py DCQCN_CONVERGENCE"""
import subprocess
import sys


def run(binary, backend):
    out = subprocess.run([binary, "--flows=4", "--duration=60ms", "--backend=" + backend],
                         check=True, capture_output=True, text=True).stdout
    rows = [[float(x) for x in l.split()] for l in out.splitlines()
            if l.split() and l.split()[0][0].isdigit()]
    steady = [r for r in rows if r[0] > 30]
    lowest = min(sum(r[1:5]) for r in rows if 1 <= r[0] <= 5)
    total = sum(sum(r[1:5]) for r in steady) / len(steady)
    queue = sum(r[5] for r in steady) / len(steady)
    jain = min(r[6] for r in steady)
    cnps = int(out.split("CNPs ")[1].split(",")[0])
    return total, queue, jain, cnps, lowest


def main():
    binary = sys.argv[1]
    failures = []
    res = {b: run(binary, b) for b in ("packet", "flow")}
    for b, (total, queue, jain, cnps, lowest) in res.items():
        print("%s: goodput %.2f Gb/s, mean queue %.1f KB, min Jain %.3f, CNPs %d, lowest 1-5 ms "
              "%.1f Gb/s" % (b, total, queue, jain, cnps, lowest))
        if not lowest < 45:
            failures.append("%s: lowest goodput over 1-5 ms %.1f Gb/s not below 45" % (b, lowest))
        if not total > 90:
            failures.append("%s: goodput %.2f Gb/s not above 90" % (b, total))
        if not 100 <= queue <= 1600:
            failures.append("%s: mean queue %.1f KB outside [100, 1600]" % (b, queue))
        if not jain > 0.95:
            failures.append("%s: Jain's index %.3f not above 0.95" % (b, jain))
        if cnps == 0:
            failures.append("%s: no CNP" % b)
    if abs(res["flow"][0] - res["packet"][0]) > 0.01 * res["packet"][0]:
        failures.append("goodput differs by more than 1 %%: %.2f vs %.2f" % (
            res["flow"][0], res["packet"][0]))
    for args, flag in ((["--backend=bogus"], "--backend"),
                       (["--backend=flow", "--step=0s"], "--step"),
                       (["--linkDelay=2ms"], "--linkDelay")):
        bad = subprocess.run([binary] + args, capture_output=True, text=True)
        if bad.returncode != 2 or flag + " = " not in bad.stderr:
            failures.append("%s: exit %d, %r" % (args, bad.returncode, bad.stderr))
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
