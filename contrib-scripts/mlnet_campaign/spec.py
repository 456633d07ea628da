# SPDX-License-Identifier: GPL-2.0-only
"""Campaign files: load and validate, expand the grid into points, resolve and hash each point.

A campaign file is a JSON object::

  {
    "name": "incast",                      # default: the file's stem
    "description": "one line shown in the report",
    "scenario": {...} or "base.json",      # a base scenario for mlnet-run (path: relative to
                                           # the campaign file) ...
    "program": "dcqcn-convergence",        # ... or an example program and its base arguments
    "args": {"flows": 4, "duration": "50ms"},
    "outputs": {"csv": "rates.csv"},       # program arguments naming output files, relative to
                                           # the run's output directory ("." = the directory)
    "seedArg": "RngRun",                   # program argument that carries the seed
    "grid": {"topology.k": [4, 8], "traffic.0.bytes": ["1MB", "4MB"]},
    "zip": [{"@scheme": ["fair", "unfair"], "traffic.0.aggressiveness": [1, 4]}],
    "seeds": [1, 2, 3],                    # or "1-3", or 3 (= 1..3)
    "timeout": 600,                        # seconds per run (default: none)
    "warmupIterations": 1,                 # iterations per job left out of iteration figures
    "metric": "iterations.durationNs:mean",  # the per-run number of scaling curves / heat maps
    "figures": [...],                      # default: the standard figures that apply
    "labels": {"traffic.0.aggressiveness": "a"}
  }

Keys of ``grid`` are dotted paths into the base document (the scenario, or the program's
arguments); an integer segment indexes a list (``traffic.0.rate``). Every ``grid`` key is one axis
of the product; every object of ``zip`` is one axis whose lists (of equal length) vary together.
A key starting with ``@`` is a label only: it becomes a column of every table but is not set in
the document (``"@senders": [2, 4]`` next to ``"traffic": [[...], [...]]``). Points are numbered
in the order of the product (axes in file order, the last varying fastest), seeds innermost:
point ``i`` is parameter combination ``i // len(seeds)`` with seed ``seeds[i % len(seeds)]``.
"""

import copy
import hashlib
import json
import os
import re
import subprocess
from dataclasses import dataclass, field

#: Paths of the repository whose contents change simulation results (the code id follows them).
SIMULATOR_PATHS = ("model", "helper", "examples", "bindings", "cmake", "CMakeLists.txt")
#: Keys a campaign file may have.
FIELDS = ("name", "description", "scenario", "program", "args", "outputs", "seedArg", "grid",
          "zip", "seeds", "timeout", "warmupIterations", "metric", "figures", "labels")
MAX_SEED = 4294967295
KEY_HEX_DIGITS = 16


class CampaignError(ValueError):
    """An invalid campaign file or option; the message names the key and what is accepted."""


@dataclass(frozen=True)
class Point:
    """One run of a campaign: a parameter combination and a seed, resolved and hashed."""

    index: int
    params: dict
    seed: int
    doc: dict = field(repr=False)
    key: str = ""

    def record(self):
        """The point as stored in points.json."""
        return {"point": self.index, "key": self.key, "seed": self.seed, "params": self.params}


