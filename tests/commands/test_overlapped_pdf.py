"""A build lays out report.pdf while its worker processes draw the figures
(ccreport.commands.build.write_output, ccreport.render.figure_files.start_figures), and the output
is the same bytes for any number of workers."""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.commands.build import build
from ccreport.render import figure_files
from ccreport.render import pdf as pdf_module
from ccreport.tasks.executors import machine_cores

pytest.importorskip("weasyprint")

WAIT_S = 20  # how long a figure worker waits for report.pdf's layout to begin

needs_two_cores = pytest.mark.skipif(
    machine_cores() < 2 or "fork" not in mp.get_all_start_methods(),
    reason="figure workers need two cores and fork",
)


def _files(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != "invocation.json"  # records the worker count asked for
    }


@needs_two_cores
def test_report_pdf_is_laid_out_while_the_figures_are_drawn(tmp_path, monkeypatch):
    """Each figure worker, before it writes a run of figures, waits for report.pdf's layout to
    begin: a build that typesets only after the figures are written makes every worker wait in
    vain."""
    project = write_tiny_project(tmp_path / "project")
    began = mp.get_context("fork").Event()
    seen = tmp_path / "seen"
    seen.mkdir()
    split_pages, render_pdf = figure_files.split_pages, pdf_module.render_pdf

    def waiting_split(document, targets):  # runs in a forked figure worker, per run of figures
        (seen / f"{os.getpid()}-{targets[0].stem}").write_text(str(began.wait(WAIT_S)))
        return split_pages(document, targets)

    def noted_render(*args, **kwargs):
        began.set()
        return render_pdf(*args, **kwargs)

    monkeypatch.setattr(figure_files, "split_pages", waiting_split)
    monkeypatch.setattr(pdf_module, "render_pdf", noted_render)
    build(project, tmp_path / "out", workers=2, pdf=True)
    waits = {p.name: p.read_text() for p in seen.iterdir()}
    assert len({name.split("-")[0] for name in waits}) == 2, waits  # two workers drew
    assert set(waits.values()) == {"True"}, waits
    assert (tmp_path / "out" / "report.pdf").stat().st_size > 0


@needs_two_cores
def test_one_worker_and_two_give_the_same_bytes_report_pdf_included(tmp_path):
    project = write_tiny_project(tmp_path / "project")
    build(project, tmp_path / "one", workers=1, pdf=True)
    build(project, tmp_path / "two", workers=2, pdf=True)
    one, two = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert "report.pdf" in one and any(name.endswith(".html") for name in one)
    assert sorted(one) == sorted(two)
    assert [name for name in one if one[name] != two[name]] == []


def test_a_failing_figure_fails_the_build_and_keeps_the_previous_output(tmp_path, monkeypatch):
    """An error while a worker draws reaches the build (through report.pdf's wait for that
    figure, or the index), which leaves the previous output as it was."""
    project = write_tiny_project(tmp_path / "project")
    out = tmp_path / "out"
    build(project, out, workers=1, pdf=False)
    before = _files(out)

    def failing(document, targets):
        raise RuntimeError("no room for figures")

    monkeypatch.setattr(figure_files, "split_pages", failing)
    with pytest.raises(RuntimeError, match="no room for figures"):
        build(project, out, workers=2, pdf=True)
    assert _files(out) == before


@needs_two_cores
def test_a_page_error_in_the_worker_that_writes_the_pages_is_one_user_error(tmp_path):
    """The HTML pages are written by a figure worker once the figures are: a template error only
    the site's pages meet (report.pdf's print mode skips it) reaches the build as the one-line
    error it is, and the previous output stays."""
    from ccreport.errors import UserInputError

    project = write_tiny_project(tmp_path / "project")
    out = tmp_path / "out"
    build(project, out, workers=1, pdf=False)
    before = _files(out)
    (project / "templates").mkdir()
    (project / "templates" / "index.html").write_text(
        "{% if not print %}{{ 1 / 0 }}{% endif %}", encoding="utf-8"
    )
    with pytest.raises(UserInputError) as caught:
        build(project, out, workers=2, pdf=True)
    [problem] = caught.value.problems
    assert "index.html" in problem.file and "ZeroDivisionError" in problem.expected
    assert _files(out) == before
