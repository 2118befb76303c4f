#!/usr/bin/env bash
# ctest cli/python_package: the documented route on Debian 12, whose system Python is externally
# managed: python/install.sh (a venv that sees Debian's pandas, `pip install -e python/` into it,
# offline: the build backend is Debian's setuptools), then the one-line example and the package's
# tests; and the recipe's clear refusal of an interpreter without Debian's packages.
# Usage: python_test.sh <source dir> <mlsys binary> <work dir>
set -euo pipefail
src=$1 bin=$2 work=$3
rm -rf "$work"
mkdir -p "$work/run"
# The recipe refuses an interpreter that cannot see Debian's packages (as a pyenv or conda python3
# first on PATH) with a message naming what it lacks, before creating anything.
printf '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n' > "$work/python-without-site"
chmod +x "$work/python-without-site"
if [[ -x /usr/bin/python3 ]]; then
  set +e
  MLSYS_PYTHON=$work/python-without-site "$src/python/install.sh" "$work/refused" 2> "$work/refused.err"
  rc=$?
  set -e
  [[ $rc -eq 2 ]] || { echo "FAIL: install.sh with an interpreter lacking pandas exited $rc, expected 2"; exit 1; }
  grep -q "lacks pandas (python3-pandas)" "$work/refused.err" || { echo "FAIL: no clear message:"; cat "$work/refused.err"; exit 1; }
  [[ ! -e $work/refused ]] || { echo "FAIL: a venv was created anyway"; exit 1; }
fi
# The documented recipe: Debian's interpreter, even where another python3 comes first on PATH.
MLSYS_PYTHON=$(command -v /usr/bin/python3 || command -v python3) "$src/python/install.sh" "$work/venv"
export MLSYS_BINARY=$bin
cd "$work/run"
"$work/venv/bin/python" -c "import mlsys; print(mlsys.run('simulate').summary)"
"$work/venv/bin/python" -m unittest discover -s "$src/python/tests" -v
