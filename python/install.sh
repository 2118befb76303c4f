#!/usr/bin/env bash
# Installs the mlsys Python package (this folder) into a virtual environment that sees Debian's
# pandas, offline: the build backend is Debian's setuptools and wheel.
#
#   python/install.sh [venv folder=~/.venvs/mlsys]
#
# The interpreter is Debian's /usr/bin/python3 (MLSYS_PYTHON names another): python3-pandas,
# python3-setuptools and python3-wheel (installed by scripts/setup) exist for it only. A pyenv or
# conda python3 that comes first on PATH does not see them, and pip then fails with "invalid
# command 'bdist_wheel'"; this script checks the interpreter first and says what it lacks.
# Exit status: 0 installed, 1 the installation failed, 2 the interpreter cannot do it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-$HOME/.venvs/mlsys}
py=${MLSYS_PYTHON:-/usr/bin/python3}
fail() { echo "python/install.sh: $*" >&2; exit 2; }
command -v "$py" >/dev/null || fail "no interpreter $py: install Debian's python3 (sudo scripts/setup) or name one with MLSYS_PYTHON=/path/to/python3"
# The modules the recipe needs, with the Debian package that provides each.
missing=$("$py" - <<'PY'
import importlib.util
import sys
need = [("venv", "python3-venv"), ("ensurepip", "python3-venv"), ("pandas", "python3-pandas"),
        ("setuptools", "python3-setuptools"), ("wheel", "python3-wheel")]
lacks = [f"{m} ({pkg})" for m, pkg in need if importlib.util.find_spec(m) is None]
if sys.version_info < (3, 9):
    lacks.insert(0, "Python >= 3.9")
print(", ".join(lacks))
PY
) || fail "$py does not run"
if [[ -n $missing ]]; then
  fail "$py (Python $("$py" -c 'import sys; print(sys.version.split()[0])')) lacks $missing." \
    "The recipe needs Debian's /usr/bin/python3 with python3-venv, python3-pip, python3-pandas, python3-setuptools" \
    "and python3-wheel (sudo scripts/setup installs them); a pyenv or conda python3 does not see Debian's packages:" \
    "run MLSYS_PYTHON=/usr/bin/python3 python/install.sh"
fi
"$py" -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-build-isolation --no-index -e "$here"
"$venv/bin/python" -c "import mlsys" || { echo "python/install.sh: $venv cannot import mlsys after the install" >&2; exit 1; }
echo "installed into $venv; try: $venv/bin/python -c \"import mlsys; print(mlsys.run('simulate').summary)\""
