# SPDX-License-Identifier: GPL-2.0-only
"""periodic_job(min_iteration_period=...): TrainingJob's MinIterationPeriod from Python.

Run with PYTHONPATH pointing at the build's python/ directory (CTest sets it).
"""

import unittest

import mlnet


def iterations(period, n=5):
    with mlnet.Simulation(seed=1) as sim:
        sim.dumbbell(left=1, right=1)
        sim.install_rdma()
        job = sim.periodic_job(src=0, dst=1, compute="20us", bytes=50_000, iterations=n,
                               min_iteration_period=period)
        sim.run()
    return job.iterations


class TestMinIterationPeriod(unittest.TestCase):
    def test_iterations_start_one_period_apart(self):
        free = iterations(0)
        natural = max(r["end"] - r["start"] for r in free)
        period = 3 * natural
        capped = iterations(period)
        for i, r in enumerate(capped):
            busy_start = r["start"] + r["period_wait"]
            self.assertAlmostEqual(r["busy"], r["end"] - busy_start, places=12)
            # the same work from the actual start as without the cap
            self.assertAlmostEqual(r["busy"], free[i]["end"] - free[i]["start"], places=12)
            if i > 0:
                prev = capped[i - 1]
                self.assertAlmostEqual(busy_start - (prev["start"] + prev["period_wait"]),
                                       period, places=9)
                self.assertGreater(r["period_wait"], 0)
        self.assertEqual(capped[0]["period_wait"], 0)

    def test_period_below_the_iteration_changes_nothing(self):
        free = iterations(0)
        shortest = min(r["end"] - r["start"] for r in free)
        self.assertEqual(iterations(shortest / 2), free)

    def test_bad_period_is_a_value_error(self):
        for bad in (-1e-6, "-1us", 3601, "1 parsec", True):
            with self.subTest(bad=bad), self.assertRaises(ValueError) as cm:
                iterations(bad)
            self.assertIn("min_iteration_period", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
