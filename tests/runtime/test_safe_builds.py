"""Issue 8, safe builds: each failure found by the adversarial review, as a test.

OUT is never an input; check finds what build would reject; one line and exit 2 instead of a
traceback; limits; injective file names; themes are names; CSV cells are not formulas; serve only
serves the site; stale staging folders go; an internal error names its log file.
"""

import csv
import errno
import http.client
import importlib
import io
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.project import naming
from ccreport.runtime.output_folder import (
    MARKER,
    STAGING_MARKER,
    is_previous_output,
    remove_stale_staging,
)

build_module = importlib.import_module("ccreport.commands.build")
FAST = 'bootstrap = 500\ncalibration = "off"'


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A tiny project with a previous output in site/ (built once for the module)."""
    root = write_tiny_project(
        tmp_path_factory.mktemp("safe") / "proj", settings=FAST, extra_priors=""
    )
    assert main(["build", str(root), "--no-pdf", "-q"]) == 0
    return root


@pytest.fixture
def proj(built, tmp_path, monkeypatch):
    """A fresh copy of the built project, also the working folder."""
    root = tmp_path / "proj"
    shutil.copytree(built, root)
    monkeypatch.chdir(root)
    return root


def one_line_problems(err: str) -> list[str]:
    lines = err.strip().splitlines()
    assert "Traceback" not in err
    assert lines, "expected at least one line on stderr"
    return lines


# --- 1. OUT is never an input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "out, what",
    [
        (".", "the project folder"),
        ("..", "a parent of the project folder"),
        ("data.csv", "holds the data of dataset tiny"),
        ("narrative.md", "holds a narrative"),
        ("ccreport.toml", "holds the manifest"),
        ("other.txt", "got an existing file"),
    ],
)
def test_out_that_is_the_project_or_an_input_is_refused(proj, capsys, out, what):
    (proj / "other.txt").write_text("not an output")
    before = snapshot(proj.parent)
    assert main(["build", ".", "-o", out, "--no-pdf", "-q", "--force"]) == 2
    err = capsys.readouterr().err
    assert what in one_line_problems(err)[0]
    assert snapshot(proj.parent) == before


def test_out_holding_the_data_is_refused(proj, capsys):
    (proj / "data").mkdir()
    shutil.move(proj / "data.csv", proj / "data" / "data.csv")
    manifest = proj / "ccreport.toml"
    manifest.write_text(manifest.read_text().replace('path = "data.csv"', 'path = "data/data.csv"'))
    before = snapshot(proj)
    assert main(["build", ".", "-o", "data", "--no-pdf", "-q", "--force"]) == 2
    assert "holds the data of dataset tiny" in capsys.readouterr().err
    assert snapshot(proj) == before


def test_out_inside_the_templates_folder_is_refused(proj, capsys):
    (proj / "templates").mkdir()
    assert main(["build", ".", "-o", "templates/out", "--no-pdf", "-q"]) == 2
    assert "inside the project's templates/ folder" in capsys.readouterr().err
    assert not (proj / "templates" / "out").exists()


def test_out_that_is_the_home_folder_is_refused(proj, tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    (home / "precious.txt").write_text("keep me")
    monkeypatch.setenv("HOME", str(home))
    assert main(["build", ".", "-o", str(home), "--no-pdf", "-q", "--force"]) == 2
    assert "the home folder" in capsys.readouterr().err
    assert (home / "precious.txt").read_text() == "keep me"


def test_existing_folder_not_written_by_ccreport_needs_force(proj, tmp_path, capsys):
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert main(["build", ".", "-o", str(other), "--no-pdf", "-q"]) == 2
    assert "--force" in capsys.readouterr().err
    assert (other / "notes.txt").read_text() == "mine"
    assert main(["build", ".", "-o", str(other), "--no-pdf", "-q", "--force"]) == 0
    assert not (other / "notes.txt").exists() and (other / MARKER).is_file()


def test_previous_output_and_empty_folder_are_replaced(proj, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["build", ".", "-o", str(empty), "--no-pdf", "-q"]) == 0
    assert (empty / "index.html").is_file() and (empty / MARKER).is_file()
    # an output of a ccreport before the marker is recognised by its results.json
    (empty / MARKER).unlink()
    assert is_previous_output(empty)
    (empty / "results.json").write_text('{"generator": "someone else"}')
    assert not is_previous_output(empty)


def test_out_under_a_regular_file_is_one_line(proj, capsys):
    assert main(["build", ".", "-o", "narrative.md/out", "--no-pdf", "-q"]) == 2
    lines = one_line_problems(capsys.readouterr().err)
    assert lines[0].startswith("narrative.md") and "output folder (-o)" in lines[0]


# --- 2. check is the full pre-flight -------------------------------------------------------------


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def test_check_finds_a_narrative_that_is_not_utf8(proj, capsys):
    (proj / "narrative.md").write_bytes(b"# Title\n\ncaf\xe9\n")
    assert main(["check", "."]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert (
        line.startswith("ccreport.toml:")
        and "project.narrative" in line
        and "narrative.md:3" in line
        and "0xe9" in line
    )


def test_check_finds_folds_that_each_hold_one_class(proj, capsys):
    data = (proj / "data.csv").read_text().splitlines()
    rows = [data[0] + ",fold"] + [
        r + ("," + ("a" if r.split(",")[0] == "pos" else "b")) for r in data[1:]
    ]
    (proj / "data.csv").write_text("\n".join(rows) + "\n")
    manifest = proj / "ccreport.toml"
    manifest.write_text(
        manifest.read_text().replace('positive = "pos"', 'positive = "pos"\nfold = "fold"')
    )
    assert main(["check", "."]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert line.startswith("data.csv: fold: no fold holds both classes")


def test_check_finds_an_unknown_theme_with_its_line(proj, capsys):
    manifest = proj / "ccreport.toml"
    manifest.write_text(manifest.read_text().replace("seed = 3", 'seed = 3\ntheme = "nope"'))
    assert main(["check", "."]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert line.startswith("ccreport.toml:4: project.theme: unknown theme")


def test_a_theme_is_a_name_not_a_path(proj, tmp_path, capsys):
    leak = proj.parent / "leak"
    leak.mkdir()
    (leak / "style.css").write_text("body{}")
    (leak / "secret.txt").write_text("secret")
    manifest = proj / "ccreport.toml"
    manifest.write_text(manifest.read_text().replace("seed = 3", 'seed = 3\ntheme = "../leak"'))
    assert main(["build", ".", "--no-pdf", "-q"]) == 2
    assert "not a path" in capsys.readouterr().err
    assert not (proj / "site" / "assets" / "secret.txt").exists()


def test_a_long_name_builds_with_short_file_names(proj, capsys):
    long = "n" * 240
    manifest = proj / "ccreport.toml"
    manifest.write_text(
        manifest.read_text()
        .replace('name = "tiny"', f'name = "{long}"')
        .replace('name = "good"', f'name = "{long.upper()}"')
    )
    assert main(["check", "."]) == 0
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    names = [p.name for p in (proj / "site").rglob("*")]
    # at most two stems (dataset and classifier, <= 48 characters each) and fixed words: far below
    # the 255 bytes a file system allows
    assert max(len(n) for n in names) <= 2 * 48 + 40


@pytest.mark.parametrize(
    "template, expected",
    [
        ("{{ 1 / 0 }}", "ZeroDivisionError: division by zero"),
        ('{% include "index.html" %}', "includes or extends itself"),
        (b"caf\xe9 {{ title }}", "expected UTF-8 text, got byte 0xe9"),
        ("{{ nothing.here }}", "undefined variable"),
        ("{% if %}", "template syntax error"),
    ],
)
def test_template_errors_are_one_line_in_check_and_build(proj, capsys, template, expected):
    (proj / "templates").mkdir()
    path = proj / "templates" / "index.html"
    path.write_bytes(template if isinstance(template, bytes) else template.encode())
    before = snapshot(proj / "site")
    assert main(["check", "."]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert "index.html" in line and ": template: " in line and expected in line
    if expected.startswith(
        "ZeroDivisionError"
    ):  # build meets the same error (one case: builds are slow)
        assert main(["build", ".", "--no-pdf", "-q"]) == 2
        assert expected in one_line_problems(capsys.readouterr().err)[0]
    assert snapshot(proj / "site") == before
    assert not list(proj.glob(".ccreport-build-*"))


# --- 3. one line, exit 2, never a traceback -------------------------------------------------------


@pytest.mark.parametrize("key", ["seed", "bootstrap", "workers"])
def test_integers_of_400_digits_are_one_line(proj, capsys, key):
    manifest = proj / "ccreport.toml"
    text = manifest.read_text()
    text = text.replace("bootstrap = 500", "") if key == "bootstrap" else text
    text = text.replace("seed = 3", "") if key == "seed" else text
    manifest.write_text(text.replace("[project]", f"[project]\n{key} = {'9' * 400}"))
    assert main(["check", "."]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert (
        line.startswith(f"ccreport.toml:2: project.{key}: expected an integer from")
        and "an integer of 400 digits" in line
    )


@pytest.mark.parametrize("argv", [["-j", "9" * 400], ["-j", "0"], ["-j", "many"]])
def test_bad_worker_option_is_one_line(proj, capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(["build", ".", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(one_line_problems(err)) == 1 and "-j/--workers" in err


@pytest.mark.parametrize(
    "code, reason",
    [
        (errno.ENOSPC, "No space left on device"),
        (errno.EROFS, "Read-only file system"),
        (errno.EACCES, "Permission denied"),
    ],
)
def test_write_failures_are_one_line_and_leave_nothing(proj, capsys, monkeypatch, code, reason):
    def failing(*args, **kwargs):
        raise OSError(code, os.strerror(code), str(proj / "site" / "figures"))

    monkeypatch.setattr(build_module, "write_output", failing)
    before = snapshot(proj)
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert "output folder (-o): cannot write the output: " + reason in line
    assert snapshot(proj) == before


def test_internal_error_is_one_line_naming_a_log_with_the_traceback(proj, capsys, monkeypatch):
    def bug(*args, **kwargs):
        return 1 / 0

    monkeypatch.setattr(build_module, "compute_results", bug)
    assert main(["build", ".", "--no-pdf", "-q"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "internal error (ZeroDivisionError)" in err
    log = Path(err.split("the traceback is in ")[1].split(";")[0])
    assert "Traceback" in log.read_text() and "ZeroDivisionError" in log.read_text()
    log.unlink()


@pytest.mark.parametrize("port", ["0", "70000", "-1", "http"])
def test_serve_port_out_of_range_is_one_line(proj, capsys, port):
    with pytest.raises(SystemExit) as stop:
        main(["serve", ".", "--port", port])
    assert stop.value.code == 2
    assert len(one_line_problems(capsys.readouterr().err)) == 1


def test_serve_port_in_use_is_one_line(proj, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", ".", "--port", str(port), "--no-watch"]) == 2
    line = one_line_problems(capsys.readouterr().err)[0]
    assert line.startswith(f"ccreport serve: --port: cannot listen on 127.0.0.1:{port}")


def _sigint_by_default() -> None:
    """SIGINT at its default disposition: a test suite started as a background job (SIGINT ignored,
    which a child inherits, and a Python started so keeps ignoring it) tests Ctrl-C as a terminal
    delivers it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def python_sigint():
    """This process's SIGINT handler is Python's own for the test (see
    :func:`_sigint_by_default`)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_is_one_line_exit_130_and_removes_staging(built, tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(built, root)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen(
        [sys.executable, "-m", "ccreport", "build", str(root), "-q", "--no-cache"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # as from a terminal, even when the suite runs in the background
        preexec_fn=_sigint_by_default,
    )
    deadline = time.monotonic() + 120
    while (
        not list(root.glob(".ccreport-build-*"))
        and time.monotonic() < deadline
        and process.poll() is None
    ):
        time.sleep(0.05)
    assert process.poll() is None, "the build ended before a staging folder appeared"
    process.send_signal(2)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert err.strip() == "ccreport: interrupted; the previous output is untouched"
    assert not list(root.glob(".ccreport-*")) or [p.name for p in root.glob(".ccreport-*")] == [
        ".ccreport-cache"
    ]


class _DropsAnInterrupt:
    """An object whose finaliser receives SIGINT: Python raises the KeyboardInterrupt inside it,
    hands it to sys.unraisablehook ("Exception ignored in ...") and goes on, as when a real Ctrl-C
    lands in a finaliser."""

    finalised = 0

    def __del__(self):
        import signal

        type(self).finalised += 1
        signal.raise_signal(signal.SIGINT)  # handled at once, here


def test_an_interrupt_python_drops_still_stops_the_build_and_keeps_the_output(
    proj, monkeypatch, capsys, python_sigint
):
    before = snapshot(proj / "site")
    printed = []  # what Python would print as "Exception ignored in ..."
    monkeypatch.setattr(sys, "unraisablehook", lambda info: printed.append(info.exc_type))
    monkeypatch.setattr(_DropsAnInterrupt, "finalised", 0)
    real_write_output = build_module.write_output

    def write_output(*args, **kwargs):
        _DropsAnInterrupt()  # made and freed: its finaliser runs here
        return real_write_output(*args, **kwargs)

    monkeypatch.setattr(build_module, "write_output", write_output)
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 130
    assert _DropsAnInterrupt.finalised == 1  # the interrupt came inside a finaliser
    assert printed == []  # remembered, so not reported as lost
    assert (
        capsys.readouterr().err.strip() == "ccreport: interrupted; the previous output is untouched"
    )
    assert snapshot(proj / "site") == before
    assert not list(proj.glob(".ccreport-build-*"))


def test_an_interrupt_inside_another_error_is_an_interrupt(
    proj, monkeypatch, capsys, python_sigint
):
    """Python 3.11 wraps a KeyboardInterrupt raised in a class's __set_name__ (an import, during a
    build) into a RuntimeError."""
    before = snapshot(proj / "site")

    def write_output(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError(
                "Error calling __set_name__ on '_deprecated_property' instance"
            ) from interrupt

    monkeypatch.setattr(build_module, "write_output", write_output)
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 130
    assert (
        capsys.readouterr().err.strip() == "ccreport: interrupted; the previous output is untouched"
    )
    assert snapshot(proj / "site") == before
    assert not list(proj.glob(".ccreport-build-*"))


def test_interrupts_noticed_only_in_the_main_thread_and_restores_the_handler(python_sigint):
    import signal

    from ccreport.runtime.interrupts import interrupts_noticed, raise_if_interrupted

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with interrupts_noticed():
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        raise_if_interrupted()  # nothing came
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            raise_if_interrupted()  # remembered
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    raise_if_interrupted()  # outside: nothing to raise
    seen = []

    def elsewhere():
        with interrupts_noticed():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]


def test_stale_staging_of_a_killed_build_is_removed_and_nothing_else(proj):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = proj / ".ccreport-build-killed"
    stale.mkdir()
    (stale / STAGING_MARKER).write_text(dead.stdout)
    unmarked = proj / ".ccreport-build-notours"
    unmarked.mkdir()
    (unmarked / "file.txt").write_text("not ours")
    alive = proj / ".ccreport-build-running"
    alive.mkdir()
    (alive / STAGING_MARKER).write_text(f"{os.getppid()}\n")
    assert remove_stale_staging(proj) == [stale]
    assert not stale.exists() and unmarked.exists() and alive.exists()
    shutil.rmtree(alive)
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 0  # a build removes them too
    assert {p.name for p in proj.glob(".ccreport-build-*")} == {".ccreport-build-notours"}


# --- 4. limits --------------------------------------------------------------------------------


def test_workers_and_bootstrap_beyond_the_limits_are_rejected_by_check(proj, capsys):
    manifest = proj / "ccreport.toml"
    manifest.write_text(
        manifest.read_text().replace("bootstrap = 500", "bootstrap = 1000000000\nworkers = 1000000")
    )
    assert main(["check", "."]) == 2
    err = capsys.readouterr().err
    assert "project.bootstrap: expected an integer from 500 to 20000, got 1000000000" in err
    assert "project.workers: expected an integer from 1 to 256, got 1000000" in err


def test_workers_are_clamped_to_tasks_and_cores_with_a_note(proj, capsys):
    assert build_module.clamp_workers(40, 2) == min(2, build_module.available_cores())
    assert build_module.clamp_workers(40, 100) <= build_module.available_cores()
    assert main(["build", ".", "--no-pdf", "-q", "-j", "200"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("ccreport: 200 workers clamped to ")


# --- 5. names and paths -----------------------------------------------------------------------


def test_pair_stems_are_injective_for_names_made_of_separators():
    names = ["x", "x--vs--y", "y--vs--z", "z"]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    stems = {naming.pair_stem(a, b) for a, b in pairs}
    assert len(pairs) == 6 and len(stems) == 6


@pytest.mark.parametrize(
    "names",
    [
        ["A", "a"],
        ["..", "."],
        ["x" * 300, "x" * 301],
        ["overview"],
        ["a--b", "a-b"],
        ["con", "CON"],
        ["_x", "-x"],
    ],
)
def test_stems_are_short_distinct_and_safe(names):
    stems = [naming.stem(n, reserved=("overview",)) for n in names]
    assert len({s.lower() for s in stems}) == len(
        names
    )  # distinct even on a case-folding file system
    for s in stems:
        assert len(s) <= naming.MAX_PLAIN and s not in (".", "..", "overview") and "/" not in s
        assert s[0] not in ".-"


def test_figure_files_and_pages_never_collide(proj, capsys):
    manifest = proj / "ccreport.toml"
    text = manifest.read_text().replace('name = "tiny"', 'name = "overview"')
    for old, new in (("good", "x--vs--y"), ("weak", "y--vs--z"), ("rule", "z")):
        text = text.replace(f'name = "{old}"', f'name = "{new}"')
    text = text.replace("[[priors]]", '[[classifiers]]\nname = "x"\nscores = "good"\n\n[[priors]]')
    manifest.write_text(text)
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    site = proj / "site"
    diffs = list((site / "figures").glob("*/diff/*.svg"))
    assert len(diffs) == 6, sorted(p.name for p in diffs)
    assert sorted(p.name for p in (site / "figures" / "overview").iterdir()) == [
        "priors.pdf",
        "priors.svg",
    ]
    page = (site / "dataset-overview.html").read_text()
    assert "figures/overview/" not in page
    ids = [part.split('"')[0] for part in page.split(' id="')[1:]]
    assert len(ids) == len(set(ids))


def test_csv_cells_are_not_spreadsheet_formulas(proj):
    data = proj / "data.csv"
    data.write_text(
        data.read_text().replace("pos", '=HYPERLINK("http://x")').replace("neg", "@SUM(1)")
    )
    manifest = proj / "ccreport.toml"
    # the label is in no table; a classifier's name is in several (the summary's rows, the
    # cross-dataset table's columns), and a name may start with "-"
    manifest.write_text(
        manifest.read_text()
        .replace('positive = "pos"', "positive = '=HYPERLINK(\"http://x\")'")
        .replace('name = "good"', 'name = "-cmd"')
    )
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    cells = [
        c
        for p in (proj / "site" / "tables").glob("*.csv")
        for row in csv.reader(p.open())
        for c in row
    ]
    assert "'-cmd" in cells
    assert not [c for c in cells if c[:1] in ("=", "@", "\t", "\r")]
    negatives = [c for c in cells if c.startswith("-")]
    assert negatives and all(float(c) < 0 or c == "-inf" for c in negatives)


def test_every_formula_start_is_quoted_in_a_table_csv():
    """Text of any kind a spreadsheet would run (the manifest's names are too restricted to
    carry most of them into a build) is quoted; numbers, negative ones too, are not."""
    from ccreport.render import tables as tb

    texts = ['=HYPERLINK("http://x")', "+1+2", "-cmd", "@SUM(1)", "\tx"]
    t = tb.Table("t", "caption", ["Name", "Value"])
    t.rows += [[tb.text(s), tb.num(-0.25, 2)] for s in texts]
    rows = list(csv.reader(io.StringIO(t.to_csv(), newline="")))
    assert [r[0] for r in rows[1:]] == ["'" + s for s in texts]
    assert {r[1] for r in rows[1:]} == {"-0.25"}
    assert [tb.spreadsheet_safe(v) for v in ("\rx", "-inf", "-1e-3", 3.0, "x=1")] == [
        "'\rx",
        "-inf",
        "-1e-3",
        3.0,
        "x=1",
    ]


def _get(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


@pytest.fixture
def served(proj, tmp_path):
    from ccreport.commands.serve import LiveState, make_server

    site = proj / "site"
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    (site / "link.txt").symlink_to(outside)
    (site / "linkdir").symlink_to(tmp_path)
    live = LiveState()
    server = make_server(site, 0, live)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], site, live
    server.shutdown()
    server.server_close()


def test_serve_serves_the_site_only(served):
    port, site, _ = served
    assert _get(port, "/")[0] == 200
    assert _get(port, "/figures/")[0] == 404  # no listing
    assert _get(port, "/link.txt")[0] == 404  # a link out of the site
    assert _get(port, "/linkdir/outside.txt")[0] == 404
    assert _get(port, "/../../etc/passwd")[0] == 404
    assert _get(port, "/results.json")[0] == 200


def test_serve_reload_script_is_in_responses_not_files(served):
    port, site, live = served
    status, body = _get(port, "/index.html")
    assert status == 200 and b"__ccreport__/build-id" in body
    assert b"__ccreport__" not in (site / "index.html").read_bytes()
    first = _get(port, "/__ccreport__/build-id")[1]
    live.bump()
    assert _get(port, "/__ccreport__/build-id")[1] != first


@pytest.mark.parametrize(
    "value, written",
    [
        ("=1+1", "'=1+1"),
        ("+cmd", "'+cmd"),
        ("-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-0.25", "-0.25"),
        ("-1e-3", "-1e-3"),
        ("+3", "+3"),
        (-1.5, -1.5),
        ("plain", "plain"),
    ],
)
def test_spreadsheet_safe(value, written):
    from ccreport.render.tables import Table, spreadsheet_safe, text

    assert spreadsheet_safe(value) == written
    if value == "\rx":
        return  # the CSV writer (lineterminator "\n") does not quote a bare CR: not read back here
    table = Table("t", "caption", [str(value)], rows=[[text(value)]])
    import csv
    import io

    header, row = list(csv.reader(io.StringIO(table.to_csv(), newline="")))
    assert header == [str(written)] and row == [str(written)]


def test_a_retired_previous_output_is_removed_only_while_the_output_exists(tmp_path):
    retired = tmp_path / ".ccreport-old-abc" / "previous"
    retired.mkdir(parents=True)
    (retired / MARKER).write_text("x")
    target = tmp_path / "site"
    assert remove_stale_staging(tmp_path, target) == []  # killed mid-swap: the only copy, kept
    target.mkdir()
    assert remove_stale_staging(tmp_path, target) == [retired.parent]
