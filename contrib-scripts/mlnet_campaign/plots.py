# SPDX-License-Identifier: GPL-2.0-only
"""The standard figures of a campaign, from its tidy tables (matplotlib, PNG).

``cdf``         CDF of a per-flow column (default: the FCT column of ``flows``), one curve per
                combination of the swept parameters, seeds pooled
``bars``        iteration time per scheme (every combination of the swept parameters), per job
                when a run has several: bar = mean of the measured iterations of every seed
                (warm-up iterations left out), whisker = 1st to 99th percentile
``timeseries``  every table with a time column and columns of rates, queues or PFC pauses: one
                panel per quantity, one line per series (first seed of each combination)
``scaling``     the campaign's metric against a numeric swept parameter, one line per
                combination of the others; mean and min..max over seeds
``heatmap``     the campaign's metric over two swept parameters (mean over seeds and any other
                parameter)

Which figures are drawn: the campaign's ``figures`` list (objects with ``type`` and optional
``table``, ``column``, ``metric``, ``x``, ``y``, ``by``, ``title``, ``where``), else every
standard figure whose data exist. ``by`` may name any column of the table (e.g. a ``policy``
column a program writes), not only swept parameters; ``where`` (``{column: value}``) keeps the
rows of every table that has those columns with those values (one figure per worker count, say):
its file name and title say which. The *metric* is one number per run: ``runs.<column>``, or
``<table>.<column>:<mean|p50|p99|max|min|sum|count>`` over the run's rows (negative values, which
mlnet's tables use for "not finished", are left out); default: the mean iteration time, else the
mean FCT, else the mean goodput.

Column units are read from their names: ``...Ns``/``_ns``/``_us``/``_ms``/``_s``/``Seconds``
are times, ``...Bps``/``_bps`` bit/s, ``_gbps`` Gbit/s, ``...Bytes``/``_bytes`` bytes.
"""

import copy
import math
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .spec import short_name  # noqa: E402
from .tables import param_column  # noqa: E402

MAX_SERIES = 8
TIME_COLUMN = re.compile(r"^(time|t)(_?(ns|us|ms|s)|Ns|Us|Ms|S|Seconds)?$", re.IGNORECASE)
SERIES_COLUMN = re.compile(r"rate|queue|pfc|pause|jain|cwnd|alpha|occupancy|throughput|goodput",
                           re.IGNORECASE)
ENTITY_COLUMNS = ("flow", "flowId", "id", "qp", "port", "node", "job", "host")
AGGREGATES = ("mean", "p50", "p99", "max", "min", "sum", "count")
UNIT_SCALES = [  # (pattern on the column name, kind, factor to the base unit)
    (re.compile(r"(Ns|_ns)$"), "time", 1e-9), (re.compile(r"(Us|_us)$"), "time", 1e-6),
    (re.compile(r"(Ms|_ms)$"), "time", 1e-3), (re.compile(r"(Seconds|_s|_sec)$"), "time", 1.0),
    (re.compile(r"_gbps$", re.I), "rate", 1e9), (re.compile(r"(Bps|_bps)$"), "rate", 1.0),
    (re.compile(r"(Bytes|_bytes|_B)$"), "bytes", 1.0),
]
VALUE_UNITS = [  # strings with units in parameter values: "100Gbps", "3ms", "1MB"
    (re.compile(r"^([0-9.eE+-]+)\s*(G|M|K|k)?(bps|b/s)$"), "rate"),
    (re.compile(r"^([0-9.eE+-]+)\s*(ns|us|ms|s)$"), "time"),
    (re.compile(r"^([0-9.eE+-]+)\s*(Gi|Mi|Ki|G|M|K|k)?B$"), "bytes"),
]
PREFIX = {None: 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "Ki": 1024, "Mi": 1024 ** 2,
          "Gi": 1024 ** 3, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}


# -- units ----------------------------------------------------------------------------------------

def column_kind(col):
    """(kind, factor to base unit) of a column from its name, or (None, 1)."""
    for pat, kind, factor in UNIT_SCALES:
        if pat.search(col):
            return kind, factor
    return None, 1.0


