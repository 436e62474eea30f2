"""Writing a solved table: to_json, the CSV rows, .npz, Analysis.save and ``analyze -o``."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest

import catmouse
from catmouse import Game, Graph, Outcome, Turn
from catmouse.cli.commands import main
from catmouse.io.export import csv_text, save, suffix_of, table_dict, to_json, write_csv

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
PATH3 = [[1], [0, 2], [1]]  # 0 - 1 - 2, the hole at 0

# Worked by hand: the mouse on the hole has won, the cat on the mouse has won; from
# (1, 2) the mover steps onto the hole (mouse) or onto the mouse (cat); from (2, 1)
# the mouse must walk into the cat, and the cat, kept off the hole, takes the mouse.
PATH3_CSV = """\
mouse,cat,turn,outcome,remoteness,best_moves
0,1,MOUSE,MOUSE_WIN,0,
0,2,MOUSE,MOUSE_WIN,0,
1,1,MOUSE,CAT_WIN,0,
1,2,MOUSE,MOUSE_WIN,1,0
2,1,MOUSE,CAT_WIN,1,1
2,2,MOUSE,CAT_WIN,0,
0,1,CAT,MOUSE_WIN,0,
0,2,CAT,MOUSE_WIN,0,
1,1,CAT,CAT_WIN,0,
1,2,CAT,CAT_WIN,1,1
2,1,CAT,CAT_WIN,1,2
2,2,CAT,CAT_WIN,0,
"""


def positions(analysis):
    n = analysis.n
    return [(mouse, cat, turn) for turn in Turn for mouse in range(n) for cat in range(n)]


def read_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def check_rows_against_queries(rows, analysis, forbidden):
    """Every row says what the Analysis queries say; every existing position has one row."""
    expected = [(m, c, t) for m, c, t in positions(analysis) if c not in forbidden]
    assert [(int(r["mouse"]), int(r["cat"]), Turn[r["turn"]]) for r in rows] == expected
    for row, (mouse, cat, turn) in zip(rows, expected):
        assert row["outcome"] == analysis.outcome(mouse, cat, turn).name
        plies = analysis.remoteness(mouse, cat, turn) if analysis.has_remoteness else None
        assert row["remoteness"] == ("" if plies is None else str(plies))
        assert row["best_moves"] == " ".join(map(str, analysis.best_moves(mouse, cat, turn)))


# -- CSV ----------------------------------------------------------------------------------------


def test_csv_of_a_path_row_by_row(use_engine):
    analysis = catmouse.analyze(PATH3)
    assert csv_text(analysis) == PATH3_CSV
    handle = io.StringIO()
    assert write_csv(analysis, handle) == 12  # rows written, the header not counted
    assert handle.getvalue() == PATH3_CSV


@pytest.mark.parametrize("remoteness", [True, False])
def test_csv_rows_match_the_queries_under_game_options(use_engine, remoteness):
    game = Game(EXAMPLE, cat_forbidden=(0, 1), mouse_stays=True, first=Turn.CAT)
    analysis = game.analyze(remoteness=remoteness)
    text = csv_text(analysis)
    assert text.splitlines()[0] == "mouse,cat,turn,outcome,remoteness,best_moves"
    rows = read_rows(text)
    assert write_csv(analysis, io.StringIO()) == len(rows) == 2 * 6 * 4
    check_rows_against_queries(rows, analysis, forbidden={0, 1})
    # The rows cover what the check is for: draws, several best moves, and (with
    # remoteness) both empty and numbered plies.
    assert any(r["outcome"] == "DRAW" for r in rows)
    assert any(" " in r["best_moves"] for r in rows)
    assert {r["remoteness"] == "" for r in rows} == ({True, False} if remoteness else {True})


def test_save_csv_writes_the_same_text(tmp_path, use_engine):
    analysis = catmouse.analyze(PATH3)
    analysis.save(tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_bytes() == PATH3_CSV.encode()


# -- JSON ---------------------------------------------------------------------------------------


def test_json_round_trip_matches_the_queries(tmp_path, use_engine):
    game = Game(EXAMPLE, holes=(0, 4), cat_forbidden=(0, 1), cat_goals=(5,), first=Turn.CAT,
                draw=Outcome.CAT_WIN, mouse_stays=True)
    analysis = game.analyze()
    data = json.loads(analysis.to_json())
    assert data == table_dict(analysis) == json.loads(to_json(analysis))
    assert (data["n"], data["hole"], data["holes"]) == (6, None, [0, 4])
    assert (data["cat_forbidden"], data["cat_goals"]) == ([0, 1], [5])
    assert (data["directed"], data["first"], data["draw"]) == (False, "CAT", "CAT_WIN")
    assert "labels" not in data  # plain ids: nothing to translate
    for mouse, cat, turn in positions(analysis):
        code = data["outcomes"][turn][mouse][cat]
        plies = data["remoteness"][turn][mouse][cat]
        if cat in (0, 1):
            assert (code, plies) == (3, -1)  # no such position
            continue
        assert Outcome(code) == analysis.outcome(mouse, cat, turn)
        expected = analysis.remoteness(mouse, cat, turn)
        assert plies == (-1 if expected is None else expected)
    save(analysis, tmp_path / "t.JSON")
    assert (tmp_path / "t.JSON").read_text(encoding="utf-8") == analysis.to_json() + "\n"


def test_json_of_the_classic_game_names_its_one_hole(use_engine):
    data = json.loads(catmouse.analyze(PATH3).to_json())
    assert (data["hole"], data["holes"], data["cat_forbidden"], data["cat_goals"]) == \
        (0, [0], [0], [])
    assert (data["first"], data["draw"], data["directed"]) == ("MOUSE", "DRAW", False)
    # The same table PATH3_CSV spells out, [turn][mouse][cat].
    assert data["outcomes"] == [[[3, 1, 1], [3, 2, 1], [3, 2, 2]],
                                [[3, 1, 1], [3, 2, 2], [3, 2, 2]]]
    assert data["remoteness"] == [[[-1, 0, 0], [-1, 0, 1], [-1, 1, 0]],
                                  [[-1, 0, 0], [-1, 0, 1], [-1, 1, 0]]]


def test_json_keeps_the_labels_of_a_networkx_graph():
    nx = pytest.importorskip("networkx")
    board = nx.Graph([("den", 7), (7, 2.5), (2.5, (0, 1)), ((0, 1), "den")])
    graph = Graph.from_networkx(board, nodes=["den", 7, 2.5, (0, 1)])
    analysis = catmouse.analyze(graph, hole="den")  # a labelled graph names its hole
    data = json.loads(analysis.to_json())
    # Strings and numbers as they are; a tuple as an array (no label is a list).
    assert data["labels"] == ["den", 7, 2.5, [0, 1]]
    assert data["outcomes"] == analysis.outcomes.tolist()


def test_labels_that_print_alike_stay_apart_and_every_row_has_ids():
    """(1, 2) and "(1, 2)" print alike, and so do 1 and "1": JSON keeps them apart, and the
    CSV's rows are keyed by ids, the labels beside them."""
    nx = pytest.importorskip("networkx")
    graph = Graph.from_networkx(nx.Graph([((1, 2), "(1, 2)"), ("(1, 2)", 1), (1, "1")]),
                                nodes=[(1, 2), "(1, 2)", 1, "1"])
    analysis = catmouse.analyze(graph, hole=1)
    labels = json.loads(analysis.to_json())["labels"]
    assert labels == [[1, 2], "(1, 2)", 1, "1"] and len({json.dumps(x) for x in labels}) == 4
    rows = list(csv.DictReader(io.StringIO(csv_text(analysis))))
    keys = [(r["mouse"], r["cat"], r["turn"]) for r in rows]
    assert len(set(keys)) == len(rows) == 2 * 4 * 3  # the cat never on the hole
    assert {(r["mouse"], r["mouse_label"]) for r in rows} == {
        ("0", "(1, 2)"), ("1", "(1, 2)"), ("2", "1"), ("3", "1")}


