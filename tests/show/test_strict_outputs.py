"""Every writer's output is what its format says, whatever the labels, titles and file names:
SVG parses as XML, JSON with a strict parser (no Infinity, no NaN), CSV with csv, npz with
numpy.load, the play page with html.parser.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import catmouse
from catmouse.show.draw import Setup
from catmouse.show.page import page_html
from catmouse.show.svg import game_svg

TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=30)


def strict_json(text: str) -> object:
    def refuse(name: str) -> None:
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


@settings(max_examples=150, deadline=None)
@given(title=TEXT, subtitle=TEXT)
def test_the_svg_parses_whatever_its_title(title, subtitle):
    graph = catmouse.Graph([[1], [0, 2], [1]])
    ET.fromstring(game_svg(graph, [(1, 2, catmouse.Turn.MOUSE)], title=title,
                           subtitle=subtitle))


@settings(max_examples=60, deadline=None)
@example(labels=["", "\ud800", 0.0])  # a lone surrogate: UTF-8 cannot hold it
@example(labels=["", "\x00", 0.0])  # NUL: 3.10's csv module could not write it
@given(labels=st.lists(st.one_of(TEXT, st.floats(), st.integers(),
                                 st.tuples(st.integers(), st.integers())),
                       min_size=3, max_size=3, unique_by=lambda x: repr(x)))
def test_exports_and_pictures_parse_whatever_the_labels(labels):
    networkx = pytest.importorskip("networkx")
    if len({label if not (isinstance(label, float) and math.isnan(label)) else "nan"
            for label in labels}) < 3:
        return  # NaN is not equal to itself: networkx cannot name two nodes by it
    graph = networkx.relabel_nodes(networkx.path_graph(3), dict(enumerate(labels)))
    if graph.number_of_nodes() != 3:
        return
    analysis = catmouse.analyze(graph, hole=labels[0])
    strict_json(analysis.to_json())
    text = _csv(analysis)
    if sys.version_info < (3, 11):  # 3.10's csv reader refuses NUL, which catmouse writes
        text = text.replace("\0", "?")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) > 1
    ET.fromstring(catmouse.draw(analysis, mouse=labels[1], cat=labels[2]))


def _csv(analysis) -> str:
    from catmouse.io.export import write_csv

    out = io.StringIO()
    write_csv(analysis, out)
    return out.getvalue()


def test_infinite_and_nan_labels_are_written_as_objects():
    networkx = pytest.importorskip("networkx")
    graph = networkx.relabel_nodes(networkx.path_graph(3),
                                   {0: math.inf, 1: -math.inf, 2: "x"})
    table = strict_json(catmouse.analyze(graph, hole="x").to_json())
    # (not JSON as numbers; objects, which no label is, so not the strings "inf" either)
    assert table["labels"] == [{"float": "inf"}, {"float": "-inf"}, "x"]


def test_the_npz_loads(tmp_path):
    numpy = pytest.importorskip("numpy")
    path = tmp_path / "t.npz"
    catmouse.analyze([[1, 3], [0, 2], [1, 3], [0, 2]]).save(path)
    with numpy.load(path) as data:
        assert data["outcomes"].shape == (2, 4, 4)


class _Strict(HTMLParser):
    def error(self, message: str) -> None:  # pragma: no cover - older Pythons only
        raise ValueError(message)


@settings(max_examples=40, deadline=None)
@given(title=TEXT)
def test_the_play_page_parses_whatever_its_title(title):
    page = page_html(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, catmouse.Turn.MOUSE,
                     title=title)
    parser = _Strict()
    parser.feed(page)
    parser.close()
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    ET.fromstring(svg)
    assert "\x07" not in page.split("<script")[0]