def display(kind, values):
    """(divisor from base unit, unit label) for values in base units."""
    vals = [abs(v) for v in values if v is not None and not math.isnan(v) and v != 0]
    m = float(np.median(vals)) if vals else 1.0
    if kind == "time":
        for div, label in ((1e-6, "us"), (1e-3, "ms"), (1.0, "s")):
            if m < div * 1000:
                return div, label
        return 1.0, "s"
    if kind == "rate":
        return (1e9, "Gb/s") if m >= 1e8 else (1e6, "Mb/s")
    if kind == "bytes":
        for div, label in ((1, "B"), (1e3, "KB"), (1e6, "MB")):
            if m < div * 1000:
                return div, label
        return 1e9, "GB"
    return 1.0, ""


def base_name(col):
    """'fctNs' -> 'fct', 'rate0_gbps' -> 'rate0', 'duration_s' -> 'duration'."""
    for pat, _, _ in UNIT_SCALES:
        col = pat.sub("", col)
    return col


def unit_for(col, values):
    """(conversion to a readable unit, axis label) for a column, chosen from all the values a
    figure shows (one unit per axis)."""
    kind, factor = column_kind(col)
    div, unit = display(kind, [v * factor for v in values if v is not None])
    label = base_name(col) + (f" ({unit})" if unit else "")
    return (lambda v: None if v is None else v * factor / div), label


def value_number(v):
    """A parameter value as a number: 4 -> 4, '100Gbps' -> 1e11, '3ms' -> 0.003; else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        for pat, _ in VALUE_UNITS:
            m = pat.match(v.strip())
            if m:
                try:
                    unit = m.group(2) if m.lastindex and m.lastindex >= 2 else None
                    return float(m.group(1)) * PREFIX.get(unit, 1)
                except ValueError:
                    return None
    return None


def percentile(vals, q):
    return float(np.percentile(np.asarray(vals, dtype=float), q)) if vals else float("nan")


# -- grouping -------------------------------------------------------------------------------------

class Layout:
    """The campaign's swept columns, their value order and display names."""

    def __init__(self, meta, runs):
        self.meta = meta
        self.labels = meta.get("labels", {})
        self.varying = [param_column(k) for k in meta.get("varying", [])]
        self.names = {param_column(k): short_name(k, self.labels) for k in meta.get("params", [])}
        self.order = {}
        for c in self.varying:
            seen = []
            for r in runs.rows:
                if r.get(c) not in seen:
                    seen.append(r.get(c))
            self.order[c] = seen
        self.warmup = meta.get("warmupIterations", 1)

    def series_keys(self, limit=MAX_SERIES, exclude=()):
        """The swept columns to separate series by: as many as fit in ``limit`` series."""
        keys, n = [], 1
        for c in self.varying:
            if c in exclude:
                continue
            k = len(self.order[c])
            if n * k > limit:
                break
            keys.append(c)
            n *= k
        return keys

    def pooled(self, keys, exclude=()):
        return [c for c in self.varying if c not in keys and c not in exclude]

    def label(self, keys, combo):
        if not keys:
            return "all runs"
        return ", ".join(f"{self.names.get(k, k)}={v}" for k, v in zip(keys, combo))

    def groups(self, rows, keys):
        """[(label, combo, rows)] in the campaign's order of values."""
        out = {}
        for r in rows:
            out.setdefault(tuple(r.get(k) for k in keys), []).append(r)

        def order(combo):
            return [self.order[k].index(v) if v in self.order.get(k, []) else 1 << 30
                    for k, v in zip(keys, combo)]

        return [(self.label(keys, c), c, out[c]) for c in sorted(out, key=order)]


def find_column(table, pattern):
    for c in table.columns:
        if re.search(pattern, c) and table.numeric(c):
            return c
    return None


def measured_iterations(table, warmup):
    if "iteration" in table.columns and warmup:
        return [r for r in table.rows if not isinstance(r.get("iteration"), (int, float))
                or r["iteration"] >= warmup]
    return table.rows


def iteration_column(table):
    return find_column(table, r"(?i)^(duration|iteration_?time|iter_?time)")


# -- the metric -----------------------------------------------------------------------------------

def has_finished(table, col):
    """True if some row of the column holds a finished value (a number >= 0; -1: not finished)."""
    return col is not None and any(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
        for v in (r.get(col) for r in table.rows))


