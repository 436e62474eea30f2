#!/usr/bin/env bash
# Build the compiled engine in place and run the benchmark against the C++
# reference (ci/bench/ref.cpp, compiled with g++ -O2 by the benchmark itself).
#
#   ci/bench.sh            full run (under 5 minutes)
#   ci/bench.sh --quick    under a minute
#   ci/bench.sh --families small,hot --reps 15
#
# Extra arguments go to `python -m catmouse._bench`.  Figures are best-of-N
# thread CPU times, ratios taken within one run; run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
CATMOUSE_REQUIRE_EXTENSIONS=1 "$PYTHON" setup.py -q build_ext --inplace
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" CATMOUSE_REQUIRE_EXTENSIONS=1 \
    exec "$PYTHON" -m catmouse._bench "$@"