def canonical_json(obj):
    """Key-sorted compact JSON: equal documents give equal text (and equal hashes)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def parse_seeds(spec, where="seeds"):
    """[1, 2], "1-5", "1,3,7" or 3 (= 1..3) -> a list of distinct seeds in [1, 4294967295]."""
    if isinstance(spec, bool):
        raise CampaignError(f"{where} = {spec!r}: must be a list of integers, 'a-b' or a count")
    if isinstance(spec, int):
        seeds = list(range(1, spec + 1))
    elif isinstance(spec, str):
        seeds = []
        for part in spec.split(","):
            part = part.strip()
            m = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
            if m:
                seeds.extend(range(int(m.group(1)), int(m.group(2)) + 1))
            elif part.isdigit():
                seeds.append(int(part))
            else:
                raise CampaignError(f"{where} = {spec!r}: must look like '1-5' or '1,3,7'")
    elif isinstance(spec, list):
        seeds = spec
    else:
        raise CampaignError(f"{where} = {spec!r}: must be a list of integers, 'a-b' or a count")
    if not seeds:
        raise CampaignError(f"{where} = {spec!r}: needs at least one seed")
    for s in seeds:
        if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_SEED:
            raise CampaignError(f"{where}: {s!r} is not an integer in [1, {MAX_SEED}]")
    if len(set(seeds)) != len(seeds):
        raise CampaignError(f"{where} = {spec!r}: seeds must be distinct")
    return list(seeds)


def check_key(key, where):
    """A dotted path ('topology.k', 'traffic.0.rate') or a label ('@scheme')."""
    if not isinstance(key, str) or not key:
        raise CampaignError(f"{where}: keys must be non-empty strings")
    if key.startswith("@"):
        if not re.fullmatch(r"@[A-Za-z_][A-Za-z0-9_.-]*", key):
            raise CampaignError(f"{where}.{key}: a label is '@' then a name of letters, digits, _")
        return
    if any(part == "" for part in key.split(".")):
        raise CampaignError(f"{where}.{key}: must be a dotted path like 'topology.k'")


def set_path(doc, path, value):
    """doc['a']['b'][0] = value for path 'a.b.0' (objects on the way are created)."""
    keys = path.split(".")
    cur = doc
    for depth, k in enumerate(keys):
        last = depth == len(keys) - 1
        where = ".".join(keys[: depth + 1])
        if isinstance(cur, list):
            if not k.isdigit() or int(k) >= len(cur):
                raise CampaignError(f"grid key {path}: '{where}' indexes a list of {len(cur)} "
                                    f"entries: must be an integer in [0, {len(cur) - 1}]")
            if last:
                cur[int(k)] = value
            else:
                cur = cur[int(k)]
        elif isinstance(cur, dict):
            if last:
                cur[k] = value
            else:
                cur = cur.setdefault(k, {})
        else:
            raise CampaignError(f"grid key {path}: '{'.'.join(keys[:depth])}' is "
                                f"{type(cur).__name__}, not an object or a list")


def short_name(key, labels=None):
    """Display name of a parameter: its label, else the last segment of the dotted path."""
    if labels and key in labels:
        return labels[key]
    return key.lstrip("@").split(".")[-1]


def _git(root, *args):
    try:
        out = subprocess.run(["git", "-C", root, *args], capture_output=True, check=True,
                             timeout=30)
        return out.stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return None


def repo_root():
    """The mlnet source directory (this package lives in its contrib-scripts/)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def mlnet_version(root=None):
    """The version in CMakeLists.txt's project() line ('0.1.0'), or 'unknown'."""
    path = os.path.join(root or repo_root(), "CMakeLists.txt")
    try:
        with open(path) as f:
            m = re.search(r"project\(\s*mlnet\s+VERSION\s+([0-9.]+)", f.read())
            return m.group(1) if m else "unknown"
    except OSError:
        return "unknown"


def code_id(root=None):
    """'mlnet-<version>+g<commit>[.dirty-<hash>]': what produced a result.

    The commit is the last one that changed the simulator (``SIMULATOR_PATHS``: changes of
    documentation, tests or these scripts keep earlier results valid); uncommitted changes of
    those paths add a hash of the diff. Without git: 'mlnet-<version>'.
    """
    root = root or repo_root()
    ident = "mlnet-" + mlnet_version(root)
    commit = _git(root, "log", "-1", "--format=%h", "--abbrev=12", "--", *SIMULATOR_PATHS)
    if commit and commit.strip():
        ident += "+g" + commit.strip()
        diff = _git(root, "diff", "HEAD", "--", *SIMULATOR_PATHS)
        if diff:
            ident += ".dirty-" + hashlib.sha256(diff.encode()).hexdigest()[:8]
    return ident


