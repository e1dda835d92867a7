"""A project is data: building, checking, serving or verifying it runs no code from it.

The attacks of issue 38: a project (or theme) template reaching for Python's internals, as in
``{{ cycler.__init__.__globals__.os.popen("touch marker").read() }}``, and a cache entry crafted
to run code when unpickled, placed in the project's ``.ccreport-cache/``. Each test gives the
payload a marker file to write and checks that it stays absent.
"""

import os
import pickle
import shutil
from pathlib import Path

import jinja2
import pytest
from jinja2.sandbox import SecurityError
from site_fixtures import write_tiny_project

from ccreport import paths
from ccreport.cli import main
from ccreport.render import site
from ccreport.tasks import cache

FAST = 'bootstrap = 500\ncalibration = "off"'


def payload(marker: Path) -> str:
    return '{{ cycler.__init__.__globals__.os.popen("touch ' + str(marker) + '").read() }}'


def evil_index(marker: Path) -> str:
    return (
        '{% extends "base/index.html" %}\n{% block content %}\n'
        + payload(marker)
        + "\n{% endblock %}\n"
    )


class Touch:
    """Unpickling this touches ``marker``: what a crafted cache entry would do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def proj(tmp_path, monkeypatch):
    root = write_tiny_project(tmp_path / "proj", settings=FAST, extra_priors="")
    monkeypatch.chdir(root)
    return root


def one_line(err: str, count_line: bool = True) -> str:
    """The one problem line; ``check`` and ``build`` follow it with the count of problems,
    ``verify`` refusing a report says it on its one line alone."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == (2 if count_line else 1) and "Traceback" not in err, err
    return lines[0]


