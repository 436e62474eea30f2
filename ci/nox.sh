#!/usr/bin/env bash
# Run nox from a fresh machine: a virtual environment of its own with nox in it, then
# `nox ARGS...` from the checkout's root (noxfile.py makes every other environment).
#
#   bash ci/nox.sh -l                       list the sessions
#   bash ci/nox.sh -s tests-compiled lint   run some
#
# Environment: PYTHON (the interpreter for nox and its sessions, default python3),
# CATMOUSE_NOX_VENV (where nox goes, default .venv-nox in the checkout; made anew each run).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=ci/venv.sh
source "$repo/ci/venv.sh"
python=${PYTHON:-python3}
venv=${CATMOUSE_NOX_VENV:-$repo/.venv-nox}

echo "== ci/nox.sh: nox in $venv from $("$python" --version 2>&1)"
py=$(new_venv "$venv" "$python")
"$py" -m pip install --quiet --disable-pip-version-check nox
cd "$repo"
exec "$py" -m nox "$@"
