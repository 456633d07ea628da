# SPDX-License-Identifier: GPL-2.0-only
"""A static one-page HTML report of a campaign: STORE/report.html.

It collects the tables, draws the figures (plots.render) into STORE/figures/, and writes one
page with the campaign's description and code id, the parameter grid, the figures, links to the
tables and the status of every run (error lines of failed runs included). The page uses no
script, no web font and no external resource: it opens offline, from the store directory
(images and tables are relative links).
"""

import datetime
import html
import json
import os

from . import plots, tables

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #fde8e8; } tr.missing td { background: #fff6d6; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; max-width: 100%; vertical-align: top; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85em; max-width: 40em; }
code { font-size: 0.9em; }
.problems { color: #a00; }
"""


def esc(value):
    return html.escape("" if value is None else str(value), quote=True)


def cell(value):
    if isinstance(value, (list, dict)):
        return f"<td><code>{esc(json.dumps(value, separators=(',', ':')))}</code></td>"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="num">{esc(format(value, ".6g") if isinstance(value, float) else value)}</td>'
    return f"<td>{esc(value)}</td>"


def html_table(header, rows, row_classes=None):
    out = ["<table>", "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
    for i, r in enumerate(rows):
        cls = f' class="{esc(row_classes[i])}"' if row_classes and row_classes[i] else ""
        out.append(f"<tr{cls}>" + "".join(cell(v) for v in r) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def grid_section(meta):
    rows = []
    for k, v in meta.get("grid", {}).items():
        rows.append([k, "grid", v])
    for i, group in enumerate(meta.get("zip", [])):
        for k, v in group.items():
            rows.append([k, f"zip {i}", v])
    rows.append(["seeds", "", meta.get("seeds")])
    base = meta.get("scenario") if meta.get("kind") == "scenario" else meta.get("args")
    what = ("mlnet-run scenario" if meta.get("kind") == "scenario"
            else f"program <code>{esc(meta.get('program'))}</code> arguments")
    return ("<h2>Parameters</h2>\n" + html_table(["parameter", "axis", "values"], rows) +
            f"\n<details><summary>Base {what}</summary><pre>{esc(json.dumps(base, indent=2))}"
            "</pre></details>")


def runs_section(meta, runs):
    cols = ["point", "seed"] + [tables.param_column(k) for k in meta.get("columns", [])]
    cols += ["state", "attempt", "runWallSeconds", "exitCode", "error"]
    rows = [[r.get(c) for c in cols] for r in runs.rows]
    return ("<h2>Runs</h2>\n" + html_table(cols, rows, [r.get("state") for r in runs.rows]))


def build_report(store, figures=True):
    """Collect, draw, write STORE/report.html; returns its path."""
    meta = store.campaign()
    ts = tables.collect(store)
    tables.write_tables(ts, store.path("tables"))
    figs, problems = [], []
    if figures:
        figs, problems = plots.render(ts, meta, store.path("figures"))
    runs = ts["runs"]
    states = runs.column("state")
    counts = {s: states.count(s) for s in ("ok", "failed", "missing")}
    wall = sum(v for v in runs.column("runWallSeconds") if isinstance(v, (int, float)))
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>mlnet campaign {esc(meta['name'])}</title>", f"<style>{STYLE}</style>",
             "</head>", "<body>", f"<h1>mlnet campaign {esc(meta['name'])}</h1>"]
    if meta.get("description"):
        parts.append(f"<p>{esc(meta['description'])}</p>")
    parts.append(html_table(["", ""], [
        ["points", f"{len(runs)}: {counts['ok']} ok, {counts['failed']} failed, "
                   f"{counts['missing']} missing"],
        ["code", meta.get("code")],
        ["store", store.root],
        ["run time", f"{wall:.1f} s of wall-clock time in all runs"],
        ["generated", now]]))
    parts.append(grid_section(meta))
    parts.append("<h2>Figures</h2>")
    if problems:
        parts.append('<ul class="problems">' + "".join(f"<li>{esc(p)}</li>" for p in problems) +
                     "</ul>")
    if not figs:
        parts.append("<p>No figure (no table with data for one).</p>")
    for f in figs:
        rel = os.path.relpath(f["file"], store.root)
        parts.append(f'<figure><img src="{esc(rel)}" alt="{esc(f["title"])}">'
                     f"<figcaption><b>{esc(f['title'])}.</b> {esc(f['caption'])}</figcaption>"
                     "</figure>")
    parts.append("<h2>Tables</h2>")
    rows = []
    for name, t in ts.items():
        links = " ".join(f'<a href="tables/{esc(name)}.{ext}">{ext}</a>'
                         for ext in ("csv", "pkl", "parquet")
                         if os.path.exists(store.path("tables", f"{name}.{ext}")))
        rows.append(f"<tr><td>{esc(name)}</td><td class=\"num\">{len(t)}</td><td>{links}</td>"
                    f"<td>{esc(', '.join(t.columns))}</td></tr>")
    parts.append("<table><tr><th>table</th><th>rows</th><th>files</th><th>columns</th></tr>\n" +
                 "\n".join(rows) + "</table>")
    parts.append(runs_section(meta, runs))
    parts += ["</body>", "</html>", ""]
    path = store.path("report.html")
    with open(path, "w") as f:
        f.write("\n".join(parts))
    return path
