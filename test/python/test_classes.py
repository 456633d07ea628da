# SPDX-License-Identifier: GPL-2.0-only
"""One traffic class for all data from Python: run_scenario()["port_classes"], "dataClass"
and per-entry "class", class 7 refused.

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import unittest

import mlnet


def scenario(**top):
    """A dumbbell with an RDMA flow and a constant-rate flow, both left to right."""
    s = {"topology": {"type": "dumbbell", "left": 2, "right": 2,
                      "hostLinkRate": "10Gbps", "fabricLinkRate": "10Gbps"},
         "traffic": [{"type": "rdma", "src": 0, "dst": 2, "bytes": "100KB"},
                     {"type": "constant", "src": 1, "dst": 3, "rate": "1Gbps",
                      "bytes": "50KB"}],
         "duration": "200us", "drain": "50ms"}
    s.update(top)
    return s


def data_bytes(result):
    """class -> data bytes over every switch port (class 7 is ACK/CNP)."""
    out = {}
    for r in result["port_classes"]:
        if r["class"] != 7:
            out[r["class"]] = out.get(r["class"], 0) + r["txBytes"]
    return out


class TestClasses(unittest.TestCase):
    def test_one_class_by_default(self):
        r = mlnet.run_scenario(scenario())
        self.assertEqual(set(data_bytes(r)), {3})
        self.assertEqual(r["summary"]["classes"]["inUse"], [3])
        # the rows add up to ports.csv's totals
        for p in r["ports"]:
            rows = [c for c in r["port_classes"]
                    if c["node"] == p["node"] and c["port"] == p["port"]]
            self.assertEqual(sum(c["txBytes"] for c in rows), p["txBytes"])
            self.assertEqual(sum(c["txPackets"] for c in rows), p["txPackets"])

    def test_chosen_classes(self):
        r = mlnet.run_scenario(scenario(dataClass=5))
        self.assertEqual(set(data_bytes(r)), {5})
        s = scenario()
        s["traffic"][1]["class"] = 1
        r = mlnet.run_scenario(s)
        self.assertEqual(set(data_bytes(r)), {1, 3})
        self.assertEqual(r["summary"]["warnings"], [])

    def test_class_7_refused(self):
        with self.assertRaisesRegex(ValueError, r"dataClass = 7: must be an integer in \[0, 6\] "
                                                r"\(class 7 is reserved for ACK/CNP\)"):
            mlnet.run_scenario(scenario(dataClass=7))


if __name__ == "__main__":
    unittest.main()
