# SPDX-License-Identifier: GPL-2.0-only
"""Tidy tables from a campaign's raw outputs.

Tables are discovered from what the runs wrote, not from a fixed list: every ``*.csv`` file in a
run's output directory becomes (or extends) the table of that name (``flows.csv`` -> ``flows``,
``sub/x.csv`` -> ``sub-x``), every ``*.json`` file holding a list of objects too, and
``summary.json`` becomes columns of the ``runs`` table. Columns are read from each file's header,
so a run that writes more columns than another just adds columns (empty where absent).

Every row starts with ``point``, ``seed`` and one column per campaign parameter with scalar values
(its dotted key; ``@label`` keys without the ``@``); a column of a run's file with one of those names is renamed
``<name>_out``. ``runs`` has one row per point, whatever its state: ``key``, ``state`` (ok,
failed, missing), ``exitCode``, ``error``, ``attempt``, ``runWallSeconds``, then the run's
summary.json values (nested objects flattened with dots; ``config``, the scenario as read, is
left out: it is in the run's scenario.json).

Written to STORE/tables/ as ``<name>.csv``, plus ``<name>.pkl`` (pandas DataFrame) when pandas is
importable and ``<name>.parquet`` when pandas and a Parquet engine (pyarrow, fastparquet) are;
``index.json`` lists the tables, their columns and row counts.
"""

import csv
import json
import math
import os
import re

#: Columns whose values depend on the machine, not on the simulation (wall-clock times).
NONDETERMINISTIC = re.compile(r"wall|^started$", re.IGNORECASE)


def parse_cell(text):
    """'12' -> 12, '0.5' -> 0.5, '' -> None, anything else stays text."""
    if text is None or text == "":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        x = float(text)
        return x
    except ValueError:
        return text


def format_cell(value):
    """A cell for CSV: None -> '', floats in their shortest exact form, lists/objects as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    return str(value)


def param_column(key):
    return key[1:] if key.startswith("@") else key


class Table:
    """A named list of rows (dicts) with an ordered union of their columns."""

    def __init__(self, name, columns=None, rows=None):
        self.name = name
        self.columns = list(columns or [])
        self._known = set(self.columns)
        self.rows = []
        for r in rows or []:
            self.add(r)

    def add(self, row):
        for c in row:
            if c not in self._known:
                self._known.add(c)
                self.columns.append(c)
        self.rows.append(row)

    def __len__(self):
        return len(self.rows)

    def column(self, name):
        return [r.get(name) for r in self.rows]

    def numeric(self, name):
        """True if every non-empty value of the column is a number (and there is one)."""
        vals = [v for v in self.column(name) if v is not None]
        return bool(vals) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                  for v in vals)

    def where(self, pred):
        return Table(self.name, self.columns, [r for r in self.rows if pred(r)])

    def without(self, pattern=NONDETERMINISTIC):
        """The table without the columns matching pattern (default: wall-clock columns)."""
        cols = [c for c in self.columns if not pattern.search(c)]
        return Table(self.name, cols, [{c: r.get(c) for c in cols} for r in self.rows])

    def write_csv(self, path):
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(self.columns)
            for r in self.rows:
                w.writerow([format_cell(r.get(c)) for c in self.columns])

    @classmethod
    def read_csv(cls, path, name=None):
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, [])
            t = cls(name or os.path.splitext(os.path.basename(path))[0], header)
            for rec in reader:
                t.rows.append({c: parse_cell(v) for c, v in zip(header, rec)})
        return t

    def to_pandas(self):
        import pandas

        return pandas.DataFrame.from_records(
            [[r.get(c) for c in self.columns] for r in self.rows], columns=self.columns)


def flatten(obj, prefix=""):
    """{'a': {'b': 1}, 'c': [..]} -> {'a.b': 1, 'c': '<json>'}; lists of text joined by '; '."""
    out = {}
    for k, v in obj.items():
        name = prefix + k
        if isinstance(v, dict):
            out.update(flatten(v, name + "."))
        elif isinstance(v, list):
            if all(isinstance(x, str) for x in v):
                out[name] = "; ".join(v)
            else:
                out[name] = json.dumps(v, separators=(",", ":"), sort_keys=True)
        else:
            out[name] = v
    return out


def table_name(rel):
    """'flows.csv' -> 'flows'; 'aggregation/trees.csv' -> 'aggregation-trees'."""
    stem = os.path.splitext(rel)[0]
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", stem.replace(os.sep, "-")).strip("-") or "table"


def _prefixed(base, record):
    row = dict(base)
    for c, v in record.items():
        row[c + "_out" if c in base else c] = v
    return row


def read_run_outputs(out_dir):
    """{table name: [row dicts]} and the summary dict of one run's output directory."""
    tables, summary = {}, {}
    if not os.path.isdir(out_dir):
        return tables, summary
    files = sorted(os.path.relpath(os.path.join(r, n), out_dir)
                   for r, _, names in os.walk(out_dir) for n in names)
    for rel in files:
        path = os.path.join(out_dir, rel)
        if rel == "summary.json":
            try:
                with open(path) as f:
                    doc = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict):
                doc.pop("config", None)
                summary = flatten(doc)
        elif rel.endswith(".csv"):
            t = Table.read_csv(path)
            tables.setdefault(table_name(rel), []).extend(t.rows)
        elif rel.endswith(".json"):
            try:
                with open(path) as f:
                    doc = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(doc, list) and doc and all(isinstance(x, dict) for x in doc):
                tables.setdefault(table_name(rel), []).extend(flatten(x) for x in doc)
    return tables, summary


