#!/usr/bin/env python3
"""Frozen, pre-registered protocols for the study scripts (#28).

A study reads every setting from committed files. Before its first run it records, in its output
folder, the commit and the sha256 of each settings file (protocol.json); it refuses to start when a
file is not committed or differs from the commit, and refuses a folder whose runs were made with
other settings. Its report on the validation split records the same hashes (validation_report.json);
its report on the test split is refused unless that validation report exists with the same hashes
and the files are still committed and unchanged, i.e. nothing was changed after the validation
figures were seen. The first test read is recorded (test_report.json) and never overwritten.

  protocol.py begin OUT PROTOCOL_FILE SETTINGS_FILE...   check and record (exit 2 when refused)
  protocol.py validated OUT                              record that OUT's validation figures were shown
  protocol.py gate OUT                                   exit 0 when OUT's test split may be shown, else
                                                         say why and exit 2
  protocol.py get PROTOCOL_FILE KEY                      print a key of a protocol file
  protocol.py commit                                     print the commit begin would record

Protocol files hold one `key: value` per line (lists space-separated, `#` comments).
The table scripts import this module for the validation/test gate (validation_done, check_test).
"""
import datetime
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Refused(Exception):
    """The protocol does not allow this step; the message says why and what to do."""


def read_protocol(path):
    values = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise Refused(f"{path}:{n}: expected `key: value`, got {line!r}")
            values[key.strip()] = value.strip()
    return values


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)


def head_commit():
    r = git("rev-parse", "HEAD")
    if r.returncode != 0:
        raise Refused(f"{ROOT} is not a git checkout, so the settings cannot be shown to be committed; "
                      "run the study from a clone of the repository")
    return r.stdout.strip()


def relative(path):
    return os.path.relpath(os.path.abspath(path), ROOT)


def check_committed(paths):
    """Each file tracked and identical to HEAD; returns {repo-relative path: sha256}."""
    head_commit()
    hashes, problems = {}, []
    for p in paths:
        rel = relative(p)
        if not os.path.isfile(p):
            problems.append(f"{rel}: no such file")
            continue
        if git("ls-files", "--error-unmatch", "--", rel).returncode != 0:
            problems.append(f"{rel}: not committed (git add and commit it first)")
        elif git("diff", "--quiet", "HEAD", "--", rel).returncode != 0:
            problems.append(f"{rel}: changed since the last commit (commit the change or restore the file)")
        hashes[rel] = sha256(p)
    if problems:
        raise Refused("settings files must be committed and unchanged:\n  " + "\n  ".join(problems))
    return hashes


def write_json(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def begin(out, protocol, settings):
    files = [protocol] + list(settings)
    hashes = check_committed(files)
    commit = head_commit()
    os.makedirs(out, exist_ok=True)
    record_path = os.path.join(out, "protocol.json")
    if os.path.exists(record_path):
        old = json.load(open(record_path))
        if old["files"] != hashes:
            changed = sorted(k for k in set(old["files"]) | set(hashes) if old["files"].get(k) != hashes.get(k))
            raise Refused(f"{out} holds runs made with other settings (changed: {', '.join(changed)}); "
                          "start a new output folder for the new settings")
        if commit not in old["commits"]:
            old["commits"].append(commit)
            write_json(record_path, old)
    else:
        write_json(record_path, {"protocol": relative(protocol), "files": hashes, "commits": [commit],
                                 "started": now()})
    return commit


def settings_hash(hashes):
    """One hash for a set of files (a run's record names it)."""
    return hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()


def load_record(out):
    path = os.path.join(out, "protocol.json")
    if not os.path.exists(path):
        return None
    return json.load(open(path))


def validation_done(out, extra=None):
    """Record that the validation figures of `out` were shown, with the settings' hashes."""
    record = load_record(out)
    if record is None:
        return
    write_json(os.path.join(out, "validation_report.json"),
               dict(files=record["files"], commit=head_commit(), shown=now(), **(extra or {})))


def check_test(out):
    """Raise Refused unless the test split of `out` may be shown; returns the protocol record."""
    record = load_record(out)
    if record is None:
        raise Refused(f"{out} has no protocol.json: its runs were not made under a frozen protocol")
    val_path = os.path.join(out, "validation_report.json")
    if not os.path.exists(val_path):
        raise Refused(f"no validation report in {out}: show the validation split first (--split validation); "
                      "the test split is read after it, with the same settings")
    val = json.load(open(val_path))
    if val["files"] != record["files"]:
        raise Refused(f"the validation report of {out} was made with other settings than its runs")
    current = check_committed([os.path.join(ROOT, p) for p in record["files"]])
    if current != record["files"]:
        changed = sorted(k for k in current if current[k] != record["files"].get(k))
        raise Refused(f"settings changed since the validation report ({', '.join(changed)}): the test split of "
                      "these runs is not shown; run the study again in a new folder with the new settings")
    test_path = os.path.join(out, "test_report.json")
    if not os.path.exists(test_path):
        write_json(test_path, {"files": record["files"], "commit": head_commit(), "first_shown": now()})
    return record


def main(argv):
    try:
        if len(argv) >= 3 and argv[0] == "begin":
            print(begin(argv[1], argv[2], argv[3:]))
        elif len(argv) == 3 and argv[0] == "get":
            values = read_protocol(argv[1])
            if argv[2] not in values:
                raise Refused(f"{argv[1]}: no key {argv[2]!r} (keys: {', '.join(sorted(values))})")
            print(values[argv[2]])
        elif len(argv) == 2 and argv[0] == "validated":
            if load_record(argv[1]) is None:
                raise Refused(f"{argv[1]} has no protocol.json (run `protocol.py begin` first)")
            validation_done(argv[1])
        elif len(argv) == 2 and argv[0] == "gate":
            check_test(argv[1])
        elif argv == ["commit"]:
            print(head_commit())
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Refused as e:
        print(f"protocol: refused: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
