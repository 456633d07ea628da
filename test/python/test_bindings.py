# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the mlnet Python module (plain unittest: python3 -m unittest discover test/python).

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import json
import subprocess
import sys
import textwrap
import unittest

import mlnet

GOODPUT = 1000.0 / 1082.0  # payload fraction of a 1000-B-MTU RoCEv2 packet on the wire


class TestParsing(unittest.TestCase):
    def test_rates(self):
        self.assertEqual(mlnet.parse_rate("100Gbps"), 100e9)
        self.assertEqual(mlnet.parse_rate("40Mb/s"), 40e6)
        self.assertEqual(mlnet.parse_rate("1GBps"), 8e9)
        self.assertEqual(mlnet.parse_rate(25e9), 25e9)

    def test_times(self):
        self.assertAlmostEqual(mlnet.parse_time("1us"), 1e-6)
        self.assertAlmostEqual(mlnet.parse_time("10ms"), 1e-2)
        self.assertAlmostEqual(mlnet.parse_time(0.5), 0.5)

    def test_bad_strings_raise(self):
        for bad in ["100Gbs", "fast", "", "-1Gbps", "1e400bps", "Gbps"]:
            with self.assertRaises(ValueError, msg=bad):
                mlnet.parse_rate(bad)
        for bad in ["1 parsec", "us", "-1us", "1u s"]:
            with self.assertRaises(ValueError, msg=bad):
                mlnet.parse_time(bad)


class TestModelZoo(unittest.TestCase):
    def test_parameter_counts(self):
        expected = {
            "vgg16": 138357544,
            "vgg19": 143667240,
            "alexnet": 61100840,
            "resnet50": 25557032,
            "resnet152": 60192808,
            "inception_v3": 23834568,
            "googlenet": 6624904,
            "gpt2": 124439808,
        }
        names = mlnet.ModelZoo.names()
        for name, params in expected.items():
            if name not in names:
                continue
            self.assertEqual(mlnet.ModelZoo.get(name).parameters, params, name)
        self.assertEqual(mlnet.ModelZoo.get("vgg16").parameters, 138357544)
        m = mlnet.ModelZoo.get("vgg16")
        self.assertEqual(sum(l.parameters for l in m.layers), m.parameters)
        self.assertEqual(m.parameter_bytes(), 4 * m.parameters)

    def test_unknown_model(self):
        with self.assertRaises(ValueError):
            mlnet.ModelZoo.get("no-such-net")

    def test_gpu_profile(self):
        gpu = mlnet.GpuProfile.get("V100")
        m = mlnet.ModelZoo.get("resnet50")
        t32 = gpu.forward_time(m, 32)
        self.assertGreater(t32, 0)
        self.assertGreater(gpu.forward_time(m, 64), t32)
        with self.assertRaises(ValueError):
            mlnet.GpuProfile("bad", -1.0)

    def test_calibrated_gpu_profile(self):
        # NVIDIA DeepLearningExamples: V100 ResNet-50 v1.5 AMP, batch 256, 1,200 images/s
        m = mlnet.ModelZoo.get("resnet50")
        gpu = mlnet.GpuProfile.get("v100-amp")
        step = gpu.forward_time(m, 256) + gpu.backward_time(m, 256)
        self.assertAlmostEqual(step, 256 / 1200.0, delta=0.005 * 256 / 1200.0)
        self.assertIn("DeepLearningExamples", gpu.calibration["source"])
        self.assertIn("a100-tf32", mlnet.GpuProfile.names())
        mine = mlnet.GpuProfile.get("V100")
        mine.calibrate(m, 64, 0.1, "lab")
        self.assertAlmostEqual(mine.forward_time(m, 64) + mine.backward_time(m, 64), 0.1,
                               delta=1e-6)
        with self.assertRaises(ValueError):
            mine.calibrate(m, 64, 1e-6)
        with self.assertRaises(ValueError):
            mlnet.GpuProfile.get("v100-int4")

    def test_tensor_order(self):
        params = [1000, 2000, 3000]
        fwd = [1e-3, 1e-3, 1e-3]
        bwd = [2e-3, 2e-3, 2e-3]
        for policy in ["fifo", "tic", "tac", "p3", "bytescheduler"]:
            plan = mlnet.tensor_order(policy, params, fwd, bwd)
            # every parameter of every tensor is scheduled exactly once
            per_tensor = {}
            for s in plan:
                per_tensor[s["tensor"]] = per_tensor.get(s["tensor"], 0) + s["size"]
            self.assertEqual(sorted(per_tensor.values()), sorted(params), policy)
        with self.assertRaises(ValueError):
            mlnet.tensor_order("random", params, fwd, bwd)


