"""import_optional: a Ctrl-C during an optional import is a Ctrl-C, not a missing module.

The modules imported here stand in for numpy, whose first import reports a KeyboardInterrupt
raised inside its C code as an ImportError: each sends itself the signal while it loads and
turns what comes of it into ImportError, as numpy does.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

import pytest

from catmouse.engine.optional import import_optional

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends itself signals")

CONVERTS = '''
import os, signal
try:
    os.kill(os.getpid(), signal.{signal})
    for _ in range(100_000):  # (a handler runs between bytecodes: let it)
        pass
except BaseException as error:
    raise ImportError("the import was cut short, as numpy reports it") from None
LOADED = True
'''


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    """A module name whose import signals itself (``{signal}`` filled in by the test)."""
    made = []

    def make(signal_name: str) -> str:
        name = f"stand_in_{signal_name.lower()}_{len(made)}"
        (tmp_path / f"{name}.py").write_text(CONVERTS.format(signal=signal_name))
        made.append(name)
        return name

    monkeypatch.syspath_prepend(str(tmp_path))
    yield make
    for name in made:
        sys.modules.pop(name, None)


def test_ctrl_c_during_the_import_comes_after_it(stand_in):
    name = stand_in("SIGINT")
    handler = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        import_optional(name)
    assert sys.modules[name].LOADED  # loaded whole: the signal waited for it
    assert signal.getsignal(signal.SIGINT) is handler


def test_without_holding_back_the_signal_is_lost(stand_in):
    """What import_optional prevents: the plain import's ImportError hides the Ctrl-C."""
    import importlib

    name = stand_in("SIGINT")
    with pytest.raises(ImportError, match="cut short"):
        importlib.import_module(name)


def test_a_python_sigterm_handler_runs_after_the_import(stand_in):
    name = stand_in("SIGTERM")
    seen = []

    def terminated(number, frame):
        seen.append(number)
        raise SystemExit(143)

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        with pytest.raises(SystemExit):
            import_optional(name)
        assert seen == [signal.SIGTERM] and sys.modules[name].LOADED
        assert signal.getsignal(signal.SIGTERM) is terminated
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_missing_and_loaded_modules():
    assert import_optional("catmouse_no_such_module") is None
    assert import_optional("os") is os
    handler = signal.getsignal(signal.SIGINT)
    import_optional("catmouse_no_such_module")
    assert signal.getsignal(signal.SIGINT) is handler


def test_off_the_main_thread_the_handlers_are_left_alone(monkeypatch):
    calls = []
    monkeypatch.setattr(signal, "signal", lambda *args: calls.append(args))
    got = []
    worker = threading.Thread(target=lambda: got.append(import_optional("catmouse_absent")))
    worker.start()
    worker.join()
    assert got == [None] and calls == []


def test_where_the_handlers_cannot_be_set_the_import_goes_on(monkeypatch):
    """signal.signal refuses in a subinterpreter (ValueError): the module is imported anyway,
    and whatever handler was set is given back."""
    real = signal.signal
    calls = []

    def refuse_the_second(number, handler):
        calls.append(number)
        if len(calls) == 2:
            raise ValueError("signal only works in main thread of the main interpreter")
        return real(number, handler)

    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(signal, "signal", refuse_the_second)
    monkeypatch.setattr("catmouse.engine.optional._HELD", (signal.SIGINT, signal.SIGINT))
    assert import_optional("catmouse_absent_too") is None
    assert signal.getsignal(signal.SIGINT) is before


SLOW = '''
import time
time.sleep(0.5)  # (numpy's first import takes about this long)
LOADED = True
'''


@pytest.mark.parametrize("second", ["main thread", "worker thread"])
def test_a_module_another_thread_is_importing_is_waited_for(tmp_path, monkeypatch, second):
    """numpy's first import from several threads at once (an Analysis's readers, saves):
    the module is in sys.modules, half made, while its first importer runs it.  Each caller
    gets it whole (it used to get the half-made module: AttributeError, "partially
    initialized module 'numpy' has no attribute 'frombuffer'")."""
    name = f"stand_in_slow_{second.split()[0]}"
    (tmp_path / f"{name}.py").write_text(SLOW)
    monkeypatch.syspath_prepend(str(tmp_path))
    got = {}

    def load(who):
        module = import_optional(name)
        got[who] = module, getattr(module, "LOADED", False)  # whole when handed back?

    first = threading.Thread(target=load, args=("first",))
    try:
        first.start()
        while name not in sys.modules:  # the first importer is inside the module's code
            assert first.is_alive()
        if second == "main thread":
            load("second")
        else:
            worker = threading.Thread(target=load, args=("second",))
            worker.start()
            worker.join()
        first.join()
        assert got["second"] == got["first"] == (sys.modules[name], True)
    finally:
        first.join()
        sys.modules.pop(name, None)
