"""SVG to PNG for ``catmouse draw -o game.png``, through whatever converter is present.

catmouse has no runtime dependency, so it draws PNG only through a converter
already on the machine, tried in this order: the ``rsvg-convert`` program
(librsvg), the ``cairosvg`` module, or a headless Chromium/Chrome screenshot.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..io.atomic import replacing_path

__all__ = ["CONVERTER_HELP", "converters", "find_converter", "write_png"]

CONVERTER_HELP = (
    "rsvg-convert (Debian/Ubuntu: apt install librsvg2-bin; macOS: brew install librsvg), "
    "the cairosvg module (pip install cairosvg), or chromium / Google Chrome"
)
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

Converter = Callable[[str, str, int, int], None]
# Seconds a converter program may run before it is taken for hung and stopped.
TIMEOUT = 120


def converters() -> list[tuple[str, Converter]]:
    """Every converter present, as (name, function), in the order they are tried."""
    found: list[tuple[str, Converter]] = []
    rsvg = shutil.which("rsvg-convert")
    if rsvg:
        found.append(("rsvg-convert", lambda svg, out, w, h: _rsvg(rsvg, svg, out)))
    if _cairosvg_loads():
        found.append(("cairosvg", lambda svg, out, w, h: _cairosvg(svg, out)))
    browser = next(filter(None, map(shutil.which, _BROWSERS)), None)
    if browser:
        name = os.path.basename(browser)
        found.append((name, lambda svg, out, w, h: _browser(browser, svg, out, w, h)))
    return found


def find_converter() -> tuple[str, Converter] | None:
    """The first converter present, as (name, function), or None."""
    found = converters()
    return found[0] if found else None


def _cairosvg_loads() -> bool:
    """cairosvg installed and usable: without the cairo C library its import fails."""
    if importlib.util.find_spec("cairosvg") is None:
        return False
    try:
        importlib.import_module("cairosvg")
    except (ImportError, OSError):
        return False
    return True


def write_png(svg: str, path: str, width: int, height: int,
              converter: tuple[str, Converter] | None = None) -> str:
    """Write ``svg`` (``width`` x ``height`` pixels) to ``path`` as PNG; return the converter.

    Raises RuntimeError when no converter is present or the converter fails.
    """
    found = converter or find_converter()
    if found is None:
        raise RuntimeError(f"writing PNG needs a converter; install one of: {CONVERTER_HELP}")
    name, run = found
    # The root's page style ("height: auto", for notebooks) makes cairosvg draw nothing.
    svg = re.sub(r'^(<svg\b[^>]*?) style="[^"]*"', r"\1", svg, count=1)
    # The converter writes a temporary file beside ``path``; it replaces ``path`` once whole.
    with replacing_path(path) as temporary:
        _convert(name, run, svg, temporary, width, height)
    return name


def _convert(name: str, run: Converter, svg: str, path: str, width: int, height: int) -> None:
    try:
        run(svg, path, width, height)
    except subprocess.CalledProcessError as error:
        # The program's own last words (captured, not spilled on the terminal) say why.
        said = (error.stderr or b"").decode(errors="replace").strip()
        why = f" ({said.splitlines()[-1]})" if said else ""
        raise RuntimeError(f"{name} could not convert the picture: exit status "
                           f"{error.returncode}{why}") from None
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"{name} could not convert the picture: stopped, still running "
                           f"after {error.timeout:g} s") from None
    except (OSError, subprocess.SubprocessError) as error:
        raise RuntimeError(f"{name} could not convert the picture: {error}") from None
    with open(path, "rb") as handle:
        if handle.read(8) != b"\x89PNG\r\n\x1a\n":
            raise RuntimeError(f"{name} did not write a PNG file")


def _rsvg(program: str, svg: str, out: str) -> None:
    subprocess.run([program, "--background-color=white", "-o", out], input=svg.encode(),
                   check=True, capture_output=True, timeout=TIMEOUT)


def _cairosvg(svg: str, out: str) -> None:
    module = importlib.import_module("cairosvg")
    module.svg2png(bytestring=svg.encode(), write_to=out, background_color="white")


def _browser(program: str, svg: str, out: str, width: int, height: int) -> None:
    """A headless screenshot of the picture alone, at its own size."""
    with tempfile.TemporaryDirectory(prefix="catmouse-png-") as folder:
        page = Path(folder) / "picture.html"
        page.write_text("<!DOCTYPE html><html><body style='margin:0;background:white'>"
                        + svg + "</body></html>", encoding="utf-8")
        shot = Path(folder) / "shot.png"
        command = [program, "--headless", "--disable-gpu", "--hide-scrollbars",
                   "--force-device-scale-factor=1", f"--window-size={width},{height}",
                   f"--user-data-dir={Path(folder) / 'profile'}",
                   f"--screenshot={shot}", page.as_uri()]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.insert(1, "--no-sandbox")  # Chromium refuses to run as root otherwise
        subprocess.run(command, check=True, capture_output=True, timeout=TIMEOUT)
        if not shot.exists():
            raise OSError(f"{program} wrote no screenshot")
        shutil.move(str(shot), out)
