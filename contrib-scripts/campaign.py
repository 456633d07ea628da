#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mlnet campaigns: sweeps of scenarios x seeds with a results store, tidy tables and a report.

  campaign.py run CAMPAIGN.json [-j N] [--executor local|dask|slurm] [--scheduler tcp://host:port]
  campaign.py run --scenario s.json --param topology.k=4,8 --seeds 1-3     (a quick sweep)
  campaign.py status  STORE | CAMPAIGN.json
  campaign.py collect STORE | CAMPAIGN.json
  campaign.py report  STORE | CAMPAIGN.json
  campaign.py expand  CAMPAIGN.json                 (list the points, run nothing)
  campaign.py exec    STORE --point I               (run one point: what a Slurm array task does)

A campaign file names a base scenario (or an example program), a grid of dotted keys, seeds;
``run`` expands it, skips points whose results exist in the store (keyed by a hash of the
resolved scenario and the mlnet code id), runs the rest, records failures without stopping,
and collects the tables. The store defaults to results/<name>. Exit status: 0 when every point
of the campaign succeeded, 1 when some failed or are missing, 2 on bad input.
See doc/campaigns.rst.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mlnet_campaign import executors, tables  # noqa: E402
from mlnet_campaign.progress import Progress  # noqa: E402
from mlnet_campaign.spec import (Campaign, CampaignError, code_id, load_campaign,  # noqa: E402
                                 parse_seeds, set_path)
from mlnet_campaign.store import Store  # noqa: E402

DEFAULT_STORE_DIR = "results"


def parse_value(text):
    """'4' -> 4, '0.5' -> 0.5, 'true' -> True, JSON lists/objects parsed, else the string."""
    t = text.strip()
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    if t[:1] in "[{":
        try:
            return json.loads(t)
        except ValueError:
            pass
    return t


def parse_assignment(spec, many):
    """'key=v1,v2' -> ('key', [v1, v2]) (many) or 'key=v' -> ('key', v)."""
    if "=" not in spec:
        raise argparse.ArgumentTypeError(f"expected key=value: {spec!r}")
    key, value = spec.split("=", 1)
    key = key.strip()
    if not key:
        raise argparse.ArgumentTypeError(f"expected key=value: {spec!r}")
    if not many:
        return key, parse_value(value)
    vals = [parse_value(v) for v in value.split(",") if v.strip()]
    if not vals:
        raise argparse.ArgumentTypeError(f"expected key=v1,v2,...: {spec!r}")
    return key, vals


def build_campaign(args):
    """The campaign of a run/expand command: a file, or a quick sweep of --scenario."""
    if args.campaign and args.scenario:
        raise CampaignError("give either a campaign file or --scenario, not both")
    if args.campaign:
        c = load_campaign(args.campaign)
        if args.param:
            raise CampaignError("--param is for quick sweeps of --scenario; edit the "
                                "campaign's grid instead")
    elif args.scenario:
        grid = {k: v for k, v in args.param}
        name = args.name or os.path.splitext(os.path.basename(args.scenario))[0]
        c = Campaign({"name": name, "scenario": os.path.abspath(args.scenario), "grid": grid},
                     source=args.scenario)
    else:
        raise CampaignError("give a campaign file (see contrib-scripts/campaigns/) or "
                            "--scenario FILE")
    for key, value in args.set:
        set_path(c.base, key, value)
    if args.seeds is not None:
        c.seeds = parse_seeds(args.seeds, "--seeds")
    if args.timeout is not None:
        c.timeout = args.timeout
    return c


def store_of(target, store_opt=None):
    """A store from a directory, or from a campaign file (its default store)."""
    if store_opt:
        return Store(store_opt)
    if target.endswith(".json") and os.path.isfile(target):
        return Store(os.path.join(DEFAULT_STORE_DIR, load_campaign(target).name))
    return Store(target)


def open_store(target, store_opt=None):
    s = store_of(target, store_opt)
    if not s.exists():
        raise CampaignError(f"{s.root}: not a campaign store (no points.json); run the "
                            "campaign first")
    return s


def write_tables(store, quiet=False):
    ts = tables.collect(store)
    tables.write_tables(ts, store.path("tables"))
    if not quiet:
        listing = ", ".join(f"{n} ({len(t)})" for n, t in ts.items())
        print(f"campaign: tables in {store.path('tables')}: {listing}", file=sys.stderr)
    return ts


def cmd_run(args):
    c = build_campaign(args)
    code = args.code_id or code_id()
    points = c.expand(code)
    store = Store(args.store or os.path.join(DEFAULT_STORE_DIR, c.name))
    store.prepare(c, points, code)
    binaries = executors.find_binaries(args.mlnet_run, args.bin_dir)
    tasks, skipped = executors.tasks_to_run(store, retry_failed=not args.skip_failed)
    executors.check_programs(tasks, binaries)
    print(f"campaign {c.name}: {len(points)} points, {len(tasks)} to run, {skipped} done "
          f"(store {store.root}, code {code})", file=sys.stderr)
    if args.executor == "slurm":
        path = executors.slurm_script(store, binaries, args.retries, args.partition, args.account,
                                      args.time, args.mem, args.max_parallel)
        if path is None:
            print("campaign: every point is done; nothing to submit", file=sys.stderr)
        else:
            print(f"campaign: wrote {path}\n  submit: sbatch {path}\n  then:   "
                  f"{sys.argv[0]} collect {store.root}", file=sys.stderr)
        return 0
    if args.executor == "dask" or args.scheduler:
        ex = executors.DaskExecutor(args.scheduler, args.jobs)
    else:
        ex = executors.LocalExecutor(args.jobs)
    progress = Progress(len(tasks), skipped)
    if tasks:
        try:
            ex.run(tasks, store, binaries, args.retries, progress)
        except KeyboardInterrupt:
            progress.finish()
            print("campaign: interrupted; finished runs are kept, run again to resume",
                  file=sys.stderr)
            return 130
    progress.finish()
    counts, failed = store.summary()
    if not args.no_collect:
        write_tables(store)
    if args.report:
        from mlnet_campaign import report

        print(f"campaign: report {report.build_report(store)}", file=sys.stderr)
    print(f"campaign {c.name}: {counts['ok']} ok, {counts['failed']} failed, "
          f"{counts['missing']} missing", file=sys.stderr)
    return 0 if counts["failed"] == 0 and counts["missing"] == 0 else 1


def cmd_expand(args):
    c = build_campaign(args)
    for p in c.expand(args.code_id or code_id()):
        print(json.dumps(p.record()))
    return 0


def cmd_status(args):
    store = open_store(args.target, args.store)
    meta = store.campaign()
    counts, failed = store.summary()
    total = sum(counts.values())
    print(f"campaign {meta['name']} ({store.root}, code {meta['code']}): {total} points: "
          f"{counts['ok']} ok, {counts['failed']} failed, {counts['missing']} missing")
    for p, st in failed:
        print(f"  point {p['point']} seed {p['seed']} {json.dumps(p['params'])}: exit "
              f"{st.get('exitCode')} (attempt {st.get('attempt')}): {st.get('error')}")
    return 0


def cmd_collect(args):
    write_tables(open_store(args.target, args.store))
    return 0


def cmd_report(args):
    from mlnet_campaign import report

    store = open_store(args.target, args.store)
    path = report.build_report(store, figures=not args.no_figures)
    print(path)
    return 0


def cmd_exec(args):
    store = open_store(args.target)
    binaries = executors.find_binaries(args.mlnet_run, args.bin_dir)
    points = [p for p in store.points() if p["point"] == args.point]
    if not points:
        raise CampaignError(f"--point {args.point}: must be in [0, {len(store.points()) - 1}]")
    p = points[0]
    prev = store.status(p["key"])
    if prev is not None and prev.get("ok"):
        print(f"campaign: point {p['point']} already done", file=sys.stderr)
        return 0
    task = store.task(p)
    task["attempt"] = (prev or {}).get("attempt", 0) + 1
    status = executors.run_and_record(task, store, binaries, args.retries, None)
    print(f"campaign: point {p['point']} {'ok' if status['ok'] else 'failed: ' + status['error']}",
          file=sys.stderr)
    return 0 if status["ok"] else 1


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)

    def campaign_args(p):
        p.add_argument("campaign", nargs="?", help="campaign file (JSON)")
        p.add_argument("--scenario", help="quick sweep: a base scenario file instead of a "
                                          "campaign file")
        p.add_argument("--param", action="append", default=[],
                       type=lambda s: parse_assignment(s, True),
                       help="quick sweep: dotted.key=v1,v2,... (repeatable; the product)")
        p.add_argument("--name", help="quick sweep: campaign name (default: the file's stem)")
        p.add_argument("--set", action="append", default=[],
                       type=lambda s: parse_assignment(s, False),
                       help="override a value of the base: dotted.key=value (repeatable)")
        p.add_argument("--seeds", help="override the seeds: 1-5, 1,3,7 or a count")
        p.add_argument("--timeout", type=float, help="seconds per run (override)")
        p.add_argument("--code-id", help="identify the mlnet code by this string instead of "
                                         "its version and git commit")

    def binary_args(p):
        p.add_argument("--mlnet-run", help="mlnet-run binary (default: $MLNET_RUN, "
                                           "build/mlnet-run, PATH)")
        p.add_argument("--bin-dir", help="directory of the example programs (default: "
                                         "mlnet-run's)")
        p.add_argument("--retries", type=int, default=0,
                       help="run a failing point again up to N times (default 0)")

    p = sub.add_parser("run", help="run the points that have no result yet")
    campaign_args(p)
    binary_args(p)
    p.add_argument("--store", help=f"results directory (default {DEFAULT_STORE_DIR}/<name>)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="runs at a time (local) or LocalCluster workers (dask); default: cores")
    p.add_argument("--executor", choices=["local", "dask", "slurm"], default="local")
    p.add_argument("--scheduler", help="Dask scheduler address tcp://host:port (implies "
                                       "--executor dask; default: a LocalCluster)")
    p.add_argument("--skip-failed", action="store_true", help="do not retry failed points")
    p.add_argument("--no-collect", action="store_true", help="do not write the tables")
    p.add_argument("--report", action="store_true", help="also write figures and report.html")
    for opt in ("partition", "account", "time", "mem"):
        p.add_argument("--" + opt, help=f"slurm: #SBATCH --{opt}")
    p.add_argument("--max-parallel", type=int, help="slurm: at most N array tasks at once")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("expand", help="list the points (JSON lines) and run nothing")
    campaign_args(p)
    p.set_defaults(func=cmd_expand)

    for name, func, text in (("status", cmd_status, "counts of ok / failed / missing points"),
                             ("collect", cmd_collect, "write the tidy tables"),
                             ("report", cmd_report, "write figures and report.html")):
        p = sub.add_parser(name, help=text)
        p.add_argument("target", help="store directory, or a campaign file (its default store)")
        p.add_argument("--store", help="store directory (with a campaign file)")
        if name == "report":
            p.add_argument("--no-figures", action="store_true", help="HTML only")
        p.set_defaults(func=func)

    p = sub.add_parser("exec", help="run one point of a prepared store (Slurm array tasks)")
    p.add_argument("target", help="store directory")
    p.add_argument("--point", type=int, required=True)
    binary_args(p)
    p.set_defaults(func=cmd_exec)
    return ap


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0].startswith("--") and argv[0] not in ("--help", "-h"):
        print("campaign.py: the command comes first now: campaign.py run --scenario FILE "
              "--param key=v1,v2 --seeds 1-3 (see --help)", file=sys.stderr)
        return 2
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except CampaignError as e:
        print(f"campaign.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
