#!/usr/bin/env python3
"""Checks four structural rules of the project's C and C++ sources.

1. No function in non-test code is longer than --max-lines lines (default
   100), counted from the line of its opening brace to the line of its
   closing brace.
2. No #include climbs: a quoted include never names `..`, in any folder
   of the tree, tests included. A header of another folder, whether of the
   same component (offload/plugins/gpu from offload/plugins/cuda) or of
   another (offload/include from openmp/), is reached through an include
   directory the build names (`"gpu/DriverLibrary.h"`), so moving a folder
   breaks no include and every folder's dependencies are in its build.
3. No non-test source file under offload/ is longer than --max-file-lines
   lines (default 800): a file that grows past it holds more than one
   responsibility and is split by what happens there.
4. The files of offload/libomptarget include each other without a cycle.
   A header and its source file (`images/Runtime.h`, `images/Runtime.cpp`)
   are one unit, `images/Runtime`; a unit depends on every unit of the
   folder whose header either of its files includes (named from
   offload/libomptarget, `"mapping/MappingTable.h"`, or from its own folder).
   Each cycle is reported once, as the units around it.

  scripts/check-structure.py [--root DIR] [--max-lines N]
                             [--max-file-lines N] [PATH ...]

PATHs (files or folders, relative to the root) default to every component.
Exits 1 and lists each violation as file:line: message; 0 when clean.

Functions are found lexically: comments, strings and preprocessor lines are
blanked, then a `{` at namespace or class scope that follows `)` (after any
qualifiers, a trailing return type or a constructor's initializer list)
opens a function body. That is exact for code in the project's style, which
clang-format keeps uniform, and needs no compilation database.
"""

import argparse
import os
import re
import sys

COMPONENTS = ["llvm", "clang", "flang", "mlir", "offload", "openmp", "bench",
              "tools", "examples", "test", "unittests", "fuzz", "scripts"]
# Not walked unless named: the checker's own inputs, which break the rules
# on purpose (test/structure).
SKIPPED_DIRS = {os.path.join("test", "structure", "Inputs")}
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp", ".inc", ".def")
# Folders whose files are tests, inputs of tests, or generated.
TEST_PARTS = {"test", "tests", "unittests", "Inputs", "fuzz"}

TOKEN = re.compile(r"[A-Za-z_]\w*|::|->|\S")
# Rule 3: the folders whose files have a length limit.
FILE_LIMITED = ("offload",)
# Rule 4: the folders whose units must not include each other in a cycle;
# each is also the include directory its files name headers from.
ACYCLIC = (os.path.join("offload", "libomptarget"),)

QUALIFIERS = {"const", "noexcept", "override", "final", "volatile", "mutable",
              "&", "&&", "try"}


