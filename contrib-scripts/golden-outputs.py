#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Golden outputs: run a fixed set of scenarios with mlnet-run under both event engines and
compare SHA-256 checksums of what they write with the values stored in
test/golden/golden-outputs.json.

  contrib-scripts/golden-outputs.py check      [--mlnet-run build/mlnet-run] [--only NAME ...]
  contrib-scripts/golden-outputs.py regenerate [--mlnet-run build/mlnet-run]

Scenarios: every file of the fuzzer's scenario corpus (test/fuzz/corpus/scenario; the malformed
ones check the exit status and the one-line error) and every file of test/golden/scenarios (one
of each part: in-network aggregation on devices and in switches, the host interconnect, the flow
scheduler, training jobs, background traffic). A scenario file added to either directory fails
the check until the values are regenerated.

Engines: "mlnet" is mlnet-run's default (ns3::MlnetSimulatorImpl with the TimingWheel
scheduler); "ns3" is ns-3's own default (ns3::DefaultSimulatorImpl with the Map scheduler).
Both must write byte-identical files (the drop-in claim of doc/simulator-impl.rst), and those
files must match the stored checksums.

Checked per scenario: every CSV file the run writes (flows.csv, ports.csv, iterations.csv,
hosts.csv, ...), and summary.json without its machine-dependent fields (any key containing
"wall": wallSeconds, eventsPerWallSecond, packetHopsPerWallSecond) and without "events", which
is compared per engine (EVENTS_EQUAL_ACROSS_ENGINES below).

check exits 1 on any mismatch, with one line per differing file. regenerate rewrites the stored
file (it refuses if the two engines disagree: that is a bug, not a new reference); the commit
that changes the stored values must say why the outputs changed (doc/testing.rst).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STORED = os.path.join(ROOT, "test", "golden", "golden-outputs.json")
SCENARIO_DIRS = [
    ("corpus", os.path.join(ROOT, "test", "fuzz", "corpus", "scenario")),
    ("golden", os.path.join(ROOT, "test", "golden", "scenarios")),
]
ENGINES = {
    "mlnet": ["--simulator=mlnet"],
    "ns3": ["--simulator=ns3", "--scheduler=Map"],
}
# The one switch of issue 31 item 13: mlnet's engine now counts the transmit-complete events it
# skips (once their time has passed), so summary.json's "events" is the same under both
# engines, and the check requires mlnet's count = ns-3's as well as each = its stored value.
EVENTS_EQUAL_ACROSS_ENGINES = True
RUN_TIMEOUT_S = 300


def machine_dependent(key):
    return "wall" in key.lower()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def scenarios():
    """(name, directory, file name) of every scenario, sorted by name."""
    out = []
    for prefix, d in SCENARIO_DIRS:
        for f in sorted(os.listdir(d)):
            if f.endswith(".json"):
                out.append((prefix + "/" + f[:-len(".json")], d, f))
    return out


def summary_digest(text):
    """The deterministic part of summary.json: (checksum, scalar fields, events)."""
    doc = json.loads(text)
    events = doc.pop("events", None)
    kept = {k: v for k, v in doc.items() if not machine_dependent(k)}
    canonical = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    scalars = {k: v for k, v in kept.items() if isinstance(v, (int, float, str, bool))}
    return sha256(canonical.encode()), scalars, events


def csv_digest(data):
    lines = data.decode("utf-8", "replace").splitlines()
    return {
        "sha256": sha256(data),
        "rows": max(len(lines) - 1, 0),
        "columns": len(lines[0].split(",")) if lines else 0,
    }


def run_one(mlnet_run, scenario_dir, scenario_file, engine, workdir):
    """Run one scenario under one engine; returns (result dict, {file name: bytes})."""
    out = os.path.join(workdir, engine)
    # The scenario is given by its bare name from its own directory, so error messages (which
    # quote the path) do not depend on where the repository is checked out.
    cmd = [mlnet_run, "--quiet", "--out=" + out] + ENGINES[engine] + [scenario_file]
    p = subprocess.run(cmd, cwd=scenario_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=RUN_TIMEOUT_S)
    result = {"exit": p.returncode}
    files = {}
    if p.returncode != 0:
        result["stderr"] = p.stderr.decode("utf-8", "replace").strip()
        return result, files
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f), "rb") as fh:
            files[f] = fh.read()
    digest = {}
    for f, data in files.items():
        if f == "summary.json":
            sha, scalars, events = summary_digest(data)
            digest[f] = {"sha256": sha, "fields": scalars}
            result["events"] = events
        elif f.endswith(".csv"):
            digest[f] = csv_digest(data)
        else:
            digest[f] = {"sha256": sha256(data)}
    result["files"] = digest
    return result, files


