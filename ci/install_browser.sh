#!/usr/bin/env bash
# Make the browser tests runnable: chromium and chromedriver, which selenium drives in
# tests/show/test_play_page.py (the play page played in a real browser).
#
# Present already: says so. Missing, on Debian/Ubuntu, as root: apt-get installs them (Debian's
# chromium + chromium-driver, else Ubuntu's chromium-browser + chromium-chromedriver). Otherwise
# it prints why it did not install them and what to run. It never fails its caller: without a
# browser the browser tests skip, saying what is missing.
set -uo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
browser=""
for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if have "$name"; then browser=$name; break; fi
done
if [[ -n $browser ]] && have chromedriver; then
    echo "== install_browser: $browser and chromedriver are present"
    exit 0
fi
missing=$([[ -z $browser ]] && echo "chromium ")$(have chromedriver || echo "chromedriver")
if ! have apt-get; then
    echo "== install_browser: missing ${missing}; no apt-get here, so not installing:" \
         "install chromium and its chromedriver to run the browser tests (they skip otherwise)"
    exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
    echo "== install_browser: missing ${missing}; not root, so not installing: run" \
         "'sudo apt-get install chromium chromium-driver' to run the browser tests" \
         "(they skip otherwise)"
    exit 0
fi
echo "== install_browser: missing ${missing}; installing with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || echo "== install_browser: apt-get update failed"
if apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null \
    || apt-get install -y -qq --no-install-recommends chromium-browser chromium-chromedriver \
        >/dev/null; then
    echo "== install_browser: installed; $(chromedriver --version 2>/dev/null | head -1)"
else
    echo "== install_browser: apt-get could not install chromium and chromedriver;" \
         "the browser tests will skip"
fi
exit 0
