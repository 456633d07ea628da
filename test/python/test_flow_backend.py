# SPDX-License-Identifier: GPL-2.0-only
"""run_scenario() with "backend": "flow": the flow-level backend from Python, same outputs.

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import unittest

import mlnet


def scenario(backend):
    return {
        "topology": {"type": "fat-tree", "k": 4},
        "duration": "1us",
        "drain": "1s",
        "backend": backend,
        "traffic": [{"type": "rdma", "src": 0, "dst": 15, "bytes": "2MB"},
                    {"type": "rdma", "src": 4, "dst": 15, "bytes": "2MB"}],
    }


class TestFlowBackend(unittest.TestCase):
    def test_summary_records_the_backend_and_fcts_agree(self):
        flow = mlnet.run_scenario(scenario("flow"))
        packet = mlnet.run_scenario(scenario("packet"))
        self.assertEqual(flow["summary"]["backend"], "flow")
        self.assertEqual(packet["summary"]["backend"], "packet")  # every run records it
        self.assertIsNone(flow["summary"]["packetHops"])  # no packets at flow level: null
        self.assertGreater(packet["summary"]["packetHops"], 0)
        self.assertEqual(len(flow["flows"]), 2)
        for f, p in zip(flow["flows"], packet["flows"]):
            # per-packet columns are empty at flow level, the completion is not
            self.assertEqual(f["txPackets"], "")
            self.assertEqual(f["completed"], 1)
            # the goodput is derived from the delivery time, as at packet level
            self.assertGreater(float(f["goodputBps"]), 0.8 * float(p["goodputBps"]))
            ratio = float(f["fctNs"]) / float(p["fctNs"])
            self.assertGreater(ratio, 0.8)
            self.assertLess(ratio, 1.2)

    def test_a_second_run_in_the_interpreter_draws_the_same(self):
        # Two flows into one host under the default fluid DCQCN: its CNP draws come from a
        # fixed random stream, so a run does not depend on the runs before it in the process
        # (until 2026-11-29 a second run drew from ns-3's next automatic stream).
        s = scenario("flow")
        first = mlnet.run_scenario(s)
        mlnet.run_scenario(scenario("packet"))  # streams used in between
        second = mlnet.run_scenario(s)
        self.assertEqual([f["fctNs"] for f in first["flows"]],
                         [f["fctNs"] for f in second["flows"]])
        # DCQCN acted (its cuts leave part of the shared link unused): later than max-min's
        s["fluidCc"] = "none"
        maxmin = mlnet.run_scenario(s)
        for f, m in zip(first["flows"], maxmin["flows"]):
            self.assertGreater(int(f["completedNs"]), int(m["completedNs"]))

    def test_bad_backend_is_a_value_error(self):
        s = scenario("fluid")
        with self.assertRaises(ValueError):
            mlnet.run_scenario(s)


if __name__ == "__main__":
    unittest.main()
