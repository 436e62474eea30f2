# shellcheck shell=bash
# The one place a shell script makes a virtual environment (nox makes the others).
# Source it, then: py=$(new_venv DIR INTERPRETER)   # DIR is made anew, with an up-to-date pip

new_venv() {
    local dir=$1 interpreter=$2 py
    rm -rf "$dir"
    "$interpreter" -m venv "$dir"
    # Windows venvs keep their interpreter in Scripts/.
    if [[ -x $dir/bin/python ]]; then py=$dir/bin/python; else py=$dir/Scripts/python.exe; fi
    "$py" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    echo "$py"
}