def test_check_and_build_refuse_the_template_and_run_nothing(proj, tmp_path, capsys):
    marker = tmp_path / "marker"
    (proj / "templates").mkdir()
    (proj / "templates" / "index.html").write_text(evil_index(marker))
    assert main(["check", "."]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(
        "templates/index.html:3: template: refused by the template sandbox"
    ) or line.startswith(str(proj / "templates" / "index.html") + ":3:"), line
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 2
    assert "refused by the template sandbox" in one_line(capsys.readouterr().err)
    assert not marker.exists() and not (proj / "site").exists()


def test_a_theme_template_is_sandboxed_too(proj, tmp_path, capsys):
    marker = tmp_path / "marker"
    manifest = proj / "ccreport.toml"
    manifest.write_text(manifest.read_text().replace("[project]", '[project]\ntheme = "mine"', 1))
    (proj / "themes" / "mine" / "templates").mkdir(parents=True)
    (proj / "themes" / "mine" / "style.css").write_text("body{}")
    (proj / "themes" / "mine" / "templates" / "index.html").write_text(evil_index(marker))
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 2
    assert "mine/templates/index.html:3: template: refused by the template sandbox" in one_line(
        capsys.readouterr().err
    )
    assert not marker.exists()


def test_serve_rebuild_runs_neither_the_template_nor_the_cache(proj, tmp_path, monkeypatch, capsys):
    assert main(["build", ".", "--no-pdf", "-q"]) == 0
    marker = tmp_path / "marker"
    (proj / "templates").mkdir()
    (proj / "templates" / "index.html").write_text(evil_index(marker))
    entries = sorted((proj / ".ccreport-cache").glob("??/*.pickle"))
    assert entries
    for entry in entries:
        entry.write_bytes(pickle.dumps(Touch(marker)))
    results = []
    serve_module = __import__("ccreport.commands.serve", fromlist=["serve"])
    monkeypatch.setattr(
        serve_module,
        "serve",
        lambda root, port, project_root=None, rebuild=None: results.append(rebuild()),
    )
    capsys.readouterr()
    assert main(["serve", "."]) == 0
    assert results == [False] and not marker.exists()
    err = capsys.readouterr().err  # the analysis read the cache, then the pages met the template
    assert (
        f"{len(entries)} entries discarded and recomputed ({len(entries)} failed its HMAC)" in err
    )
    assert "refused by the template sandbox" in err
    (proj / "templates" / "index.html").unlink()
    assert main(["serve", "."]) == 0
    assert results == [False, True] and not marker.exists()
    assert "discarded" not in capsys.readouterr().err  # the entries were recomputed and stored


def test_verify_of_a_folder_runs_nothing(proj, tmp_path, capsys):
    assert main(["build", ".", "--no-pdf", "-q", "--no-cache"]) == 0
    marker = tmp_path / "marker"
    (proj / "templates").mkdir()
    (proj / "templates" / "index.html").write_text(evil_index(marker))
    code = main(["verify", "site"])
    assert (
        code in (1, 2) and not marker.exists()
    )  # the template is an input changed since the build
    assert "Traceback" not in capsys.readouterr().err


def test_verify_of_a_report_pdf_alone_runs_nothing(proj, tmp_path, monkeypatch, capsys):
    marker = tmp_path / "marker"
    (proj / "templates").mkdir()
    (proj / "templates" / "index.html").write_text(evil_index(marker))
    # a report made by a ccreport without the sandbox: its payload runs there, and the PDF carries
    # it
    monkeypatch.setattr(site, "TemplateSandbox", jinja2.Environment)
    assert main(["build", ".", "-q", "--no-cache"]) == 0
    assert marker.exists()
    marker.unlink()
    monkeypatch.undo()
    received = tmp_path / "received"
    received.mkdir()
    shutil.copy(proj / "site" / "report.pdf", received / "report.pdf")
    monkeypatch.chdir(received)
    capsys.readouterr()
    assert main(["verify", "report.pdf"]) == 2
    assert "refused by the template sandbox" in one_line(capsys.readouterr().err, count_line=False)
    assert not marker.exists()


# --- what the sandbox refuses ---------------------------------------------------------------------


def environment():
    return site.make_environment(None, paths.theme_dir(paths.DEFAULT_THEME, None))


@pytest.mark.parametrize(
    "text, context",
    [
        ("{{ cycler.__init__.__globals__ }}", {}),
        ("{{ x.__class__.__mro__ }}", {"x": ""}),
        (
            "{{ tb.io.open('written', 'w') }}",
            {"tb": site.tb},
        ),  # a module reached through an attribute
        ("{{ os.system('true') }}", {"os": os}),  # a library function, even given by ccreport
        ("{{ p.write_text('x') }}", {"p": Path("written")}),  # a method of a library object
        ("{{ d.update(a=1) }}", {"d": {}}),  # mutating a value (the immutable sandbox)
    ],
)
def test_the_sandbox_refuses(text, context, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SecurityError):
        environment().from_string(text).render(context)
    assert not (tmp_path / "written").exists()


def test_the_sandbox_allows_what_the_templates_use():
    env = environment()
    text = (
        "{% for k, v in d.items() %}{{ k }}={{ v | cost }};{% endfor %}{{ 'a,b'.split(',') | "
        "join('+') }}{{ tb.BEST_MARK }}"
    )
    assert (
        env.from_string(text).render(d={"x": 0.5}, tb=site.tb)
        == "x=" + site.tb.cost(0.5) + ";a+b" + site.tb.BEST_MARK
    )
    given = env.from_string("{{ range(3) | list }} {{ dict(a=1).a }} {{ f(2) }}").render(
        f=lambda x: x + 1
    )
    assert given == "[0, 1, 2] 1 3"  # Jinja2's globals and a function the render was handed


def test_a_refusal_names_the_template_and_line(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "index.html").write_text("line one\n\n{{ cycler.__init__ }}\n")
    env = site.make_environment(tmp_path, paths.theme_dir(paths.DEFAULT_THEME, None))
    with pytest.raises(site.UserInputError) as error:
        site.render_template(env, "index.html", {})
    (problem,) = error.value.problems
    assert problem.file == str(tmp_path / "templates" / "index.html") and problem.line == 3
    assert "refused by the template sandbox" in problem.expected


# --- a template that includes itself ------------------------------------------------------------


def test_a_self_including_template_is_named_at_the_projects_file(proj, capsys):
    (proj / "templates").mkdir()
    (proj / "templates" / "index.html").write_text(
        '{% extends "base/index.html" %}\n'
        '{% block content %}{% include "dataset.html" %}{% endblock %}\n'
    )
    (proj / "templates" / "dataset.html").write_text(
        '{% extends "base/dataset.html" %}\n'
        '{% block content %}x{% include "dataset.html" %}{% endblock %}\n'
    )
    assert main(["check", "."]) == 2
    line = one_line(capsys.readouterr().err)
    assert "dataset.html:2: template: a template includes or extends itself" in line, line
    assert str(paths.templates_dir()) not in line


def test_a_cache_entry_that_would_run_code_is_discarded_unread(tmp_path):
    marker = tmp_path / "marker"
    c = cache.Cache(tmp_path / "cache")
    key = "ab" + "0" * 62
    c.put(key, {"x": 1})
    path = tmp_path / "cache" / "ab" / f"{key}.pickle"
    path.write_bytes(pickle.dumps(Touch(marker)))  # a plain pickle, as a colleague's zip could hold
    assert c.get(key, dict) is cache.MISSING
    assert not marker.exists() and not path.exists() and c.discarded == {"failed its HMAC": 1}
    other = cache.Cache(tmp_path / "cache", key=b"k" * 32)  # signed, with another user's key
    other.put(key, Touch(marker))
    assert not marker.exists()
    assert (
        c.get(key, dict) is cache.MISSING
        and not marker.exists()
        and c.discarded == {"failed its HMAC": 2}
    )
