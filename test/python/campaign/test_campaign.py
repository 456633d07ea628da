# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the campaign runner (contrib-scripts/campaign.py and mlnet_campaign).

CTest runs them with MLNET_RUN naming the built mlnet-run and PYTHONPATH the built module;
by hand: MLNET_RUN=build/mlnet-run PYTHONPATH=build/python /usr/bin/python3 -m unittest \
test/python/campaign/test_campaign.py. Every campaign here is a few runs of a 3-host dumbbell (about
0.1 s each).
"""

import contextlib
import copy
import html.parser
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SCRIPTS = os.path.join(ROOT, "contrib-scripts")
CAMPAIGN_PY = os.path.join(SCRIPTS, "campaign.py")
sys.path.insert(0, SCRIPTS)

from mlnet_campaign import executors, plots, tables  # noqa: E402
from mlnet_campaign.spec import Campaign, CampaignError, load_campaign  # noqa: E402
from mlnet_campaign.store import Store  # noqa: E402

_spec = importlib.util.spec_from_file_location("campaign", CAMPAIGN_PY)
campaign = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(campaign)

MLNET_RUN = os.environ.get("MLNET_RUN", os.path.join(ROOT, "build", "mlnet-run"))
HAVE_MLNET_RUN = os.access(MLNET_RUN, os.X_OK)
CODE = "test-code"

SCENARIO = {
    "topology": {"type": "dumbbell", "left": 2, "right": 1, "hostLinkRate": "10Gbps",
                 "fabricLinkRate": "10Gbps"},
    "traffic": [
        {"type": "rdma", "src": 0, "dst": 2, "bytes": "200KB"},
        {"type": "rdma", "src": 1, "dst": 2, "bytes": "200KB", "start": "10us"},
        {"type": "periodic-job", "src": 0, "dst": 2, "compute": "50us", "bytes": "50KB",
         "iterations": 3},
    ],
    "duration": "200us",
}

SMALL = {
    "name": "small",
    "scenario": SCENARIO,
    "grid": {"traffic.0.bytes": ["100KB", "300KB"],
             "topology.fabricLinkRate": ["10Gbps", "25Gbps"]},
    "seeds": [1, 2],
}


def shipped_campaigns():
    """The campaign files shipped in contrib-scripts/campaigns (file names)."""
    d = os.path.join(SCRIPTS, "campaigns")
    return sorted(f for f in os.listdir(d) if f.endswith(".json"))


def require(test, what, why):
    """A missing prerequisite fails the test (mlnet.sh installs every one of them), unless
    MLNET_CAMPAIGN_ALLOW_SKIP=1 says that this machine lacks it on purpose: then it skips."""
    if os.environ.get("MLNET_CAMPAIGN_ALLOW_SKIP") == "1":
        test.skipTest(f"{what} is not available ({why})")
    test.fail(f"{what} is not available ({why}); install it (bash mlnet.sh test installs what is missing) or set "
              f"MLNET_CAMPAIGN_ALLOW_SKIP=1 to skip this test")


class Result:
    """What a campaign.py command returned and printed."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def campaign_cli(*args):
    """Run a campaign.py command in this process (run: with the test's code id and mlnet-run)."""
    if args[0] == "run":
        args = (*args, "--code-id", CODE, "--mlnet-run", MLNET_RUN)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = campaign.main(list(args))
    return Result(code, out.getvalue(), err.getvalue())


