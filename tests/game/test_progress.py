"""progress= on analyze, verify and solve_many, and the stdlib bar behind progress=True."""

from __future__ import annotations

import io
import random

import pytest

import catmouse
from catmouse import Game, Turn
from catmouse import progress as _progress
from catmouse.progress import Bar, as_callback, engine_takes_progress, finish

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]


def grid(side):
    rows = [[] for _ in range(side * side)]
    for r in range(side):
        for c in range(side):
            u = r * side + c
            if c + 1 < side:
                rows[u].append(u + 1)
                rows[u + 1].append(u)
            if r + 1 < side:
                rows[u].append(u + side)
                rows[u + side].append(u)
    return rows


def test_verify_reports_checked_positions(use_engine):
    analysis = catmouse.analyze(grid(12))
    seen = []
    assert analysis.verify(progress=seen.append) is True
    total = 2 * analysis.n ** 2
    assert len(seen) >= 3 and seen[-1] == total
    assert seen == sorted(seen) and seen[0] > 0


def test_verify_progress_true_draws_a_bar(use_engine, capsys):
    assert catmouse.analyze(EXAMPLE).verify(progress=True)
    _, err = capsys.readouterr()
    # stderr is no terminal here: whole lines, one per tenth at most, and the end.
    assert "\r" not in err and err.endswith("verify [##############################] 100% 72/72\n")
    assert 1 <= err.count("\n") <= 11


def test_a_raising_callback_stops_verify(use_engine):
    def stop(done):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        catmouse.analyze(grid(8)).verify(progress=stop)


def test_analyze_progress_true_ends_with_a_full_bar(use_engine, capsys):
    a = catmouse.analyze(EXAMPLE, progress=True)
    _, err = capsys.readouterr()
    decided = sum(a.counts().values()) - a.counts()[catmouse.Outcome.DRAW]
    assert err.startswith("analyze [") and err.endswith(f"{decided}/72\n") and "\r" not in err
    assert a.outcomes.tobytes() == catmouse.analyze(EXAMPLE).outcomes.tobytes()


def test_analyze_progress_callback_reaches_the_engine(use_engine):
    # The engine calls progress(decided) between rounds.  Today's engines do not
    # take the keyword yet: then analyze raises TypeError, and this is an xfail.
    if not engine_takes_progress():
        pytest.xfail("engine without progress")
    graph = grid(10)
    seen, game_seen = [], []
    analysis = catmouse.analyze(graph, progress=seen.append)
    game = Game(graph, first=Turn.CAT).analyze(progress=game_seen.append)
    assert game.outcomes.tobytes() == analysis.outcomes.tobytes()
    decided = 2 * 100 * 100 - 2 * 100 - analysis.counts()[catmouse.Outcome.DRAW]
    for reports in (seen, game_seen):
        assert reports and reports[-1] == decided and reports == sorted(reports)


def test_the_engine_in_use_rejects_or_takes_the_keyword(use_engine):
    if engine_takes_progress():
        catmouse.analyze(EXAMPLE, progress=lambda done: None)
    else:
        with pytest.raises(TypeError, match="progress"):
            catmouse.analyze(EXAMPLE, progress=lambda done: None)


def test_bar_waits_for_its_delay_and_redraws_in_place():
    out = io.StringIO()
    quiet = Bar(100, "x", stream=out, delay=60.0, tty=True)
    for k in range(101):
        quiet(k)
    quiet.close()
    assert out.getvalue() == ""  # finished before the delay: nothing shown
    bar = Bar(100, "work", stream=out, delay=0.0, rate=1e9, tty=True)
    for k in range(0, 101, 25):
        bar(k)
    bar.close()
    frames = out.getvalue().split("\r")[1:]
    assert [f.split()[-1] for f in frames][:5] == ["0/100", "25/100", "50/100", "75/100",
                                                  "100/100"]
    assert out.getvalue().endswith("\n") and out.getvalue().count("\n") == 1


def test_bad_progress_argument_is_a_type_error():
    with pytest.raises(TypeError, match="progress must be"):
        as_callback("yes", 10)
    with pytest.raises(TypeError, match="progress must be"):
        catmouse.solve_many([EXAMPLE], progress=3)
    rng = random.Random(0)
    assert as_callback(None, rng.randint(1, 9)) is None


# -- the bar as the user sees it, on a fake stream and a fake clock ---------------------------