def default_metric(ts):
    """iterations.<duration>:mean, else flows.<fct>:mean, else runs.goodputMeanBps: the first
    with a finished value (flows that never complete have fctNs -1 and give no mean)."""
    if "iterations" in ts and has_finished(ts["iterations"], iteration_column(ts["iterations"])):
        return f"iterations.{iteration_column(ts['iterations'])}:mean"
    if "flows" in ts and has_finished(ts["flows"], find_column(ts["flows"], r"(?i)^fct")):
        return f"flows.{find_column(ts['flows'], r'(?i)^fct')}:mean"
    if "runs" in ts and "goodputMeanBps" in ts["runs"].columns:
        return "runs.goodputMeanBps"
    return None


def metric_values(ts, spec, warmup):
    """({point: value}, column name) of a metric spec (see the module documentation)."""
    m = re.fullmatch(r"([A-Za-z0-9_.-]+?)\.([^:]+?)(?::(\w+))?", spec or "")
    if not m:
        raise ValueError(f"metric {spec!r}: must be 'runs.<column>' or "
                         f"'<table>.<column>:<{'|'.join(AGGREGATES)}>'")
    table, col, agg = m.group(1), m.group(2), m.group(3) or "mean"
    if table not in ts or col not in ts[table].columns:
        raise ValueError(f"metric {spec!r}: no column {col} in table {table}")
    if agg not in AGGREGATES:
        raise ValueError(f"metric {spec!r}: aggregate must be one of {', '.join(AGGREGATES)}")
    t = ts[table]
    if table == "runs":
        return {r["point"]: r[col] for r in t.rows if isinstance(r.get(col), (int, float))}, col
    rows = measured_iterations(t, warmup) if table == "iterations" else t.rows
    per = {}
    for r in rows:
        v = r.get(col)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0:
            per.setdefault(r["point"], []).append(v)
    fn = {"mean": np.mean, "p50": lambda v: np.percentile(v, 50),
          "p99": lambda v: np.percentile(v, 99), "max": np.max, "min": np.min, "sum": np.sum,
          "count": len}[agg]
    return {p: float(fn(v)) for p, v in per.items()}, col


def metric_unit(spec, col, values):
    """unit_for() of a metric, its label saying the aggregate."""
    conv, label = unit_for(col, values)
    agg = spec.split(":")[1] if ":" in spec else ""
    return conv, (f"{agg} " if agg else "") + label


# -- figures --------------------------------------------------------------------------------------

def _save(fig, directory, name):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _pooled_note(layout, keys, exclude=()):
    pooled = layout.pooled(keys, exclude)
    return (", pooled over " + ", ".join(layout.names.get(c, c) for c in pooled)) if pooled else ""


def figure_cdf(ts, layout, directory, table="flows", column=None, by=None, title=None, **_):
    t = ts.get(table)
    if t is None or not len(t):
        return None
    column = column or find_column(t, r"(?i)^fct")
    if column is None:
        return None
    keys = by if by is not None else layout.series_keys()
    def finished(rows):
        return sorted(v for v in (r.get(column) for r in rows)
                      if isinstance(v, (int, float)) and v >= 0)

    conv, xlabel = unit_for(column, finished(t.rows))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    drawn, span = 0, []
    for label, _, rows in layout.groups(t.rows, keys):
        vals = [conv(v) for v in finished(rows)]
        if not vals:
            continue
        y = np.arange(0, len(vals) + 1) / len(vals)
        ax.step([vals[0]] + vals, y, where="post", label=f"{label} (n={len(vals)})")
        span += [vals[0], vals[-1]]
        drawn += 1
    if not drawn:
        plt.close(fig)
        return None
    if min(span) > 0 and max(span) / min(span) > 100:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("CDF")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or f"{table}: CDF of {base_name(column)}")
    name = f"cdf-{table}-{column}.png"
    return {"file": _save(fig, directory, name), "title": title or f"CDF of {column} ({table})",
            "caption": f"Every finished row of {table} (negative values: not finished, left "
                       f"out), seeds pooled{_pooled_note(layout, keys)}."}


