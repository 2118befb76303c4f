#!/usr/bin/env python3
"""Hashes the deterministic outputs of a fixed list of commands, to prove a refactor changes none.

  scripts/dev/output_hashes.py record [mlsys] [manifest]   run everything twice, keep what is
                                                            stable, write the manifest
  scripts/dev/output_hashes.py check  [mlsys] [manifest]   run once, compare with the manifest
  MLSYS_HASH_ONLY=configs/simulate,quickstart scripts/dev/output_hashes.py record|check ...
      only the runs whose names start with one of the prefixes; `record` then replaces just
      their entries in the manifest and keeps the others
  scripts/dev/output_hashes.py rehash DIR [mlsys] [manifest]  the selected entries' hashes from
                                                            the output folder of a check (DIR)
                                                            with that mlsys, drop lists kept
`rehash` is for an output change that is understood (the reason stated in the commit): it keeps
each entry's drop list, which may hold keys that varied in an earlier record but not between the
two runs of a new one, and costs no run; outputs new to the folder are not added (use record).

What runs: every command's quickstart (scripts/quickstart), every repro script (scripts/repro/*.sh;
sylvie at 20 epochs), and every shipped config under configs/<command>/ in its own mode. Outputs
are normalized before hashing: CSV columns and JSON keys that differ between two runs of the same
build (wall times, peak memory, paths of temporary folders) are left out, as are run.log,
trace.json and summary.json's "run" object (the run record: build, git commit, host, clock times,
command line and input hashes, which describe the run rather than its results); the output folder
and the mlsys executable's path are written as <OUT> and <MLSYS>; everything else must match byte
for byte. Needs ../shared/data (or MLSYS_DATA_DIR).
The manifest lives in tests/golden/output_hashes.json; a deliberate change of an output is
re-recorded in the commit that makes it, with the reason in the commit message.
"""
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The study protocol's records (scripts/repro/protocol.py): commits, file hashes and clock times.
SKIP_FILES = {"run.log", "trace.json", "protocol.json", "validation_report.json", "test_report.json",
              "study_run.json"}
# .key: a cached prior's validity key, which names its input files' paths, sizes and modification
# times (dataopt/pipeline/priors.cpp): it describes the machine's copy of the data, not a result.
SKIP_SUFFIXES = (".bin", ".mlsg", ".prior", ".tmp", ".key")
# summary.json's run record (core/runtime/run_record.hpp): never hashed, so adding or changing
# record fields (or a new commit's git sha) is not an output change.
RECORD_KEY = "run"
# Study scripts run on a short committed protocol (scripts/repro/protocol.py), not their full one.
SMOKE_PROTOCOLS = {
    "sylvie": "configs/repro/sylvie/smoke_protocol.yaml",  # 20 epochs
    "sylvie_accuracy": "configs/repro/sylvie/accuracy/smoke_protocol.yaml",  # Cora, GCN, seed 1
}
# The mlsys executable's path, replaced by <MLSYS> (config.yaml's re-run line names it).
BINARY = None


def selected(name):
    only = [p for p in os.environ.get("MLSYS_HASH_ONLY", "").split(",") if p]
    return not only or any(name.startswith(p) for p in only)


def runs(mlsys, out):
    """(name, argv) of every command whose outputs are hashed; each writes under out/name."""
    return [(name, argv) for name, argv in all_runs(mlsys, out) if selected(name)]


