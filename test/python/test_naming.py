# SPDX-License-Identifier: GPL-2.0-only
"""doc/scenario.rst's naming table ("One naming: JSON, C++ and Python"): every Python name it
gives is a method of mlnet.Simulation (or mlnet.Simulation / mlnet.aggregate itself) and every
argument it gives is one of that function's keyword arguments. The JSON side is checked against
the parser by the C++ test 'helper: the naming table of doc/scenario.rst matches the parser'."""

import os
import re
import unittest

import mlnet

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "doc", "scenario.rst")


def naming_rows():
    """(section, json, cpp, python) of every row of the table."""
    with open(DOC) as f:
        lines = f.read().splitlines()
    start = lines.index("One naming: JSON, C++ and Python")
    rows, borders = [], 0
    for line in lines[start:]:
        if re.fullmatch(r"=+( +=+)+", line):  # a table border (not the heading's underline)
            borders += 1
            if borders == 3:
                break
            continue
        if borders == 2 and line.strip():
            cols = [c.strip("`") for c in re.split(r"\s{2,}", line.strip())]
            rows.append(tuple(cols))
    return rows


def arguments(function):
    """Keyword names in a pybind11 function's signature line(s) of its docstring."""
    names = set()
    for sig in re.findall(r"\(self(?:: [^,)]*)?(?:, )?(.*?)\) ->", function.__doc__ or ""):
        names.update(re.findall(r"(\w+):", sig))
    for sig in re.findall(r"^\w+\((.*?)\) ->", function.__doc__ or "", re.M):
        names.update(re.findall(r"(\w+):", sig))
    return names


def aggregate_arguments():
    """The keyword arguments mlnet.aggregate() accepts, from its own error message."""
    try:
        mlnet.aggregate(zzz_unknown=1)
    except ValueError as e:
        m = re.search(r"\(accepted: (.*?);", str(e))
        assert m, str(e)
        return set(m.group(1).split(", "))
    raise AssertionError("aggregate() accepted an unknown argument")


def section_arguments(method):
    """The keyword arguments a section method of mlnet.Simulation (host, aggregation,
    scheduler) accepts: the section's keys in snake_case, from its "unknown key" error."""
    with mlnet.Simulation() as sim:
        sim.dumbbell(left=1, right=1)
        sim.install_rdma()
        args = {"zzz_unknown": 1}
        if method == "scheduler":
            args["policy"] = "fair"  # required: read before the unknown key is refused
        try:
            getattr(sim, method)(**args)
        except ValueError as e:
            m = re.search(r"zzz_unknown: unknown key \(accepted: (.*?)\)", str(e))
            assert m, str(e)
            return set(m.group(1).split(", "))
    raise AssertionError(f"{method}() accepted an unknown argument")


SECTION_METHODS = ("host", "aggregation", "scheduler")


class TestNamingTable(unittest.TestCase):
    def test_python_names_exist(self):
        rows = naming_rows()
        self.assertGreater(len(rows), 50)
        checked = 0
        for section, key, _cpp, python in rows:
            if python == "-":
                continue
            m = re.fullmatch(r"(\w+)\((\w*)\)", python)
            self.assertIsNotNone(m, f"{section} {key}: Python name {python!r}")
            func, arg = m.groups()
            if func == "Simulation":
                target = mlnet.Simulation.__init__
            elif func == "aggregate":
                target = mlnet.aggregate
                if arg:  # keyword arguments: the ones its "unknown argument" error accepts
                    self.assertIn(arg, aggregate_arguments(), f"{section} {key}: {python}")
                    checked += 1
                    continue
            elif func in SECTION_METHODS:
                self.assertTrue(hasattr(mlnet.Simulation, func), f"{section} {key}: {func}")
                if arg:
                    self.assertIn(arg, section_arguments(func), f"{section} {key}: {python}")
                checked += 1
                continue
            else:
                self.assertTrue(hasattr(mlnet.Simulation, func), f"{section} {key}: {func}")
                target = getattr(mlnet.Simulation, func)
            if arg:
                self.assertIn(arg, arguments(target), f"{section} {key}: {python}")
            checked += 1
        self.assertGreater(checked, 30)

    def test_aggregation_names_match_the_scenario_keys(self):
        """aggregate() and AdderTree take the scenario's words; the older names still work."""
        args = aggregate_arguments()
        for name in ["tree_depth", "aggregation_cc", "hosts", "max_slots", "chunk_elements"]:
            self.assertIn(name, args)
        for older in ["depth", "cc", "workers"]:
            self.assertNotIn(older, args)
        self.assertEqual(mlnet.AdderTree(tree_depth=7).latency, mlnet.AdderTree(depth=7).latency)
        with self.assertRaisesRegex(ValueError, "depth is the older name of tree_depth"):
            mlnet.AdderTree(tree_depth=7, depth=7)
        with self.assertRaisesRegex(ValueError, "cc is the older name of aggregation_cc"):
            mlnet.aggregate(aggregation_cc="none", cc="none")
        with self.assertRaisesRegex(ValueError, "workers is the older name of hosts"):
            mlnet.aggregate(workers=[0, 1], hosts=[0, 1])

    def test_section_methods_take_every_key_of_their_section(self):
        """host(), aggregation(), scheduler(): the table lists every key they accept."""
        documented = {}
        for section, _key, _cpp, python in naming_rows():
            m = re.fullmatch(r"(\w+)\((\w+)\)", python)
            if m and m.group(1) in SECTION_METHODS:
                documented.setdefault(m.group(1), set()).add(m.group(2))
        for method in SECTION_METHODS:
            self.assertEqual(documented[method], section_arguments(method), method)

    def test_signature_reader_sees_arguments(self):
        self.assertIn("hosts_per_edge", arguments(mlnet.Simulation.fat_tree))
        self.assertIn("seed", arguments(mlnet.Simulation.__init__))


if __name__ == "__main__":
    unittest.main()