def write_campaign(directory, doc, name="c.json"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def deterministic_tables(store_dir):
    """Every table of a store without its wall-clock columns, as {name: (columns, rows)}."""
    out = {}
    for name, t in tables.read_tables(os.path.join(store_dir, "tables")).items():
        d = t.without()
        out[name] = (d.columns, d.rows)
    return out


def statuses(store_dir):
    """{key: status.json text} of every finished run."""
    runs = os.path.join(store_dir, "runs")
    out = {}
    for key in os.listdir(runs):
        p = os.path.join(runs, key, "status.json")
        if os.path.exists(p):
            with open(p) as f:
                out[key] = f.read()
    return out


class TestSpec(unittest.TestCase):
    """Campaign files: expansion, resolution, keys, errors (no simulation)."""

    def test_expansion_order_zip_labels_and_seeds(self):
        c = Campaign({"scenario": SCENARIO,
                      "grid": {"topology.hostLinkRate": ["10Gbps", "25Gbps"]},
                      "zip": [{"@scheme": ["a", "b", "c"], "traffic.0.bytes": [1, 2, 3],
                               "traffic.1.start": ["0us", "5us", "9us"]}],
                      "seeds": "3-4"})
        pts = c.expand(CODE)
        self.assertEqual(len(pts), 2 * 3 * 2)
        # seeds innermost, the last axis next: point i = combination i // 2, seed i % 2
        self.assertEqual([p.seed for p in pts[:4]], [3, 4, 3, 4])
        self.assertEqual(pts[2].params, {"topology.hostLinkRate": "10Gbps", "@scheme": "b",
                                         "traffic.0.bytes": 2, "traffic.1.start": "5us"})
        self.assertEqual(pts[6].params["topology.hostLinkRate"], "25Gbps")
        doc = pts[2].doc
        self.assertEqual(doc["traffic"][0]["bytes"], 2)
        self.assertEqual(doc["traffic"][1]["start"], "5us")
        self.assertEqual(doc["seed"], 3)
        self.assertNotIn("scheme", json.dumps(doc))  # labels only label
        self.assertEqual(SCENARIO["traffic"][0]["bytes"], "200KB")  # base untouched
        self.assertEqual(c.varying(), ["topology.hostLinkRate", "@scheme", "traffic.0.bytes",
                                       "traffic.1.start"])

    def test_keys(self):
        c = Campaign(copy.deepcopy(SMALL))
        a, b = c.expand(CODE), c.expand("other-code")
        self.assertEqual(len({p.key for p in a}), 8)  # every point distinct
        self.assertEqual([p.key for p in a], [p.key for p in c.expand(CODE)])  # stable
        self.assertTrue(all(x.key != y.key for x, y in zip(a, b)))  # code id is part of it
        # the normalised campaign expands to the same points
        again = Campaign(c.to_dict())
        self.assertEqual([p.key for p in again.expand(CODE)], [p.key for p in a])

    def test_program_campaign(self):
        c = Campaign({"program": "dcqcn-convergence", "args": {"flows": 4, "pfc": True},
                      "outputs": {"csv": "rates.csv"}, "grid": {"flows": [2, 4]},
                      "seeds": 2})
        pts = c.expand(CODE)
        self.assertEqual(pts[1].doc, {"flows": 2, "pfc": True, "RngRun": 2})
        cmd = executors.execute.build_command(
            {"kind": "program", "program": "dcqcn-convergence", "doc": pts[1].doc,
             "outputs": c.outputs}, "/r", {"mlnet-run": "/b/mlnet-run", "bin_dir": "/b"})
        self.assertEqual(cmd, ["/b/dcqcn-convergence", "--flows=2", "--pfc=true", "--RngRun=2",
                               "--csv=/r/out/rates.csv"])

    def test_errors_name_the_key(self):
        bad = [
            ({"scenario": SCENARIO, "grid": {"traffic.7.bytes": [1]}}, "traffic.7"),
            ({"scenario": SCENARIO, "zip": [{"a": [1, 2], "b": [1]}]}, "same length"),
            ({"scenario": SCENARIO, "grid": {"seed": [1, 2]}}, "seeds"),
            ({"scenario": SCENARIO, "seeds": [0]}, "seeds"),
            ({"scenario": SCENARIO, "grid": {"a": []}}, "grid.a"),
            ({"scenario": SCENARIO, "colour": 1}, "colour"),
            ({"scenario": SCENARIO, "program": "x"}, "exactly one"),
            ({"scenario": SCENARIO, "grid": {"duration.x": [1]}}, "duration"),
        ]
        for doc, needle in bad:
            with self.assertRaises(CampaignError, msg=needle) as cm:
                Campaign(doc).expand(CODE)
            self.assertIn(needle, str(cm.exception))

    def test_shipped_campaign_files_load(self):
        files = shipped_campaigns()
        self.assertTrue(files)
        for f in files:
            c = load_campaign(os.path.join(SCRIPTS, "campaigns", f))
            self.assertGreater(len(c.expand(CODE)), 1, f)
            self.assertEqual(c.name + ".json", f)
            # every figure a shipped file asks for is a known type with known options
            for fig in c.figures or []:
                self.assertIn(fig["type"], plots.FIGURES, f)
                self.assertLessEqual(set(fig), {"type", "table", "column", "metric", "x", "y",
                                                "by", "title", "where"}, f)

    def test_shipped_campaigns_cover_the_documented_figures(self):
        """The published-comparison figures of the docs each have a campaign file: the
        flow-scheduling examples, DCQCN convergence, incast and a scenario sweep."""
        names = {f[:-5] for f in shipped_campaigns()}
        self.assertLessEqual({"cadentflow-ps", "echelon-pipeline", "dcqcn-convergence",
                              "incast", "scheduler-sweep"}, names)
        kinds = {load_campaign(os.path.join(SCRIPTS, "campaigns", f)).kind
                 for f in shipped_campaigns()}
        self.assertEqual(kinds, {"scenario", "program"})

    def test_shipped_program_campaigns_name_real_options(self):
        """A program campaign's program is an example of the build, and every argument, swept
        key and output it passes is one of that program's command-line options (read from its
        source: a misspelt option would only fail when the campaign runs)."""
        examples = set()
        for f in os.listdir(os.path.join(ROOT, "cmake")):
            with open(os.path.join(ROOT, "cmake", f)) as fh:
                examples |= set(re.findall(r"list\(APPEND MLNET_EXAMPLES ([\w.-]+)\)",
                                           fh.read()))
        checked = 0
        for f in shipped_campaigns():
            c = load_campaign(os.path.join(SCRIPTS, "campaigns", f))
            if c.kind != "program":
                continue
            self.assertIn(c.program, examples, f)
            with open(os.path.join(ROOT, "examples", c.program + ".cc")) as fh:
                options = set(re.findall(r'cmd\.AddValue\(\s*"([\w-]+)"', fh.read()))
            options.add("RngRun")  # ns-3's global values are options of every program
            self.assertGreater(len(options), 3, f)
            for pt in c.expand(CODE):
                self.assertLessEqual(set(pt.doc), options, f)
            self.assertLessEqual(set(c.outputs), options, f)
            checked += 1
        self.assertGreaterEqual(checked, 3)


class TestRunDocument(unittest.TestCase):
    def test_a_run_killed_while_writing_its_document_leaves_the_old_one(self):
        """run_point rewrites the point's document; a kill in mid-write (simulated by json.dump
        failing after a partial write) must leave the previous document whole, since the
        next invocation reads it to resume the point."""
        from unittest import mock
        from mlnet_campaign import execute
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, execute.doc_name("scenario"))
            with open(path, "w") as f:
                json.dump({"name": "old"}, f)

            def partial(obj, f, **kw):
                f.write("{")
                raise KeyboardInterrupt("killed")

            task = {"kind": "scenario", "doc": {"name": "new"}}
            with mock.patch.object(execute.json, "dump", side_effect=partial):
                with self.assertRaises(KeyboardInterrupt):
                    execute.run_point(task, d, {})
            with open(path) as f:
                self.assertEqual(json.load(f), {"name": "old"})


