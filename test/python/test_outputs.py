# SPDX-License-Identifier: GPL-2.0-only
"""Outputs and inputs of the Python module (issue 31): run_scenario()'s rows are the CSV files'
(hosts.csv was shifted by one column), arguments that were ignored or named wrongly."""

import unittest

import mlnet

# hosts.csv's columns, in order (doc/scenario.rst, "Outputs")
HOSTS_COLUMNS = [
    "host", "name", "rxPackets", "rxBytes", "deliveredPackets", "deliveredBytes", "dropPackets",
    "dropBytes", "bufferedBytes", "dmaPayloadBytes", "txPayloadBytes", "ceMarked", "pausesSent",
    "resumesSent", "iotlbHits", "iotlbMisses", "iotlbHitRate", "maxBufferBytes",
    "meanQueueDelayNs", "maxQueueDelayNs", "dmaBusyFraction", "memoryAppDemand", "appLoadBps",
    "writeRateBps", "memoryUtilization", "throttleLevel", "maxThrottleLevel"]


@unittest.skipUnless(getattr(mlnet, "HAVE_SCENARIO", False), "no scenario runner")
class TestRunScenarioRows(unittest.TestCase):
    def test_host_rows_hold_every_column_with_its_own_value(self):
        s = {"topology": {"type": "dumbbell", "left": 2, "right": 1}, "duration": "200us",
             "drain": "20ms",
             "traffic": [{"type": "rdma", "src": 0, "dst": 2, "bytes": "300KB"},
                         {"type": "rdma", "src": 1, "dst": 2, "bytes": "300KB"}],
             "host": {"hosts": [2], "memoryAppDemand": 0.5, "rxBuffer": "256KiB"}}
        r = mlnet.run_scenario(s)
        self.assertEqual(len(r["hosts"]), 1)
        h = r["hosts"][0]
        self.assertEqual(list(h), HOSTS_COLUMNS)
        # before issue 31 every column from maxBufferBytes on held its right neighbour's value:
        # memoryAppDemand was the application's load in bit/s, maxThrottleLevel missing
        self.assertEqual(h["memoryAppDemand"], 0.5)
        self.assertGreater(h["appLoadBps"], 1e9)
        self.assertGreater(h["writeRateBps"], 1e9)
        self.assertTrue(0 < h["memoryUtilization"] <= 1)
        self.assertTrue(0 < h["dmaBusyFraction"] <= 1)
        self.assertGreaterEqual(h["maxQueueDelayNs"], h["meanQueueDelayNs"])
        self.assertIsInstance(h["maxBufferBytes"], int)
        self.assertGreater(h["maxBufferBytes"], 0)
        self.assertLessEqual(h["maxBufferBytes"], 256 * 1024)
        self.assertEqual((h["throttleLevel"], h["maxThrottleLevel"]), (0, 0))
        self.assertEqual(h["rxBytes"], h["deliveredBytes"] + h["dropBytes"] + h["bufferedBytes"])


class TestArguments(unittest.TestCase):
    def test_aggregate_elements_with_values(self):
        values = [[1.0, 2.0, 3.0]] * 4
        r = mlnet.aggregate(topology="leaf-spine", leaves=2, spines=2, hosts_per_leaf=2,
                            values=values, elements=3)
        self.assertTrue(r["completed"])
        self.assertEqual(r["results"][0], [4.0, 8.0, 12.0])
        # before issue 31 elements was ignored when values were given
        with self.assertRaisesRegex(ValueError, r"^elements = 5: must equal the length of each "
                                                r"values list \(3\)"):
            mlnet.aggregate(topology="leaf-spine", leaves=2, spines=2, hosts_per_leaf=2,
                            values=values, elements=5)

    def test_cct_flexibility_names_the_argument(self):
        self.assertGreater(mlnet.cct_flexibility("cifarnet")["ratio"], 1)
        for kw, msg in [(dict(mtu=10), r"cct_flexibility\(\): mtu = 10 is out of range \[64, "),
                        (dict(batch=0), r"cct_flexibility\(\): batch = 0 is out of range \[1, "),
                        (dict(workers=-1), r"cct_flexibility\(\): workers = -1 is out of range"),
                        (dict(bytes_per_parameter=0),
                         r"cct_flexibility\(\): bytes_per_parameter = 0 is out of range \[1, 16\]"),
                        (dict(servers=1.5), r"cct_flexibility\(\): servers: expected an integer")]:
            with self.assertRaisesRegex(ValueError, msg):
                mlnet.cct_flexibility("cifarnet", **kw)

    def test_host_path_ranges_name_the_argument_and_unit(self):
        self.assertGreater(mlnet.host_path(io_latency="100us")["write_rate_bps"], 0)
        # a number is seconds: 250 is 250 s, not 250 ns
        with self.assertRaisesRegex(ValueError, r"^host_path\(\): io_latency = 250 \(250 s\): "
                                                r"must be a time in \[0ns, 100us\]"):
            mlnet.host_path(io_latency=250)
        with self.assertRaisesRegex(ValueError, r"^host_path\(\): io_latency = 1ms \(1 ms\): "
                                                r"must be a time in \[0ns, 100us\]"):
            mlnet.host_path(io_latency="1ms")
        with self.assertRaisesRegex(ValueError, r"^host_path\(\): page_walk_accesses = 9: "
                                                r"must be in \[0, 8\]"):
            mlnet.host_path(page_walk_accesses=9)


if __name__ == "__main__":
    unittest.main()
