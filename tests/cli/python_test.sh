#!/usr/bin/env bash
# ctest cli/python_package: the documented route on Debian 12, whose system Python is externally
# managed: a venv that sees Debian's pandas, `pip install -e python/` into it (offline: the build
# backend is Debian's setuptools), then the one-line example and the package's tests.
# Usage: python_test.sh <source dir> <mlsys binary> <work dir>
set -euo pipefail
src=$1 bin=$2 work=$3
rm -rf "$work"
mkdir -p "$work/run"
# Debian's interpreter (the one python3-pandas is installed for), even where another python3
# (pyenv, conda) comes first on PATH.
py=/usr/bin/python3
[[ -x $py ]] || py=python3
"$py" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-build-isolation --no-index -e "$src/python"
export MLSYS_BINARY=$bin
cd "$work/run"
"$work/venv/bin/python" -c "import mlsys; print(mlsys.run('simulate').summary)"
"$work/venv/bin/python" -m unittest discover -s "$src/python/tests" -v