class TestFigureOptions(unittest.TestCase):
    """Figure options of campaign files (no simulation): ``by`` over a program's own columns,
    ``where`` to draw one figure per value of a parameter."""

    def test_where_and_by_a_program_column(self):
        runs = tables.Table("runs", rows=[{"point": 0, "seed": 1, "workers": 8},
                                          {"point": 1, "seed": 1, "workers": 16}])
        rows = [{"point": p, "seed": 1, "workers": w, "model": m, "policy": pol,
                 "seconds": w * (2 if pol == "madd" else 1) * 1e-3}
                for p, w in ((0, 8), (1, 16)) for m in ("a", "b") for pol in ("fair", "madd")]
        ts = {"runs": runs, "cf": tables.Table("cf", rows=rows)}
        spec = {"type": "bars", "table": "cf", "column": "seconds", "by": ["model", "policy"]}
        meta = {"varying": ["workers"], "params": ["workers"],
                "figures": [dict(spec, where={"workers": 8}), dict(spec, where={"workers": 16}),
                            dict(spec, where=[1])]}
        only8 = plots._where(ts, {"workers": 8})
        self.assertEqual({r["workers"] for r in only8["cf"].rows}, {8})
        self.assertEqual(len(only8["cf"]), 4)
        self.assertEqual(len(only8["runs"]), 1)
        with tempfile.TemporaryDirectory() as d:
            figs, problems = plots.render(ts, meta, d)
            self.assertEqual(len(problems), 1)
            self.assertIn("where must be an object", problems[0])
            self.assertEqual([os.path.basename(f["file"]) for f in figs],
                             ["bars-cf-seconds-workers=8.png", "bars-cf-seconds-workers=16.png"])
            self.assertEqual(sorted(os.listdir(d)), ["bars-cf-seconds-workers=16.png",
                                                     "bars-cf-seconds-workers=8.png"])
            self.assertTrue(figs[0]["title"].endswith("(workers=8)"))
            # 2 models x 2 policies: one bar each, labelled by the program's columns
            self.assertNotIn("pooled over workers", figs[0]["caption"])


