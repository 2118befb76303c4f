#!/usr/bin/env python3
"""Prints the one line that ends a test run: how many tests were skipped, by reason.

A skipped test (tests/common/skip.hpp) prints `TEST SKIPPED [reason, ...]` and exits 77, which
ctest reports as "Skipped" (SKIP_RETURN_CODE). This reads the outputs ctest logged
(Testing/Temporary/LastTest.log, or LastTest.log.tmp while ctest is still running: its post-test
command runs before the log is renamed) and counts each skipped test once, under each reason it
gave.
Run by ctest after the tests (CTestCustom.cmake) and by `make test`; always exits 0.
Usage: skip_summary.py [build dir]
"""
import collections
import os
import re
import sys

MARK = re.compile(r"^TEST SKIPPED \[([^\]]*)\]", re.M)
TEST = re.compile(r"^\d+/\d+ Test: (.+)$", re.M)


def summary(log_text):
    reasons = collections.Counter()
    skipped = 0
    starts = [m for m in TEST.finditer(log_text)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(log_text)
        found = MARK.findall(log_text[m.end():end])
        if not found:
            continue
        skipped += 1
        for r in sorted({r.strip() for f in found for r in f.split(",") if r.strip()}):
            reasons[r] += 1
    if not skipped:
        return "skipped tests: none"
    by = ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
    return f"skipped tests: {skipped} ({by})"


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "."
    log = os.path.join(build, "Testing", "Temporary", "LastTest.log")
    if os.path.exists(log + ".tmp"):
        log += ".tmp"
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        print(f"skipped tests: unknown (no {log})")
        return 0
    print(summary(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