def all_runs(mlsys, out):
    cmds = [("quickstart", ["bash", "scripts/quickstart", mlsys])]
    for script in sorted(os.listdir(os.path.join(ROOT, "scripts", "repro"))):
        if not script.endswith(".sh"):  # helpers of the scripts (table printers), not runs
            continue
        name = script[:-3]
        argv = ["bash", f"scripts/repro/{script}", mlsys, os.path.join(out, "repro", name)]
        if name in SMOKE_PROTOCOLS:  # the whole study takes long: its committed smoke protocol
            argv = ["env", f"PROTOCOL={os.path.join(ROOT, SMOKE_PROTOCOLS[name])}"] + argv
        cmds.append((f"repro/{name}", argv))
    for command in ("train-gnn", "simulate", "schedmate", "coopt"):
        folder = os.path.join(ROOT, "configs", command)
        for cfg in sorted(os.listdir(folder)):
            if cfg == "openai.yaml":  # needs an LLM server
                continue
            name = f"configs/{command}/{cfg[:-5]}"
            cmds.append((name, [mlsys, command, f"configs/{command}/{cfg}", "--out", os.path.join(out, name),
                                "--set", "run.progress=off"]))
    return cmds


def execute(mlsys, out):
    env = dict(os.environ)
    env.setdefault("MLSYS_DATA_DIR", os.path.abspath(os.path.join(ROOT, "..", "shared", "data")))
    env["QUICKSTART_OUT"] = os.path.join(out, "quickstart")
    failed = []
    for name, argv in runs(mlsys, out):
        print(f"  {name}", flush=True)
        r = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            failed.append(name)
            print(r.stdout[-2000:])
    return failed


# The output folder of the run being hashed: its path is replaced by <OUT> wherever a file names it
# (config.yaml, summary.json), so two runs into different folders hash alike.
OUT_ROOT = None


def read_text(path):
    with open(path, "rb") as fh:
        data = fh.read()
    if BINARY:
        data = data.replace(BINARY.encode(), b"<MLSYS>")
    if OUT_ROOT:
        data = data.replace(OUT_ROOT.encode(), b"<OUT>")
    return data


def is_record(path, key):
    return os.path.basename(path) == "summary.json" and (key == RECORD_KEY or key.startswith(RECORD_KEY + "."))


def load_csv(path):
    return list(csv.reader(io.StringIO(read_text(path).decode("utf-8", "replace"), newline="")))


def load_json(path):
    return json.loads(read_text(path))


