#!/usr/bin/env python3
"""Fails when a source file includes a header of a module or core folder above it (or a sibling).

The order is the one documented in docs/DEVELOPING.md ("Layout and dependency direction"): a
module may include its own headers and those of modules on a lower level, nothing else; inside
core/ the same rule holds between its folders (CORE_LEVELS). Any cycle among modules or core
folders is reported as well (with strict levels there can be none; the cycle line says which
includes close it, which is what one fixes).
Usage: check_includes.py [repo root]   (exit 1 and one line per wrong include on failure)
       check_includes.py --self-test    (plants upward, sibling and cyclic includes)
"""
import os
import re
import sys

# (path prefix, module name, level). The first matching prefix wins, so sched/workload/ and
# sched/schedmate/ come before sched/. Modules on one level never include each other. sched/
# builds three libraries: mlsys_workload (sched/workload), mlsys_sched (api, policies,
# placement) and mlsys_schedmate (sched/schedmate), which reads workload only.
MODULES = [
    ("core/", "core", 0),
    ("gnn/", "gnn", 1),
    ("dataopt/", "dataopt", 1),
    ("sched/workload/", "sched/workload", 1),
    ("sched/schedmate/", "sched/schedmate", 2),
    ("sched/", "sched", 2),
    ("sim/", "sim", 3),
    ("apps/", "apps", 4),
]

# core/<folder> levels, lowest first. util: pure helpers (strings, JSON, fs, RNG, npy/npz);
# process: the process's signals, launcher rank, memory and threads, long loops; io: files read
# with progress and stops (lines, CSV, hashes); device: the backends that fill the kernel tables
# (CPU here, CUDA in its plugin); runtime: run folders, records, commands; sweep: the sweep runner.
CORE_LEVELS = {
    "util": 0,
    "log": 1,
    "config": 1,
    "registry": 2,
    "process": 2,
    "io": 3,
    "tensor": 3,
    "quant": 4,
    "kernels": 5,
    "device": 6,
    "comm": 6,
    "nn": 6,
    "runtime": 7,
    "sweep": 8,
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCES = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".inc")


def module_of(path):
    for prefix, name, level in MODULES:
        if path.startswith(prefix):
            return name, level
    return None


def core_folder_of(path):
    """('core/<folder>', level) for a path under core/<folder>/, else None; level None if unknown."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "core":
        return None
    return "core/" + parts[1], CORE_LEVELS.get(parts[1])


def units_of(src_path, dst_path):
    """The units the order applies to: core folders between two files of core/, else modules."""
    src, dst = core_folder_of(src_path), core_folder_of(dst_path)
    if src and dst:
        return src, dst
    return module_of(src_path), module_of(dst_path)


def includes(root):
    """(path, line number, included path) for every quoted include of a module source."""
    for top in sorted({p.split("/")[0] for p, _, _ in MODULES}):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.relpath(os.path.join(folder, f), root).replace(os.sep, "/")
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if m:
                            yield path, n, m.group(1)


def find_cycles(edges):
    """Each elementary cycle's nodes once (smallest rotation), from a {node: {node: where}} graph."""
    cycles = set()

    def walk(start, node, stack, seen):
        for nxt in sorted(edges.get(node, {})):
            if nxt == start:
                k = stack.index(min(stack))
                cycles.add(tuple(stack[k:] + stack[:k]))
            elif nxt not in seen and nxt > start:
                seen.add(nxt)
                walk(start, nxt, stack + [nxt], seen)
                seen.discard(nxt)

    for start in sorted(edges):
        walk(start, start, [start], {start})
    return sorted(cycles)


def violations(root):
    edges = {}
    unknown = set()
    for path, n, inc in includes(root):
        src, dst = units_of(path, inc)
        if src is None or dst is None or src[0] == dst[0]:
            continue
        edges.setdefault(src[0], {}).setdefault(dst[0], f"{path}:{n}")
        for unit in (src, dst):
            if unit[1] is None and unit[0] not in unknown:
                unknown.add(unit[0])
                yield f"{path}:{n}: {unit[0]} has no level: add it to CORE_LEVELS in tests/layers/check_includes.py and docs/DEVELOPING.md"
        if src[1] is None or dst[1] is None:
            continue
        if dst[1] >= src[1]:
            kind = "sibling" if dst[1] == src[1] else "upward"
            yield f"{path}:{n}: {src[0]} (level {src[1]}) includes {inc} of {dst[0]} (level {dst[1]}): {kind} include"
    for cycle in find_cycles(edges):
        ring = list(cycle) + [cycle[0]]
        where = ", ".join(f"{a} -> {b} at {edges[a][b]}" for a, b in zip(ring, ring[1:]))
        yield f"cycle {' -> '.join(ring)}: {where}"


def self_test():
    """The check itself can fail: upward, sibling and cyclic includes are each reported."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "core/util/a.hpp": '#include "core/util/b.hpp"\n',
            # A planted cycle inside core: tensor -> kernels is fine, kernels -> tensor closes it.
            "core/tensor/t.hpp": '#include "core/kernels/k.hpp"\n',
            "core/kernels/k.hpp": '#include "core/tensor/t.hpp"\n',
            "core/comm/c.hpp": '#include "core/nn/n.hpp"\n',
            "core/newfolder/x.hpp": '#include "core/util/a.hpp"\n',
            "sched/workload/job.hpp": '#include "core/util/a.hpp"\n',
            "sched/api/policy.hpp": '#include "sched/workload/job.hpp"\n#include "sim/engine.hpp"\n',
            "sched/schedmate/advisor.hpp": '#include "sched/api/policy.hpp"\n',
            "gnn/x.cpp": '#include "dataopt/y.hpp"\n',
            "sim/engine.hpp": '#include "sched/api/policy.hpp"\n',
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as fh:
                fh.write(text)
        bad = list(violations(root))
    expected = [
        ("sched/api/policy.hpp:2", "upward"),
        ("gnn/x.cpp:1", "sibling"),
        ("sched/schedmate/advisor.hpp:1", "sibling"),
        ("core/tensor/t.hpp:1", "upward"),
        ("core/comm/c.hpp:1", "sibling"),
        ("core/newfolder/x.hpp:1", "has no level"),
        ("cycle core/kernels -> core/tensor -> core/kernels", "core/tensor/t.hpp:1"),
        ("cycle sched -> sim -> sched", "sim/engine.hpp:1"),
    ]
    for where, what in expected:
        assert any(where in b and what in b for b in bad), (where, what, bad)
    assert len(bad) == len(expected), bad
    print("self-test: upward, sibling, unlevelled and cyclic includes are reported")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    bad = list(violations(os.path.abspath(root)))
    for b in bad:
        print(b)
    levels = {}
    for _, name, level in MODULES:
        levels.setdefault(level, []).append(name)
    order = " < ".join(" | ".join(v) for _, v in sorted(levels.items()))
    core = {}
    for name, level in CORE_LEVELS.items():
        core.setdefault(level, []).append(name)
    core_order = " < ".join(" | ".join(v) for _, v in sorted(core.items()))
    if bad:
        print(f"{len(bad)} include(s) run against the order ({order}; inside core: {core_order}); "
              "move the shared piece down a level")
        return 1
    print(f"all includes run downward ({order}; inside core: {core_order}); no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