class Clock:
    """Stands in for time.monotonic in catmouse.progress: moves only when told."""

    def __init__(self, now=100.0):
        self.now = now

    def monotonic(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(_progress, "time", fake)
    return fake


def frames(out):
    """What each redraw put on the line, in order ("\\r" starts a redraw)."""
    return out.getvalue().split("\r")[1:]


def test_bar_frame_text(clock):
    out = io.StringIO()
    bar = Bar(100, "work", stream=out, tty=True)
    for done in (0, 50, 99, 100):
        bar(done)
        clock.now += 1.0
    assert frames(out) == [
        "work [..............................]   0% 0/100",
        "work [###############...............]  50% 50/100",
        # Floored: 99 of 100 is not yet a full bar or 100%.
        "work [#############################.]  99% 99/100",
        "work [##############################] 100% 100/100",
    ]


def test_bar_frame_without_a_label_with_thousands_and_an_empty_total(clock):
    out = io.StringIO()
    Bar(1_000_000, stream=out, tty=True)(250_000)
    Bar(0, stream=out, tty=True)(0)
    Bar(4, stream=out, tty=True)(9)  # past the total: a full bar, the count as reported
    assert frames(out) == [
        "[#######.......................]  25% 250,000/1,000,000",
        "[##############################] 100% 0/0",
        "[##############################] 100% 9/4",
    ]


def test_bar_stays_silent_before_its_delay_and_draws_once_it_has_passed(clock):
    out = io.StringIO()
    bar = Bar(10, "x", stream=out, delay=2.0, tty=True)
    for done, now in ((1, 100.0), (2, 101.0), (3, 101.9)):
        clock.now = now
        bar(done)
    assert out.getvalue() == ""
    clock.now = 102.0  # exactly the delay: time to show it
    bar(4)
    assert frames(out) == ["x [############..................]  40% 4/10"]


def test_bar_with_no_delay_draws_the_first_report_at_once(clock):
    out = io.StringIO()
    Bar(10, "x", stream=out, tty=True)(5)  # the clock has not moved since the bar was made
    assert frames(out) == ["x [###############...............]  50% 5/10"]


def test_bar_redraws_at_most_rate_times_a_second_but_always_the_end(clock):
    out = io.StringIO()
    bar = Bar(10, "x", stream=out, rate=10.0, tty=True)  # at most one frame each 0.1 s
    for done, now in ((1, 100.0), (2, 100.05), (3, 100.09), (4, 100.15), (5, 100.2),
                      (6, 100.26), (10, 100.27)):
        clock.now = now
        bar(done)
    assert [frame.split()[-1] for frame in frames(out)] == ["1/10", "4/10", "6/10", "10/10"]
    assert "\n" not in out.getvalue()  # the line is ended by close, not by reaching the total


def test_close_draws_the_final_state_and_ends_the_line(clock):
    out = io.StringIO()
    bar = Bar(4, "solving", stream=out, tty=True)
    bar(2)
    clock.now += 0.01  # too soon for another frame, but close draws one anyway
    bar.close(4)
    assert out.getvalue() == ("\rsolving [###############...............]  50% 2/4"
                              "\rsolving [##############################] 100% 4/4\n")
    assert frames(out)[-1] == "solving [##############################] 100% 4/4\n"


def test_close_without_a_count_shows_the_last_one_reported(clock):
    out = io.StringIO()
    bar = Bar(4, "x", stream=out, tty=True)
    bar(3)
    clock.now += 0.01
    bar.close()
    assert frames(out)[-1] == "x [######################........]  75% 3/4\n"


def test_close_after_the_delay_draws_even_if_nothing_was_reported(clock):
    # Work that never reported (an engine without progress) still ends with its line.
    out = io.StringIO()
    bar = Bar(4, "x", stream=out, delay=1.0, tty=True)
    clock.now = 101.0  # exactly the delay
    bar.close()
    assert out.getvalue() == "\rx [..............................]   0% 0/4\n"
    out = io.StringIO()
    bar = Bar(4, "x", stream=out, delay=1.0, tty=True)
    clock.now = 103.0
    bar.close(4)
    assert out.getvalue() == "\rx [##############################] 100% 4/4\n"


def test_close_before_the_delay_leaves_the_stream_untouched(clock):
    out = io.StringIO()
    bar = Bar(4, "x", stream=out, delay=1.0, tty=True)
    bar(2)
    clock.now = 100.99
    bar.close(4)
    assert out.getvalue() == ""


def test_progress_true_draws_on_stderr_and_none_or_false_draws_nothing(clock, capsys):
    for quiet in (None, False):
        assert as_callback(quiet, 10, "verify") is None
        finish(None, 10)  # a quiet callback: finishing it is a no-op
    assert capsys.readouterr() == ("", "")
    bar = as_callback(True, 10, "verify")
    assert isinstance(bar, Bar)
    bar(5)
    finish(bar, 10)
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("verify [###############...............]  50% 5/10\n"
                   "verify [##############################] 100% 10/10\n")


def test_finish_calls_a_plain_callable_with_the_end():
    seen = []
    report = as_callback(seen.append, 10)
    assert report == seen.append
    report(3)
    finish(report, 10)
    assert seen == [3, 10]


# -- a terminal redraws in place; a log gets a line per tenth ---------------------------------


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_stream_decides_in_place_or_lines(clock):
    term, log = Terminal(), io.StringIO()
    for out in (term, log):
        bar = Bar(1000, "save", stream=out, rate=1e9)
        for done in range(0, 1001):
            bar(done)
            clock.now += 0.001
        bar.close()
    assert Bar(1, stream=term).tty and not Bar(1, stream=log).tty
    assert term.getvalue().count("\n") == 1 and term.getvalue().count("\r") == 1001 + 1  # and close
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert [line.split()[-2] for line in lines] == [f"{10 * k}%" for k in range(11)]
    assert lines[-1] == "save [##############################] 100% 1,000/1,000"


def test_a_log_bar_prints_a_tenth_once_and_no_second_last_line(clock):
    log = io.StringIO()
    bar = Bar(100, "x", stream=log)
    for done in (30, 31, 39, 40):  # 31 and 39 are in the tenth 30 already printed
        bar(done)
    bar.close()  # 40 was the last line printed: not again
    assert log.getvalue().splitlines() == ["x [#########.....................]  30% 30/100",
                                           "x [############..................]  40% 40/100"]
    closed = io.StringIO()
    bar = Bar(10, "x", stream=closed)
    bar.close(10)  # never reported, closed after its delay of 0: the one line
    assert closed.getvalue() == "x [##############################] 100% 10/10\n"


@pytest.mark.parametrize("remoteness", [True, False])
def test_analyze_with_progress_false_solves_like_no_progress(use_engine, remoteness):
    quiet = catmouse.analyze(grid(5), remoteness=remoteness, progress=False)
    plain = catmouse.analyze(grid(5), remoteness=remoteness)
    assert quiet.outcomes == plain.outcomes and quiet.counts() == plain.counts()
    assert quiet.counts()[catmouse.Outcome.MOUSE_WIN] > 0


def test_bar_redraws_once_its_interval_has_passed_to_the_tick(clock):
    out = io.StringIO()
    bar = Bar(10, "x", stream=out, rate=4.0, tty=True)  # one frame each 0.25 s (exact)
    for done, now in ((1, 100.0), (2, 100.125), (3, 100.25), (4, 100.375), (5, 100.5)):
        clock.now = now
        bar(done)
    assert [frame.split()[-1] for frame in frames(out)] == ["1/10", "3/10", "5/10"]


def test_a_bar_on_a_closed_stream_is_no_terminal():
    out = io.StringIO()
    out.close()
    assert Bar(10, "x", stream=out).tty is False


@pytest.mark.parametrize("stderr", ["none", "closed"])
def test_a_bar_without_a_stream_to_draw_on_stops_no_work(use_engine, monkeypatch, stderr):
    # Python's stderr is None under pythonw or with descriptor 2 closed (`2>&-`), and a
    # closed stream refuses writes: the bar draws nothing, the answers come (they were lost
    # to an AttributeError or ValueError once the work was done).
    if stderr == "none":
        monkeypatch.setattr("sys.stderr", None)
    else:
        closed = io.StringIO()
        closed.close()
        monkeypatch.setattr("sys.stderr", closed)
    assert catmouse.solve_many([EXAMPLE] * 3, progress=True) == [catmouse.solve(EXAMPLE)] * 3
    analysis = catmouse.analyze(EXAMPLE, progress=True)
    assert analysis.outcomes.tobytes() == catmouse.analyze(EXAMPLE).outcomes.tobytes()
    analysis.verify(progress=True)
