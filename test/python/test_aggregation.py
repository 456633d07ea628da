# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the in-network aggregation functions of the mlnet Python module."""

import unittest

import mlnet


class TestAdderTree(unittest.TestCase):
    def test_throughput_and_line_rate(self):
        a = mlnet.AdderTree(lanes=16, clock_mhz=300, tree_depth=12, element_type="fp32")
        self.assertAlmostEqual(a.byte_rate, 16 * 300e6 * 4)
        self.assertAlmostEqual(a.latency, 12 / 300e6, places=12)
        self.assertTrue(a.keeps_line_rate("100Gbps"))
        self.assertFalse(a.keeps_line_rate("200Gbps"))
        self.assertTrue(mlnet.AdderTree(lanes=32, clock_mhz=300).keeps_line_rate("200Gbps"))

    def test_bad_hardware_raises(self):
        for kw in [dict(lanes=0), dict(clock_mhz=0), dict(tree_depth=5000), dict(element_type="bf16")]:
            with self.assertRaises(ValueError, msg=str(kw)):
                mlnet.AdderTree(**kw)


class TestAggregate(unittest.TestCase):
    def test_values_are_summed_exactly(self):
        values = [[w + 0.25 * i for i in range(600)] for w in range(4)]
        for placement in ["devices", "switches"]:
            r = mlnet.aggregate(topology="leaf-spine", leaves=2, spines=2, hosts_per_leaf=2,
                                placement=placement, values=values, trees=2)
            self.assertTrue(r["completed"])
            expected = [sum(v[i] for v in values) for i in range(600)]
            for res in r["results"]:
                self.assertEqual(res, expected)
            self.assertEqual(len(r["trees"]), 2)

    def test_size_only_on_a_fat_tree(self):
        r = mlnet.aggregate(topology="fat-tree", k=4, elements=100000, trees=4, cc="none",
                            element_type="int32", placement="switches")
        self.assertTrue(r["completed"])
        self.assertGreater(r["time"], 100000 * 4 * 8 / 100e9)
        self.assertEqual(sum(w["chunks_sent"] for w in r["workers"]), 16 * 391)

    def test_bad_arguments_raise(self):
        with self.assertRaises(ValueError):
            mlnet.aggregate(bogus=1)
        with self.assertRaises(ValueError):
            mlnet.aggregate(placement="racks")
        with self.assertRaises(ValueError):
            mlnet.aggregate(values=[[1.0], [1.0, 2.0]], hosts=[0, 1])
        with self.assertRaises(ValueError):
            mlnet.aggregate(aggregation_cc="cubic")
        for kw in [dict(max_slots=0), dict(chunk_elements=5000), dict(timing="fpga"),
                   dict(max_jobs=0), dict(trees=0), dict(scale_exponent=65)]:
            with self.assertRaises(ValueError, msg=str(kw)):
                mlnet.aggregate(**kw)

    def test_section_settings_take_effect(self):
        # chunk_elements: every host sends ceil(elements / chunk) chunks per tree's share.
        r = mlnet.aggregate(hosts=[0, 1, 2], elements=1000, chunk_elements=100, trees=1,
                            aggregation_cc="none", max_slots=8, back_pressure=False)
        self.assertTrue(r["completed"])
        self.assertEqual(len(r["workers"]), 3)
        self.assertEqual(sum(w["chunks_sent"] for w in r["workers"]), 3 * 10)
        # timing: one 300 MHz lane sums 1.2 GB/s, far below the 100 Gb/s ports, so the adder
        # tree in the switches is slower than the default line-rate timing there.
        kw = dict(placement="switches", elements=20000, lanes=1, aggregation_cc="none")
        line = mlnet.aggregate(**kw)["time"]
        adder = mlnet.aggregate(timing="adder-tree", **kw)["time"]
        self.assertGreater(adder, line + 20000 * 4 / 1.2e9 * 0.5)

    def test_scenario_keys(self):
        scenario = {
            "topology": {"type": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 2,
                         "hostLinkRate": "10Gbps", "fabricLinkRate": "10Gbps"},
            "aggregation": {"placement": "devices", "lanes": 8, "clockMHz": 250},
            "traffic": [{"type": "data-parallel-job", "hosts": [0, 1, 2, 3], "mode": "ina",
                         "model": "cifarnet", "iterations": 2, "trees": 2,
                         "aggregationCc": "dctcp"}],
            "duration": "1ms", "drain": "200ms"}
        r = mlnet.run_scenario(scenario)
        self.assertEqual(len(r["iterations"]), 2)


if __name__ == "__main__":
    unittest.main()