def run_scenario(mlnet_run, name, scenario_dir, scenario_file):
    """Both engines; returns (entry to store, [problems between the engines])."""
    work = tempfile.mkdtemp(prefix="mlnet-golden-")
    try:
        per_engine = {}
        raw = {}
        for engine in ENGINES:
            per_engine[engine], raw[engine] = run_one(mlnet_run, scenario_dir, scenario_file,
                                                      engine, work)
        problems = compare_engines(name, per_engine, raw)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ref = per_engine["mlnet"]
    entry = {"exit": ref["exit"]}
    if ref["exit"] != 0:
        entry["stderr"] = ref["stderr"]
    else:
        entry["files"] = ref["files"]
        entry["events"] = {e: r.get("events") for e, r in per_engine.items()}
    return entry, problems


def first_difference(a, b):
    la = a.decode("utf-8", "replace").splitlines()
    lb = b.decode("utf-8", "replace").splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<end of file>"
        y = lb[i] if i < len(lb) else "<end of file>"
        if x != y:
            return "line %d: mlnet '%s' / ns3 '%s'" % (i + 1, x[:120], y[:120])
    return "same lines"


def compare_engines(name, per_engine, raw):
    m, n = per_engine["mlnet"], per_engine["ns3"]
    problems = []
    if m["exit"] != n["exit"] or m.get("stderr") != n.get("stderr"):
        problems.append("%s: engines differ: exit %d '%s' (mlnet) vs %d '%s' (ns3)"
                        % (name, m["exit"], m.get("stderr", ""), n["exit"], n.get("stderr", "")))
        return problems
    if m["exit"] != 0:
        return problems
    mf, nf = m["files"], n["files"]
    for f in sorted(set(mf) | set(nf)):
        if f not in mf or f not in nf:
            problems.append("%s: engines differ: %s written only by %s"
                            % (name, f, "mlnet" if f in mf else "ns3"))
        elif mf[f]["sha256"] != nf[f]["sha256"]:
            if f == "summary.json":
                detail = field_diff(nf[f]["fields"], mf[f]["fields"], "ns3", "mlnet")
            else:
                detail = first_difference(raw["mlnet"][f], raw["ns3"][f])
            problems.append("%s: engines differ in %s: %s" % (name, f, detail))
    if EVENTS_EQUAL_ACROSS_ENGINES and m.get("events") != n.get("events"):
        problems.append("%s: engines differ in summary.json events: mlnet %s, ns3 %s"
                        % (name, m.get("events"), n.get("events")))
    return problems


def field_diff(old, new, old_label="stored", new_label="now"):
    changed = []
    for k in sorted(set(old) | set(new)):
        if old.get(k, "<absent>") != new.get(k, "<absent>"):
            changed.append("%s %s %s -> %s %s" % (k, old_label, json.dumps(old.get(k, "<absent>")),
                                                  new_label, json.dumps(new.get(k, "<absent>"))))
    if not changed:
        return "a nested field (config, congestionControl, warnings) changed"
    more = " (+%d more)" % (len(changed) - 6) if len(changed) > 6 else ""
    return "; ".join(changed[:6]) + more


def compare_stored(name, stored, now):
    """[problems] between a stored entry and a new one."""
    if stored is None:
        return ["%s: new scenario, no stored values (regenerate)" % name]
    problems = []
    if stored["exit"] != now["exit"] or stored.get("stderr") != now.get("stderr"):
        problems.append("%s: exit %d '%s' stored, now %d '%s'"
                        % (name, stored["exit"], stored.get("stderr", ""), now["exit"],
                           now.get("stderr", "")))
        return problems
    if now["exit"] != 0:
        return problems
    sf, nf = stored["files"], now["files"]
    for f in sorted(set(sf) | set(nf)):
        if f not in nf:
            problems.append("%s: %s stored but no longer written" % (name, f))
        elif f not in sf:
            problems.append("%s: %s written but not stored" % (name, f))
        elif sf[f]["sha256"] != nf[f]["sha256"]:
            if f == "summary.json":
                detail = field_diff(sf[f]["fields"], nf[f]["fields"])
            elif "rows" in sf[f]:
                detail = "rows %d -> %d, columns %d -> %d" % (sf[f]["rows"], nf[f]["rows"],
                                                              sf[f]["columns"], nf[f]["columns"])
            else:
                detail = ""
            problems.append("%s: %s changed (sha256 %s -> %s) %s"
                            % (name, f, sf[f]["sha256"][:12], nf[f]["sha256"][:12], detail))
    for engine in ENGINES:
        a, b = stored["events"].get(engine), now["events"].get(engine)
        if a != b:
            problems.append("%s: summary.json events under %s: stored %s, now %s"
                            % (name, engine, a, b))
    return problems


