# SPDX-License-Identifier: GPL-2.0-only
"""run_scenario() with "backend": "flow" for the UDP types and periodic jobs: the same flows,
bytes and (on idle paths) times as at packet level; the "host" section runs there too.

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import unittest

import mlnet


def scenario(backend, traffic, **extra):
    s = {"topology": {"type": "fat-tree", "k": 4}, "duration": "1ms", "drain": "1s",
         "seed": 2, "backend": backend, "traffic": traffic}
    s.update(extra)
    return s


class TestFlowUdpPeriodic(unittest.TestCase):
    def test_permutation_same_flows_and_bytes(self):
        traffic = [{"type": "permutation", "rate": "40Gbps", "bytes": "2MB"}]
        flow = mlnet.run_scenario(scenario("flow", traffic))
        packet = mlnet.run_scenario(scenario("packet", traffic))
        self.assertEqual(len(flow["flows"]), 16)
        for f, p in zip(flow["flows"], packet["flows"]):
            for key in ("src", "dst", "srcPort", "deliveredBytes", "completed"):
                self.assertEqual(f[key], p[key], key)
            self.assertEqual(f["rxBytes"], "")  # per-packet column: empty at flow level
            # at most two 40 Gb/s flows per link: no queue, the same delivery within 1 us
            self.assertLess(abs(int(f["lastRxNs"]) - int(p["lastRxNs"])), 1000)

    def test_periodic_job_iterations_agree_on_an_idle_path(self):
        traffic = [{"type": "periodic-job", "src": 0, "dst": 5, "compute": "100us",
                    "bytes": "1MB", "iterations": 4}]
        flow = mlnet.run_scenario(scenario("flow", traffic, duration="1us"))
        packet = mlnet.run_scenario(scenario("packet", traffic, duration="1us"))
        self.assertEqual(len(flow["iterations"]), 4)
        for f, p in zip(flow["iterations"], packet["iterations"]):
            self.assertLess(abs(int(f["durationNs"]) - int(p["durationNs"])),
                            0.01 * int(p["durationNs"]))

    def test_host_section_runs_at_flow_level(self):
        r = mlnet.run_scenario(scenario("flow", [], host={"hosts": [5]}))
        self.assertEqual(r["summary"]["backend"], "flow")
        self.assertEqual([h["host"] for h in r["hosts"]], [5])


if __name__ == "__main__":
    unittest.main()