def blank_comments_and_strings(text):
    """Replaces comments, string/char literals and preprocessor lines by
    spaces, keeping every newline so line numbers stay right."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20])
        if raw:
            end = text.find(")" + raw.group(1) + '"', i)
            end = n if end < 0 else end + len(raw.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
            continue
        if c == "\n":
            at_line_start = True
        out.append(c)
        i += 1
    return "".join(out)


def tokens_with_lines(text):
    line = 1
    pos = 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        yield m.group(0), line


def opens_function(previous):
    """Whether a `{` preceded by the tokens `previous` (most recent last)
    at namespace or class scope starts a function body."""
    i = len(previous) - 1
    while i >= 0 and previous[i] in QUALIFIERS:
        i -= 1
    if i < 0:
        return False
    if previous[i] == ")":
        return True
    # A constructor's initializer list ending in `x{...}` or a trailing
    # return type: look back to the parameter list's `)` on the same
    # declaration (stop at `;`, `{`, `}` of an earlier declaration).
    depth = 0
    for tok in reversed(previous[:i + 1]):
        if tok in (";", "{") and depth == 0:
            return False
        if tok == "}":
            depth += 1
        elif tok == "{" and depth:
            depth -= 1
        elif depth == 0 and tok in ("->", ":") and ")" in previous:
            return True
        elif depth == 0 and tok == "=":
            return False
    return False


def long_functions(path, text, max_lines):
    """[(line, length)] of functions longer than max_lines in text."""
    found = []
    # Scopes: ("ns"|"class"|"func"|"other", opening line)
    scopes = []
    previous = []
    for tok, line in tokens_with_lines(blank_comments_and_strings(text)):
        if tok == "{":
            inside_function = any(kind == "func" for kind, _ in scopes)
            if inside_function:
                kind = "other"
            elif any(t in ("namespace", "extern") for t in previous[-3:]):
                kind = "ns"
            elif opens_function(previous[-40:]):
                kind = "func"
            elif any(t in ("class", "struct", "union", "enum")
                     for t in previous[-12:]):
                kind = "class"
            else:
                kind = "other"
            scopes.append((kind, line))
            previous = []
            continue
        if tok == "}":
            if scopes:
                kind, start = scopes.pop()
                if kind == "func" and line - start + 1 > max_lines:
                    found.append((start, line - start + 1))
            previous = []
            continue
        if tok == ";":
            previous = []
            continue
        previous.append(tok)
    return found


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def climbing_includes(text):
    """[(line, include)] of quoted includes that name `..`."""
    found = []
    for m in INCLUDE.finditer(text):
        name = m.group(1)
        if ".." in name.split("/"):
            found.append((text.count("\n", 0, m.start()) + 1, name))
    return found


def is_test_file(rel):
    return any(part in TEST_PARTS for part in rel.split(os.sep))


def sources(root, paths):
    for top in paths:
        full = os.path.join(root, top)
        if os.path.isfile(full):
            yield full
            continue
        for dirpath, dirs, files in os.walk(full):
            dirs[:] = sorted(
                d for d in dirs
                if os.path.relpath(os.path.join(dirpath, d), root)
                not in SKIPPED_DIRS)
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(dirpath, name)


def unit_of(rel, top):
    """The unit of \p rel inside \p top: its path from there without the
    suffix (a header and its source file share it)."""
    return os.path.splitext(os.path.relpath(rel, top))[0]


def include_cycles(root, top, rels):
    """[[unit, ...]] of the cycles among the units of \p top that \p rels
    (files under it) include: each cycle once, from its least unit."""
    units = {}
    for rel in rels:
        with open(os.path.join(root, rel), encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
        deps = units.setdefault(unit_of(rel, top), set())
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            for base in (top, os.path.dirname(rel)):
                if os.path.isfile(os.path.join(root, base, name)):
                    deps.add(unit_of(os.path.join(base, name), top))
                    break
    cycles = []
    seen = set()
    # A cycle through unit U, found from U along the least units first;
    # reported from its least unit so that it is found once.
    for start in sorted(units):
        path, on_path = [start], {start}

        def walk(node):
            for dep in sorted(units.get(node, ())):
                if dep == start and len(path) > 1:
                    key = frozenset(path)
                    if key not in seen and min(path) == start:
                        seen.add(key)
                        cycles.append(list(path))
                elif dep not in on_path and dep > start:
                    path.append(dep)
                    on_path.add(dep)
                    walk(dep)
                    on_path.discard(path.pop())

        walk(start)
    return cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap.add_argument("--max-lines", type=int, default=100)
    ap.add_argument("--max-file-lines", type=int, default=800)
    ap.add_argument("paths", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    paths = args.paths or [c for c in COMPONENTS
                           if os.path.isdir(os.path.join(root, c))]
    problems = 0
    acyclic = {top: [] for top in ACYCLIC}
    for path in sources(root, paths):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for top in ACYCLIC:
            if rel.startswith(top + os.sep):
                acyclic[top].append(rel)
        for line, name in climbing_includes(text):
            print("%s:%d: #include \"%s\" climbs out of %s/" %
                  (rel, line, name, os.path.dirname(rel)))
            problems += 1
        if is_test_file(rel):
            continue
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        if (rel.split(os.sep)[0] in FILE_LIMITED and
                lines > args.max_file_lines):
            print("%s: %d lines (at most %d in %s/)" %
                  (rel, lines, args.max_file_lines, rel.split(os.sep)[0]))
            problems += 1
        for line, length in long_functions(path, text, args.max_lines):
            print("%s:%d: function of %d lines (at most %d)" %
                  (rel, line, length, args.max_lines))
            problems += 1
    for top, rels in acyclic.items():
        for cycle in include_cycles(root, top, rels):
            print("%s: include cycle: %s" %
                  (top, " -> ".join(cycle + [cycle[0]])))
            problems += 1
    if problems:
        print("check-structure: %d problem(s)" % problems, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
