#!/usr/bin/env bash
# ctest scripts/plot_run_interpreter: scripts/plot/plot_run.py run by an interpreter without
# matplotlib (a venv without system packages, as a pyenv or conda python3 first on PATH would be)
# exits 2 naming that interpreter and Debian's /usr/bin/python3, which has python3-matplotlib.
# Skipped (exit 77) where /usr/bin/python3 or its venv module is missing.
# Usage: plot_run_interpreter_test.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
rm -rf "$work"
mkdir -p "$work/run"
if ! /usr/bin/python3 -m venv --without-pip "$work/bare" 2>/dev/null; then
  echo "TEST SKIPPED [no-python3-venv]: /usr/bin/python3 -m venv is not available (scripts/setup installs python3-venv)"
  exit 77
fi
set +e
"$work/bare/bin/python" "$src/scripts/plot/plot_run.py" "$work/run" 2> "$work/err"
rc=$?
set -e
[[ $rc -eq 2 ]] || { echo "FAIL: exit $rc, expected 2"; cat "$work/err"; exit 1; }
grep -qF "matplotlib is missing for $work/bare/bin/python" "$work/err" || { echo "FAIL: the interpreter is not named:"; cat "$work/err"; exit 1; }
grep -qF "installed for /usr/bin/python3: run /usr/bin/python3" "$work/err" || { echo "FAIL: no pointer to Debian's python3:"; cat "$work/err"; exit 1; }
echo "plot_run interpreter message: ok"
