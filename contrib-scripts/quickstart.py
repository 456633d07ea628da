#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""DCQCN rate trajectories of three flows sharing one 100G bottleneck (dumbbell), one of them
made more aggressive. Run: PYTHONPATH=build/python python3 contrib-scripts/quickstart.py"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import mlnet

with mlnet.Simulation(seed=1) as sim:
    sim.dumbbell(left=3, right=1, host_rate="100Gbps", fabric_rate="100Gbps", delay="1us")
    sim.install_rdma(cc="dcqcn", rate_ai="40Mbps", rate_hai="200Mbps")
    flows = [sim.rdma_flow(src=i, dst=3, bytes=10_000_000, start=f"{i * 200}us",
                           aggressiveness=a, trace=True) for i, a in enumerate([1.0, 1.0, 2.0])]
    sim.run(until="50ms")
for f in flows:
    t, r = zip(*f.rate_trace)
    plt.step([x * 1e3 for x in t], [y / 1e9 for y in r], where="post",
             label=f"host {f.src}, a={f.aggressiveness}, FCT {(f.fct or float('nan')) * 1e3:.2f} ms")
plt.xlabel("time (ms)"), plt.ylabel("DCQCN rate (Gb/s)"), plt.legend()
plt.savefig("quickstart-dcqcn.png", dpi=120)
print("wrote quickstart-dcqcn.png;", [f.as_dict() for f in flows])