class Campaign:
    """A validated campaign file. ``expand(code)`` gives its points."""

    def __init__(self, doc, base_dir=".", source=None):
        if not isinstance(doc, dict):
            raise CampaignError("campaign: must be a JSON object")
        unknown = sorted(set(doc) - set(FIELDS))
        if unknown:
            raise CampaignError(f"campaign: unknown key(s) {', '.join(unknown)} "
                                f"(accepted: {', '.join(FIELDS)})")
        self.source = source
        stem = os.path.splitext(os.path.basename(source))[0] if source else "campaign"
        self.name = doc.get("name", stem)
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", self.name):
            raise CampaignError(f"name = {self.name!r}: must be letters, digits, '_', '.', '-'")
        self.description = str(doc.get("description", ""))
        self._load_base(doc, base_dir)
        self.axes = self._load_axes(doc)
        self.param_names = [k for keys, _ in self.axes for k in keys]
        self.seeds = parse_seeds(doc.get("seeds", [1]))
        if self.kind == "program" and self.seed_arg is None and len(self.seeds) > 1:
            raise CampaignError("seeds: a program without seedArg takes one seed only")
        self.timeout = doc.get("timeout")
        if self.timeout is not None and (isinstance(self.timeout, bool) or
                                         not isinstance(self.timeout, (int, float)) or
                                         self.timeout <= 0):
            raise CampaignError(f"timeout = {self.timeout!r}: must be a number of seconds > 0")
        self.warmup_iterations = doc.get("warmupIterations", 1)
        if isinstance(self.warmup_iterations, bool) or not isinstance(self.warmup_iterations, int) \
                or self.warmup_iterations < 0:
            raise CampaignError(f"warmupIterations = {self.warmup_iterations!r}: must be an "
                                "integer >= 0")
        self.metric = doc.get("metric")
        if self.metric is not None and not isinstance(self.metric, str):
            raise CampaignError(f"metric = {self.metric!r}: must be a string like "
                                "'iterations.durationNs:mean' or 'runs.goodputMeanBps'")
        self.figures = doc.get("figures")
        if self.figures is not None and not (isinstance(self.figures, list) and
                                             all(isinstance(f, dict) for f in self.figures)):
            raise CampaignError("figures: must be a list of objects")
        self.labels = doc.get("labels", {})
        if not isinstance(self.labels, dict):
            raise CampaignError("labels: must be an object {parameter: display name}")

    # -- loading ------------------------------------------------------------------------------

    def _load_base(self, doc, base_dir):
        has_scenario, has_program = "scenario" in doc, "program" in doc
        if has_scenario == has_program:
            raise CampaignError("campaign: give exactly one of 'scenario' (a base scenario for "
                                "mlnet-run) and 'program' (an example program)")
        if has_scenario:
            for k in ("args", "outputs", "seedArg"):
                if k in doc:
                    raise CampaignError(f"{k}: only with 'program'")
            self.kind = "scenario"
            self.program = "mlnet-run"
            base = doc["scenario"]
            if isinstance(base, str):
                path = os.path.join(base_dir, base)
                try:
                    with open(path) as f:
                        base = json.load(f)
                except (OSError, ValueError) as e:
                    raise CampaignError(f"scenario = {doc['scenario']!r}: {e}") from e
            if not isinstance(base, dict):
                raise CampaignError("scenario: must be an object or the path of a JSON file")
            if "seed" in base:
                base = dict(base)
                del base["seed"]  # the campaign's seeds replace it
            self.base = base
            self.outputs = {}
            self.seed_arg = "seed"
        else:
            self.kind = "program"
            self.program = doc["program"]
            if not isinstance(self.program, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+",
                                                                     self.program):
                raise CampaignError(f"program = {self.program!r}: must be the name of a program "
                                    "of the build directory (letters, digits, '_', '.', '-')")
            self.base = doc.get("args", {})
            if not isinstance(self.base, dict):
                raise CampaignError("args: must be an object {argument: value}")
            self.outputs = doc.get("outputs", {})
            if not isinstance(self.outputs, dict) or not all(
                    isinstance(v, str) and not os.path.isabs(v) and ".." not in v.split("/")
                    for v in self.outputs.values()):
                raise CampaignError("outputs: must be an object {argument: file name relative "
                                    "to the run's output directory ('.' = the directory)}")
            self.seed_arg = doc.get("seedArg", "RngRun")
            if self.seed_arg is not None and not isinstance(self.seed_arg, str):
                raise CampaignError("seedArg: must be an argument name or null")

    def _load_axes(self, doc):
        axes = []
        grid = doc.get("grid", {})
        if not isinstance(grid, dict):
            raise CampaignError("grid: must be an object {dotted.key: [values]}")
        for key, values in grid.items():
            check_key(key, "grid")
            if not isinstance(values, list) or not values:
                raise CampaignError(f"grid.{key}: must be a non-empty list of values")
            axes.append(((key,), [(v,) for v in values]))
        zips = doc.get("zip", [])
        if not isinstance(zips, list):
            raise CampaignError("zip: must be a list of objects {dotted.key: [values]}")
        for i, group in enumerate(zips):
            where = f"zip[{i}]"
            if not isinstance(group, dict) or not group:
                raise CampaignError(f"{where}: must be a non-empty object {{dotted.key: [values]}}")
            lengths = set()
            for key, values in group.items():
                check_key(key, where)
                if not isinstance(values, list) or not values:
                    raise CampaignError(f"{where}.{key}: must be a non-empty list of values")
                lengths.add(len(values))
            if len(lengths) != 1:
                raise CampaignError(f"{where}: its lists must have the same length (have "
                                    f"{', '.join(str(n) for n in sorted(lengths))})")
            keys = tuple(group)
            axes.append((keys, list(zip(*(group[k] for k in keys)))))
        seen = set()
        for keys, _ in axes:
            for k in keys:
                if k in seen:
                    raise CampaignError(f"grid/zip: key {k} appears twice")
                if k == self.seed_arg or k in ("seed", "@seed", "@point"):
                    raise CampaignError(f"grid/zip: {k}: seeds are set by 'seeds'")
                seen.add(k)
        return axes

    # -- expansion ------------------------------------------------------------------------------

    def combinations(self):
        """The parameter combinations (dicts in axis order), last axis varying fastest."""
        combos = [{}]
        for keys, values in self.axes:
            combos = [dict(c, **dict(zip(keys, v))) for c in combos for v in values]
        return combos

    def resolve(self, params, seed):
        """The document of one point: the base with the parameters and the seed set."""
        doc = copy.deepcopy(self.base)
        for key, value in params.items():
            if not key.startswith("@"):
                set_path(doc, key, copy.deepcopy(value))
        if self.kind == "scenario":
            doc["seed"] = seed
            doc.setdefault("name", self.name)
            if isinstance(doc.get("output"), dict):
                doc["output"].pop("dir", None)  # the runner names the output directory
        elif self.seed_arg:
            doc[self.seed_arg] = seed
        return doc

    def point_key(self, doc, code):
        """Hash of what determines a result: the kind, program, resolved document and code id."""
        text = canonical_json({"kind": self.kind, "program": self.program, "doc": doc,
                               "outputs": self.outputs, "code": code})
        return hashlib.sha256(text.encode()).hexdigest()[:KEY_HEX_DIGITS]

    def expand(self, code):
        """Every point of the campaign (see the module documentation for the numbering)."""
        points = []
        for params in self.combinations():
            for seed in self.seeds:
                doc = self.resolve(params, seed)
                points.append(Point(len(points), params, seed, doc, self.point_key(doc, code)))
        return points

    def columns(self):
        """Parameters that become table columns: those whose values are all scalars (a list or
        object value, e.g. a whole traffic array, is in the run's scenario.json; label it with
        an '@' key in the same zip group)."""
        out = []
        for keys, values in self.axes:
            for i, k in enumerate(keys):
                if all(not isinstance(v[i], (list, dict)) for v in values):
                    out.append(k)
        return out

    def varying(self):
        """Table columns (see columns()) whose parameter takes more than one value."""
        many = {k for keys, values in self.axes if len(values) > 1 for k in keys}
        return [k for k in self.columns() if k in many]

    def to_dict(self):
        """The normalised campaign (base inlined), as stored in the results directory."""
        d = {"name": self.name, "description": self.description}
        if self.kind == "scenario":
            d["scenario"] = self.base
        else:
            d.update(program=self.program, args=self.base, outputs=self.outputs,
                     seedArg=self.seed_arg)
        grid, zips = {}, []
        for keys, values in self.axes:
            if len(keys) == 1 and not any(k in grid for k in keys) and not zips:
                grid[keys[0]] = [v[0] for v in values]
            else:
                zips.append({k: [v[i] for v in values] for i, k in enumerate(keys)})
        d.update(grid=grid, zip=zips, seeds=self.seeds, warmupIterations=self.warmup_iterations,
                 labels=self.labels)
        for k, v in (("timeout", self.timeout), ("metric", self.metric),
                     ("figures", self.figures)):
            if v is not None:
                d[k] = v
        return d


def load_campaign(path):
    """Read and validate a campaign file."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise CampaignError(f"campaign: cannot open '{path}': {e.strerror}") from e
    except ValueError as e:
        raise CampaignError(f"campaign: {path}: invalid JSON: {e}") from e
    return Campaign(doc, os.path.dirname(os.path.abspath(path)), source=path)
