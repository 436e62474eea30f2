"""ci/install_browser.sh: present browsers are left alone; missing ones are installed as root
with apt-get, or the script says why not; it never fails its caller."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "ci" / "install_browser.sh"

pytestmark = pytest.mark.skipif(not SCRIPT.exists() or shutil.which("bash") is None,
                                reason="needs the checkout's ci/ folder and bash")


def run(tmp_path, tools, user=None):
    """The script with only ``tools`` on PATH (symlinks to the real programs)."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)
    for tool in ("id", "head", *tools):
        real = shutil.which(tool)
        if real is None:
            pytest.skip(f"{tool} is not installed here")
        (folder / tool).symlink_to(real)
    script = SCRIPT
    if user is not None:
        # The checkout may sit in a folder only root can enter (ci/clang.sh copies it into a
        # private mktemp folder): the other user runs a copy from the open one.
        script = folder / SCRIPT.name
        shutil.copyfile(SCRIPT, script)
    command = [shutil.which("bash"), str(script)]
    if user is not None:
        command = [shutil.which("setpriv"), f"--reuid={user}", f"--regid={user}",
                   "--clear-groups", *command]
    result = subprocess.run(command, env={"PATH": str(folder)}, capture_output=True, text=True,
                            timeout=60)
    return result.returncode, result.stdout


def test_without_apt_get_it_says_what_to_install(tmp_path):
    code, out = run(tmp_path, [])
    assert code == 0
    assert "missing chromium chromedriver" in out and "no apt-get here" in out


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                    or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run the script as another user")
def test_not_root_it_says_to_use_sudo():
    # pytest's own temporary folders are private to root: another user needs an open one.
    with tempfile.TemporaryDirectory() as folder:
        Path(folder).chmod(0o755)
        code, out = run(Path(folder), ["apt-get"], user=65534)
    assert code == 0
    assert "not root, so not installing" in out and "sudo apt-get install chromium" in out


def test_present_browser_is_left_alone(tmp_path):
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        pytest.skip("chromium and chromedriver are not both installed here")
    code, out = run(tmp_path, ["chromium", "chromedriver", "apt-get"])
    assert code == 0 and out.strip() == "== install_browser: chromium and chromedriver are present"