class TestSimulation(unittest.TestCase):
    def tearDown(self):
        # a failed test must not leave a live simulation behind
        import gc

        gc.collect()

    def test_single_flow_fct_dumbbell(self):
        size = 10_000_000
        with mlnet.Simulation(seed=1) as sim:
            topo = sim.dumbbell(left=1, right=1, host_rate="100Gbps", fabric_rate="100Gbps",
                                delay="1us")
            self.assertEqual(topo.hosts, 2)
            sim.install_rdma(cc="dcqcn")
            f = sim.rdma_flow(src=0, dst=1, bytes=size, trace=True)
            sim.run(until="10ms")
            self.assertTrue(f.done)
            ideal = size * 8 / (100e9 * GOODPUT)
            self.assertLess(abs(f.fct - ideal) / ideal, 0.05, (f.fct, ideal))
            # bytes conservation: acknowledged = posted = received by the destination NIC
            self.assertEqual(f.bytes_acked, size)
            nic = sim.nic_stats()
            self.assertEqual(nic[1]["bytes_received"], size)
            self.assertEqual(nic[0]["bytes_received"], 0)
            self.assertEqual(f.retransmissions, 0)
            self.assertEqual(f.bytes_sent, size)  # no retransmission: every byte sent once
            # the data crossed both switches: >= size bytes on the wire at each egress
            ports = sim.port_stats()
            self.assertTrue(all(p["drops"] == 0 for p in ports))
            data_ports = [p for p in ports if p["tx_bytes"] >= size]
            self.assertGreaterEqual(len(data_ports), 2)
            self.assertIsNotNone(f.rate_trace)
            self.assertGreaterEqual(len(f.rate_trace), 1)
        # results survive close()
        self.assertEqual(f.bytes_acked, size)
        self.assertIsNotNone(f.fct)

    def test_run_to_the_end_stops_at_the_last_ack(self):
        """10 packets of 1,000 B at a fixed 100 Gb/s, two store-and-forward switches, three
        1 us links and the last ACK back (1,082 B per packet and 86 B per ACK on the wire):
        7,059.36 ns. run() without a stop time ends there, not at the sender's idle
        retransmission timer (67.1 ms after its first packet)."""
        expected = (12 * 1082 + 3 * 86) * 8 / 100e9 + 6e-6
        with mlnet.Simulation(seed=1) as sim:
            sim.dumbbell(left=1, right=1, host_rate="100Gbps", fabric_rate="100Gbps",
                         delay="1us")
            sim.install_rdma(cc="fixed")
            f = sim.rdma_flow(src=0, dst=1, bytes=10_000)
            sim.run()
            self.assertTrue(f.done)
            self.assertAlmostEqual(f.finish, expected, delta=3e-9)  # 7,060 ns
            self.assertEqual(sim.now, f.finish)

    def test_periodic_job_alone_matches_compute_plus_transfer(self):
        size = 2_000_000
        with mlnet.Simulation(seed=1) as sim:
            sim.dumbbell(left=1, right=1)
            sim.install_rdma(cc="dcqcn")
            job = sim.periodic_job(src=0, dst=1, compute="300us", bytes=size, iterations=5)
            sim.run(until="50ms")
            self.assertTrue(job.finished)
            self.assertEqual(job.iterations_done, 5)
            ideal = 300e-6 + size * 8 / (100e9 * GOODPUT)
            for t in job.iteration_times:
                self.assertGreaterEqual(t, ideal * 0.999)
                self.assertLess(t, ideal * 1.05)
            for r in job.iterations:
                self.assertAlmostEqual(r["end"] - r["start"], r["compute"] + r["exposed_comm"],
                                       places=12)
            with self.assertRaises(ValueError):
                sim.periodic_job(src=0, dst=1, compute="1ms", bytes=1, iterations=0)
            with self.assertRaises(ValueError):
                sim.periodic_job(src=0, dst=1, compute="1ms", bytes=1, iterations=1,
                                 aggressiveness=50)
        # records survive close()
        self.assertEqual(len(job.iteration_times), 5)

    def test_run_scenario_with_training_jobs(self):
        result = mlnet.run_scenario({
            "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hostsPerLeaf": 2},
            "traffic": [{"type": "tensor-parallel-job", "hosts": [0, 1, 2, 3], "layers": 2,
                         "forward": "10us", "backward": "20us", "allReduceBytes": 100000,
                         "iterations": 3}],
            "duration": "10us", "drain": "1s"})
        its = result["iterations"]
        self.assertEqual(len(its), 3)
        for r in its:
            self.assertEqual(r["computeNs"], 60000)
            self.assertEqual(r["durationNs"], r["computeNs"] + r["exposedCommNs"])

    def test_incast_conservation_and_congestion(self):
        size = 2_000_000
        with mlnet.Simulation(seed=3) as sim:
            sim.fat_tree(k=4, buffer=32 << 20)
            sim.install_rdma(cc="dcqcn", rate_ai="40Mbps", g=1 / 256)
            flows = [sim.rdma_flow(src=s, dst=15, bytes=size, trace=True) for s in (0, 4, 8)]
            sim.run(until="20ms")
            for f in flows:
                self.assertTrue(f.done, f)
                self.assertEqual(f.bytes_acked, size)
            self.assertEqual(sim.nic_stats()[15]["bytes_received"], 3 * size)
            # three senders into one 100G port cannot all finish at line rate
            ideal_one = size * 8 / (100e9 * GOODPUT)
            self.assertGreater(max(f.fct for f in flows), 2.5 * ideal_one)
            self.assertTrue(any(f.cnps > 0 for f in flows))
            self.assertTrue(any(len(f.rate_trace) > 1 for f in flows))

    def test_ecn_marking_point(self):
        """ecn_marking: marking at enqueue lets the incast queue grow higher before DCQCN reacts."""

        def peak_queue(**kw):
            with mlnet.Simulation(seed=1) as sim:
                sim.dumbbell(left=8, right=1, **kw)
                sim.install_rdma(cc="dcqcn-vendor")
                flows = [sim.rdma_flow(src=s, dst=8, bytes=2_000_000) for s in range(8)]
                sim.run(until="20ms")
                self.assertTrue(all(f.done for f in flows))
                ports = sim.port_stats()
                self.assertGreater(sum(p["ecn_marks"] for p in ports), 0)
                return max(p["max_queue_bytes"] for p in ports)

        dequeue = peak_queue()
        self.assertEqual(peak_queue(ecn_marking="dequeue"), dequeue)  # the default
        enqueue = peak_queue(ecn_marking="enqueue")
        self.assertGreater(enqueue, 1.2 * dequeue, (enqueue, dequeue))
        for bad in ("Enqueue", "tail", 1):
            with self.assertRaisesRegex(ValueError, "ecn_marking"):
                with mlnet.Simulation() as sim:
                    sim.dumbbell(left=2, right=1, ecn_marking=bad)

    def test_seed_changes_nothing_for_determinism(self):
        def once(seed):
            with mlnet.Simulation(seed=seed) as sim:
                sim.fat_tree(k=4)
                sim.install_rdma()
                fl = [sim.rdma_flow(src=i, dst=(i + 5) % 16, bytes=500_000) for i in range(8)]
                sim.run()
                return [f.fct for f in fl]

        self.assertEqual(once(7), once(7))

    def test_bad_inputs_raise_value_error(self):
        with mlnet.Simulation() as sim:
            with self.assertRaises(ValueError):
                sim.fat_tree(k=5)
            with self.assertRaises(ValueError):
                sim.fat_tree(k=4, host_rate="100 Gigs")
            with self.assertRaises(ValueError):
                sim.fat_tree(k=4, delay="1 lightyear")
            with self.assertRaises(ValueError):
                sim.fat_tree(k=4, buffer=10)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=10)  # before install_rdma
            sim.fat_tree(k=4)
            with self.assertRaises(ValueError):
                sim.install_rdma(cc="reno")
            with self.assertRaises(ValueError):
                sim.install_rdma(cc="dcqcn", no_such_knob=1)
            with self.assertRaises(ValueError):
                sim.install_rdma(cc="dcqcn", rate_ai="fast")
            with self.assertRaises(ValueError):
                sim.install_rdma(cc="dcqcn", g=2.0)  # g must be in (0, 1]
            sim.install_rdma(cc="dcqcn")
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=16, bytes=10)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=-1, dst=1, bytes=10)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=0, bytes=10)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=0)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=10, aggressiveness=20.0)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=10, aggressiveness=0.0)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=10, priority=8)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=10, start="soon")
            with self.assertRaises(ValueError):
                sim.run(until="never")
            # the simulation still works after all these errors
            f = sim.rdma_flow(src=0, dst=1, bytes=100_000, aggressiveness=2.0)
            sim.run()
            self.assertEqual(f.bytes_acked, 100_000)

    def test_second_live_simulation(self):
        sim = mlnet.Simulation()
        try:
            with self.assertRaises(ValueError):
                mlnet.Simulation()
        finally:
            sim.close()
        with self.assertRaises(ValueError):
            sim.fat_tree(k=4)  # closed
        sim2 = mlnet.Simulation()  # allowed once the first is closed
        sim2.close()

    def test_fixed_rate(self):
        size = 1_000_000
        with mlnet.Simulation() as sim:
            sim.dumbbell(left=1, right=1)
            sim.install_rdma(cc="fixed", rate="50Gbps")
            f = sim.rdma_flow(src=0, dst=1, bytes=size)
            with self.assertRaises(ValueError):
                sim.rdma_flow(src=0, dst=1, bytes=size, aggressiveness=2.0)
            sim.run()
            ideal = size * 8 / (50e9 * GOODPUT)
            self.assertLess(abs(f.fct - ideal) / ideal, 0.05, (f.fct, ideal))

    @unittest.skipUnless(getattr(mlnet, "HAVE_SCENARIO", False), "no scenario runner")
    def test_run_scenario_default(self):
        with self.assertRaises(ValueError):
            mlnet.run_scenario("{not json")
        with self.assertRaises(ValueError):
            mlnet.run_scenario(42)
        scn = mlnet.default_scenario()
        scn["duration"] = "100us"
        r = mlnet.run_scenario(scn)
        s = r["summary"]
        self.assertEqual(s["hosts"], 16)
        self.assertGreater(s["bytesSent"], 0)
        # bytes conservation over the whole run
        self.assertEqual(s["bytesSent"], s["bytesReceived"] + s["bytesDropped"] + s["bytesInFlight"])
        self.assertEqual(len(r["flows"]), s["flows"])
        self.assertEqual(sum(f["rxBytes"] for f in r["flows"]), s["bytesReceived"])
        # same scenario from JSON text, same seed: same result
        r2 = mlnet.run_scenario(json.dumps(scn))
        self.assertEqual(r2["summary"]["bytesReceived"], s["bytesReceived"])
        # the simulator is free again afterwards
        with self.assertRaises(ValueError):
            with mlnet.Simulation():
                mlnet.run_scenario(scn)  # refused while a Simulation is live
        mlnet.Simulation().close()

    @unittest.skipUnless(getattr(mlnet, "HAVE_SCENARIO", False), "no scenario runner")
    def test_run_scenario_congestion_control(self):
        scn = {"topology": {"type": "dumbbell", "left": 1, "right": 1},
               "cc": {"rateAi": "5Gbps"},
               "traffic": [{"type": "rdma", "src": 0, "dst": 1, "bytes": 100000,
                            "cc": {"g": 0.01}}],
               "duration": "10us"}
        s = mlnet.run_scenario(scn)["summary"]
        self.assertTrue(s["drained"])
        self.assertEqual(s["warnings"], [])
        (cc,) = s["congestionControl"]
        self.assertEqual(cc["entry"], "traffic[0]")
        self.assertEqual(cc["typeId"], "ns3::Dcqcn")
        self.assertEqual(cc["attributes"]["RateAI"], "5000000000bps")
        self.assertEqual(cc["attributes"]["G"], "0.01")
        with self.assertRaises(ValueError):
            mlnet.run_scenario(dict(scn, cc={"rateAi": "fast"}))


