# SPDX-License-Identifier: GPL-2.0-only
"""mlnet.set_scheduler / mlnet.scheduler / mlnet.set_simulator / mlnet.simulator: the event
engine from Python."""

import unittest

import mlnet


def incast(size=500_000):
    with mlnet.Simulation(seed=3) as sim:
        sim.fat_tree(k=4)
        sim.install_rdma(cc="dcqcn")
        flows = [sim.rdma_flow(src=s, dst=15, bytes=size) for s in (0, 4, 8)]
        sim.run(until="5ms")
        return [(f.done, f.bytes_acked, f.fct, f.cnps) for f in flows]


class TestScheduler(unittest.TestCase):
    def tearDown(self):
        mlnet.set_scheduler("TimingWheel")
        mlnet.set_simulator("mlnet")

    def test_default_is_the_programs_default(self):
        self.assertEqual(mlnet.scheduler(), "ns3::TimingWheelScheduler")

    def test_every_scheduler_gives_the_same_results(self):
        reference = incast()
        self.assertTrue(all(done for done, *_ in reference))
        self.assertTrue(any(cnps > 0 for *_, cnps in reference))
        for name in ("Map", "Heap", "ns3::CalendarScheduler", "PriorityQueue", "QuadHeap"):
            self.assertTrue(mlnet.set_scheduler(name).startswith("ns3::"))
            self.assertEqual(incast(), reference, name)

    def test_bad_name_is_a_value_error(self):
        with self.assertRaises(ValueError) as e:
            mlnet.set_scheduler("Fastest")
        self.assertIn("TimingWheel", str(e.exception))
        self.assertEqual(mlnet.scheduler(), "ns3::TimingWheelScheduler")

    def test_simulator_implementation_default_and_same_results(self):
        self.assertEqual(mlnet.simulator(), "ns3::MlnetSimulatorImpl")
        reference = incast()
        self.assertEqual(mlnet.set_simulator("ns3"), "ns3::DefaultSimulatorImpl")
        self.assertEqual(incast(), reference)
        with self.assertRaises(ValueError) as e:
            mlnet.set_simulator("fastest")
        self.assertIn("accepted: mlnet, ns3", str(e.exception))
        self.assertEqual(mlnet.simulator(), "ns3::DefaultSimulatorImpl")


if __name__ == "__main__":
    unittest.main()
