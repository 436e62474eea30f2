#!/usr/bin/env bash
# Make the geng tests runnable: nauty's graph generator, which the cop-win and cop-number stream
# tests, the notebook's census cell and the docs' census examples pipe from (Debian names the
# program nauty-geng). The tests ship their own graph6 fixtures and skip without geng, saying so.
#
# Present already: says so. Missing, on Debian/Ubuntu, as root: apt-get installs nauty.
# Otherwise it prints why it did not. It never fails its caller.
set -uo pipefail

if command -v geng >/dev/null 2>&1 || command -v nauty-geng >/dev/null 2>&1; then
    echo "== install_geng: geng is present"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || [[ $(id -u) -ne 0 ]]; then
    echo "== install_geng: geng is missing and this is no root on Debian/Ubuntu, so not" \
         "installing: install nauty to run the geng tests (they skip otherwise)"
    exit 0
fi
echo "== install_geng: geng is missing; installing nauty with apt-get"
export DEBIAN_FRONTEND=noninteractive
if apt-get install -y -qq --no-install-recommends nauty >/dev/null \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends nauty >/dev/null; }; then
    echo "== install_geng: installed nauty"
else
    echo "== install_geng: apt-get could not install nauty; the geng tests will skip"
fi
exit 0
