# SPDX-License-Identifier: GPL-2.0-only
"""The results store: one directory per campaign.

::

  STORE/campaign.json          the campaign (normalised, base scenario inlined) and its code id
  STORE/points.json            the expanded points: point, key, seed, params
  STORE/runs/KEY/scenario.json the resolved scenario (args.json for an example program)
  STORE/runs/KEY/out/          the run's raw outputs (summary.json, flows.csv, ...)
  STORE/runs/KEY/stdout.txt, stderr.txt
  STORE/runs/KEY/status.json   how the run ended; written last, atomically
  STORE/tables/                tidy tables (collect)
  STORE/figures/, report.html  figures and the report (report)
  STORE/slurm/                 job-array script and logs (run --executor slurm)

KEY is a hash of the resolved document, the program and the code id (spec.Campaign.point_key):
a run whose status.json says ok is never run again; a failed or missing one is (resume, retry).
Run directories of earlier expansions or code versions stay until removed by hand; only the
points of points.json are collected.
"""

import json
import os
import tempfile

STATUS = "status.json"


def write_json_atomic(path, obj, sort_keys=False):
    """Write JSON to a temporary file in the same directory, then rename it into place."""
    d = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(obj, f, indent=2, sort_keys=sort_keys)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_json(path):
    with open(path) as f:
        return json.load(f)


class Store:
    """The directory of one campaign's results."""

    def __init__(self, root):
        self.root = os.path.abspath(root)

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def exists(self):
        return os.path.isfile(self.path("points.json"))

    def run_dir(self, key):
        return self.path("runs", key)

    def doc_name(self, kind):
        return "scenario.json" if kind == "scenario" else "args.json"

    # -- writing ----------------------------------------------------------------------------------

    def prepare(self, campaign, points, code):
        """Record the campaign, its points and every resolved document."""
        os.makedirs(self.path("runs"), exist_ok=True)
        meta = campaign.to_dict()
        meta["kind"] = campaign.kind
        meta["code"] = code
        meta["params"] = campaign.param_names
        meta["columns"] = campaign.columns()
        meta["varying"] = campaign.varying()
        write_json_atomic(self.path("campaign.json"), meta)
        write_json_atomic(self.path("points.json"),
                          {"code": code, "points": [p.record() for p in points]})
        name = self.doc_name(campaign.kind)
        for p in points:
            d = self.run_dir(p.key)
            os.makedirs(d, exist_ok=True)
            target = os.path.join(d, name)
            if not os.path.exists(target):
                write_json_atomic(target, p.doc)

    def write_status(self, key, status):
        os.makedirs(self.run_dir(key), exist_ok=True)
        write_json_atomic(os.path.join(self.run_dir(key), STATUS), status)

    # -- reading ----------------------------------------------------------------------------------

    def campaign(self):
        return read_json(self.path("campaign.json"))

    def points(self):
        return read_json(self.path("points.json"))["points"]

    def status(self, key):
        """The status record of a run, or None if it never finished."""
        try:
            return read_json(os.path.join(self.run_dir(key), STATUS))
        except (OSError, ValueError):
            return None

    def state(self, key):
        """'ok', 'failed' or 'missing' (never run, or interrupted)."""
        s = self.status(key)
        if s is None:
            return "missing"
        return "ok" if s.get("ok") else "failed"

    def task(self, point, meta=None):
        """What an executor needs to run a point (self-contained: no access to the store)."""
        meta = meta or self.campaign()
        doc = read_json(os.path.join(self.run_dir(point["key"]), self.doc_name(meta["kind"])))
        return {"point": point["point"], "key": point["key"], "kind": meta["kind"],
                "program": meta.get("program", "mlnet-run"), "doc": doc,
                "outputs": meta.get("outputs", {}), "timeout": meta.get("timeout"),
                "code": meta["code"]}

    def summary(self):
        """Counts of points by state, and the failed points with their status."""
        counts = {"ok": 0, "failed": 0, "missing": 0}
        failed = []
        for p in self.points():
            st = self.state(p["key"])
            counts[st] += 1
            if st == "failed":
                failed.append((p, self.status(p["key"])))
        return counts, failed