def flatten(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, value


def view(path, drop):
    """The file's content with the dropped columns / keys removed, as bytes to hash."""
    if path.endswith(".csv"):
        rows = load_csv(path)
        if not rows:
            return b""
        keep = [i for i, h in enumerate(rows[0]) if h not in drop]
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        for r in rows:
            w.writerow([r[i] for i in keep if i < len(r)])
        return buf.getvalue().encode()
    if path.endswith(".json"):
        items = [(k, v) for k, v in flatten(load_json(path)) if k not in drop and not is_record(path, k)]
        return json.dumps(items).encode()
    return read_text(path)


def units(path):
    """The columns (CSV) or keys (JSON) of a file that may be dropped one by one."""
    if path.endswith(".csv"):
        rows = load_csv(path)
        return rows[0] if rows else []
    if path.endswith(".json"):
        return [k for k, _ in flatten(load_json(path)) if not is_record(path, k)]
    return []


def unit_values(path, unit):
    if path.endswith(".csv"):
        rows = load_csv(path)
        i = rows[0].index(unit)
        return [r[i] if i < len(r) else None for r in rows[1:]]
    return [v for k, v in flatten(load_json(path)) if k == unit]


def outputs(out):
    found = {}
    for folder, _, files in os.walk(out):
        for f in files:
            if f in SKIP_FILES or f.endswith(SKIP_SUFFIXES):
                continue
            full = os.path.join(folder, f)
            found[os.path.relpath(full, out)] = full
    return found


def with_root(root, fn, *args):
    global OUT_ROOT
    OUT_ROOT = root
    try:
        return fn(*args)
    finally:
        OUT_ROOT = None


def record(mlsys, manifest):
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        for d in (a, b):
            print(f"run into {d}")
            failed = execute(mlsys, d)
            if failed:
                sys.exit(f"failed: {failed}")
        fa, fb = outputs(a), outputs(b)
        entries = {}
        for rel in sorted(set(fa) & set(fb)):
            pa, pb = fa[rel], fb[rel]
            drop = []
            try:
                ua, ub = with_root(a, units, pa), with_root(b, units, pb)
                for u in ua:
                    if u not in ub or with_root(a, unit_values, pa, u) != with_root(b, unit_values, pb, u):
                        drop.append(u)
                drop += [u for u in ub if u not in ua]
                va, vb = with_root(a, view, pa, set(drop)), with_root(b, view, pb, set(drop))
            except (ValueError, json.JSONDecodeError, UnicodeDecodeError):
                va, vb = with_root(a, view, pa, set()), with_root(b, view, pb, set())
            if va != vb:
                print(f"  unstable, left out: {rel}")
                continue
            entries[rel] = {"sha256": hashlib.sha256(va).hexdigest(), "drop": sorted(drop)}
    if os.environ.get("MLSYS_HASH_ONLY") and os.path.exists(manifest):
        with open(manifest) as fh:
            kept = {k: v for k, v in json.load(fh).items() if not selected(k)}
        kept.update(entries)
        entries = kept
    os.makedirs(os.path.dirname(manifest), exist_ok=True)
    with open(manifest, "w") as fh:
        json.dump(entries, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"recorded {len(entries)} outputs in {manifest}")


def check(mlsys, manifest):
    with open(manifest) as fh:
        entries = json.load(fh)
    out = tempfile.mkdtemp(prefix="mlsys-hashes-")
    failed = execute(mlsys, out)
    found = outputs(out)
    changed, missing = [], []
    entries = {k: v for k, v in entries.items() if selected(k)}
    for rel, e in sorted(entries.items()):
        if rel not in found:
            missing.append(rel)
            continue
        if hashlib.sha256(with_root(out, view, found[rel], set(e["drop"]))).hexdigest() != e["sha256"]:
            changed.append(rel)
    for rel in missing:
        print(f"MISSING {rel}")
    for rel in changed:
        print(f"CHANGED {rel}")
    print(f"{len(entries) - len(changed) - len(missing)}/{len(entries)} outputs identical; outputs in {out}")
    if failed:
        print(f"commands that failed: {failed}")
    if changed or missing or failed:
        return 1
    shutil.rmtree(out)
    return 0


def rehash(out, manifest):
    with open(manifest) as fh:
        entries = json.load(fh)
    found = outputs(out)
    missing = [rel for rel in entries if selected(rel) and rel not in found]
    if missing:
        sys.exit(f"not in {out}: {missing[:5]} ({len(missing)} entries); run check with the same MLSYS_HASH_ONLY first")
    changed = 0
    for rel, e in entries.items():
        if not selected(rel):
            continue
        sha = hashlib.sha256(with_root(out, view, found[rel], set(e["drop"]))).hexdigest()
        changed += sha != e["sha256"]
        e["sha256"] = sha
    with open(manifest, "w") as fh:
        json.dump(entries, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"re-hashed {changed} entries in {manifest}")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("record", "check", "rehash") or (sys.argv[1] == "rehash" and len(sys.argv) < 3):
        sys.exit(__doc__)
    global BINARY
    args = sys.argv[3:] if sys.argv[1] == "rehash" else sys.argv[2:]
    mlsys = os.path.abspath(args[0] if len(args) > 0 else os.path.join(ROOT, "build", "bin", "mlsys"))
    BINARY = os.path.realpath(mlsys)
    manifest = args[1] if len(args) > 1 else os.path.join(ROOT, "tests", "golden", "output_hashes.json")
    if sys.argv[1] == "rehash":
        rehash(os.path.abspath(sys.argv[2]), manifest)
        return 0
    if sys.argv[1] == "record":
        record(mlsys, manifest)
        return 0
    return check(mlsys, manifest)


if __name__ == "__main__":
    sys.exit(main())
