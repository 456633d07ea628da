#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that CMakeLists.txt's MLNET_PART_DEPS_<part> lists match the code.

A part depends on another when one of its sources or headers (as listed in
cmake/sources-<part>.cmake) includes a header the other part lists. CMake builds a subset
(-DMLNET_PARTS=...) with every part it depends on, so a missing dependency breaks that build
and an extra one builds more than needed. Prints the differences; exit status 1 if any.

usage: check-part-deps.py [MODULE_ROOT]
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
        text = open(os.path.join(cmake_dir, name)).read()
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


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    measured, declared = measured_deps(root), declared_deps(root)
    bad = 0
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
    if not bad:
        print(f"part dependencies: {len(measured)} parts, CMakeLists.txt matches the #includes")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