# -- npz ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("holes", "hole"), [((3,), 3), ((0, 4), -1), ((), -1)])
def test_npz_round_trip(tmp_path, holes, hole):
    np = pytest.importorskip("numpy")
    analysis = Game(EXAMPLE, holes=holes, cat_goals=(5,) if not holes else (),
                    first=Turn.CAT).analyze()
    analysis.save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz") as data:
        assert sorted(data.files) == ["cat_forbidden", "cat_goals", "cat_stays", "directed",
                                      "draw", "first", "hole", "holes", "mouse_stays",
                                      "outcomes", "remoteness"]
        assert data["outcomes"].tolist() == analysis.outcomes.tolist()
        assert data["remoteness"].tolist() == analysis.remoteness_table.tolist()
        assert int(data["hole"]) == hole and data["holes"].tolist() == list(holes)
        assert data["cat_forbidden"].tolist() == list(holes)
        assert data["cat_goals"].tolist() == ([] if holes else [5])
        assert bool(data["directed"]) is False and int(data["first"]) == Turn.CAT
        assert (bool(data["mouse_stays"]), bool(data["cat_stays"]), int(data["draw"])) == \
            (False, False, Outcome.DRAW)


@pytest.mark.parametrize("rules", [
    {}, {"mouse_stays": True}, {"cat_stays": True}, {"mouse_stays": True, "cat_stays": True},
    {"cat_graph": [[1], [0, 2], [1, 3], [2]]},
    {"cat_graph": [[1], [0, 2], [1, 3], [2]], "cat_stays": True, "draw": Outcome.CAT_WIN},
])
def test_exports_record_every_rule(tmp_path, rules):
    """Three different games once exported the same rules: the stays and the cat's own graph
    were in neither JSON nor npz, and the npz left out cat_forbidden, cat_goals and draw."""
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    analysis = Game(square, holes=(), cat_forbidden=(3,), **rules).analyze()
    cat_graph = rules.get("cat_graph")
    data = json.loads(analysis.to_json())
    assert (data["mouse_stays"], data["cat_stays"], data["cat_graph"]) == (
        rules.get("mouse_stays", False), rules.get("cat_stays", False), cat_graph)
    assert (data["cat_forbidden"], data["draw"]) == ([3], rules.get("draw", Outcome.DRAW).name)
    np = pytest.importorskip("numpy")
    analysis.save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz") as npz:
        assert (bool(npz["mouse_stays"]), bool(npz["cat_stays"])) == (
            data["mouse_stays"], data["cat_stays"])
        assert npz["cat_forbidden"].tolist() == [3] and int(npz["draw"]) == Outcome[data["draw"]]
        if cat_graph is None:
            assert "cat_indptr" not in npz.files and "cat_indices" not in npz.files
        else:
            indptr, indices = npz["cat_indptr"].tolist(), npz["cat_indices"].tolist()
            assert [indices[indptr[u]:indptr[u + 1]] for u in range(4)] == cat_graph


