"""Headless chromium driven by selenium, for the play pages' tests.

``driver_or_skip()`` starts one, or skips the test saying what is missing (selenium, chromium
or chromedriver: ``ci/install_browser.sh`` installs them on Debian/Ubuntu).
"""

from __future__ import annotations

import shutil

import pytest


def browser_paths() -> tuple[str, str] | str:
    """(chromium, chromedriver), or why they cannot be used."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'catmouse-solver[test]')"
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                  "google-chrome", "google-chrome-stable"))
                    if p), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(name for name, path in (("chromium", browser),
                                                       ("chromedriver", driver)) if not path)
        return f"no {missing} on PATH (run ci/install_browser.sh as root to install them)"
    return browser, driver


def driver_or_skip(window: str = "1200,900"):
    """A headless chromium webdriver (the caller quits it), or skip the test."""
    found = browser_paths()
    if isinstance(found, str):
        pytest.skip(f"browser tests skipped: {found}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = found
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 f"--window-size={window}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