def figure_bars(ts, layout, directory, table="iterations", column=None, by=None, title=None,
                **_):
    t = ts.get(table)
    if t is None or not len(t):
        return None
    column = column or iteration_column(t)
    if column is None:
        return None
    rows = measured_iterations(t, layout.warmup) if table == "iterations" else t.rows
    keys = by if by is not None else layout.series_keys(limit=16)
    jobs = []
    if "job" in t.columns:
        for r in rows:
            if r.get("job") not in jobs:
                jobs.append(r.get("job"))
    if not 2 <= len(jobs) <= 6:
        jobs = [None]
    groups = layout.groups(rows, keys)
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * len(groups) * len(jobs) + 2), 4.2))
    width = 0.8 / len(jobs)
    all_vals = [r.get(column) for r in rows if isinstance(r.get(column), (int, float))]
    conv, ylabel = unit_for(column, all_vals)
    for j, job in enumerate(jobs):
        means, lo, hi = [], [], []
        for _, _, grows in groups:
            vals = [r[column] for r in grows if isinstance(r.get(column), (int, float))
                    and (job is None or r.get("job") == job)]
            s = [conv(v) for v in vals]
            means.append(float(np.mean(s)) if s else float("nan"))
            lo.append(percentile(s, 1))
            hi.append(percentile(s, 99))
        x = np.arange(len(groups)) + (j - (len(jobs) - 1) / 2) * width
        err = [[max(0.0, m - a) for m, a in zip(means, lo)],
               [max(0.0, b - m) for m, b in zip(means, hi)]]
        ax.bar(x, means, width, yerr=err, capsize=3, label=None if job is None else f"job {job}")
    ax.set_xticks(np.arange(len(groups)))
    names = [g[0].replace(", ", "\n") for g in groups]
    wide = max(len(line) for n in names for line in n.split("\n")) > 60 / max(1, len(groups))
    ax.set_xticklabels(names, fontsize=7 if wide else 8, rotation=30 if wide else 0,
                       ha="right" if wide else "center")
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    if jobs != [None]:
        ax.legend(fontsize=8)
    ax.set_title(title or f"{table}: {base_name(column)} per scheme")
    warm = (f"the first {layout.warmup} iteration(s) of every job left out, "
            if table == "iterations" and layout.warmup else "")
    return {"file": _save(fig, directory, f"bars-{table}-{column}.png"),
            "title": title or f"{column} per scheme ({table})",
            "caption": f"Bar: mean over the measured rows of every seed ({warm}seeds pooled"
                       f"{_pooled_note(layout, keys)}); whisker: 1st to 99th percentile."}


def time_column(table):
    for c in table.columns:
        if TIME_COLUMN.match(c) and table.numeric(c):
            return c
    return None


def figure_timeseries(ts, layout, directory, table=None, column=None, by=None, title=None, **_):
    t = ts.get(table)
    if t is None or not len(t):
        return None
    tcol = time_column(t)
    if tcol is None:
        return None
    params = set(layout.names) | {"point", "seed"}
    ycols = [c for c in t.columns if c != tcol and c not in params and SERIES_COLUMN.search(c)
             and t.numeric(c)]
    if column:
        ycols = [c for c in ycols if c == column or base_name(c) == column]
    families = {}
    for c in ycols:
        families.setdefault(re.sub(r"\d+", "", c), []).append(c)
    if not families:
        return None
    families = dict(list(families.items())[:4])
    entity = next((c for c in ENTITY_COLUMNS if c in t.columns and c != tcol and
                   1 < len(set(t.column(c))) <= MAX_SERIES), None)
    keys = by if by is not None else layout.series_keys(limit=4)
    first_seed = {}
    for r in t.rows:
        first_seed.setdefault(tuple(r.get(k) for k in keys), r.get("seed"))
    rows = [r for r in t.rows if r.get("seed") == first_seed[tuple(r.get(k) for k in keys)]]
    fig, axes = plt.subplots(len(families), 1, figsize=(7.0, 2.4 * len(families) + 0.8),
                             sharex=True, squeeze=False)
    xconv, xlabel = unit_for(tcol, [r.get(tcol) for r in rows])
    for ax, (fam, cols) in zip(axes[:, 0], families.items()):
        yconv, ylabel = unit_for(cols[0], [r.get(c) for r in rows for c in cols
                                           if isinstance(r.get(c), (int, float))])
        lines = 0
        for label, _, grows in layout.groups(rows, keys):
            subsets = [(None, grows)]
            if entity:
                subsets = [(e, [r for r in grows if r.get(entity) == e])
                           for e in sorted({r.get(entity) for r in grows}, key=str)]
            for e, srows in subsets:
                for c in cols:
                    if lines >= 2 * MAX_SERIES:
                        break
                    pts = sorted((r[tcol], r[c]) for r in srows
                                 if isinstance(r.get(c), (int, float)))
                    if not pts:
                        continue
                    x = [xconv(p[0]) for p in pts]
                    y = [yconv(p[1]) for p in pts]
                    name = ", ".join(s for s in (label if keys else "", f"{entity} {e}"
                                                 if e is not None else "",
                                                 c if len(cols) > 1 else "") if s)
                    ax.plot(x, y, lw=1, label=name or None)
                    lines += 1
        ax.set_ylabel(re.sub(r"\d+", "", ylabel), fontsize=8)
        ax.grid(alpha=0.3)
        if lines > 1:
            ax.legend(fontsize=6, ncol=2)
    axes[-1, 0].set_xlabel(xlabel)
    axes[0, 0].set_title(title or f"{table}: time series")
    return {"file": _save(fig, directory, f"timeseries-{table}.png"),
            "title": title or f"Time series of {table}",
            "caption": f"{', '.join(families)} against {tcol}; first seed of every combination"
                       f"{_pooled_note(layout, keys)}."}


