"""interrupts_noticed: SIGINT remembered, and Python's report of an interrupt it loses kept quiet
while nothing else it reports is."""

import signal
import sys
import threading

import pytest

from ccreport.runtime import interrupts


@pytest.fixture
def python_sigint():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class _Unraisable:
    def __init__(self, exc_type):
        self.exc_type = exc_type


def test_a_remembered_interrupt_is_not_reported_other_errors_are(python_sigint, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: reported.append(info.exc_type))
    with interrupts.interrupts_noticed():
        sys.unraisablehook(_Unraisable(KeyboardInterrupt))  # none came yet: reported
        sys.unraisablehook(_Unraisable(ValueError))
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        sys.unraisablehook(_Unraisable(KeyboardInterrupt))  # remembered: quiet
        sys.unraisablehook(_Unraisable(OSError))
        with pytest.raises(KeyboardInterrupt):
            interrupts.raise_if_interrupted()
    assert reported == [KeyboardInterrupt, ValueError, OSError]
    sys.unraisablehook(_Unraisable(KeyboardInterrupt))  # the context's hook is gone
    assert reported[-1] is KeyboardInterrupt and len(reported) == 4
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_outside_the_main_thread_nothing_changes(python_sigint):
    seen = []

    def run():
        hook = sys.unraisablehook
        with interrupts.interrupts_noticed():
            seen.append(sys.unraisablehook is hook)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [True]
