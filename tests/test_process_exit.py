"""The command's fast exit (ccreport.process_exit): handlers run, streams flushed, status kept."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)


def test_atexit_handlers_run_and_streams_are_flushed_before_the_status(tmp_path):
    marker = tmp_path / "handler-ran"
    out = _run(f"""
        import atexit, sys
        from pathlib import Path
        from ccreport.process_exit import exit_now
        atexit.register(lambda: Path({str(marker)!r}).write_text("yes"))
        sys.stdout.write("no newline, still buffered")
        sys.stderr.write("err")
        exit_now(3)
        print("not reached")
    """)
    assert out.returncode == 3
    assert out.stdout == "no newline, still buffered"
    assert out.stderr == "err"
    assert marker.read_text() == "yes"


def test_a_running_thread_gets_an_ordinary_exit_that_waits_for_it(tmp_path):
    marker = tmp_path / "thread-finished"
    out = _run(f"""
        import threading, time
        from pathlib import Path
        from ccreport.process_exit import exit_now, other_threads_running
        def work():
            time.sleep(0.3)
            Path({str(marker)!r}).write_text("done")
        threading.Thread(target=work).start()
        assert other_threads_running()
        exit_now(0)
    """)
    assert out.returncode == 0, out.stderr
    assert marker.read_text() == "done"


def test_none_is_status_zero():
    assert _run("from ccreport.process_exit import exit_now\nexit_now(None)").returncode == 0


def test_the_entry_point_keeps_mains_status(tmp_path):
    """``python -m ccreport`` ends through exit_now with main's status: 0, and 2 for bad input."""
    ok = subprocess.run([sys.executable, "-m", "ccreport", "--version"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.strip()
    missing = subprocess.run([sys.executable, "-m", "ccreport", "build", str(tmp_path / "nowhere")], capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 2
    assert "nowhere" in missing.stderr and "Traceback" not in missing.stderr
