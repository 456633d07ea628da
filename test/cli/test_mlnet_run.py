#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mlnet-run's handling of bad input: one line "mlnet-run: error: ..." and exit status 2, before
anything runs (CTest: test/CMakeLists.txt passes the path of mlnet-run)."""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

MLNET_RUN = os.environ.get("MLNET_RUN", "build/mlnet-run")
SMALL = '{"topology": {"type": "dumbbell"}, "duration": "10us", "traffic": []}'


def run(*args, cwd=None):
    p = subprocess.run([MLNET_RUN, "--quiet", *args], capture_output=True, text=True,
                       timeout=120, cwd=cwd)
    return p.returncode, p.stderr.strip()


class TestBadInput(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.tmp = self.dir.name

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def assertError(self, args, needle):
        code, err = run(*args)
        self.assertEqual(code, 2, err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith("mlnet-run: error: "), err)
        self.assertIn(needle, err)

    def test_deep_json(self):
        f = self.write("deep.json", "[" * 100000 + "]" * 100000)
        self.assertError([f], "deeper than 64 levels")

    def test_numbers_duplicates_directories(self):
        self.assertError([self.write("big.json", '{"seed": 1e400, "duration": "1us"}')],
                         "number overflow parsing '1e400' (numbers must fit")
        self.assertError([self.write("dup.json", '{"seed": 1, "seed": 2, "duration": "1us"}')],
                         "seed: duplicate key")
        self.assertError([self.tmp], "it is a directory, not a JSON file")

    def test_seed(self):
        f = self.write("s.json", SMALL)
        for bad in ["-1", "0", "4294967296", "1e3", "x"]:
            self.assertError([f, "--seed=" + bad, "--out=" + self.tmp],
                             "must be an integer in [1, 4294967295]")
        self.assertEqual(run(f, "--seed=4294967295", "--out=" + self.tmp)[0], 0)

    def test_backend_override(self):
        f = self.write("s.json", SMALL)
        self.assertError([f, "--backend=fluid", "--out=" + self.tmp],
                         "--backend=fluid is out of range (must be packet or flow)")
        host = self.write("host.json", '{"topology": {"type": "fat-tree", "k": 4}, '
                          '"duration": "1us", "host": {}, "traffic": []}')
        self.assertEqual(run(host, "--backend=flow", "--out=" + self.tmp)[0], 0)
        self.assertEqual(run(f, "--backend=flow", "--out=" + self.tmp)[0], 0)
        with open(os.path.join(self.tmp, "summary.json")) as s:
            self.assertIn('"backend": "flow"', s.read())

    def test_rngrun_is_the_seed(self):
        # A random permutation: the derangement and the ECMP hash seeds come from RngRun.
        f = self.write("p.json", '{"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,'
                       ' "hostsPerLeaf": 4}, "traffic": [{"type": "permutation",'
                       ' "rate": "1Gbps"}], "duration": "5us", "seed": 7}')

        def pairs(*args):
            out = os.path.join(self.tmp, "-".join(args) or "none")
            code, err = run(f, "--out=" + out, *args)
            self.assertEqual(code, 0, err)
            with open(os.path.join(out, "summary.json")) as s:
                seed = json.load(s)["seed"]
            with open(os.path.join(out, "flows.csv")) as c:
                return seed, [(r["src"], r["dst"]) for r in csv.DictReader(c)]

        seed7, p7 = pairs()
        self.assertEqual(seed7, 7)
        seed3, p3 = pairs("--RngRun=3")
        self.assertEqual(seed3, 3)  # before issue 31: 7, --RngRun was ignored
        self.assertEqual(pairs("--seed=3"), (seed3, p3))  # the same setting
        self.assertEqual(pairs("--RngRun=3", "--seed=3"), (seed3, p3))
        self.assertNotEqual(p3, p7)  # another run number, another permutation
        self.assertNotEqual(pairs("--RngRun=4")[1], p3)
        for bad in ["0", "-1", "x", "4294967296"]:
            self.assertError([f, "--RngRun=" + bad, "--out=" + self.tmp],
                             "--RngRun=" + bad + ": must be an integer in [1, 4294967295]")
        self.assertError([f, "--RngRun=3", "--seed=4", "--out=" + self.tmp],
                         "--seed=4 and --RngRun=3 disagree")

    def test_event_count_does_not_depend_on_quiet(self):
        # 20 ms of a 1 Gb/s flow: long enough that the progress line's timer fires (every
        # duration / 1000) whatever the wall time; its events are not the model's.
        f = self.write("q.json", '{"topology": {"type": "dumbbell"}, "duration": "20ms",'
                       ' "traffic": [{"type": "constant", "src": 0, "dst": 1, "rate": "1Gbps"}]}')
        events = []
        for quiet in (True, False):
            out = os.path.join(self.tmp, "quiet" if quiet else "loud")
            args = [MLNET_RUN, f, "--out=" + out] + (["--quiet"] if quiet else [])
            p = subprocess.run(args, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(out, "summary.json")) as s:
                events.append(json.load(s)["events"])
        self.assertGreater(events[0], 0)
        self.assertEqual(events[0], events[1])  # before issue 31: +1000 progress events

    def test_unwritable_out_is_refused_before_the_run(self):
        f = self.write("s.json", SMALL)
        afile = self.write("afile", "")
        self.assertError([f, "--out=" + afile], "cannot create output directory")
        self.assertError([f, "--out=/proc/mlnet-out"], "cannot create output directory")
        if os.geteuid() != 0:  # root writes anywhere
            ro = os.path.join(self.tmp, "ro")
            os.mkdir(ro, 0o500)
            self.assertError([f, "--out=" + ro], "cannot write in output directory")

    def test_binary_prefix_rates_run(self):
        for rate in ["10Gibps", "10GiBps", "10MiBps", "10Kibps", "10kib/s", "10kiB/s"]:
            f = self.write("r.json", SMALL.replace('"dumbbell"', '"dumbbell", "hostLinkRate": "%s"'
                                                   % rate))
            code, err = run(f, "--out=" + self.tmp)
            self.assertEqual(code, 0, rate + ": " + err)

    def test_relative_paths_are_the_callers(self):
        self.write("s.json", SMALL)
        code, err = run("s.json", "--out=out", cwd=self.tmp)
        self.assertEqual(code, 0, err)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "out", "summary.json")))


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        MLNET_RUN = os.path.abspath(sys.argv.pop(1))
    unittest.main()
