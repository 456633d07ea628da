# SPDX-License-Identifier: GPL-2.0-only
"""Run one point: mlnet-run on its resolved scenario, or an example program with its arguments.

Every run is its own process (ns-3 has one global simulator per process; a crash or an abort
takes down that run only). ``run_point`` writes into a run directory and returns the status
record; ``run_point_detached`` runs in a temporary directory and returns the status and every
file's bytes, for workers that do not share the store's file system (Dask).

Nothing here imports from the rest of the package, so Dask can ship these functions to workers
by value (cloudpickle): a worker needs Python and the mlnet binaries, not these scripts.
"""

import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

POLL_SECONDS = 0.05


def format_arg(value):
    """A JSON value as an ns-3 CommandLine argument: true/false, comma-joined lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(format_arg(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def doc_name(kind):
    return "scenario.json" if kind == "scenario" else "args.json"


def build_command(task, run_dir, binaries):
    """The command line of a point; outputs go to run_dir/out."""
    out = os.path.join(run_dir, "out")
    if task["kind"] == "scenario":
        return [binaries["mlnet-run"], "--scenario=" + os.path.join(run_dir, "scenario.json"),
                "--out=" + out, "--quiet"]
    cmd = [os.path.join(binaries["bin_dir"], task["program"])]
    outputs = task.get("outputs") or {}
    for name, value in task["doc"].items():
        if name not in outputs:
            cmd.append(f"--{name}={format_arg(value)}")
    for name, rel in outputs.items():
        cmd.append(f"--{name}=" + os.path.normpath(os.path.join(out, rel)))
    return cmd


def last_line(path):
    """The last non-empty line of a text file ('' if none)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 8192))
            lines = [ln.strip() for ln in f.read().decode(errors="replace").splitlines()]
    except OSError:
        return ""
    lines = [ln for ln in lines if ln]
    return lines[-1] if lines else ""


def run_point(task, run_dir, binaries, attempt=1, stop=None):
    """Run one point in run_dir and return its status record.

    Returns None when ``stop`` (a threading.Event) was set while it ran: the run was interrupted
    and leaves no status, so the next invocation runs it again.
    """
    os.makedirs(run_dir, exist_ok=True)
    # Into a temporary file, then renamed: a run killed here (SIGKILL of the campaign) must not
    # leave a truncated document, which the next invocation reads to resume the point.
    doc_path = os.path.join(run_dir, doc_name(task["kind"]))
    with open(doc_path + ".tmp", "w") as f:
        json.dump(task["doc"], f, indent=2, sort_keys=True)
    os.replace(doc_path + ".tmp", doc_path)
    out = os.path.join(run_dir, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    cmd = build_command(task, run_dir, binaries)
    timeout = task.get("timeout")
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.monotonic()
    timed_out = False
    error = ""
    code = None
    with open(os.path.join(run_dir, "stdout.txt"), "wb") as so, \
            open(os.path.join(run_dir, "stderr.txt"), "wb") as se:
        try:
            proc = subprocess.Popen(cmd, stdout=so, stderr=se, stdin=subprocess.DEVNULL)
        except OSError as e:
            error = f"cannot start {cmd[0]}: {e.strerror}"
        else:
            while True:
                try:
                    code = proc.wait(timeout=POLL_SECONDS)
                    break
                except subprocess.TimeoutExpired:
                    pass
                if stop is not None and stop.is_set():
                    proc.kill()
                    proc.wait()
                    return None
                if timeout and time.monotonic() - t0 > timeout:
                    proc.kill()
                    code = proc.wait()
                    timed_out = True
                    break
    wall = time.monotonic() - t0
    if stop is not None and stop.is_set() and code is not None and code < 0:
        return None  # killed by the same interrupt as the campaign
    if error:  # could not start
        code = None
    elif timed_out:
        error = f"timeout: killed after {timeout:g} s"
    elif code != 0:
        error = last_line(os.path.join(run_dir, "stderr.txt"))
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            error = f"killed by {name}" + (f"; {error}" if error else "")
        elif not error:
            error = f"exit status {code}"
    elif task["kind"] == "scenario" and not os.path.isfile(os.path.join(out, "summary.json")):
        error = "exit status 0 but no summary.json written"
    outputs = sorted(os.path.relpath(os.path.join(r, n), out)
                     for r, _, names in os.walk(out) for n in names)
    return {"point": task["point"], "key": task["key"], "ok": not error, "exitCode": code,
            "error": error, "wallSeconds": round(wall, 6), "attempt": attempt,
            "started": started, "host": socket.gethostname(), "command": cmd,
            "code": task.get("code"), "outputs": outputs}


def run_point_detached(task, binaries, attempt=1):
    """run_point in a temporary directory: (status, {relative path: bytes}) of every file."""
    with tempfile.TemporaryDirectory(prefix="mlnet-run-") as d:
        status = run_point(task, d, binaries, attempt)
        files = {}
        for root, _, names in os.walk(d):
            for n in names:
                p = os.path.join(root, n)
                with open(p, "rb") as f:
                    files[os.path.relpath(p, d)] = f.read()
        # the command names the temporary directory: show where the files went instead
        status["command"] = [c.replace(d, "RUN_DIR") for c in status["command"]]
        return status, files


def store_files(run_dir, files):
    """Write the files of a detached run into its run directory (replacing the old out/)."""
    shutil.rmtree(os.path.join(run_dir, "out"), ignore_errors=True)
    for rel, data in files.items():
        p = os.path.join(run_dir, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
