# SPDX-License-Identifier: GPL-2.0-only
"""mlnet.set_scheduler / mlnet.scheduler / mlnet.set_simulator / mlnet.simulator: the event
engine from Python."""

import os
import subprocess
import sys
import textwrap
import unittest

import mlnet


def fresh_process(code):
    """Run code in a new interpreter (ns-3's GlobalValues as at program start); its stdout."""
    env = dict(os.environ)
    env.pop("NS_GLOBAL_VALUE", None)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, check=True,
                          capture_output=True, text=True).stdout.split()


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

    def test_import_binds_nothing_and_a_simulation_binds_mlnets_engine(self):
        out = fresh_process("""
            import mlnet
            print(mlnet.scheduler(), mlnet.simulator())
            with mlnet.Simulation(seed=1):
                pass
            print(mlnet.scheduler(), mlnet.simulator())
            """)
        self.assertEqual(out, ["ns3::MapScheduler", "ns3::DefaultSimulatorImpl",
                               "ns3::TimingWheelScheduler", "ns3::MlnetSimulatorImpl"])

    def test_an_explicit_choice_of_ns3s_engine_is_kept(self):
        # The same values as ns-3's initial ones, chosen on purpose: kept by every simulation.
        out = fresh_process("""
            import mlnet
            mlnet.set_scheduler("Map")
            mlnet.set_simulator("ns3")
            with mlnet.Simulation(seed=1):
                pass
            mlnet.run_scenario({"topology": {"type": "dumbbell", "left": 1, "right": 1},
                                "duration": "10us"})
            print(mlnet.scheduler(), mlnet.simulator())
            """)
        self.assertEqual(out, ["ns3::MapScheduler", "ns3::DefaultSimulatorImpl"])

    def test_every_scheduler_gives_the_same_results(self):
        reference = incast()
        self.assertTrue(all(done for done, *_ in reference))
        self.assertTrue(any(cnps > 0 for *_, cnps in reference))
        for name in ("Map", "Heap", "ns3::CalendarScheduler", "PriorityQueue", "QuadHeap"):
            self.assertTrue(mlnet.set_scheduler(name).startswith("ns3::"))
            self.assertEqual(incast(), reference, name)

    def test_bad_name_is_a_value_error(self):
        before = mlnet.scheduler()
        with self.assertRaises(ValueError) as e:
            mlnet.set_scheduler("Fastest")
        self.assertIn("TimingWheel", str(e.exception))
        self.assertEqual(mlnet.scheduler(), before)

    def test_simulator_implementation_default_and_same_results(self):
        reference = incast()
        self.assertEqual(mlnet.simulator(), "ns3::MlnetSimulatorImpl")
        self.assertEqual(mlnet.set_simulator("ns3"), "ns3::DefaultSimulatorImpl")
        self.assertEqual(incast(), reference)
        with self.assertRaises(ValueError) as e:
            mlnet.set_simulator("fastest")
        self.assertIn("accepted: mlnet, ns3", str(e.exception))
        self.assertEqual(mlnet.simulator(), "ns3::DefaultSimulatorImpl")


if __name__ == "__main__":
    unittest.main()
