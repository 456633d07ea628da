#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the module's dependency structure; exit status 1 on any problem.

1. The folder graph (doc/architecture.rst): the folders of model/ (model/fabric, model/rdma,
   ...), helper/ and bindings/python are the parts a reader sees. Folder A depends on folder B
   when a .h or .cc file in A includes a header that lives in B (by file name, with or without
   the ns3/ prefix). This graph must have no cycle; a cycle is printed with one include per arrow.
2. The CMake parts (cmake/sources-<part>.cmake) must have no cycle either, and: a part depends on another when one of its sources or headers (as listed in
cmake/sources-<part>.cmake) includes a header the other part lists. CMake builds a subset
(-DMLNET_PARTS=...) with every part it depends on, so a missing dependency breaks that build
and an extra one builds more than needed. Prints the differences; exit status 1 if any.
3. The CMake parts are the folders: part <p> lists exactly the .h/.cc files of model/<p>; part
   helper those of helper/ but the front end's; part scenario the front end's (helper/scenario*,
   helper/simulation-session*). A file of these folders that no part lists is reported too.
4. No C++ file (model, helper, bindings, examples, test, bench) is over MAX_LINES lines: a file
   that grows past it is split on a seam (doc/architecture.rst).
5. Models reach mlnet's event engine through one facade: no file of model/ outside model/sim
   includes mlnet-simulator-impl.h or names MlnetSimulatorImpl (they use FastEvents,
   model/sim/fast-events.h, whose calls fall back to ns-3's Simulator under another engine).

usage: check-part-deps.py [MODULE_ROOT] [--graph]
  --graph      also print the folder graph's arrows (with the number of includes behind each)
  --self-test  check that a cycle and a clean graph are told apart (on a made-up tree)
"""
import os
import re
import sys


def part_files(root):
    """part -> {"headers": [paths], "code": [paths]} from cmake/sources-<part>.cmake."""
    parts = {}
    cmake_dir = os.path.join(root, "cmake")
    for name in sorted(os.listdir(cmake_dir)):
        m = re.fullmatch(r"sources-(.+)\.cmake", name)
        if not m:
            continue
        # without comments (a ")" in one would end a list early)
        text = "\n".join(l.split("#")[0] for l in open(os.path.join(cmake_dir, name)).read().split("\n"))
        dirs = re.findall(r"set\(_dir \$\{MLNET_ROOT\}/(\S+)\)", text)
        files = {"headers": [], "code": []}
        for block in re.finditer(r"list\(APPEND (MLNET_SOURCES|MLNET_HEADERS)(.*?)\)", text, re.S):
            kind = "headers" if block.group(1) == "MLNET_HEADERS" else "code"
            for tok in block.group(2).split():
                if tok.startswith("${_dir}"):
                    # _dir may be set several times: take the last one set before this block
                    before = text[: block.start()]
                    d = re.findall(r"set\(_dir \$\{MLNET_ROOT\}/(\S+)\)", before)
                    tok = tok.replace("${_dir}", d[-1] if d else dirs[0])
                else:
                    tok = tok.replace("${MLNET_ROOT}/", "")
                files[kind].append(os.path.join(root, tok))
        parts[m.group(1)] = files
    return parts


def measured_deps(root):
    parts = part_files(root)
    owner = {}
    for part, files in parts.items():
        for h in files["headers"]:
            owner[os.path.basename(h)] = part
    deps = {}
    for part, files in parts.items():
        found = set()
        for path in files["headers"] + files["code"]:
            with open(path) as f:
                for inc in re.findall(r'#include "(?:ns3/)?([\w.\-]+\.h)"', f.read()):
                    other = owner.get(inc)
                    if other and other != part:
                        found.add(other)
        deps[part] = found
    return deps


def declared_deps(root):
    text = open(os.path.join(root, "CMakeLists.txt")).read()
    return {
        m.group(1): set(filter(None, m.group(2).split(";")))
        for m in re.finditer(r'set\(MLNET_PART_DEPS_([\w\-]+) "([^"]*)"\)', text)
    }


FOLDER_ROOTS = ("model", "helper", "bindings")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?([\w.\-]+\.h)"', re.M)


def folder_graph(root):
    """{folder: {other folder: [(file, included header), ...]}} over FOLDER_ROOTS, from disk."""
    owner, files = {}, []
    for top in FOLDER_ROOTS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith((".h", ".cc")):
                    rel = os.path.relpath(os.path.join(d, n), root)
                    files.append(rel)
                    if n.endswith(".h"):
                        if n in owner and owner[n] != os.path.dirname(rel):
                            raise SystemExit(f"header name {n} in two folders: {owner[n]}, "
                                             f"{os.path.dirname(rel)}")
                        owner[n] = os.path.dirname(rel)
    graph = {}
    for rel in files:
        folder = os.path.dirname(rel)
        graph.setdefault(folder, {})
        with open(os.path.join(root, rel)) as f:
            for inc in INCLUDE_RE.findall(f.read()):
                other = owner.get(inc)
                if other and other != folder:
                    graph[folder].setdefault(other, []).append((rel, inc))
    return graph


def find_cycle(graph):
    """One cycle of {node: iterable of successors} as a list [a, b, ..., a], or None."""
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def self_test():
    """A made-up module: model/a includes model/b, model/b includes model/c; then c includes a."""
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)

        write("model/a/a.h", '#include "ns3/b.h"\n')
        write("model/b/b.h", '#include "c.h"\n')
        write("model/c/c.h", "#include <vector>\n")
        write("helper/h.cc", '#include "ns3/a.h"\n#include "ns3/c.h"\n')
        g = folder_graph(root)
        ok = find_cycle(g) is None and sorted(g["helper"]) == ["model/a", "model/c"]
        write("model/c/c.cc", '#include "c.h"\n#include "ns3/a.h"\n')
        cycle = find_cycle(folder_graph(root))
        ok = ok and cycle == ["model/a", "model/b", "model/c", "model/a"]
    print("self-test: " + ("a cycle is found, a clean graph passes" if ok else f"FAILED ({cycle})"))
    return 0 if ok else 1


FRONT_END = ("scenario", "simulation-session")


def folder_of_part(part):
    return "helper" if part in ("helper", "scenario") else "model/" + part


def part_of_file(rel):
    """The part a file of model/ or helper/ belongs to (parts = folders), or None."""
    folder, name = os.path.dirname(rel), os.path.basename(rel)
    if folder == "helper":
        return "scenario" if name.startswith(FRONT_END) else "helper"
    if folder.startswith("model/") and folder.count("/") == 1:
        return folder.split("/")[1]
    return None


def parts_are_folders(root):
    """Messages for every file listed in the wrong part, and every file no part lists."""
    problems, listed = [], set()
    for part, files in part_files(root).items():
        for path in files["headers"] + files["code"]:
            rel = os.path.relpath(path, root)
            listed.add(rel)
            if part_of_file(rel) != part:
                problems.append(f"{rel} is listed in cmake/sources-{part}.cmake, but parts are "
                                f"folders: it belongs to part {part_of_file(rel)}")
    for top in ("model", "helper"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                rel = os.path.relpath(os.path.join(d, n), root)
                if n.endswith((".h", ".cc")) and rel not in listed and part_of_file(rel):
                    problems.append(f"{rel} is in no part (add it to "
                                    f"cmake/sources-{part_of_file(rel)}.cmake)")
    return problems


MAX_LINES = 900
# Files still over MAX_LINES (doc/architecture.rst says which seam splits them), with the length
# they may not exceed until then.
KNOWN_LONG = {}


def long_files(root):
    """(path, lines) of every .h/.cc file over MAX_LINES lines."""
    out = []
    for top in ("model", "helper", "bindings", "examples", "test", "bench"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if n.endswith((".h", ".cc")):
                    path = os.path.join(d, n)
                    with open(path, encoding="utf-8") as f:
                        lines = sum(1 for _ in f)
                    rel = os.path.relpath(path, root)
                    if lines > max(MAX_LINES, KNOWN_LONG.get(rel, 0)):
                        out.append((rel, lines))
    return sorted(out)


def engine_leaks(root):
    """(file, line number, line) of model code outside model/sim that names the engine class."""
    leaks = []
    model = os.path.join(root, "model")
    for folder in sorted(os.listdir(model)):
        if folder == "sim" or not os.path.isdir(os.path.join(model, folder)):
            continue
        for name in sorted(os.listdir(os.path.join(model, folder))):
            if not name.endswith((".h", ".cc")):
                continue
            path = os.path.join(model, folder, name)
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if "MlnetSimulatorImpl" in line or "mlnet-simulator-impl.h" in line:
                        leaks.append((os.path.relpath(path, root), n, line.strip()))
    return leaks


def main():
    if "--self-test" in sys.argv:
        return self_test()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = 0
    folders = folder_graph(root)
    if "--graph" in sys.argv:
        for a in sorted(folders):
            print(f"{a} -> " + (", ".join(f"{b} ({len(folders[a][b])})"
                                          for b in sorted(folders[a])) or "(nothing)"))
    cycle = find_cycle(folders)
    if cycle:
        print("folder graph has a cycle: " + " -> ".join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            f, inc = folders[a][b][0]
            print(f"  {a} -> {b}: {f} includes {inc}")
        bad += 1
    else:
        print(f"folder graph: {len(folders)} folders, no cycle")
    measured, declared = measured_deps(root), declared_deps(root)
    part_cycle = find_cycle(declared)
    if part_cycle:
        print("the CMake parts (MLNET_PART_DEPS_*) have a cycle: " + " -> ".join(part_cycle))
        bad += 1
    for part in sorted(set(measured) | set(declared)):
        m, d = measured.get(part), declared.get(part)
        if m is None or d is None:
            print(f"{part}: {'no cmake/sources file' if m is None else 'no MLNET_PART_DEPS_' + part}")
            bad += 1
        elif m != d:
            print(f'{part}: the code includes {";".join(sorted(m)) or "(none)"}, CMakeLists.txt '
                  f'declares {";".join(sorted(d)) or "(none)"}: set(MLNET_PART_DEPS_{part} '
                  f'"{";".join(sorted(m))}")')
            bad += 1
    for problem in parts_are_folders(root):
        print(problem)
        bad += 1
    for path, lines in long_files(root):
        cap = max(MAX_LINES, KNOWN_LONG.get(path, 0))
        print(f"{path}: {lines} lines, over {cap}: split it on a seam")
        bad += 1
    leaks = engine_leaks(root)
    for f, n, line in leaks:
        print(f"{f}:{n}: names the engine class; models use FastEvents (model/sim/fast-events.h): "
              f"{line}")
    bad += bool(leaks)
    if not bad:
        print(f"part dependencies: {len(measured)} parts, CMakeLists.txt matches the #includes")
        print("every part is one folder and lists every file of it")
        print(f"no C++ file is over {MAX_LINES} lines (but the KNOWN_LONG ones, within their caps)")
        print("model code reaches the event engine only through FastEvents")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