class TestInterpreterSurvives(unittest.TestCase):
    def test_errors_do_not_abort(self):
        # In a child interpreter: each error is caught, and the process exits normally.
        code = textwrap.dedent(
            """
            import mlnet
            n = 0
            def expect(fn):
                global n
                try:
                    fn()
                except ValueError:
                    n += 1
            sim = mlnet.Simulation()
            expect(lambda: sim.fat_tree(k=5))
            expect(lambda: sim.fat_tree(host_rate="xyz"))
            expect(lambda: sim.fat_tree(delay="-3us"))
            sim.fat_tree(k=4)
            sim.install_rdma(cc="dcqcn")
            expect(lambda: sim.rdma_flow(src=0, dst=99, bytes=1))
            expect(lambda: sim.rdma_flow(src=0, dst=1, bytes=1, aggressiveness=11))
            expect(lambda: mlnet.Simulation())
            f = sim.rdma_flow(src=0, dst=1, bytes=10000)
            sim.run()
            print(n, f.bytes_acked)
            """
        )
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), ["6", "10000"])


if __name__ == "__main__":
    unittest.main()


class TestFlowScheduling(unittest.TestCase):
    GB = 1e9
    MB = 1e6

    def _coflows(self):
        # coflow 1: 0->1 1 MB, 0->2 3 MB (bottleneck uplink 0: 4 ms); coflow 2: 3->1 1 MB
        ports = [self.GB, (self.GB, 2 * self.GB), self.GB, self.GB]
        groups = [{"id": 1}, {"id": 2}]
        flows = [{"id": 1, "group": 1, "src": 0, "dst": 1, "bytes": self.MB},
                 {"id": 2, "group": 1, "src": 0, "dst": 2, "bytes": 3 * self.MB},
                 {"id": 3, "group": 2, "src": 3, "dst": 1, "bytes": self.MB}]
        return ports, groups, flows

    def test_policies(self):
        self.assertEqual(set(mlnet.flow_policies()),
                         {"fair", "fifo", "madd", "echelon", "cadentflow-priority",
                          "cadentflow-deadline"})

    def test_madd_decisions_and_fluid_run(self):
        ports, groups, flows = self._coflows()
        d = {x["id"]: x for x in mlnet.flow_decide("madd", ports, groups, flows)}
        self.assertEqual(d[3]["rank"], 0)  # smallest bottleneck first
        self.assertEqual(d[3]["rate_cap"], float("inf"))
        self.assertAlmostEqual(d[1]["rate_cap"], 0.25 * self.GB)
        self.assertAlmostEqual(d[2]["rate_cap"], 0.75 * self.GB)
        r = {x["id"]: x for x in mlnet.fluid_run("madd", ports, groups, flows)}
        self.assertAlmostEqual(r[1]["finish"], 4e-3)
        self.assertAlmostEqual(r[2]["finish"], 4e-3)
        self.assertAlmostEqual(r[3]["finish"], 1e-3)
        fair = {x["id"]: x for x in mlnet.fluid_run("fair", ports, groups, flows)}
        self.assertAlmostEqual(fair[1]["finish"], 2e-3)

    def test_echelon_pipeline_reference(self):
        # micro-batches of 1 MB (1 ms) every 2 ms: ideal finish 1, 3, 5, 7 ms
        flows = [{"id": i, "group": 1, "index": i, "src": 0, "dst": 1, "bytes": self.MB,
                  "release": 2e-3 * i} for i in range(4)]
        groups = [{"id": 1, "arrangement": "pipeline", "stage_time": 2e-3}]
        d = mlnet.flow_decide("echelon", [self.GB, self.GB], groups, flows, now=6e-3)
        self.assertEqual([x["rank"] for x in d], [0, 1, 2, 3])
        for i, x in enumerate(d):
            self.assertAlmostEqual(x["ideal_finish"], 1e-3 + 2e-3 * i)

    def test_flexibility_ratio_grows_with_compute(self):
        small = mlnet.cct_flexibility("resnet_v2_101", batch=32, workers=8, servers=8)
        large = mlnet.cct_flexibility("resnet_v2_101", batch=256, workers=8, servers=8)
        self.assertGreaterEqual(small["ratio"], 1.0)
        self.assertGreater(large["ratio"], 2 * small["ratio"])
        self.assertAlmostEqual(large["min_cct"], small["min_cct"])

    def test_bad_input_raises(self):
        ports, groups, flows = self._coflows()
        with self.assertRaises(ValueError):
            mlnet.flow_decide("sjf", ports, groups, flows)
        with self.assertRaises(ValueError):
            mlnet.flow_decide("madd", ports, [{"id": 1, "colour": "red"}], flows)
        with self.assertRaises(ValueError):
            mlnet.flow_decide("madd", ports, groups, [dict(flows[0], deadline=-1.0)])
        with self.assertRaises(ValueError):
            mlnet.flow_decide("madd", ports, groups, [dict(flows[0], group=42)])
        with self.assertRaises(ValueError):
            mlnet.cct_flexibility("resnet_v2_101", rate="fast")

    def test_scenario_with_scheduler(self):
        def run(delay):
            return mlnet.run_scenario({
                "topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hostsPerLeaf": 4},
                "scheduler": {"policy": "echelon", "controlDelay": delay},
                "traffic": [{"type": "pipeline-job", "hosts": [0, 1, 2, 3],
                             "schedule": "gpipe", "microBatches": 4, "forward": "50us",
                             "backward": "100us", "activationBytes": 100000,
                             "iterations": 1}],
                "duration": "10us", "drain": "1s"})["iterations"]
        fast = run("0us")
        slow = run("100us")
        self.assertEqual(len(fast), 1)
        self.assertGreaterEqual(slow[0]["durationNs"] - fast[0]["durationNs"], 600000)
