# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the host-interconnect functions of the mlnet Python module."""

import unittest

import mlnet


class TestHostPath(unittest.TestCase):
    def test_iotlb_hit_rate_matches_the_cyclic_lru_value(self):
        # 16 queue pairs x 64 KiB with 4 KiB pages: 256 pages > 64 entries, so every new page
        # misses: 1000-byte writes touch 1 + 999/4096 pages each, of which 1000/4096 are new.
        small = mlnet.host_path(flows=16, rx_buffer_per_qp="64KiB", page_size=4096)
        self.assertEqual(small["working_set_pages"], 256)
        expected = 1 - (1000 / 4096) / (1 + 999 / 4096)
        self.assertAlmostEqual(small["iotlb_hit_rate"], expected, delta=0.005)
        # Huge pages: 16 pages fit in the IOTLB, every lookup hits.
        huge = mlnet.host_path(flows=16, rx_buffer_per_qp="64KiB", page_size="2MiB")
        self.assertEqual(huge["iotlb_hit_rate"], 1.0)
        self.assertGreater(huge["effective_write_rate_bps"], small["effective_write_rate_bps"])
        self.assertAlmostEqual(huge["effective_write_rate_bps"], huge["write_rate_bps"],
                               delta=1e-9 * huge["write_rate_bps"])
        # A working set that fits (4 pages) hits too.
        self.assertEqual(mlnet.host_path(flows=1, page_size=4096)["iotlb_hit_rate"], 1.0)
        # IOMMU off: no translation, no page-walk cost.
        off = mlnet.host_path(flows=16, iommu=False)
        self.assertEqual(off["effective_write_rate_bps"], off["write_rate_bps"])

    def test_write_rate_falls_as_memory_demand_rises(self):
        rates = [mlnet.host_path(memory_app_demand=d)["write_rate_bps"]
                 for d in [0.0, 0.3, 0.6, 0.9, 1.0]]
        for a, b in zip(rates, rates[1:]):
            self.assertGreaterEqual(a, b)
        self.assertLess(rates[-1], 0.5 * rates[0])
        idle = mlnet.host_path(memory_app_demand=0.0)
        self.assertLessEqual(idle["write_rate_bps"], idle["pcie_rate_bps"] * (1 + 1e-12))
        self.assertGreater(mlnet.host_path(memory_app_demand=0.9)["memory_utilization"],
                           idle["memory_utilization"])

    def test_bad_input_raises_value_error(self):
        for kw in [dict(pcie_lanes=0), dict(pcie_lanes=3), dict(page_size=6000),
                   dict(memory_app_demand=-0.5), dict(memory_app_demand=1.5),
                   dict(pcie_generation=7), dict(flows=0), dict(iommu="yes"),
                   dict(memory_bandwidth="fast"), dict(bogus=1)]:
            with self.assertRaises(ValueError, msg=str(kw)):
                mlnet.host_path(**kw)


@unittest.skipUnless(getattr(mlnet, "HAVE_SCENARIO", False), "no scenario runner")
class TestRunScenarioHosts(unittest.TestCase):
    def scenario(self, host=None):
        s = {"topology": {"type": "dumbbell", "left": 2, "right": 1}, "duration": "1ms",
             "drain": "20ms",
             "traffic": [{"type": "rdma", "src": 0, "dst": 2, "bytes": "300KB"},
                         {"type": "rdma", "src": 1, "dst": 2, "bytes": "300KB"}]}
        if host is not None:
            s["host"] = host
        return s

    def test_host_records_conserve_bytes(self):
        r = mlnet.run_scenario(self.scenario({"hosts": [2], "memoryAppDemand": 0.9,
                                              "rxBuffer": "64KiB"}))
        self.assertEqual(len(r["hosts"]), 1)
        h = r["hosts"][0]
        self.assertEqual(h["host"], 2)
        self.assertEqual(h["name"], "host2")
        self.assertGreater(h["rxBytes"], 600000)
        self.assertEqual(h["rxBytes"], h["deliveredBytes"] + h["dropBytes"] + h["bufferedBytes"])
        self.assertGreater(h["iotlbHits"], 0)
        self.assertAlmostEqual(h["iotlbHitRate"],
                               h["iotlbHits"] / (h["iotlbHits"] + h["iotlbMisses"]))

    def test_no_host_records_without_the_section(self):
        self.assertEqual(mlnet.run_scenario(self.scenario())["hosts"], [])

    def test_bad_section_raises_value_error(self):
        with self.assertRaises(ValueError):
            mlnet.run_scenario(self.scenario({"pcieLanes": 3}))
        flow = dict(self.scenario({"pcieLanes": 3}), backend="flow")
        with self.assertRaises(ValueError):
            mlnet.run_scenario(flow)

    def test_flow_level_host_path_agrees_with_the_lossless_packet_path(self):
        # Gen3 x4 into host 2 (28.8 Gb/s of DMA writes, below the 92.4 Gb/s of payload the
        # link carries), lossless, line-rate senders: both levels move the 600 KB at the host
        # path's rate; the flow level's hosts.csv row has the fluid link's bytes and leaves the
        # per-packet columns empty.
        host = {"hosts": [2], "pcieLanes": 4, "pfc": True, "iommu": False}
        s = self.scenario(host)
        for t in s["traffic"]:
            t["cc"] = "fixed"
        packet = mlnet.run_scenario(s)
        flow = mlnet.run_scenario(dict(s, backend="flow"))
        self.assertEqual(flow["summary"]["backend"], "flow")
        h = flow["hosts"][0]
        self.assertEqual(h["host"], 2)
        self.assertEqual(h["dmaPayloadBytes"], 600000)
        self.assertEqual(h["rxPackets"], "")
        self.assertEqual(h["iotlbHitRate"], "")
        last = {name: max(float(f["completedNs"]) for f in r["flows"])
                for name, r in (("packet", packet), ("flow", flow))}
        self.assertAlmostEqual(last["flow"] / last["packet"], 1.0, delta=0.01)
        # 600,000 B at 4 x 8 GT/s x 128/130 x 256/280 = 28.8 Gb/s take 166.6 us
        self.assertGreater(last["flow"], 166.6e3)
        self.assertLess(last["flow"], 166.6e3 + 10e3)


if __name__ == "__main__":
    unittest.main()