def _per_combo(values, rows, keys):
    out = {}
    for r in rows:
        v = values.get(r["point"])
        if v is not None:
            out.setdefault(tuple(r.get(k) for k in keys), []).append(v)
    return out


def figure_scaling(ts, layout, directory, metric=None, x=None, by=None, title=None, **_):
    metric = metric or layout.meta.get("metric") or default_metric(ts)
    if metric is None:
        return None
    x = x or next((c for c in layout.varying if len(layout.order[c]) >= 3 and
                   all(value_number(v) is not None for v in layout.order[c])), None)
    if x is None:
        return None
    values, col = metric_values(ts, metric, layout.warmup)
    if not values:
        return None
    keys = by if by is not None else layout.series_keys(limit=6, exclude=(x,))
    runs = ts["runs"].rows
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    conv, ylabel = metric_unit(metric, col, list(values.values()))
    kind = next((k for pat, k in VALUE_UNITS if isinstance(layout.order[x][0], str)
                 and pat.match(layout.order[x][0])), None)
    div, unit = display(kind, [value_number(v) for v in layout.order[x]])
    for label, combo, grows in layout.groups(runs, keys):
        per = _per_combo(values, grows, [x])
        xs = sorted(per, key=lambda c: value_number(c[0]))
        if not xs:
            continue
        xv = [value_number(c[0]) for c in xs]
        ys = [[conv(v) for v in per[c]] for c in xs]
        mean = [float(np.mean(v)) for v in ys]
        err = [[max(0.0, m - min(v)) for m, v in zip(mean, ys)],
               [max(0.0, max(v) - m) for m, v in zip(mean, ys)]]
        ax.errorbar([v / div for v in xv], mean, yerr=err, marker="o", capsize=3,
                    label=label if keys else None)
    ax.set_xlabel(layout.names.get(x, x) + (f" ({unit})" if kind and unit else ""))
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if keys:
        ax.legend(fontsize=8)
    ax.set_title(title or f"{ylabel} vs {layout.names.get(x, x)}")
    return {"file": _save(fig, directory, f"scaling-{x}.png"),
            "title": title or f"{metric} against {x}",
            "caption": f"Per run: {metric}; marker: mean over seeds, bar: min to max"
                       f"{_pooled_note(layout, keys, exclude=(x,))}."}