def find_mlnet_run(arg):
    candidates = [arg] if arg else [os.path.join(ROOT, "build", "mlnet-run")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    sys.exit("golden-outputs: error: mlnet-run not found at %s (build it, or pass "
             "--mlnet-run PATH)" % candidates[0])


def run_all(mlnet_run, selected, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {name: pool.submit(run_scenario, mlnet_run, name, d, f)
                   for name, d, f in selected}
        return {name: fut.result() for name, fut in futures.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "regenerate"])
    ap.add_argument("--mlnet-run", help="the mlnet-run program (default: build/mlnet-run)")
    ap.add_argument("--only", action="append", default=[],
                    help="check only this scenario (e.g. golden/host-interconnect); repeatable")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="scenarios run at once (default 1)")
    args = ap.parse_args()
    if args.jobs < 1:
        sys.exit("golden-outputs: error: --jobs=%d: must be >= 1" % args.jobs)
    mlnet_run = find_mlnet_run(args.mlnet_run)

    selected = scenarios()
    if args.only:
        if args.mode == "regenerate":
            sys.exit("golden-outputs: error: --only is for check; regenerate runs every scenario")
        known = {s[0] for s in selected}
        unknown = [o for o in args.only if o not in known]
        if unknown:
            sys.exit("golden-outputs: error: --only %s: no such scenario (accepted: %s)"
                     % (unknown[0], ", ".join(sorted(known))))
        selected = [s for s in selected if s[0] in args.only]

    results = run_all(mlnet_run, selected, args.jobs)
    engine_problems = [p for name, _, _ in selected for p in results[name][1]]

    if args.mode == "regenerate":
        if engine_problems:
            print("golden-outputs: the two engines disagree; not regenerating (fix the bug):")
            for p in engine_problems:
                print("  " + p)
            return 1
        doc = {
            "comment": "SHA-256 checksums of mlnet-run's outputs; written by "
                       "contrib-scripts/golden-outputs.py regenerate (see doc/testing.rst). "
                       "A commit that changes them must say why the outputs changed.",
            "engines": {e: " ".join(a) for e, a in ENGINES.items()},
            "scenarios": {name: results[name][0] for name, _, _ in selected},
        }
        with open(STORED, "w") as fh:
            json.dump(doc, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print("golden-outputs: wrote %s (%d scenarios)" % (os.path.relpath(STORED, ROOT),
                                                           len(selected)))
        print("golden-outputs: REMINDER: the commit that includes this file must state why the "
              "outputs changed (which change, and that it is intended).")
        return 0

    with open(STORED) as fh:
        stored = json.load(fh)["scenarios"]
    problems = list(engine_problems)
    for name, _, _ in selected:
        problems += compare_stored(name, stored.get(name), results[name][0])
    if not args.only:
        for name in sorted(set(stored) - {s[0] for s in selected}):
            problems.append("%s: stored but its scenario file is gone (regenerate)" % name)
    for name, _, _ in selected:
        entry = results[name][0]
        bad = any(p.startswith(name + ":") for p in problems)
        what = ("exit %d" % entry["exit"] if entry["exit"] != 0
                else " ".join(sorted(entry["files"])))
        print("%s %s (%s)" % ("FAIL" if bad else "ok  ", name, what))
    if problems:
        print("\ngolden-outputs: %d mismatch(es):" % len(problems))
        for p in problems:
            print("  " + p)
        print("\nIf the change is intended, run `contrib-scripts/golden-outputs.py regenerate` "
              "and say why in the commit message; if not, it is a bug.")
        return 1
    print("golden-outputs: %d scenarios, both engines, all outputs match the stored checksums"
          % len(selected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
