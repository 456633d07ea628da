# SPDX-License-Identifier: GPL-2.0-only
"""Bad inputs that used to crash the interpreter or were accepted differently from the JSON
scenarios: each is now a ValueError (bad value) or RuntimeError (simulator busy in another
thread) with a message naming the argument."""

import json
import threading
import unittest

import mlnet

BINARY_RATES = {
    "10Gibps": 10 * 2**30,
    "10GiBps": 80 * 2**30,
    "10MiBps": 80 * 2**20,
    "10Kibps": 10 * 2**10,
    "10kib/s": 10 * 2**10,
    "10kiB/s": 80 * 2**10,
}


def scenario(**topology):
    topo = {"type": "dumbbell"}
    topo.update(topology)
    return {"topology": topo, "duration": "10us",
            "traffic": [{"type": "rdma", "src": 0, "dst": 1, "bytes": 1000}]}


class TestRates(unittest.TestCase):
    def test_binary_prefixes_parse_as_in_json(self):
        for text, bps in BINARY_RATES.items():
            self.assertEqual(mlnet.parse_rate(text), bps, text)
            # the JSON runner reads the same string as the same rate (it aborted before)
            s = scenario(hostLinkRate=text, fabricLinkRate=text)
            s["traffic"] = []
            ports = mlnet.run_scenario(s)["ports"]
            self.assertEqual({p["rateBps"] for p in ports}, {bps}, text)

    def test_binary_prefixes_in_a_topology(self):
        with mlnet.Simulation() as sim:
            sim.dumbbell(host_rate="10Gibps", fabric_rate="10GiBps")
            sim.install_rdma()
            f = sim.rdma_flow(0, 1, 100000)
            sim.run()
            self.assertTrue(f.done)

    def test_bad_rate_message_is_the_json_one(self):
        with self.assertRaisesRegex(ValueError, r"host_rate = '10Gibs': must be a rate in "
                                                r"\[1bps, 1Pbps\]"):
            with mlnet.Simulation() as sim:
                sim.dumbbell(host_rate="10Gibs")


class TestSharedLimits(unittest.TestCase):
    """Python and JSON accept the same ranges (ns3::InputLimits)."""

    def test_rdma_priority(self):
        with mlnet.Simulation() as sim:
            sim.dumbbell()
            sim.install_rdma()
            sim.rdma_flow(0, 1, 1000, priority=6)
            for call in (lambda: sim.rdma_flow(0, 1, 1000, priority=7),
                         lambda: sim.periodic_job(0, 1, "1us", 1000, 1, priority=7)):
                with self.assertRaisesRegex(ValueError, r"priority = 7 is out of range \[0, 6\]"):
                    call()
        with self.assertRaisesRegex(ValueError, r"traffic\[0\]\.priority = 7: must be an "
                                                r"integer in \[0, 6\]"):
            s = scenario()
            s["traffic"][0]["priority"] = 7
            mlnet.run_scenario(s)

    def test_iteration_gain_slope(self):
        with mlnet.Simulation() as sim:
            sim.dumbbell()
            sim.install_rdma()
            sim.periodic_job(0, 1, "1us", 1000, 1, iter_gain_slope=100)
            with self.assertRaisesRegex(ValueError, r"iter_gain_slope = 1e\+09 is out of range"):
                sim.periodic_job(0, 1, "1us", 1000, 1, iter_gain_slope=1e9)
        s = scenario()
        s["traffic"] = [{"type": "periodic-job", "src": 0, "dst": 1, "compute": "1us",
                         "bytes": 1000, "iterations": 1, "iterGainSlope": 1e9}]
        with self.assertRaisesRegex(ValueError, r"iterGainSlope = 1000000000.0: must be a "
                                                r"number in \[-100, 100\]"):
            mlnet.run_scenario(s)

    def test_topology_sizes_and_seed(self):
        for kwargs, pattern in [({"k": 66}, r"k = 66 is out of range \[2, 48\]"),
                                ({"k": 5}, r"k = 5 must be even"),
                                ({"k": 4, "hosts_per_edge": 17},
                                 r"hosts_per_edge = 17 is out of range \[0, 16\]")]:
            with mlnet.Simulation() as sim:
                with self.assertRaisesRegex(ValueError, pattern):
                    sim.fat_tree(**kwargs)
        for seed in (-1, 0, 2**32):
            with self.assertRaisesRegex(ValueError, "seed"):
                mlnet.Simulation(seed=seed)

    def test_switch_limits_come_from_the_attribute_checkers(self):
        with mlnet.Simulation() as sim:
            with self.assertRaisesRegex(ValueError, r"buffer \(bytes\) = 1000 is out of range "
                                                    r"\[65536, 17179869184\]"):
                sim.dumbbell(buffer=1000)
        with mlnet.Simulation() as sim:
            # kmin above the default kmax (1600 KB) without a kmax: refused, as in JSON
            with self.assertRaisesRegex(ValueError, "ecn_kmin must be <= ecn_kmax"):
                sim.dumbbell(ecn_kmin=2000000)

    def test_dumbbell_switch_names_match_ports_csv(self):
        with mlnet.Simulation() as sim:
            sim.dumbbell()
            names = sorted({p["switch"] for p in sim.port_stats()})
        ports = mlnet.run_scenario(scenario())["ports"]
        self.assertEqual(names, ["edge0", "edge1"])
        self.assertEqual(sorted({p["node"] for p in ports if p["node"].startswith("edge")}),
                         names)


class TestThreads(unittest.TestCase):
    """A run releases the GIL; other threads must get an error, not a crash."""

    def test_calls_during_a_run_raise(self):
        sim = mlnet.Simulation()
        sim.fat_tree(k=4)
        sim.install_rdma()
        flows = [sim.rdma_flow(i, (i + 5) % 16, 50_000_000) for i in range(16)]
        errors = []
        t = threading.Thread(target=lambda: sim.run(until="1ms"))
        t.start()
        calls = {"run": lambda: sim.run(), "close": sim.close, "now": lambda: sim.now,
                 "port_stats": sim.port_stats, "flow.rate": lambda: flows[0].rate,
                 "run_scenario": lambda: mlnet.run_scenario(scenario()),
                 "Simulation": lambda: mlnet.Simulation()}
        while t.is_alive() and len(errors) < len(calls):
            for name, call in calls.items():
                if name in [e[0] for e in errors] or not t.is_alive():
                    continue
                try:
                    call()
                except RuntimeError as e:
                    errors.append((name, str(e)))
                except ValueError:
                    pass  # called between runs (e.g. Simulation(): another one is live)
        t.join()
        self.assertGreater(len(errors), 0, "the run ended before any call was made")
        for name, msg in errors:
            self.assertIn("the simulation is running in another thread", msg, name)
        # the simulation is intact afterwards
        self.assertAlmostEqual(sim.now, 1e-3)
        sim.run(until="1.1ms")
        sim.close()
        self.assertGreater(flows[0].bytes_sent, 0)


if __name__ == "__main__":
    unittest.main()