def figure_heatmap(ts, layout, directory, metric=None, x=None, y=None, title=None, **_):
    metric = metric or layout.meta.get("metric") or default_metric(ts)
    two = [c for c in layout.varying if len(layout.order[c]) >= 2]
    x, y = x or (two[0] if len(two) >= 2 else None), y or (two[1] if len(two) >= 2 else None)
    if metric is None or x is None or y is None:
        return None
    values, col = metric_values(ts, metric, layout.warmup)
    per = _per_combo(values, ts["runs"].rows, [y, x])
    if not per:
        return None
    xs, ys = layout.order[x], layout.order[y]
    grid = np.full((len(ys), len(xs)), np.nan)
    conv, label = metric_unit(metric, col, list(values.values()))
    for (vy, vx), v in per.items():
        grid[ys.index(vy), xs.index(vx)] = float(np.mean([conv(x) for x in v]))
    fig, ax = plt.subplots(figsize=(max(4.5, 0.9 * len(xs) + 2.5), max(3.5, 0.6 * len(ys) + 2)))
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([str(v) for v in xs], fontsize=8)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([str(v) for v in ys], fontsize=8)
    ax.set_xlabel(layout.names.get(x, x))
    ax.set_ylabel(layout.names.get(y, y))
    finite = grid[np.isfinite(grid)]
    mid = float(np.mean([finite.min(), finite.max()])) if finite.size else 0
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.3g}", ha="center", va="center", fontsize=7,
                        color="white" if grid[i, j] < mid else "black")
    fig.colorbar(im, ax=ax, label=label)
    ax.set_title(title or label)
    return {"file": _save(fig, directory, f"heatmap-{x}-{y}.png"),
            "title": title or f"{metric} over {x} and {y}",
            "caption": f"Per run: {metric}; cell: mean over seeds"
                       f"{_pooled_note(layout, [x, y])}."}


FIGURES = {"cdf": figure_cdf, "bars": figure_bars, "timeseries": figure_timeseries,
           "scaling": figure_scaling, "heatmap": figure_heatmap}


def standard_specs(ts, layout):
    """The standard figures whose data exist."""
    specs = []
    for name, t in ts.items():
        if name != "runs" and find_column(t, r"(?i)^fct"):
            specs.append({"type": "cdf", "table": name})
    for name, t in ts.items():
        if name != "runs" and iteration_column(t) and ("iteration" in t.columns
                                                       or name == "iterations"):
            specs.append({"type": "bars", "table": name})
    for name, t in ts.items():
        if name != "runs" and time_column(t):
            specs.append({"type": "timeseries", "table": name})
    specs.append({"type": "scaling"})
    specs.append({"type": "heatmap"})
    return specs


def _where(ts, where):
    """The tables with only the rows matching where (tables without those columns as they are)."""
    if not where:
        return ts
    cond = [(param_column(k), v) for k, v in where.items()]

    def keep(r):
        return all(r.get(c) == v for c, v in cond)

    return {n: t.where(keep) if all(c in t.columns for c, _ in cond) else t
            for n, t in ts.items()}


def _where_layout(layout, where):
    """The layout of a where-filtered figure: the fixed columns are no longer swept."""
    if not where:
        return layout
    fixed = {param_column(k) for k in where}
    out = copy.copy(layout)
    out.varying = [c for c in layout.varying if c not in fixed]
    return out


def _tag_figure(fig, where):
    """Rename a figure drawn from a where-filtered table so that figures differ by file."""
    tag = ",".join(f"{param_column(k)}={v}" for k, v in where.items())
    root, ext = os.path.splitext(fig["file"])
    path = root + "-" + re.sub(r"[^A-Za-z0-9_.=,-]", "_", tag) + ext
    os.replace(fig["file"], path)
    return dict(fig, file=path, title=f"{fig['title']} ({tag})",
                caption=f"{fig.get('caption', '')} Only the runs with {tag}.".strip())


def render(ts, meta, directory):
    """Draw the campaign's figures into directory: ([figure records], [problems])."""
    layout = Layout(meta, ts["runs"])
    specs = meta.get("figures") or standard_specs(ts, layout)
    figures, problems = [], []
    for spec in specs:
        kind = spec.get("type")
        if kind not in FIGURES:
            problems.append(f"figure {spec}: type must be one of {', '.join(FIGURES)}")
            continue
        args = {k: v for k, v in spec.items() if k not in ("type", "where")}
        where = spec.get("where")
        if where is not None and not (isinstance(where, dict) and where):
            problems.append(f"figure {spec}: where must be an object {{column: value}}")
            continue
        if "by" in args:
            args["by"] = [param_column(k) for k in args["by"]]
        for k in ("x", "y"):
            if k in args:
                args[k] = param_column(args[k])
        try:
            fig = FIGURES[kind](_where(ts, where), _where_layout(layout, where), directory,
                                **args)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            plt.close("all")
            problems.append(f"figure {spec}: {e}")
            continue
        if fig is not None and where:
            fig = _tag_figure(fig, where)
        if fig is not None:
            figures.append(fig)
        elif meta.get("figures"):
            problems.append(f"figure {spec}: no data for it in the tables")
    return figures, problems
