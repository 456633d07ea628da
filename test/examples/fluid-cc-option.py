#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--fluid-cc of the examples that build their fluid fabric themselves
(examples/fluid-cc-option.h): at --backend=flow, cadentflow-ps runs its packet-level DCQCN at
flow level by default (the header says "fluid cc dcqcn") and max-min rates with
--fluid-cc=none; a --cc without DCQCN (ns3::RdmaFixedRate) runs max-min rates whatever
--fluid-cc says, as a scenario's "fluidCc" does; the default run repeats itself. Every
program rejects a bad value with one line naming --fluid-cc and its values (exit 2).
Usage: fluid-cc-option.py CADENTFLOW_PS [NAME=PROGRAM ...]"""
import subprocess
import sys

SMALL = ["--backend=flow", "--workers=4", "--models=mobilenet_v2", "--policies=fair",
         "--iterations=6", "--warmup=1"]


def run(binary, extra):
    out = subprocess.run([binary] + SMALL + extra, check=True, capture_output=True,
                         text=True).stdout
    header = out.splitlines()[0]
    row = [line for line in out.splitlines() if line.startswith("fair ")]
    return header, row[0].split()[1:4] if row else None


def main():
    cadent = sys.argv[1]
    programs = dict(arg.split("=", 1) for arg in sys.argv[2:])
    programs.setdefault("cadentflow-ps", cadent)
    failures = []
    dcqcn_header, dcqcn = run(cadent, [])
    again = run(cadent, ["--fluid-cc=dcqcn"])[1]
    none_header, none = run(cadent, ["--fluid-cc=none"])
    fixed_header, fixed = run(cadent, ["--cc=ns3::RdmaFixedRate"])
    if "(fluid cc dcqcn)" not in dcqcn_header:
        failures.append("default header: " + dcqcn_header)
    if "(fluid cc none)" not in none_header:
        failures.append("--fluid-cc=none header: " + none_header)
    if "(fluid cc none)" not in fixed_header:
        failures.append("--cc=ns3::RdmaFixedRate header: " + fixed_header)
    if not dcqcn or dcqcn != again:
        failures.append(f"the default run does not repeat itself: {dcqcn} / {again}")
    if fixed != none:
        failures.append(f"ns3::RdmaFixedRate {fixed} != max-min {none}")
    # the pulls' incast at the workers' downlinks: DCQCN's cuts leave the link idle at times
    if not (dcqcn and none and float(dcqcn[0]) > float(none[0])):
        failures.append(f"DCQCN at flow level {dcqcn} not slower than max-min {none}")
    for name, binary in sorted(programs.items()):
        p = subprocess.run([binary, "--backend=flow", "--fluid-cc=bogus"],
                           capture_output=True, text=True)
        line = "--fluid-cc = bogus: must be dcqcn or none"
        if p.returncode == 0 or line not in p.stderr or len(p.stderr.splitlines()) != 1:
            failures.append(f"{name}: exit {p.returncode}, stderr {p.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"fair mean/p50/p99 ms: dcqcn {dcqcn}, none {none}, fixed cc {fixed}; "
          f"{len(programs)} programs checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