@unittest.skipUnless(HAVE_MLNET_RUN, "mlnet-run not built")
class TestPythonEqualsMlnetRun(unittest.TestCase):
    def test_same_numbers(self):
        try:
            import mlnet
        except ImportError as e:
            require(self, "the mlnet Python module", e)
        if not mlnet.HAVE_SCENARIO:
            self.skipTest("mlnet built without the scenario runner")
        doc = dict(SCENARIO, seed=7, name="same")
        r = mlnet.run_scenario(doc)
        with tempfile.TemporaryDirectory() as d:
            path = write_campaign(d, doc, "s.json")
            subprocess.run([MLNET_RUN, path, "--out=" + d, "--quiet"], check=True)
            with open(os.path.join(d, "summary.json")) as f:
                summary = json.load(f)
            files = {n: tables.Table.read_csv(os.path.join(d, n + ".csv")).rows
                     for n in ("flows", "ports", "iterations")}
        wall = re.compile("wall", re.IGNORECASE)
        compared = 0
        for k, v in r["summary"].items():
            if not wall.search(k):
                self.assertEqual(v, summary[k], k)
                compared += 1
        self.assertGreater(compared, 20)
        self.assertGreater(summary["flowsCompleted"], 0)
        for name, rows in files.items():
            self.assertEqual(len(r[name]), len(rows), name)
            self.assertGreater(len(rows), 0, name)
            for a, b in zip(r[name], rows):
                self.assertEqual(a, b, name)


