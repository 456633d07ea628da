# SPDX-License-Identifier: GPL-2.0-only
"""Executors: where the points of a campaign run.

``LocalExecutor``  one process per run, ``jobs`` at a time, on this machine (the default)
``DaskExecutor``   Dask distributed: a LocalCluster, or a scheduler address for a real cluster;
                   workers need the mlnet binaries at the same paths, not the store or these
                   scripts (the run function is shipped by value and returns the files)
``slurm_script``   writes a Slurm job-array script: array task i runs point i (``campaign.py
                   exec STORE --point i``), for sites without Dask

Every executor writes a run's status.json only when the run ended (ok or failed): an
interrupted campaign leaves the unfinished runs without one, and the next ``run`` does them.
"""

import os
import shlex
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from . import execute


def find_binaries(mlnet_run=None, bin_dir=None):
    """Absolute paths of mlnet-run and of the directory of the example programs.

    mlnet-run: the argument, else $MLNET_RUN, else <repo>/build/mlnet-run, else on PATH. The
    example programs: bin_dir, else the directory of mlnet-run.
    """
    from .spec import CampaignError, repo_root

    candidates = [mlnet_run, os.environ.get("MLNET_RUN"),
                  os.path.join(repo_root(), "build", "mlnet-run")]
    found = None
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            found = os.path.abspath(c)
            break
    if found is None:
        import shutil

        found = shutil.which("mlnet-run")
    if found is None:
        raise CampaignError("mlnet-run not found: build it (cmake --build build --target "
                            "mlnet-run) or give --mlnet-run PATH (or set MLNET_RUN)")
    return {"mlnet-run": found,
            "bin_dir": os.path.abspath(bin_dir) if bin_dir else os.path.dirname(found)}


def tasks_to_run(store, retry_failed=True):
    """(tasks, skipped): the points without a successful run, one task per distinct key."""
    meta = store.campaign()
    tasks, seen, skipped = [], set(), 0
    for p in store.points():
        if p["key"] in seen:
            continue
        seen.add(p["key"])
        prev = store.status(p["key"])
        if prev is not None and (prev.get("ok") or not retry_failed):
            skipped += 1
            continue
        t = store.task(p, meta)
        t["attempt"] = (prev or {}).get("attempt", 0) + 1
        tasks.append(t)
    return tasks, skipped


def check_programs(tasks, binaries):
    """Fail early, with the path, when a program of the campaign was not built."""
    from .spec import CampaignError

    for prog in sorted({t["program"] for t in tasks if t["kind"] == "program"}):
        path = os.path.join(binaries["bin_dir"], prog)
        if not os.access(path, os.X_OK):
            raise CampaignError(f"program {prog}: {path} not found (build it: cmake --build "
                                f"build --target {prog}; or give --bin-dir)")


def run_and_record(task, store, binaries, retries, stop):
    status = None
    for i in range(retries + 1):
        status = execute.run_point(task, store.run_dir(task["key"]), binaries,
                                   task["attempt"] + i, stop)
        if status is None:
            return None
        if status["ok"]:
            break
    store.write_status(task["key"], status)
    return status


class LocalExecutor:
    """Runs points as child processes of this one, ``jobs`` at a time."""

    name = "local"

    def __init__(self, jobs=None):
        self.jobs = max(1, jobs or os.cpu_count() or 1)

    def run(self, tasks, store, binaries, retries, progress):
        stop = threading.Event()
        pool = ThreadPoolExecutor(max_workers=self.jobs)
        futures = [pool.submit(run_and_record, t, store, binaries, retries, stop) for t in tasks]
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    status = f.result()
                    if status is not None:
                        progress.update(status)
        except BaseException:
            stop.set()
            for f in futures:
                f.cancel()
            raise
        finally:
            pool.shutdown(wait=True)


