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


if __name__ == "__main__":
    unittest.main()