def test_npz_of_an_outcomes_only_analysis_has_no_remoteness(tmp_path):
    np = pytest.importorskip("numpy")
    analysis = catmouse.analyze(EXAMPLE, remoteness=False)
    analysis.save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz") as data:
        assert "remoteness" not in data.files
        assert data["outcomes"].tolist() == analysis.outcomes.tolist()


def test_npz_goes_to_the_name_given_whatever_the_case_of_its_suffix(tmp_path):
    # numpy, handed a name, adds ".npz" to one that ends ".NPZ": t.NPZ became t.NPZ.npz.
    np = pytest.importorskip("numpy")
    analysis = catmouse.analyze(EXAMPLE)
    analysis.save(tmp_path / "t.NPZ")
    assert [p.name for p in tmp_path.iterdir()] == ["t.NPZ"]
    with np.load(tmp_path / "t.NPZ") as data:
        assert data["outcomes"].tolist() == analysis.outcomes.tolist()


def test_cli_analyze_writes_the_npz_it_names(tmp_path, capsys):
    np = pytest.importorskip("numpy")
    board = tmp_path / "g.json"
    board.write_text(json.dumps(EXAMPLE))
    out_path = tmp_path / "table.NPZ"
    assert main(["analyze", str(board), "-o", str(out_path)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out_path}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "table.NPZ"]
    with np.load(out_path) as data:
        assert data["outcomes"].tolist() == catmouse.analyze(EXAMPLE).outcomes.tolist()


# -- suffixes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["t.json", "t.CSV", "dir.v2/t.Npz"])
def test_suffix_of_the_formats_understood(name):
    assert suffix_of(name) == "." + name.rsplit(".", 1)[1].lower()


@pytest.mark.parametrize(("name", "shown"), [("t.xlsx", ".xlsx"), ("t.json.gz", ".gz"),
                                             ("table", "no suffix"), ("dir.csv/t", "no suffix")])
def test_a_bad_suffix_is_refused_and_named(tmp_path, name, shown):
    path = tmp_path / name
    message = (f"cannot save a table as {str(path)!r} ({shown}): "
               "use a name ending in .json, .npz, .csv")
    with pytest.raises(ValueError) as error:
        suffix_of(path)
    assert str(error.value) == message
    with pytest.raises(ValueError) as error:
        catmouse.analyze(PATH3).save(path)
    assert str(error.value) == message
    assert not path.exists()


def test_a_bytes_path_is_saved_by_its_suffix(tmp_path):
    # It said "cannot save ... (b'.json'): use a name ending in .json".
    path = tmp_path / "t.json"
    analysis = catmouse.analyze(PATH3)
    analysis.save(os.fsencode(path))
    assert path.read_text(encoding="utf-8") == analysis.to_json() + "\n"