class DaskExecutor:
    """Runs points on Dask distributed: a LocalCluster of ``jobs`` single-threaded worker
    processes, or the cluster of the scheduler at ``scheduler`` (tcp://host:port)."""

    name = "dask"

    def __init__(self, scheduler=None, jobs=None):
        self.scheduler = scheduler
        self.jobs = max(1, jobs or os.cpu_count() or 1)

    def client(self):
        from .spec import CampaignError

        try:
            import cloudpickle
            from distributed import Client, LocalCluster
        except ImportError as e:
            raise CampaignError("the dask executor needs the 'distributed' package (Debian: "
                                "python3-distributed)") from e
        # workers get the run function by value: they need no copy of these scripts
        cloudpickle.register_pickle_by_value(execute)
        if self.scheduler:
            return Client(self.scheduler), None
        cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster

    def run(self, tasks, store, binaries, retries, progress):
        client, cluster = self.client()
        from distributed import as_completed

        progress.restart()  # ETA from the runs, not from the cluster's start-up
        try:
            def submit(t, attempt):
                return client.submit(execute.run_point_detached, t, binaries, attempt,
                                     key=f"mlnet-{t['key']}-{attempt}", pure=False)

            owner = {}
            ac = as_completed()
            for t in tasks:
                f = submit(t, t["attempt"])
                owner[f.key] = (t, t["attempt"])
                ac.add(f)
            for f in ac:
                t, attempt = owner.pop(f.key)
                try:
                    status, files = f.result()
                except Exception as e:  # the worker died or the task could not run
                    status = {"point": t["point"], "key": t["key"], "ok": False,
                              "exitCode": None, "error": f"dask: {type(e).__name__}: {e}",
                              "attempt": attempt, "code": t.get("code")}
                    files = None
                if not status["ok"] and attempt < t["attempt"] + retries:
                    g = submit(t, attempt + 1)
                    owner[g.key] = (t, attempt + 1)
                    ac.add(g)
                    continue
                if files is not None:
                    execute.store_files(store.run_dir(t["key"]), files)
                store.write_status(t["key"], status)
                progress.update(status)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def array_ranges(indices):
    """[0, 1, 2, 5, 7, 8] -> '0-2,5,7-8' (Slurm's --array syntax)."""
    out = []
    idx = sorted(indices)
    i = 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        out.append(str(idx[i]) if i == j else f"{idx[i]}-{idx[j]}")
        i = j + 1
    return ",".join(out)


def slurm_script(store, binaries, retries=0, partition=None, account=None, time_limit=None,
                 mem=None, max_parallel=None, python=None, extra=()):
    """Write STORE/slurm/<name>.sbatch, whose array task i runs point i; returns its path.

    The array lists the points that have no successful run yet (so resubmitting retries only
    failed or missing runs). Every task runs ``campaign.py exec STORE --point $SLURM_ARRAY_TASK_ID``,
    which writes that point's outputs and status into the store (a shared file system).
    Returns None when every point is done.
    """
    meta = store.campaign()
    todo = sorted(p["point"] for p in store.points() if store.state(p["key"]) != "ok")
    if not todo:
        return None
    d = store.path("slurm")
    os.makedirs(os.path.join(d, "logs"), exist_ok=True)
    array = array_ranges(todo) + (f"%{max_parallel}" if max_parallel else "")
    campaign_py = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "campaign.py")
    cmd = [python or sys.executable, campaign_py, "exec", store.root, "--point",
           "${SLURM_ARRAY_TASK_ID}", "--mlnet-run", binaries["mlnet-run"], "--bin-dir",
           binaries["bin_dir"], "--retries", str(retries)]
    quoted = " ".join(c if c.startswith("${") else shlex.quote(c) for c in cmd)
    lines = ["#!/bin/bash",
             f"#SBATCH --job-name=mlnet-{meta['name']}",
             f"#SBATCH --array={array}",
             f"#SBATCH --output={os.path.join(d, 'logs', '%A_%a.out')}",
             "#SBATCH --ntasks=1",
             "#SBATCH --cpus-per-task=1"]
    for opt, val in (("partition", partition), ("account", account), ("time", time_limit),
                     ("mem", mem)):
        if val:
            lines.append(f"#SBATCH --{opt}={val}")
    lines += [f"#SBATCH {x}" for x in extra]
    lines += ["# mlnet campaign " + meta["name"] + f": {len(todo)} of {len(store.points())} "
              "points (array task i runs point i of points.json)",
              "# submit: sbatch " + os.path.join(d, meta["name"] + ".sbatch"),
              "# then:   campaign.py collect " + store.root,
              "set -eu",
              ': "${SLURM_ARRAY_TASK_ID:?run this script with sbatch (or set SLURM_ARRAY_TASK_ID)}"',
              "exec " + quoted, ""]
    path = os.path.join(d, meta["name"] + ".sbatch")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    os.chmod(path, 0o755)
    return path