@unittest.skipUnless(HAVE_MLNET_RUN, "mlnet-run not built")
class TestCampaignRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="mlnet-campaign-test-")
        cls.file = write_campaign(cls.tmp, SMALL, "small.json")
        cls.local = os.path.join(cls.tmp, "local")
        p = campaign_cli("run", cls.file, "--store", cls.local, "-j", "2")
        cls.local_result = p

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_local_campaign(self):
        p = self.local_result
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("8 points, 8 to run, 0 done", p.stderr)
        self.assertRegex(p.stderr, r"8/8 runs \[#+\] 100%  failed 0  skipped 0 .* ETA 0:00")
        t = tables.read_tables(os.path.join(self.local, "tables"))
        self.assertEqual(list(t)[0], "runs")
        self.assertEqual(set(t), {"runs", "flows", "ports", "port-classes", "iterations"})
        runs = t["runs"]
        self.assertEqual(runs.column("point"), list(range(8)))
        self.assertEqual(runs.column("state"), ["ok"] * 8)
        self.assertEqual(runs.column("seed"), [1, 2] * 4)
        self.assertEqual(runs.column("traffic.0.bytes"), ["100KB"] * 4 + ["300KB"] * 4)
        # the swept value reached the simulation: flow 0 carries 100 KB or 300 KB
        for r in t["flows"].rows:
            if r["id"] == 0:
                self.assertEqual(r["targetBytes"], 100000 if r["traffic.0.bytes"] == "100KB"
                                 else 300000)
        self.assertEqual(len(t["flows"]), 8 * 3)
        self.assertEqual(len(t["iterations"]), 8 * 3)
        # another seed gives other numbers (ECMP hash seeds, marking), the same seed the same
        by = {(r["traffic.0.bytes"], r["topology.fabricLinkRate"], r["seed"]): r
              for r in runs.rows}
        self.assertEqual(by[("100KB", "10Gbps", 1)]["bytesSent"],
                         sum(f["txBytes"] for f in t["flows"].rows if f["point"] == 0))
        # pandas pickles when pandas is present, CSV always
        tdir = os.path.join(self.local, "tables")
        if tables.have_pandas():
            import pandas

            df = pandas.read_pickle(os.path.join(tdir, "flows.pkl"))
            self.assertEqual(len(df), 24)
            self.assertEqual(list(df.columns), t["flows"].columns)
        else:
            self.assertFalse(os.path.exists(os.path.join(tdir, "flows.pkl")))
        # a second run skips everything
        again = campaign_cli("run", self.file, "--store", self.local)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("8 points, 0 to run, 8 done", again.stderr)

    def test_dask_local_cluster_gives_identical_tables(self):
        try:
            import distributed  # noqa: F401
        except ImportError as e:
            require(self, "Dask distributed (python3-distributed)", e)
        store = os.path.join(self.tmp, "dask")
        p = campaign_cli("run", self.file, "--store", store, "--executor", "dask", "-j", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("8 to run", p.stderr)
        self.assertEqual(deterministic_tables(store), deterministic_tables(self.local))
        # the raw outputs came back from the workers into the store
        st = Store(store)
        for pt in st.points():
            self.assertTrue(os.path.isfile(os.path.join(st.run_dir(pt["key"]), "out",
                                                        "flows.csv")))

    def test_interrupted_campaign_resumes(self):
        store = os.path.join(self.tmp, "resume")
        cmd = [sys.executable, CAMPAIGN_PY, "run", self.file, "--store", store, "-j", "1",
               "--code-id", CODE, "--mlnet-run", MLNET_RUN]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if os.path.isdir(os.path.join(store, "runs")) and len(statuses(store)) >= 3:
                break
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)  # the harshest interruption: no clean-up at all
        proc.wait()
        before = statuses(store)
        self.assertGreaterEqual(len(before), 3)
        self.assertLess(len(before), 8, "the campaign finished before it was interrupted")
        p = campaign_cli("run", self.file, "--store", store, "-j", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"8 points, {8 - len(before)} to run, {len(before)} done", p.stderr)
        after = statuses(store)
        self.assertEqual(len(after), 8)
        for key, text in before.items():
            self.assertEqual(after[key], text, "a finished point was run again")
        self.assertEqual(deterministic_tables(store), deterministic_tables(self.local))

    def test_failing_point_is_recorded_and_the_rest_complete(self):
        doc = copy.deepcopy(SMALL)
        doc["name"] = "failing"
        doc["grid"] = {"topology.left": [2, 0]}  # 0 hosts on the left: rejected by mlnet-run
        path = write_campaign(self.tmp, doc, "failing.json")
        store = os.path.join(self.tmp, "failing")
        p = campaign_cli("run", path, "--store", store, "-j", "2")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"point 2 failed \(exit 2\): mlnet-run: error: scenario: "
                                   r"topology.left = 0")
        runs = tables.read_tables(os.path.join(store, "tables"))["runs"]
        self.assertEqual(runs.column("state"), ["ok", "ok", "failed", "failed"])
        self.assertEqual(runs.column("exitCode"), [0, 0, 2, 2])
        self.assertTrue(runs.rows[3]["error"].startswith(
            "mlnet-run: error: scenario: topology.left = 0: must be"), runs.rows[3]["error"])
        self.assertEqual(len(tables.read_tables(os.path.join(store, "tables"))["flows"]), 6)
        st = campaign_cli("status", store)
        self.assertIn("2 ok, 2 failed, 0 missing", st.stdout)
        self.assertIn("topology.left = 0", st.stdout)
        # running again retries only the failed points (with --retries: 2 more attempts each)
        ok_before = {k: v for k, v in statuses(store).items() if '"ok": true' in v}
        p = campaign_cli("run", path, "--store", store, "--retries", "1")
        self.assertIn("4 points, 2 to run, 2 done", p.stderr)
        after = statuses(store)
        for k, v in ok_before.items():
            self.assertEqual(after[k], v)
        attempts = sorted(json.loads(v)["attempt"] for v in after.values())
        self.assertEqual(attempts, [1, 1, 3, 3])
        # --skip-failed leaves them alone
        p = campaign_cli("run", path, "--store", store, "--skip-failed")
        self.assertIn("0 to run, 4 done", p.stderr)

    def test_slurm_array_task_i_runs_point_i(self):
        store = os.path.join(self.tmp, "slurm")
        p = campaign_cli("run", self.file, "--store", store, "--executor", "slurm",
                         "--partition", "short", "--time", "00:10:00", "--max-parallel", "4")
        self.assertEqual(p.returncode, 0, p.stderr)
        script = os.path.join(store, "slurm", "small.sbatch")
        with open(script) as f:
            text = f.read()
        self.assertTrue(text.startswith("#!/bin/bash\n"))
        m = re.search(r"^#SBATCH --array=(\S+)$", text, re.M)
        self.assertEqual(m.group(1), "0-7%4")
        self.assertIn("#SBATCH --partition=short", text)
        self.assertIn("#SBATCH --time=00:10:00", text)
        # without SLURM_ARRAY_TASK_ID the script refuses to run
        env = {k: v for k, v in os.environ.items() if k != "SLURM_ARRAY_TASK_ID"}
        self.assertNotEqual(subprocess.run(["bash", script], env=env,
                                           capture_output=True).returncode, 0)
        st = Store(store)
        expected = {pt.index: pt for pt in load_campaign(self.file).expand(CODE)}
        for i in [5, 0, 3, 1, 7, 2, 6, 4]:  # any order: task i runs point i only
            done = set(statuses(store))
            r = subprocess.run(["bash", script], env=dict(env, SLURM_ARRAY_TASK_ID=str(i)),
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            new = set(statuses(store)) - done
            self.assertEqual(new, {expected[i].key})
            status = json.loads(statuses(store)[expected[i].key])
            self.assertEqual(status["point"], i)
            with open(os.path.join(st.run_dir(expected[i].key), "out", "summary.json")) as f:
                config = json.load(f)["config"]
            self.assertEqual(config, expected[i].doc)
        # every point done: a new script is not needed, collect gives the local tables
        p = campaign_cli("run", self.file, "--store", store, "--executor", "slurm")
        self.assertIn("nothing to submit", p.stderr)
        self.assertEqual(campaign_cli("collect", store).returncode, 0)
        self.assertEqual(deterministic_tables(store), deterministic_tables(self.local))

    def test_report(self):
        store = os.path.join(self.tmp, "report")
        shutil.copytree(self.local, store)
        p = campaign_cli("report", store)
        self.assertEqual(p.returncode, 0, p.stderr)
        path = os.path.join(store, "report.html")
        self.assertEqual(p.stdout.strip(), path)
        page = check_html(self, path)
        self.assertEqual(page.title, "mlnet campaign small")
        # CDF of FCT, iteration bars, heat map over the two swept parameters (2 values each:
        # no scaling curve, which needs 3)
        names = sorted(os.path.basename(s) for s in page.images)
        self.assertEqual(names, ["bars-iterations-durationNs.png", "cdf-flows-fctNs.png",
                                 "heatmap-traffic.0.bytes-topology.fabricLinkRate.png"])
        self.assertNotIn('class="problems"', page.text)
        self.assertEqual(page.row_classes, ["ok"] * 8)  # one status row per point
        self.assertIn("tables/flows.csv", page.links)
        # the heat map shows the per-run metric: the mean measured iteration time per cell
        t = tables.read_tables(os.path.join(store, "tables"))
        self.assertEqual(len(t["runs"]), 8)
        render_in_chromium(self, path)

    def test_report_falls_back_to_goodput_when_no_flow_completes(self):
        # 1 GB writes cut off after 20 us (no drain): every fctNs is -1, so the per-run metric
        # is runs.goodputMeanBps (doc/campaigns.rst); before issue 31 the heat map was missing.
        doc = {"name": "unfinished",
               "scenario": {"topology": SCENARIO["topology"], "duration": "20us", "drain": "0ns",
                            "traffic": [{"type": "rdma", "src": 0, "dst": 2, "bytes": "1GB"},
                                        {"type": "rdma", "src": 1, "dst": 2, "bytes": "1GB"}]},
               "grid": {"topology.hostLinkRate": ["10Gbps", "25Gbps"],
                        "topology.fabricLinkRate": ["10Gbps", "25Gbps"]},
               "seeds": [1]}
        store = os.path.join(self.tmp, "unfinished")
        p = campaign_cli("run", write_campaign(self.tmp, doc, "unfinished.json"),
                         "--store", store, "--report")
        self.assertEqual(p.returncode, 0, p.stderr)
        t = tables.read_tables(os.path.join(store, "tables"))
        self.assertTrue(all(r["fctNs"] == -1 for r in t["flows"].rows))
        self.assertEqual(plots.default_metric(t), "runs.goodputMeanBps")
        page = check_html(self, os.path.join(store, "report.html"))
        names = sorted(os.path.basename(s) for s in page.images)
        self.assertEqual(names, ["heatmap-topology.hostLinkRate-topology.fabricLinkRate.png"])
        self.assertIn("runs.goodputMeanBps", page.text)

    def test_shipped_scenario_campaigns_run(self):
        """Every point of every shipped scenario campaign is a scenario mlnet-run accepts and
        runs (shortened: 1 us of traffic, one iteration per job)."""
        ran = 0
        for f in shipped_campaigns():
            c = load_campaign(os.path.join(SCRIPTS, "campaigns", f))
            if c.kind != "scenario":
                continue
            for pt in c.expand(CODE):
                if pt.doc.get("seed") != c.seeds[0]:
                    continue
                doc = copy.deepcopy(pt.doc)
                doc["duration"] = "1us"
                for t in doc.get("traffic", []):
                    if "iterations" in t:
                        t["iterations"] = 1
                with tempfile.TemporaryDirectory() as d:
                    path = write_campaign(d, doc, "s.json")
                    r = subprocess.run([MLNET_RUN, path, "--out=" + d, "--quiet"],
                                       capture_output=True, text=True, timeout=300)
                    self.assertEqual(r.returncode, 0, f"{f} point {pt.index}: {r.stderr}")
                    with open(os.path.join(d, "summary.json")) as fh:
                        self.assertIn("flowsCompleted", json.load(fh))
                ran += 1
        self.assertGreaterEqual(ran, 3 + 9)  # incast 3 points, scheduler-sweep 9

    def test_program_campaign_with_time_series(self):
        if not os.access(os.path.join(os.path.dirname(MLNET_RUN), "dcqcn-convergence"),
                         os.X_OK):
            self.skipTest("dcqcn-convergence not built")
        doc = {"name": "conv", "program": "dcqcn-convergence",
               "args": {"duration": "2ms", "interval": "100us"},
               "outputs": {"csv": "rates.csv"}, "grid": {"flows": [2, 3]}, "seeds": [1, 2]}
        path = write_campaign(self.tmp, doc, "conv.json")
        store = os.path.join(self.tmp, "conv")
        p = campaign_cli("run", path, "--store", store, "--report")
        self.assertEqual(p.returncode, 0, p.stderr)
        t = tables.read_tables(os.path.join(store, "tables"))
        rates = t["rates"]
        self.assertEqual(len(rates), 4 * 20)  # 2 ms in 100 us samples, 4 runs
        self.assertIn("rate2_gbps", rates.columns)  # the 3-flow runs add a column
        self.assertEqual({r["rate2_gbps"] is None for r in rates.rows if r["flows"] == 2},
                         {True})
        page = check_html(self, os.path.join(store, "report.html"))
        self.assertIn("figures/timeseries-rates.png", page.images)
        # the seed reached the program as --RngRun
        st = json.loads(statuses(store)[Store(store).points()[1]["key"]])
        self.assertIn("--RngRun=2", st["command"])


class Page(html.parser.HTMLParser):
    """Checks nesting of an HTML page; collects its title, images, links and row classes."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.images, self.links, self.row_classes = [], [], [], []
        self.title, self.errors, self._in_title, self.text = "", [], False, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.images.append(a.get("src"))
            if not a.get("alt"):
                self.errors.append(f"img {a.get('src')} without alt text")
        elif tag == "a":
            self.links.append(a.get("href"))
        elif tag == "tr" and a.get("class"):
            self.row_classes.append(a["class"])
        if tag == "title":
            self._in_title = True
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def check_html(test, path):
    """Parse a report: well nested, every image and table it references exists."""
    with open(path) as f:
        text = f.read()
    test.assertTrue(text.startswith("<!DOCTYPE html>"))
    page = Page()
    page.feed(text)
    page.close()
    page.text = text
    test.assertEqual(page.errors, [])
    test.assertEqual(page.stack, [])
    test.assertGreater(len(page.images), 0)
    base = os.path.dirname(path)
    for src in page.images + page.links:
        test.assertFalse(re.match(r"^[a-z]+:", src), f"{src}: the report must not need network")
        full = os.path.join(base, src)
        test.assertTrue(os.path.isfile(full), src)
        if src.endswith(".png"):
            with open(full, "rb") as f:
                test.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", src)
    return page


def render_in_chromium(test, path):
    """Open the report in headless Chromium (when installed): the DOM it built has every
    figure, and the screenshot has the figures' colours (text alone is grey)."""
    chromium = "/usr/bin/chromium"
    if not os.access(chromium, os.X_OK):
        return
    with tempfile.TemporaryDirectory() as profile:
        flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", f"--user-data-dir={profile}"]
        url = "file://" + os.path.abspath(path)
        dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True,
                             timeout=120)
        test.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        test.assertIn("<title>mlnet campaign", dom.stdout)
        test.assertEqual(dom.stdout.count("<img "), 3)
        shot = os.path.join(profile, "shot.png")
        r = subprocess.run(flags + ["--window-size=1280,2400", f"--screenshot={shot}", url],
                           capture_output=True, text=True, timeout=120)
        test.assertEqual(r.returncode, 0, r.stderr[-2000:])
        import matplotlib.image

        img = matplotlib.image.imread(shot)[:, :, :3]
        colourful = (img.max(axis=2) - img.min(axis=2)) > 0.3
        test.assertGreater(int(colourful.sum()), 20000, "figures not rendered")


if __name__ == "__main__":
    unittest.main()
