# SPDX-License-Identifier: GPL-2.0-only
"""mlnet.Simulation's host(), aggregation(), scheduler() and traffic(): the scenario format's
sections and traffic entries in a session (SimulationSession::AddSection, AddTraffic), each
against an analytical expectation, and their errors (ValueError, the scenario parser's message
with the keys in snake_case); the warnings summary.json would hold (Simulation.warnings)."""

import unittest

import mlnet


def one_to_one(sim):
    """host - switch - switch - host at 100 Gb/s, RDMA NICs with DCQCN."""
    sim.dumbbell(left=1, right=1)
    sim.install_rdma()


class TestSessionSections(unittest.TestCase):
    def test_host_section_limits_a_flow_to_the_write_rate(self):
        """One PCIe 3.0 lane at the receiver: the flow drains at host_path()'s write rate."""
        size = 2_000_000
        with mlnet.Simulation(seed=1) as sim:
            one_to_one(sim)
            sim.host(hosts=[1], pcie_lanes=1, pfc=True)
            flow = sim.rdma_flow(0, 1, size)
            sim.run()
        rate = mlnet.host_path(pcie_lanes=1)["write_rate_bps"]
        self.assertLess(rate, 8e9 * 128 / 130)  # one lane: 8 GT/s, 128b/130b
        bound = size * 8 / rate
        self.assertGreaterEqual(flow.fct, bound)
        self.assertLessEqual(flow.fct, 1.05 * bound)

    def test_scheduler_control_delay_lengthens_a_pipeline_iteration_by_two_delays(self):
        """A 2-stage pipeline of one micro-batch has two messages on its critical path, each
        started controlDelay after its release by the centralised scheduler."""
        times = []
        for delay in ("0us", "20us"):
            with mlnet.Simulation(seed=1) as sim:
                one_to_one(sim)
                sim.scheduler(policy="fair", control_delay=delay)
                index = sim.traffic("pipeline-job", hosts=[0, 1], micro_batches=1,
                                    forward="50us", backward="100us",
                                    activation_bytes="100KB", iterations=3)
                self.assertEqual(index, 0)
                sim.run()
            records = sim.iterations  # kept after close()
            self.assertEqual(len(records), 3)
            self.assertEqual(records[0]["job"], "pipeline-job0")
            times.append(records[-1]["end"] - records[-1]["start"])
        self.assertAlmostEqual(times[1] - times[0], 2 * 20e-6, delta=0.01 * 40e-6)

    def test_aggregation_section_one_lane_bounds_an_ina_job(self):
        """One 100 MHz adder lane per device: a leaf's up-port device sums both hosts' halves
        of the gradient (two trees), elements / 100 MHz per iteration, within 10%."""
        with mlnet.Simulation(seed=1) as sim:
            sim.leaf_spine(leaves=2, spines=2, hosts_per_leaf=2, host_rate="10Gbps",
                           fabric_rate="10Gbps")
            sim.install_rdma()
            sim.aggregation(placement="devices", lanes=1, clock_mhz=100)
            sim.traffic("data-parallel-job", hosts=[0, 1, 2, 3], mode="ina", model="cifarnet",
                        iterations=3, trees=2)
            sim.run()
            records = sim.iterations
        elements = mlnet.ModelZoo.get("cifarnet").parameters
        bound = elements / 100e6
        mean = (records[-1]["end"] - records[0]["start"]) / len(records)
        compute = records[-1]["compute"]
        self.assertGreaterEqual(mean, bound)
        self.assertLessEqual(mean, compute + 1.10 * bound)

    def test_bad_settings_raise_value_error_naming_the_argument(self):
        with mlnet.Simulation() as sim:
            sim.dumbbell(left=1, right=1)
            with self.assertRaisesRegex(ValueError, r"call install_rdma\(\) before section 'host'"):
                sim.host(iommu=True)
            sim.install_rdma()
            with self.assertRaisesRegex(
                    ValueError, r"^host\.pcie_lanes = 3: must be a power of two in \[1, 32\]$"):
                sim.host(pcie_lanes=3)
            with self.assertRaisesRegex(ValueError, r"^host\.memory_app_demand = 1\.5: must be"):
                sim.host(memory_app_demand=1.5)
            with self.assertRaisesRegex(ValueError, r"host\.pcie_lanez: unknown key \(accepted: "
                                                    r"hosts, enabled, pcie_generation, "):
                sim.host(pcie_lanez=4)
            with self.assertRaisesRegex(ValueError, r"^host\.overrides\[0\]\.hosts = 5: must list host indices in \[0, 1\]$"):
                sim.host(overrides=[{"hosts": [5], "memory_app_demand": 1.0}])
            with self.assertRaisesRegex(ValueError, r"^host\.io_latency = <object .*>: expected a "
                                                    r"number, string, bool, list or dict"):
                sim.host(io_latency=object())
            with self.assertRaisesRegex(ValueError, r"^aggregation\.clock_mhz = 0: must be"):
                sim.aggregation(clock_mhz=0)
            with self.assertRaisesRegex(ValueError, r"^scheduler\.policy = \"lifo\": must be"):
                sim.scheduler(policy="lifo")
            with self.assertRaisesRegex(ValueError, r"^traffic\[0\]\.micro_batches = 0: must be"):
                sim.traffic("pipeline-job", hosts=[0, 1], micro_batches=0, forward="1us",
                            backward="1us", activation_bytes=1000, iterations=1)
            sim.scheduler(policy="fair")
            with self.assertRaisesRegex(ValueError, "section 'scheduler': already applied"):
                sim.scheduler(policy="fair")
            with self.assertRaisesRegex(ValueError, "^scheduler: no traffic entry posts"):
                sim.run()
            sim.rdma_flow(0, 1, 1000)
            with self.assertRaisesRegex(ValueError, "before the first flow, job or traffic"):
                sim.host(iommu=True)

    def test_warnings_of_a_parameter_server_job_as_in_summary_json(self):
        """CifarNet over two parameter servers, round-robin: server 0 gets 90.0 % of the
        pushed bytes (1.80x an even share, above 1.5): the warning a scenario puts in
        summary.json, kept after close(); none with one server."""
        def run(servers):
            with mlnet.Simulation(seed=1) as sim:
                sim.leaf_spine(leaves=2, spines=1, hosts_per_leaf=2)
                sim.install_rdma()
                sim.traffic("data-parallel-job", hosts=[0], mode="ps", servers=servers,
                            model="cifarnet", iterations=1)
                sim.run()
                self.assertEqual(len(sim.iterations), 1)
                live = sim.warnings
            self.assertEqual(sim.warnings, live)  # kept after close()
            return live

        w = run([1, 2])
        self.assertEqual(len(w), 1)
        self.assertTrue(w[0].startswith("data-parallel-job0: parameter server 0 receives 90.0 %"
                                        " of each worker's 7025704 pushed bytes over 2 servers"),
                        w[0])
        self.assertIn('serverAssignment "balanced-bytes" puts at most 89.6 % on one', w[0])
        self.assertEqual(run([1]), [])


if __name__ == "__main__":
    unittest.main()
