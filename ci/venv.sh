# shellcheck shell=bash
# The one place a shell script makes a virtual environment (nox makes the others).
# Source it, then: py=$(new_venv DIR INTERPRETER)   # DIR is made anew, with an up-to-date pip
#                  py=$(venv_python DIR)            # the interpreter of a venv already made

# The interpreter of the venv in DIR (Windows venvs keep it in Scripts/).
venv_python() {
    if [[ -x $1/bin/python ]]; then echo "$1/bin/python"; else echo "$1/Scripts/python.exe"; fi
}

new_venv() {
    local dir=$1 interpreter=$2 py
    rm -rf "$dir"
    "$interpreter" -m venv "$dir"
    py=$(venv_python "$dir")
    "$py" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    echo "$py"
}
