#!/usr/bin/env python3
"""Fails when a source file includes a header of a module above it (or of a sibling module).

The module order is the one documented in docs/DEVELOPING.md ("Layout and dependency direction"):
a module may include its own headers and those of modules on a lower level, nothing else.
Usage: check_includes.py [repo root]   (exit 1 and one line per upward include on failure)
"""
import os
import re
import sys

# (path prefix, module name, level). The first matching prefix wins, so sched/workload/ comes
# before sched/. Modules on one level never include each other.
MODULES = [
    ("core/", "core", 0),
    ("gnn/", "gnn", 1),
    ("dataopt/", "dataopt", 1),
    ("sched/workload/", "sched/workload", 1),
    ("sched/", "sched", 2),
    ("sim/", "sim", 3),
    ("apps/", "apps", 4),
]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCES = (".cpp", ".hpp", ".h", ".cu", ".cuh")


def module_of(path):
    for prefix, name, level in MODULES:
        if path.startswith(prefix):
            return name, level
    return None


def violations(root):
    for top in sorted({p.split("/")[0] for p, _, _ in MODULES}):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.relpath(os.path.join(folder, f), root).replace(os.sep, "/")
                src = module_of(path)
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        dst = module_of(m.group(1))
                        if dst is None or dst[0] == src[0]:
                            continue
                        if dst[1] >= src[1]:
                            kind = "sibling" if dst[1] == src[1] else "upward"
                            yield f"{path}:{n}: {src[0]} (level {src[1]}) includes {m.group(1)} of {dst[0]} (level {dst[1]}): {kind} include"


def self_test():
    """The check itself can fail: a tree with one upward and one sibling include gives two lines."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "core/a.hpp": '#include "core/b.hpp"\n',
            "sched/workload/job.hpp": '#include "core/a.hpp"\n',
            "sched/api/policy.hpp": '#include "sched/workload/job.hpp"\n#include "sim/engine.hpp"\n',
            "gnn/x.cpp": '#include "dataopt/y.hpp"\n',
            "sim/engine.hpp": '#include "sched/api/policy.hpp"\n',
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as fh:
                fh.write(text)
        bad = list(violations(root))
    assert len(bad) == 2, bad
    assert any("sched/api/policy.hpp:2" in b and "upward" in b for b in bad), bad
    assert any("gnn/x.cpp:1" in b and "sibling" in b for b in bad), bad
    print("self-test: upward and sibling includes are reported")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    bad = list(violations(os.path.abspath(root)))
    for b in bad:
        print(b)
    order = " < ".join(sorted({f"{n}" for _, n, _ in MODULES}, key=lambda n: [l for _, m, l in MODULES if m == n][0]))
    if bad:
        print(f"{len(bad)} include(s) run against the module order ({order}); move the shared piece down a level")
        return 1
    print(f"all includes run downward ({order})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
