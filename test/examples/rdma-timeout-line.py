#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The examples that run RDMA jobs report the run's retransmission timeouts as mlnet-run does
(RdmaTimeoutReport, one line on stderr): cadentflow-ps with a 5 us timeout, below the queueing
delay of its parameter-server incast, prints the line (spurious: no drop under PFC); with the
default timeout (67.1 ms) it prints none. Usage: rdma-timeout-line.py CADENTFLOW_PS"""
import subprocess
import sys


def run(binary, extra):
    r = subprocess.run([binary, "--models=cifarnet", "--policies=fair", "--workers=4",
                        "--iterations=4"] + extra, capture_output=True, text=True, check=True)
    return [l for l in r.stderr.splitlines() if "retransmission timeouts" in l]


def main():
    binary = sys.argv[1]
    failures = []
    short = run(binary, ["--ns3::RdmaNic::RetransmitTimeout=5us"])
    if len(short) != 1:
        failures.append("5 us: expected one timeout line, got %r" % short)
    elif not (short[0].startswith("cadentflow-ps: warning: cifarnet fair (RngRun 1): ")
              and "RetransmitTimeout = +0.005ms" in short[0]
              and "no packet was dropped, so they are spurious" in short[0]):
        failures.append("5 us: unexpected line %r" % short[0])
    default = run(binary, [])
    if default:
        failures.append("default timeout: expected no line, got %r" % default)
    for f in failures:
        print("FAIL:", f)
    print(short[0] if short else "(no line at 5 us)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