def collect(store):
    """Every table of the store's current points: {name: Table}, 'runs' first."""
    meta = store.campaign()
    params = meta.get("columns", meta.get("params", []))
    runs = Table("runs")
    others = {}
    cache = {}
    for p in store.points():
        base = {"point": p["point"], "seed": p["seed"]}
        for k in params:
            base[param_column(k)] = p["params"].get(k)
        st = store.status(p["key"])
        state = "missing" if st is None else ("ok" if st.get("ok") else "failed")
        row = dict(base, key=p["key"], state=state)
        if st is not None:
            row.update(exitCode=st.get("exitCode"), error=st.get("error") or None,
                       attempt=st.get("attempt"), runWallSeconds=st.get("wallSeconds"))
        if state == "ok":
            if p["key"] not in cache:
                cache[p["key"]] = read_run_outputs(os.path.join(store.run_dir(p["key"]), "out"))
            tables, summary = cache[p["key"]]
            for c, v in summary.items():
                if c in row:
                    if row[c] == v:
                        continue
                    c += "_out"
                row[c] = v
            for name, rows in tables.items():
                t = others.setdefault(name, Table(name))
                for r in rows:
                    t.add(_prefixed(base, r))
        runs.add(row)
    out = {"runs": runs}
    for name in sorted(others):
        if name == "runs":
            out["runs_out"] = others[name]
        else:
            out[name] = others[name]
    return out


def have_pandas():
    try:
        import pandas  # noqa: F401

        return True
    except ImportError:
        return False


def parquet_engine():
    for mod in ("pyarrow", "fastparquet"):
        try:
            __import__(mod)
            return mod
        except ImportError:
            pass
    return None


def write_tables(tables, directory):
    """Write every table as CSV (+ .pkl, + .parquet when possible); returns the paths."""
    os.makedirs(directory, exist_ok=True)
    pandas_ok = have_pandas()
    engine = parquet_engine() if pandas_ok else None
    written, index = [], {}
    for name, t in tables.items():
        path = os.path.join(directory, name + ".csv")
        t.write_csv(path)
        written.append(path)
        formats = ["csv"]
        if pandas_ok:
            df = t.to_pandas()
            df.to_pickle(os.path.join(directory, name + ".pkl"))
            written.append(os.path.join(directory, name + ".pkl"))
            formats.append("pkl")
            if engine:
                try:
                    df.to_parquet(os.path.join(directory, name + ".parquet"), engine=engine)
                    written.append(os.path.join(directory, name + ".parquet"))
                    formats.append("parquet")
                except (ValueError, TypeError, ImportError):
                    pass  # mixed-type columns Parquet cannot hold: CSV and pickle remain
        index[name] = {"rows": len(t), "columns": t.columns, "formats": formats}
    with open(os.path.join(directory, "index.json"), "w") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    return written


def read_tables(directory):
    """The CSV tables of a tables/ directory: {name: Table} ('runs' first)."""
    names = sorted(n[:-4] for n in os.listdir(directory) if n.endswith(".csv"))
    names.sort(key=lambda n: n != "runs")
    return {n: Table.read_csv(os.path.join(directory, n + ".csv"), n) for n in names}