def ring(n):
    return [[(u - 1) % n, (u + 1) % n] for u in range(n)]


@pytest.mark.parametrize("with_numpy", [True, False])
@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_save_reports_positions_as_the_blocks_go_out(tmp_path, monkeypatch, suffix, with_numpy):
    from catmouse import table_text

    if not with_numpy:
        monkeypatch.setattr(table_text, "numpy_or_none", lambda: None)
    analysis = catmouse.analyze(ring(300))
    seen = []
    analysis.save(tmp_path / f"t{suffix}", progress=seen.append)
    total = 2 * 299 * 300 if suffix == ".csv" else 2 * 300 * 300  # the hole has no CSV row
    assert seen == sorted(seen) and seen[-1] == total
    assert 0 < seen[0] < total  # reported while writing, not only at the end


@pytest.mark.parametrize("remoteness", [True, False])
def test_save_npz_reports_each_table_written(tmp_path, remoteness):
    pytest.importorskip("numpy")
    analysis = catmouse.analyze(ring(300), remoteness=remoteness)
    seen = []
    analysis.save(tmp_path / "t.npz", progress=seen.append)
    total = 2 * 300 * 300
    # Outcomes, then remoteness: half the positions each; then the end once more.
    assert seen == ([total // 2, total, total] if remoteness else [total, total])


def test_save_with_progress_true_ends_the_bar_line(tmp_path, capsys):
    catmouse.analyze(EXAMPLE).save(tmp_path / "t.json", progress=True)
    err = capsys.readouterr().err
    assert err.endswith("save [##############################] 100% 72/72\n")


def test_npz_members_are_zip64_from_the_start(tmp_path):
    # numpy streams each array into the archive, its size unknown until written: every
    # member's local header carries the zip64 field, so that a table past 4 GiB fits.
    pytest.importorskip("numpy")
    import struct
    import zipfile

    path = tmp_path / "t.npz"
    catmouse.analyze(EXAMPLE).save(path)
    raw = path.read_bytes()
    members = zipfile.ZipFile(path).infolist()
    assert {m.filename for m in members} >= {"outcomes.npy", "remoteness.npy"}
    for member in members:
        at = member.header_offset
        assert raw[at:at + 4] == b"PK\x03\x04"
        name_length, extra_length = struct.unpack("<HH", raw[at + 26:at + 30])
        extra = raw[at + 30 + name_length:at + 30 + name_length + extra_length]
        assert struct.unpack("<H", extra[:2]) == (1,), member.filename  # the zip64 field's id


def test_npz_labels_json_keeps_what_the_str_array_loses(tmp_path):
    # numpy's string arrays drop trailing NULs, and str() makes 1 and "1" alike: the
    # labels_json array holds each label as the JSON list does.
    np = pytest.importorskip("numpy")
    graph = Graph({"h\0": ["a"], "a": ["h\0", 1], 1: ["a", "1", (2, "x")], "1": [1],
                   (2, "x"): [1]})
    analysis = catmouse.analyze(graph, hole="h\0")
    analysis.save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz") as data:
        assert data["labels"].tolist() == ["h", "a", "1", "1", "(2, 'x')"]
        texts = data["labels_json"].tolist()
    assert [json.loads(text) for text in texts] == json.loads(analysis.to_json())["labels"]
    assert [json.loads(text) for text in texts] == ["h\0", "a", 1, "1", [2, "x"]]


def test_npz_labels_json_is_as_long_as_the_labels_not_their_ascii_escapes(tmp_path):
    # numpy pads every string to the longest: a label of 100,000 "é" made labels_json's
    # strings 600,002 characters each (json.dumps's \u00e9 per character), 2.4 MB a node
    # where labels needs 0.4 MB.  Escapes stay only for what JSON must escape (a NUL, a
    # quote); lone surrogates are kept as the labels array keeps them.
    np = pytest.importorskip("numpy")
    long, odd = "é" * 100_000, 'x\ud800"\0😀'
    graph = Graph({0: [1], 1: [0, long], long: [1, odd], odd: [long]})
    catmouse.analyze(graph).save(tmp_path / "t.npz")
    with np.load(tmp_path / "t.npz", allow_pickle=False) as data:
        assert data["labels_json"].dtype == np.dtype(f"<U{len(long) + 2}")
        texts = data["labels_json"].tolist()
    assert [json.loads(text) for text in texts] == [0, 1, long, odd]
