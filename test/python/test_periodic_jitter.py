# SPDX-License-Identifier: GPL-2.0-only
"""periodic_job(compute_cv=..., start=...): jittered compute phases and start offsets from Python.

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import statistics
import unittest

import mlnet


def computes(seed, cv, iterations=40):
    with mlnet.Simulation(seed=seed) as sim:
        sim.dumbbell(left=2, right=2)
        sim.install_rdma(cc="dcqcn-vendor")
        a = sim.periodic_job(src=0, dst=2, compute="200us", bytes=50_000, iterations=iterations,
                             compute_cv=cv)
        b = sim.periodic_job(src=1, dst=3, compute="200us", bytes=50_000, iterations=iterations,
                             start="30us", compute_cv=cv)
        sim.run()
    return [r["compute"] for r in a.iterations], [r["start"] for r in b.iterations]


class TestPeriodicJitter(unittest.TestCase):
    def test_jitter_statistics_and_offset(self):
        ca, starts_b = computes(seed=1, cv=0.1, iterations=200)
        self.assertAlmostEqual(starts_b[0], 30e-6, places=12)
        self.assertAlmostEqual(statistics.mean(ca), 200e-6, delta=4e-6)
        self.assertAlmostEqual(statistics.stdev(ca) / statistics.mean(ca), 0.1, delta=0.015)
        self.assertTrue(all(0 <= c <= 400e-6 for c in ca))

    def test_no_jitter_by_default_and_deterministic_per_seed(self):
        plain, _ = computes(seed=1, cv=0.0, iterations=5)
        for c in plain:
            self.assertAlmostEqual(c, 200e-6, places=15)
        self.assertEqual(len(set(plain)), 1)
        self.assertEqual(computes(seed=2, cv=0.1, iterations=10),
                         computes(seed=2, cv=0.1, iterations=10))
        self.assertNotEqual(computes(seed=2, cv=0.1, iterations=10)[0],
                            computes(seed=3, cv=0.1, iterations=10)[0])

    def test_bad_cv_raises_value_error(self):
        with mlnet.Simulation(seed=1) as sim:
            sim.dumbbell(left=1, right=1)
            sim.install_rdma(cc="dcqcn")
            for bad in (-0.1, 1.5, float("nan")):
                with self.assertRaisesRegex(ValueError, "compute_cv"):
                    sim.periodic_job(src=0, dst=1, compute="1ms", bytes=1000, iterations=1,
                                     compute_cv=bad)
            with self.assertRaises(ValueError):
                sim.periodic_job(src=0, dst=1, compute="1ms", bytes=1000, iterations=1,
                                 start="-1us")


if __name__ == "__main__":
    unittest.main()
