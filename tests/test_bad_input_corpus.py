"""A corpus of bad inputs (issue 8, item 6), generated here: manifest, data, encodings, templates,
themes, hostile names and CLI misuse.

Every case runs in-process on a copy of a tiny project that already holds a previous output in
``site/``, and asserts: exit status 2; every line of standard error is one problem naming a file
(with its line or row where there is one) and a field, then one summary line (or, for a misused
command line, exactly one line); the expected file and field are named; no traceback; the project
folder, its previous output included, byte-identical afterwards and nothing left behind (no
staging folder, no temporary folder of ``check``). ``check`` and ``build`` are both run and both
must refuse, except for templates, which only ``check`` runs here (a build of them draws figures;
tests/test_safe_builds.py builds one).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from ccreport.cli import main

PROBLEM_LINE = re.compile(r"^(?P<file>[^:\s][^:]*)(?::(?P<line>\d+))?(?:: row (?P<row>\d+))?: (?P<field>[^:]+): .+$")
SUMMARY_LINE = re.compile(r"^ccreport: (?P<n>\d+) problems? found; nothing was written$")
USAGE_LINE = re.compile(r"^ccreport( [a-z]+)?: .+\(see ccreport( [a-z]+)? --help\)$")


# --- the tiny valid project -------------------------------------------------------------------------


def data_csv(n: int = 30, seed: int = 5) -> str:
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2 == 0
    lines = ["label,s1,s2,pred,fold,cost"]
    for i in range(n):
        label = "pos" if y[i] else "neg"
        s1, s2 = rng.normal() + 1.2 * y[i], rng.normal() + 0.4 * y[i]
        pred = "pos" if rng.normal() + y[i] > 0.5 else "neg"
        lines.append(f"{label},{s1:.3f},{s2:.2f},{pred},f{i % 3},{(i % 4) + 1}")
    return "\n".join(lines) + "\n"


@dataclass
class Manifest:
    """The manifest as editable tables of ``key = TOML value`` lines; :meth:`text` renders it."""

    project: dict = field(default_factory=lambda: {"title": '"Corpus"', "seed": "3", "narrative": '"narrative.md"', "bootstrap": "500", "calibration": '"off"'})
    datasets: list = field(default_factory=lambda: [{"name": '"d"', "path": '"data.csv"', "label": '"label"', "positive": '"pos"', "fold": '"fold"', "costs": '"cost"', "narrative": '"d.md"'}])
    classifiers: list = field(default_factory=lambda: [{"name": '"a"', "scores": '"s1"'}, {"name": '"b"', "scores": '"s2"'}, {"name": '"c"', "predictions": '"pred"'}])
    priors: list = field(default_factory=lambda: [{"name": '"uniform"', "distribution": '"uniform"'}, {"name": '"sceptic"', "distribution": '"beta"', "a": "2", "b": "8"}])
    top: list = field(default_factory=list)  # raw lines before [project]
    criteria: list = field(default_factory=list)  # [[criteria]] tables (none in the valid project)

    def text(self) -> str:
        out = list(self.top)
        if self.project is not None:
            out += ["[project]"] + [f"{k} = {v}" for k, v in self.project.items()]
        for section in ("datasets", "classifiers", "priors", "criteria"):
            for table in getattr(self, section):
                out += ["", f"[[{section}]]"] + [f"{k} = {v}" for k, v in table.items()]
        return "\n".join(out) + "\n"


BASE_FILES = {"data.csv": data_csv().encode(), "narrative.md": b"# Corpus\n\nText.\n", "d.md": b"About *d*.\n"}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """The valid project, built once with its output in site/."""
    root = tmp_path_factory.mktemp("corpus") / "proj"
    root.mkdir()
    for name, data in BASE_FILES.items():
        (root / name).write_bytes(data)
    (root / "ccreport.toml").write_text(Manifest().text())
    assert main(["check", str(root)]) == 0
    assert main(["build", str(root), "--no-pdf", "-q", "--no-cache"]) == 0
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else b"<dir>") for p in sorted(folder.rglob("*"))}


def leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("ccreport-check-*")}


# --- cases ------------------------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    edit: object = None  # edit(manifest, files) -> None: change the Manifest / the dict of files
    expect: tuple = ()  # fragments stderr must hold (file and field)
    argv: tuple | None = None  # a command line instead of check + build
    templates: bool = False  # only check (see the module docstring)
    position: str | None = None  # "line" or "row": the problem must name one


CASES: list[Case] = []


def case(id, edit=None, *expect, **kw):
    CASES.append(Case(id, edit, expect, **kw))


def set_key(section, key, value, index=0):
    def edit(m: Manifest, files):
        table = m.project if section == "project" else getattr(m, section)[index]
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value

    return edit


HUGE = "9" * 400

# [project] values of the wrong type or out of range: one problem naming ccreport.toml:line and the key
PROJECT_BAD = {
    "title": ["1", "true", '""', "[]", "{}", "1979-05-27"],
    "seed": ["-1", "1.5", '"5"', "true", HUGE, "-" + HUGE, str(2**64), "inf", "nan"],
    "confidence": ["0", "1", "1.5", "-0.1", '"0.9"', "nan", "inf", "1e400"],
    "bootstrap": ["499", "20001", "1000.0", '"1000"', HUGE, "1000000000", "0", "-5"],
    "band": ['""', '"wide"', "1", "[]"],
    "calibration": ['"yes"', "0", "true"],
    "workers": ["0", "257", "1.5", '"2"', HUGE, "1000000", "-1"],
    "narrative": ['"missing.md"', '"."', "1", '""'],
    "theme": ['"../leak"', '"nope"', '"/etc"', '".hidden"', "3", '"a/b"', '"default/../default"', '""'],
    # issue 9: which pairs (ccreport/comparisons.py) and where to run (a Dask scheduler's address)
    "comparisons": ['"some"', "3", "true", '{ base = "a" }', '{ baseline = "zz" }', '{ baseline = 1 }', '[["a", "a"]]',
                    '[["a", "b"], ["b", "a"]]', '[["a", "zz"]]', '[["a"]]', '["a", "b"]', '[["a", 1]]'],
    "scheduler": ['"localhost"', "8786", '""', '"tcp://"'],
}
for key, values in PROJECT_BAD.items():
    for value in values:
        case(f"project.{key}={value[:20]}", set_key("project", key, value), "ccreport.toml:", f"project.{key}", position="line")
case("project.unknown-key", set_key("project", "sed", "3"), "project.sed", "did you mean", position="line")
case("project.title-missing", set_key("project", "title", None), "project.title", "missing required key", position="line")

DATASET_BAD = {
    "name": ['""', '"a b"', '"../x"', '"ü"', "3", '"a/b"', '"x\\ty"'],
    "path": ['"missing.csv"', '"."', "5", '""', '"/nonexistent/file.csv"'],
    "label": ['"nolabel"', "1", '""'],
    "positive": ['"yes"', "1.5", "true", '""', "[]"],
    "fold": ['"nofold"', "2"],
    "costs": ['"nocost"', '"label"', "[]"],
    "narrative": ['"missing.md"', "3"],
}
for key, values in DATASET_BAD.items():
    for value in values:
        case(f"datasets.{key}={value[:20]}", set_key("datasets", key, value), f".{key}" if key not in ("label", "fold", "costs", "positive") else "")
case("datasets.unknown-key", set_key("datasets", "posative", '"pos"'), "datasets[1] (d).posative", position="line")
for key in ("name", "path", "label", "positive"):
    case(f"datasets.{key}-missing", set_key("datasets", key, None), f".{key}", "missing required key", position="line")
case("datasets.duplicate-name", lambda m, f: m.datasets.append(dict(m.datasets[0])), "duplicate name", position="line")

CLASSIFIER_BAD = [
    ("name-bad-chars", set_key("classifiers", "name", '"a b"'), "classifiers[1]"),
    ("name-slash", set_key("classifiers", "name", '"../../etc"'), "classifiers[1]"),
    ("name-empty", set_key("classifiers", "name", '""'), "classifiers[1]"),
    ("name-number", set_key("classifiers", "name", "7"), "classifiers[1]"),
    ("name-duplicate", set_key("classifiers", "name", '"b"'), "duplicate name"),
    ("both-kinds", set_key("classifiers", "predictions", '"pred"'), "exactly one of scores and predictions"),
    ("neither-kind", set_key("classifiers", "scores", None), "got neither"),
    ("column-in-no-file", set_key("classifiers", "scores", '"nothere"'), "nothere"),
    ("scores-not-numbers", set_key("classifiers", "scores", '"pred"'), "data.csv"),
    ("predictions-not-labels", lambda m, f: m.classifiers[2].update(predictions='"s1"'), "data.csv"),
    ("unknown-key", set_key("classifiers", "score", '"s1"'), "classifiers[1] (a).score"),
    ("not-a-table", lambda m, f: m.top.append('classifiers = ["a"]') or setattr(m, "classifiers", []), "classifiers"),
]
for id, edit, fragment in CLASSIFIER_BAD:
    case(f"classifiers.{id}", edit, fragment)


def prior(**keys):
    def edit(m: Manifest, files):
        m.priors.append({"name": '"p"', **keys})

    return edit


PRIOR_BAD = [
    ("unknown-distribution", prior(distribution='"gamma"'), "priors[3] (p).distribution"),
    ("distribution-missing", prior(a="1"), "priors[3] (p).distribution"),
    ("beta-negative", prior(distribution='"beta"', a="-1", b="2"), "priors[3] (p).a"),
    ("beta-b-missing", prior(distribution='"beta"', a="1"), "priors[3] (p).b"),
    ("beta-huge", prior(distribution='"beta"', a=HUGE, b="2"), "priors[3] (p).a"),
    ("uniform-reversed", prior(distribution='"uniform"', low="0.8", high="0.2"), "priors[3] (p).high"),
    ("uniform-outside", prior(distribution='"uniform"', low="-0.5"), "priors[3] (p).low"),
    ("point-pc-2", prior(distribution='"point"', pc="2"), "priors[3] (p).pc"),
    ("point-p-zero", prior(distribution='"point"', p_positive="0", cost_ratio="1"), "priors[3] (p).p_positive"),
    ("point-ratio-negative", prior(distribution='"point"', p_positive="0.5", cost_ratio="-1"), "priors[3] (p).cost_ratio"),
    ("point-both-forms", prior(distribution='"point"', pc="0.5", p_positive="0.5", cost_ratio="1"), "priors[3] (p).pc"),
    ("point-empty", prior(distribution='"point"'), "priors[3] (p)"),
    ("induced-missing", prior(distribution='"induced"'), "priors[3] (p).p_positive"),
    ("induced-bad-inner", prior(distribution='"induced"', p_positive='{ distribution = "cauchy" }', cost_ratio="2"), "priors[3] (p).p_positive.distribution"),
    ("induced-loguniform-zero", prior(distribution='"induced"', p_positive="0.3", cost_ratio='{ distribution = "loguniform", low = 0, high = 2 }'), "cost_ratio.low"),
    ("datasets-unknown", prior(distribution='"uniform"', datasets='["nope"]'), "priors[3] (p).datasets"),
    ("datasets-empty", prior(distribution='"uniform"', datasets="[]"), "priors[3] (p).datasets"),
    ("wrong-parameter", prior(distribution='"beta"', a="1", b="1", pc="0.3"), "priors[3] (p).pc"),
    ("name-duplicate", lambda m, f: m.priors.append(dict(m.priors[0])), "duplicate name"),
    ("name-hostile", prior(name='"../p"', distribution='"uniform"'), "priors[3]"),
]
for id, edit, fragment in PRIOR_BAD:
    case(f"priors.{id}", edit, fragment, position="line")


def family(members: str | None, crisp_twin: bool = True):
    """A parameter-based family (D&H 2000 s. 2.3) over crisp c (and its twin c2 on the same column)."""

    def edit(m: Manifest, files):
        if crisp_twin:
            m.classifiers.append({"name": '"c2"', "predictions": '"pred"'})
        table = {"name": '"fam"', "kind": '"parameter_based"'}
        if members is not None:
            table["members"] = members
        m.criteria.append(table)

    return edit


FAMILY_BAD = [
    ("members-missing", family(None), "criteria[1] (fam).members", "missing required key"),
    ("members-not-table", family('["c", "c2"]'), "criteria[1] (fam).members", "expected a table"),
    ("one-member", family("{ c = 0.5 }"), "criteria[1] (fam).members", "at least two members"),
    ("unknown-member", family("{ c = 0.2, nope = 0.5 }"), "criteria[1] (fam).members.nope", "expected a classifier of this manifest"),
    ("scoring-member", family("{ c = 0.2, a = 0.5 }"), "criteria[1] (fam).members.a", "expected a crisp classifier"),
    ("condition-above-1", family("{ c = 0.2, c2 = 1.5 }"), "criteria[1] (fam).members.c2", "a number in [0, 1]"),
    ("condition-negative", family("{ c = -0.1, c2 = 0.5 }"), "criteria[1] (fam).members.c", "a number in [0, 1]"),
    ("condition-string", family('{ c = "0.2", c2 = 0.5 }'), "criteria[1] (fam).members.c", "a number in [0, 1]"),
    ("condition-nan", family("{ c = nan, c2 = 0.5 }"), "criteria[1] (fam).members.c", "a number in [0, 1]"),
    ("duplicate-condition", family("{ c = 0.5, c2 = 0.5 }"), "criteria[1] (fam).members.c2", "distinct training conditions"),
    ("wrong-parameter", lambda m, f: family("{ c = 0.2, c2 = 0.5 }")(m, f) or m.criteria[0].update(rule='"literal"'),
     "criteria[1] (fam).rule", "not a parameter of a parameter_based criterion"),
]
for id, edit, *fragments in FAMILY_BAD:
    case(f"criteria.family.{id}", edit, "ccreport.toml:", *fragments, position="line")


def raw_manifest(text: bytes):
    def edit(m: Manifest, files):
        files["ccreport.toml"] = text

    return edit


MISSING = [
    ("no-project", lambda m, f: setattr(m, "project", None), "missing [project] table"),
    ("no-datasets", lambda m, f: setattr(m, "datasets", []), "datasets: missing"),
    ("no-classifiers", lambda m, f: setattr(m, "classifiers", []), "classifiers: missing"),
    ("empty-file", raw_manifest(b""), "missing [project] table"),
]
for id, edit, fragment in MISSING:  # nothing to point at: no line
    case(f"manifest.{id}", edit, "ccreport.toml", fragment)
TOP_BAD = [
    ("unknown-top-key", lambda m, f: m.top.append("colour = 1"), "colour"),
    ("project-key-at-top", lambda m, f: m.top.append("seed = 1"), "did you mean to put it under [project]"),
    ("syntax-error", raw_manifest(b'[project]\ntitle = "x\n'), "TOML syntax"),
    ("duplicate-key", raw_manifest(b'[project]\ntitle = "x"\ntitle = "y"\n'), "TOML syntax"),
    ("latin-1", raw_manifest('[project]\ntitle = "caf\u00e9"\n'.encode("latin-1")), "encoding"),
    ("utf-16", raw_manifest('[project]\ntitle = "x"\n'.encode("utf-16")), "encoding"),
    ("binary", raw_manifest(bytes(range(256))), "encoding"),
    ("datasets-single-table", raw_manifest(b'[project]\ntitle = "x"\n[datasets]\nname = "d"\n'), "double brackets"),
    ("project-not-a-table", raw_manifest(b'project = 3\n'), "project"),
]
for id, edit, fragment in TOP_BAD:
    case(f"manifest.{id}", edit, "ccreport.toml", fragment, position="line")


def data(text: str | bytes, name="data.csv"):
    def edit(m: Manifest, files):
        files[name] = text.encode() if isinstance(text, str) else text

    return edit


GOOD = data_csv().splitlines()
HEADER, ROWS = GOOD[0], GOOD[1:]


def rows_with(index: int, row: str) -> str:
    changed = list(ROWS)
    changed[index] = row
    return "\n".join([HEADER, *changed]) + "\n"


def column_replaced(column: str, new) -> str:
    names = HEADER.split(",")
    at = names.index(column)
    out = [HEADER]
    for i, row in enumerate(ROWS):
        cells = row.split(",")
        cells[at] = new(i, cells[at])
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


DATA_BAD = [
    ("empty-file", data(""), "data.csv", None),
    ("header-only", data(HEADER + "\n"), "data.csv", None),
    ("no-label-column", data(GOOD[0].replace("label", "klass") + "\n" + "\n".join(ROWS) + "\n"), "label", None),
    ("duplicate-header", data(HEADER.replace("s2", "s1") + "\n" + "\n".join(ROWS) + "\n"), "s1", None),
    ("too-many-fields", data(rows_with(3, ROWS[3] + ",extra")), "data.csv", "row"),
    ("too-few-fields", data(rows_with(3, "pos,1.0")), "data.csv", "row"),
    ("score-text", data(rows_with(4, ROWS[4].replace(ROWS[4].split(",")[1], "abc", 1))), "s1", "row"),
    ("score-nan", data(rows_with(4, ",".join([ROWS[4].split(",")[0], "nan", *ROWS[4].split(",")[2:]]))), "s1", "row"),
    ("score-inf", data(rows_with(4, ",".join([ROWS[4].split(",")[0], "inf", *ROWS[4].split(",")[2:]]))), "s1", "row"),
    ("score-empty", data(rows_with(4, ",".join([ROWS[4].split(",")[0], "", *ROWS[4].split(",")[2:]]))), "s1", "row"),
    ("score-huge-digits", data(rows_with(4, ",".join([ROWS[4].split(",")[0], "9" * 400, *ROWS[4].split(",")[2:]]))), "s1", "row"),
    ("third-class", data(rows_with(5, ROWS[5].replace("neg", "maybe", 1).replace("pos", "maybe", 1))), "label", "row"),
    ("one-class", data(column_replaced("label", lambda i, v: "pos")), "label", None),
    ("positive-absent", data(column_replaced("label", lambda i, v: "yes" if v == "pos" else v)), "label", None),
    ("label-empty-cell", data(rows_with(2, "," + ROWS[2].split(",", 1)[1])), "label", "row"),
    ("cost-negative", data(column_replaced("cost", lambda i, v: "-1" if i == 7 else v)), "cost", "row"),
    ("cost-text", data(column_replaced("cost", lambda i, v: "lots" if i == 7 else v)), "cost", "row"),
    ("fold-empty-cell", data(column_replaced("fold", lambda i, v: "" if i == 9 else v)), "fold", "row"),
    ("folds-one-class-each", data(column_replaced("fold", lambda i, v: "even" if i % 2 == 0 else "odd")), "fold", None),
    ("prediction-unknown-label", data(column_replaced("pred", lambda i, v: "perhaps" if i == 6 else v)), "pred", "row"),
    ("latin-1", data((data_csv().replace("f0", "f\u00e9")).encode("latin-1")), "data.csv", None),
    ("utf-16", data(data_csv().encode("utf-16")), "data.csv", None),
    ("nul-bytes", data(b"label,s1\x00\x00\x00\n" + b"\x00" * 50), "data.csv", None),
    ("unterminated-quote", data(rows_with(3, '"pos,1.0,2.0,pos,f0,1')), "data.csv", None),
    ("binary-garbage", data(bytes(range(128, 256)) * 4), "data.csv", None),
    ("all-blank-lines", data("\n\n\n"), "data.csv", None),
]
for id, edit, fragment, position in DATA_BAD:
    case(f"data.{id}", edit, "data.csv", fragment, position=position)


def narrative(name: str, content: bytes):
    def edit(m: Manifest, files):
        files[name] = content

    return edit


ENCODING_BAD = [
    ("narrative-latin-1", narrative("narrative.md", "caf\u00e9\n".encode("latin-1")), "project.narrative"),
    ("narrative-utf-16", narrative("narrative.md", "hello\n".encode("utf-16")), "project.narrative"),
    ("narrative-binary", narrative("narrative.md", bytes(range(256))), "project.narrative"),
    ("dataset-narrative-latin-1", narrative("d.md", b"\n\nna\xefve\n"), "datasets[1] (d).narrative"),
    ("dataset-narrative-cp1252", narrative("d.md", "\u201cquoted\u201d".encode("cp1252")), "datasets[1] (d).narrative"),
    ("narrative-is-folder", lambda m, f: m.project.update(narrative='"sub"') or f.update({"sub/x.md": b"x"}), "project.narrative"),
]
for id, edit, fragment in ENCODING_BAD:
    case(f"encoding.{id}", edit, "ccreport.toml", fragment, position="line")


def template(name: str, content: str | bytes, folder="templates"):
    def edit(m: Manifest, files):
        files[f"{folder}/{name}"] = content.encode() if isinstance(content, str) else content

    return edit


TEMPLATE_BAD = [
    ("division-by-zero", template("index.html", "{{ 1 / 0 }}"), "ZeroDivisionError"),
    ("self-include", template("index.html", '{% include "index.html" %}'), "includes or extends itself"),
    ("not-utf8", template("index.html", b"\xff\xfe{{ title }}"), "expected UTF-8 text"),
    ("undefined", template("index.html", "{{ no_such_thing.x }}"), "undefined variable"),
    ("syntax", template("index.html", "{% for %}"), "template syntax error"),
    ("missing-include", template("index.html", '{% include "nowhere.html" %}'), "template not found"),
    ("dataset-page", template("dataset.html", "{{ results.datasets['nope'].name }}"), "dataset.html"),
    ("pdf-report", template("report.html", "{{ [] | first | int + 'x' }}"), "report.html"),
    ("theme-template", lambda m, f: m.project.update(theme='"mine"') or f.update({"themes/mine/theme.css": b"body{}", "themes/mine/templates/index.html": b"{{ 1 // 0 }}"}), "ZeroDivisionError"),
    # issue 38: templates are sandboxed (the payload would write "pwned" into the project); a cycle
    # through the shipped templates is named at the project's own file
    ("sandbox", template("index.html", '{{ cycler.__init__.__globals__.os.popen("touch pwned").read() }}'), "refused by the template sandbox"),
    ("sandbox-module", template("index.html", "{{ tb.io.open('pwned', 'w') }}"), "refused by the template sandbox"),
    ("self-include-through-base", lambda m, f: f.update({
        "templates/index.html": b'{% extends "base/index.html" %}{% block content %}{% include "dataset.html" %}{% endblock %}',
        "templates/dataset.html": b'{% extends "base/dataset.html" %}\n{% block content %}{% include "dataset.html" %}{% endblock %}'}),
     "templates/dataset.html:2: template: a template includes or extends itself"),
]
for id, edit, fragment in TEMPLATE_BAD:
    case(f"template.{id}", edit, "template", fragment, templates=True)


def theme_files(m: Manifest, files, name, theme_files_):
    m.project["theme"] = f'"{name}"'
    files.update(theme_files_)


THEME_BAD = [
    ("path-up", lambda m, f: theme_files(m, f, "../leak", {}), "not a path"),
    ("absolute", lambda m, f: theme_files(m, f, "/tmp", {}), "not a path"),
    ("unknown", lambda m, f: theme_files(m, f, "nope", {}), "unknown theme"),
    ("folder-without-css", lambda m, f: theme_files(m, f, "bare", {"themes/bare/readme.txt": b"no css"}), "unknown theme"),
    ("hidden-name", lambda m, f: theme_files(m, f, ".git", {}), "not a path"),
    ("misspelt", lambda m, f: theme_files(m, f, "defualt", {}), 'did you mean "default"'),
]
for id, edit, fragment in THEME_BAD:
    case(f"theme.{id}", edit, "ccreport.toml", "project.theme", fragment, position="line")

HOSTILE = ["../../etc/passwd", "a\\b", "<script>", "name with spaces", "tab\\tname", "new\\nline", "ünïcode", "a:b", "*", "a;rm -rf ~"]
for i, name in enumerate(HOSTILE):
    section = ("datasets", "classifiers", "priors")[i % 3]
    case(f"hostile-name.{section}.{i}", set_key(section, "name", f'"{name}"'), "ccreport.toml", f"{section}[1]", "names are used in file names", position="line")

CLI_BAD = [
    ("no-command", ()),
    ("unknown-command", ("publish",)),
    ("unknown-option", ("build", ".", "--fast")),
    ("workers-zero", ("build", ".", "-j", "0")),
    ("workers-negative", ("build", ".", "-j", "-3")),
    ("workers-text", ("build", ".", "-j", "many")),
    ("workers-huge", ("build", ".", "-j", HUGE)),
    ("workers-257", ("build", ".", "-j", "257")),
    ("output-missing-value", ("build", ".", "-o")),
    ("port-zero", ("serve", ".", "--port", "0")),
    ("port-too-big", ("serve", ".", "--port", "70000")),
    ("port-text", ("serve", ".", "--port", "http")),
    ("port-huge", ("serve", ".", "--port", HUGE)),
    ("new-without-dir", ("new",)),
]
for id, argv in CLI_BAD:
    case(f"cli.{id}", None, argv=argv)

CLI_PROBLEMS = [
    ("output-is-project", ("build", ".", "-o", ".", "--no-pdf"), "output folder (-o)"),
    ("output-is-parent", ("build", ".", "-o", "..", "--no-pdf"), "output folder (-o)"),
    ("output-is-data", ("build", ".", "-o", "data.csv", "--no-pdf"), "output folder (-o)"),
    ("output-is-manifest", ("build", ".", "-o", "ccreport.toml", "--no-pdf", "--force"), "output folder (-o)"),
    ("output-under-a-file", ("build", ".", "-o", "narrative.md/out", "--no-pdf"), "output folder (-o)"),
    ("output-foreign-folder", ("build", ".", "-o", "foreign", "--no-pdf"), "--force"),
    ("check-output-is-project", ("check", ".", "-o", "."), "output folder (-o)"),
    ("missing-project", ("build", "nowhere"), "ccreport.toml"),
    ("project-is-a-csv", ("check", "data.csv"), "data.csv:1: TOML syntax"),
    ("missing-manifest-file", ("check", "other.toml"), "file not found"),
    ("serve-without-site", ("serve", ".", "-o", "foreign", "--no-watch"), "expected a built site"),
    ("new-into-project", ("new", "."), "ccreport"),
    ("cache-inside-output", ("build", ".", "-o", "out", "--cache-dir", "out/cache", "--no-pdf"), "cache folder (--cache-dir)"),
    ("output-inside-cache", ("build", ".", "-o", "cache/out", "--cache-dir", "cache", "--no-pdf"), "cache folder (--cache-dir)"),
]
for id, argv, fragment in CLI_PROBLEMS:
    case(f"cli.{id}", lambda m, f: f.update({"foreign/mine.txt": b"mine"}), fragment, argv=argv)


# --- running them -----------------------------------------------------------------------------------


def test_the_corpus_is_large():
    assert len(CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES)


def run(argv, capsys) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.err


def assert_problem_lines(err: str, c: Case) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines, f"{c.id}: nothing on stderr"
    summary = SUMMARY_LINE.match(lines[-1])
    if summary is None:  # ccreport: <one line> (a CCReportError) is one line too
        assert len(lines) == 1 and lines[0].startswith("ccreport"), err
        return
    problems = lines[:-1]
    assert int(summary["n"]) == len(problems) >= 1, err
    for line in problems:
        match = PROBLEM_LINE.match(line)
        assert match, f"{c.id}: not file: field: expected: {line!r}"
        if c.position is not None:
            assert any(PROBLEM_LINE.match(p)[c.position] for p in problems), f"{c.id}: no {c.position} named in {err!r}"


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_bad_input(c: Case, base, tmp_path, capsys, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(base, root)
    manifest, files = Manifest(), {}
    if c.edit is not None:
        c.edit(manifest, files)
    if "ccreport.toml" not in files:
        files["ccreport.toml"] = manifest.text().encode()
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    monkeypatch.chdir(root)
    before, temporary = snapshot(root), leftovers()

    if c.argv is not None and not c.expect:  # command-line misuse: argparse, exactly one line
        code, err = run(c.argv, capsys)
        assert code == 2
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and USAGE_LINE.match(err.strip()), err
    else:
        commands = [c.argv] if c.argv else [("check", ".")] + ([] if c.templates else [("build", ".", "--no-pdf", "-q", "--no-cache")])
        for argv in commands:
            code, err = run(argv, capsys)
            assert code == 2, f"{c.id}: {argv} exited {code}: {err}"
            assert_problem_lines(err, c)
            for fragment in c.expect:
                assert fragment in err, f"{c.id}: {fragment!r} not in {err!r}"
    assert snapshot(root) == before, f"{c.id}: the project or its previous output changed"
    assert leftovers() == temporary
