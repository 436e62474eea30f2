#!/usr/bin/env bash
# The project's main job (the README's run command): the nox session "run".
#
# From a fresh machine (ci/nox.sh installs nox first), in a fresh virtual environment:
# install catmouse[all] from this checkout with the compiled engine REQUIRED, then, from
# outside the source tree (so the installed package runs, not the checkout's catmouse/):
#   1. say which engine runs;
#   2. solve the example game: outcome, remoteness and an optimal line;
#   3. draw it as SVG (written to $CATMOUSE_RUN_OUT, default out/ in the checkout);
#   4. run the quick benchmark (benchmarks/bench.py --quick) against the C++ references
#      (benchmarks/ref.cpp and, when present, benchmarks/ref_bits.cpp; needs g++).
#
# Environment: PYTHON (the interpreter, default python3), CATMOUSE_RUN_OUT.
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/nox.sh" -s run
