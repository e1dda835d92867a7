"""A corpus of bad inputs (issue 8, item 6), generated here: manifest, data, encodings, templates,
themes, hostile names and CLI misuse.

Every case runs in-process on a copy of a tiny project that already holds a previous output in
``site/``, and asserts: exit status 2; every line of standard error is one problem naming a file
(with its line or row where there is one) and a field, then one summary line (or, for a misused
command line, exactly one line); the expected file and field are named; no traceback; the project
folder, its previous output included, byte-identical afterwards and nothing left behind (no
staging folder, no temporary folder of ``check``). ``check`` and ``build`` are both run and both
must refuse, except for templates, which only ``check`` runs here (a build of them draws figures;
tests/runtime/test_safe_builds.py builds one).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from ccreport.cli import main

PROBLEM_LINE = re.compile(
    r"^(?P<file>[^:\s][^:]*)(?::(?P<line>\d+))?(?:: row (?P<row>\d+))?: (?P<field>[^:]+): .+$"
)
SUMMARY_LINE = re.compile(r"^ccreport: (?P<n>\d+) problems? found; nothing was written$")
USAGE_LINE = re.compile(r"^ccreport( [a-z]+)?: .+\(see ccreport( [a-z]+)? --help\)$")


# --- the tiny valid project -----------------------------------------------------------------------


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

    project: dict = field(
        default_factory=lambda: {
            "title": '"Corpus"',
            "seed": "3",
            "narrative": '"narrative.md"',
            "bootstrap": "500",
            "calibration": '"off"',
        }
    )
    datasets: list = field(
        default_factory=lambda: [
            {
                "name": '"d"',
                "path": '"data.csv"',
                "label": '"label"',
                "positive": '"pos"',
                "fold": '"fold"',
                "costs": '"cost"',
                "narrative": '"d.md"',
            }
        ]
    )
    classifiers: list = field(
        default_factory=lambda: [
            {"name": '"a"', "scores": '"s1"'},
            {"name": '"b"', "scores": '"s2"'},
            {"name": '"c"', "predictions": '"pred"'},
        ]
    )
    priors: list = field(
        default_factory=lambda: [
            {"name": '"uniform"', "distribution": '"uniform"'},
            {"name": '"sceptic"', "distribution": '"beta"', "a": "2", "b": "8"},
        ]
    )
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


BASE_FILES = {
    "data.csv": data_csv().encode(),
    "narrative.md": b"# Corpus\n\nText.\n",
    "d.md": b"About *d*.\n",
}


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
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else b"<dir>")
        for p in sorted(folder.rglob("*"))
    }


def leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("ccreport-check-*")}


# --- cases ----------------------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    edit: object = None  # edit(manifest, files) -> None: change the Manifest / the dict of files
    expect: tuple = ()  # fragments stderr must hold (file and field)
    argv: tuple | None = None  # a command line instead of check + build
    templates: bool = False  # only check (see the module docstring)
    position: str | None = None  # "line" or "row": the problem must name one
    env: dict = field(default_factory=dict)  # environment variables set while check and build run


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

# [project] values of the wrong type or out of range: one problem naming ccreport.toml:line and the
# key
PROJECT_BAD = {
    "title": ["1", "true", '""', "[]", "{}", "1979-05-27"],
    "seed": ["-1", "1.5", '"5"', "true", HUGE, "-" + HUGE, str(2**64), "inf", "nan"],
    "confidence": ["0", "1", "1.5", "-0.1", '"0.9"', "nan", "inf", "1e400"],
    "bootstrap": ["499", "20001", "1000.0", '"1000"', HUGE, "1000000000", "0", "-5"],
    "band": ['""', '"wide"', "1", "[]"],
    "calibration": ['"yes"', "0", "true"],
    "workers": ["0", "257", "1.5", '"2"', HUGE, "1000000", "-1"],
    "narrative": ['"missing.md"', '"."', "1", '""'],
    "theme": [
        '"../leak"',
        '"nope"',
        '"/etc"',
        '".hidden"',
        "3",
        '"a/b"',
        '"default/../default"',
        '""',
    ],
    # issue 9: which pairs (ccreport/tasks/comparisons.py) and where to run (a Dask scheduler's
    # address)
    "comparisons": [
        '"some"',
        "3",
        "true",
        '{ base = "a" }',
        '{ baseline = "zz" }',
        "{ baseline = 1 }",
        '[["a", "a"]]',
        '[["a", "b"], ["b", "a"]]',
        '[["a", "zz"]]',
        '[["a"]]',
        '["a", "b"]',
        '[["a", 1]]',
    ],
    "scheduler": ['"localhost"', "8786", '""', '"tcp://"'],
}
for key, values in PROJECT_BAD.items():
    for value in values:
        case(
            f"project.{key}={value[:20]}",
            set_key("project", key, value),
            "ccreport.toml:",
            f"project.{key}",
            position="line",
        )
case(
    "project.unknown-key",
    set_key("project", "sed", "3"),
    "project.sed",
    "did you mean",
    position="line",
)
case(
    "project.title-missing",
    set_key("project", "title", None),
    "project.title",
    "missing required key",
    position="line",
)

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
        case(
            f"datasets.{key}={value[:20]}",
            set_key("datasets", key, value),
            f".{key}" if key not in ("label", "fold", "costs", "positive") else "",
        )
case(
    "datasets.unknown-key",
    set_key("datasets", "posative", '"pos"'),
    "datasets[1] (d).posative",
    position="line",
)
for key in ("name", "path", "label", "positive"):
    case(
        f"datasets.{key}-missing",
        set_key("datasets", key, None),
        f".{key}",
        "missing required key",
        position="line",
    )
case(
    "datasets.duplicate-name",
    lambda m, f: m.datasets.append(dict(m.datasets[0])),
    "duplicate name",
    position="line",
)

CLASSIFIER_BAD = [
    ("name-bad-chars", set_key("classifiers", "name", '"a b"'), "classifiers[1]"),
    ("name-slash", set_key("classifiers", "name", '"../../etc"'), "classifiers[1]"),
    ("name-empty", set_key("classifiers", "name", '""'), "classifiers[1]"),
    ("name-number", set_key("classifiers", "name", "7"), "classifiers[1]"),
    ("name-duplicate", set_key("classifiers", "name", '"b"'), "duplicate name"),
    (
        "both-kinds",
        set_key("classifiers", "predictions", '"pred"'),
        "exactly one of scores and predictions",
    ),
    ("neither-kind", set_key("classifiers", "scores", None), "got neither"),
    ("column-in-no-file", set_key("classifiers", "scores", '"nothere"'), "nothere"),
    ("scores-not-numbers", set_key("classifiers", "scores", '"pred"'), "data.csv"),
    (
        "predictions-not-labels",
        lambda m, f: m.classifiers[2].update(predictions='"s1"'),
        "data.csv",
    ),
    ("unknown-key", set_key("classifiers", "score", '"s1"'), "classifiers[1] (a).score"),
    (
        "not-a-table",
        lambda m, f: m.top.append('classifiers = ["a"]') or setattr(m, "classifiers", []),
        "classifiers",
    ),
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
    (
        "uniform-reversed",
        prior(distribution='"uniform"', low="0.8", high="0.2"),
        "priors[3] (p).high",
    ),
    ("uniform-outside", prior(distribution='"uniform"', low="-0.5"), "priors[3] (p).low"),
    ("point-pc-2", prior(distribution='"point"', pc="2"), "priors[3] (p).pc"),
    (
        "point-p-zero",
        prior(distribution='"point"', p_positive="0", cost_ratio="1"),
        "priors[3] (p).p_positive",
    ),
    (
        "point-ratio-negative",
        prior(distribution='"point"', p_positive="0.5", cost_ratio="-1"),
        "priors[3] (p).cost_ratio",
    ),
    (
        "point-both-forms",
        prior(distribution='"point"', pc="0.5", p_positive="0.5", cost_ratio="1"),
        "priors[3] (p).pc",
    ),
    ("point-empty", prior(distribution='"point"'), "priors[3] (p)"),
    ("induced-missing", prior(distribution='"induced"'), "priors[3] (p).p_positive"),
    (
        "induced-bad-inner",
        prior(distribution='"induced"', p_positive='{ distribution = "cauchy" }', cost_ratio="2"),
        "priors[3] (p).p_positive.distribution",
    ),
    (
        "induced-loguniform-zero",
        prior(
            distribution='"induced"',
            p_positive="0.3",
            cost_ratio='{ distribution = "loguniform", low = 0, high = 2 }',
        ),
        "cost_ratio.low",
    ),
    (
        "datasets-unknown",
        prior(distribution='"uniform"', datasets='["nope"]'),
        "priors[3] (p).datasets",
    ),
    ("datasets-empty", prior(distribution='"uniform"', datasets="[]"), "priors[3] (p).datasets"),
    ("wrong-parameter", prior(distribution='"beta"', a="1", b="1", pc="0.3"), "priors[3] (p).pc"),
    ("name-duplicate", lambda m, f: m.priors.append(dict(m.priors[0])), "duplicate name"),
    ("name-hostile", prior(name='"../p"', distribution='"uniform"'), "priors[3]"),
]
for id, edit, fragment in PRIOR_BAD:
    case(f"priors.{id}", edit, fragment, position="line")


def family(members: str | None, crisp_twin: bool = True):
    """A parameter-based family (D&H 2000 s. 2.3) over crisp c (and its twin c2 on the same
    column)."""

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
    (
        "unknown-member",
        family("{ c = 0.2, nope = 0.5 }"),
        "criteria[1] (fam).members.nope",
        "expected a classifier of this manifest",
    ),
    (
        "scoring-member",
        family("{ c = 0.2, a = 0.5 }"),
        "criteria[1] (fam).members.a",
        "expected a crisp classifier",
    ),
    (
        "condition-above-1",
        family("{ c = 0.2, c2 = 1.5 }"),
        "criteria[1] (fam).members.c2",
        "a number in [0, 1]",
    ),
    (
        "condition-negative",
        family("{ c = -0.1, c2 = 0.5 }"),
        "criteria[1] (fam).members.c",
        "a number in [0, 1]",
    ),
    (
        "condition-string",
        family('{ c = "0.2", c2 = 0.5 }'),
        "criteria[1] (fam).members.c",
        "a number in [0, 1]",
    ),
    (
        "condition-nan",
        family("{ c = nan, c2 = 0.5 }"),
        "criteria[1] (fam).members.c",
        "a number in [0, 1]",
    ),
    (
        "duplicate-condition",
        family("{ c = 0.5, c2 = 0.5 }"),
        "criteria[1] (fam).members.c2",
        "distinct training conditions",
    ),
    (
        "wrong-parameter",
        lambda m, f: (
            family("{ c = 0.2, c2 = 0.5 }")(m, f) or m.criteria[0].update(rule='"literal"')
        ),
        "criteria[1] (fam).rule",
        "not a parameter of a parameter_based criterion",
    ),
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
    (
        "project-key-at-top",
        lambda m, f: m.top.append("seed = 1"),
        "did you mean to put it under [project]",
    ),
    ("syntax-error", raw_manifest(b'[project]\ntitle = "x\n'), "TOML syntax"),
    ("duplicate-key", raw_manifest(b'[project]\ntitle = "x"\ntitle = "y"\n'), "TOML syntax"),
    ("latin-1", raw_manifest('[project]\ntitle = "caf\u00e9"\n'.encode("latin-1")), "encoding"),
    ("utf-16", raw_manifest('[project]\ntitle = "x"\n'.encode("utf-16")), "encoding"),
    ("binary", raw_manifest(bytes(range(256))), "encoding"),
    (
        "datasets-single-table",
        raw_manifest(b'[project]\ntitle = "x"\n[datasets]\nname = "d"\n'),
        "double brackets",
    ),
    ("project-not-a-table", raw_manifest(b"project = 3\n"), "project"),
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
    (
        "no-label-column",
        data(GOOD[0].replace("label", "klass") + "\n" + "\n".join(ROWS) + "\n"),
        "label",
        None,
    ),
    (
        "duplicate-header",
        data(HEADER.replace("s2", "s1") + "\n" + "\n".join(ROWS) + "\n"),
        "s1",
        None,
    ),
    ("too-many-fields", data(rows_with(3, ROWS[3] + ",extra")), "data.csv", "row"),
    ("too-few-fields", data(rows_with(3, "pos,1.0")), "data.csv", "row"),
    (
        "score-text",
        data(rows_with(4, ROWS[4].replace(ROWS[4].split(",")[1], "abc", 1))),
        "s1",
        "row",
    ),
    (
        "score-nan",
        data(rows_with(4, ",".join([ROWS[4].split(",")[0], "nan", *ROWS[4].split(",")[2:]]))),
        "s1",
        "row",
    ),
    (
        "score-inf",
        data(rows_with(4, ",".join([ROWS[4].split(",")[0], "inf", *ROWS[4].split(",")[2:]]))),
        "s1",
        "row",
    ),
    (
        "score-empty",
        data(rows_with(4, ",".join([ROWS[4].split(",")[0], "", *ROWS[4].split(",")[2:]]))),
        "s1",
        "row",
    ),
    (
        "score-huge-digits",
        data(rows_with(4, ",".join([ROWS[4].split(",")[0], "9" * 400, *ROWS[4].split(",")[2:]]))),
        "s1",
        "row",
    ),
    (
        "third-class",
        data(rows_with(5, ROWS[5].replace("neg", "maybe", 1).replace("pos", "maybe", 1))),
        "label",
        "row",
    ),
    ("one-class", data(column_replaced("label", lambda i, v: "pos")), "label", None),
    (
        "positive-absent",
        data(column_replaced("label", lambda i, v: "yes" if v == "pos" else v)),
        "label",
        None,
    ),
    ("label-empty-cell", data(rows_with(2, "," + ROWS[2].split(",", 1)[1])), "label", "row"),
    (
        "cost-negative",
        data(column_replaced("cost", lambda i, v: "-1" if i == 7 else v)),
        "cost",
        "row",
    ),
    (
        "cost-text",
        data(column_replaced("cost", lambda i, v: "lots" if i == 7 else v)),
        "cost",
        "row",
    ),
    (
        "fold-empty-cell",
        data(column_replaced("fold", lambda i, v: "" if i == 9 else v)),
        "fold",
        "row",
    ),
    (
        "folds-one-class-each",
        data(column_replaced("fold", lambda i, v: "even" if i % 2 == 0 else "odd")),
        "fold",
        None,
    ),
    (
        "prediction-unknown-label",
        data(column_replaced("pred", lambda i, v: "perhaps" if i == 6 else v)),
        "pred",
        "row",
    ),
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
    (
        "narrative-latin-1",
        narrative("narrative.md", "caf\u00e9\n".encode("latin-1")),
        "project.narrative",
    ),
    (
        "narrative-utf-16",
        narrative("narrative.md", "hello\n".encode("utf-16")),
        "project.narrative",
    ),
    ("narrative-binary", narrative("narrative.md", bytes(range(256))), "project.narrative"),
    (
        "dataset-narrative-latin-1",
        narrative("d.md", b"\n\nna\xefve\n"),
        "datasets[1] (d).narrative",
    ),
    (
        "dataset-narrative-cp1252",
        narrative("d.md", "\u201cquoted\u201d".encode("cp1252")),
        "datasets[1] (d).narrative",
    ),
    (
        "narrative-is-folder",
        lambda m, f: m.project.update(narrative='"sub"') or f.update({"sub/x.md": b"x"}),
        "project.narrative",
    ),
]
for id, edit, fragment in ENCODING_BAD:
    case(f"encoding.{id}", edit, "ccreport.toml", fragment, position="line")


def template(name: str, content: str | bytes, folder="templates"):
    def edit(m: Manifest, files):
        files[f"{folder}/{name}"] = content.encode() if isinstance(content, str) else content

    return edit


TEMPLATE_BAD = [
    ("division-by-zero", template("index.html", "{{ 1 / 0 }}"), "ZeroDivisionError"),
    (
        "self-include",
        template("index.html", '{% include "index.html" %}'),
        "includes or extends itself",
    ),
    ("not-utf8", template("index.html", b"\xff\xfe{{ title }}"), "expected UTF-8 text"),
    ("undefined", template("index.html", "{{ no_such_thing.x }}"), "undefined variable"),
    ("syntax", template("index.html", "{% for %}"), "template syntax error"),
    (
        "missing-include",
        template("index.html", '{% include "nowhere.html" %}'),
        "template not found",
    ),
    (
        "dataset-page",
        template("dataset.html", "{{ results.datasets['nope'].name }}"),
        "dataset.html",
    ),
    ("pdf-report", template("report.html", "{{ [] | first | int + 'x' }}"), "report.html"),
    (
        "theme-template",
        lambda m, f: (
            m.project.update(theme='"mine"')
            or f.update(
                {
                    "themes/mine/theme.css": b"body{}",
                    "themes/mine/templates/index.html": b"{{ 1 // 0 }}",
                }
            )
        ),
        "ZeroDivisionError",
    ),
    # issue 38: templates are sandboxed (the payload would write "pwned" into the project); a cycle
    # through the shipped templates is named at the project's own file
    (
        "sandbox",
        template("index.html", '{{ cycler.__init__.__globals__.os.popen("touch pwned").read() }}'),
        "refused by the template sandbox",
    ),
    (
        "sandbox-module",
        template("index.html", "{{ tb.io.open('pwned', 'w') }}"),
        "refused by the template sandbox",
    ),
    (
        "self-include-through-base",
        lambda m, f: f.update(
            {
                "templates/index.html": (
                    b'{% extends "base/index.html" %}{% block content %}{% include '
                    b'"dataset.html" %}{% endblock %}'
                ),
                "templates/dataset.html": (
                    b'{% extends "base/dataset.html" %}\n{% block content %}{% include '
                    b'"dataset.html" %}{% endblock %}'
                ),
            }
        ),
        "templates/dataset.html:2: template: a template includes or extends itself",
    ),
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
    (
        "folder-without-css",
        lambda m, f: theme_files(m, f, "bare", {"themes/bare/readme.txt": b"no css"}),
        "unknown theme",
    ),
    ("hidden-name", lambda m, f: theme_files(m, f, ".git", {}), "not a path"),
    ("misspelt", lambda m, f: theme_files(m, f, "defualt", {}), 'did you mean "default"'),
]
for id, edit, fragment in THEME_BAD:
    case(f"theme.{id}", edit, "ccreport.toml", "project.theme", fragment, position="line")

HOSTILE = [
    "../../etc/passwd",
    "a\\b",
    "<script>",
    "name with spaces",
    "tab\\tname",
    "new\\nline",
    "ünïcode",
    "a:b",
    "*",
    "a;rm -rf ~",
]
for i, name in enumerate(HOSTILE):
    section = ("datasets", "classifiers", "priors")[i % 3]
    case(
        f"hostile-name.{section}.{i}",
        set_key(section, "name", f'"{name}"'),
        "ccreport.toml",
        f"{section}[1]",
        "names are used in file names",
        position="line",
    )

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
    (
        "output-is-manifest",
        ("build", ".", "-o", "ccreport.toml", "--no-pdf", "--force"),
        "output folder (-o)",
    ),
    (
        "output-under-a-file",
        ("build", ".", "-o", "narrative.md/out", "--no-pdf"),
        "output folder (-o)",
    ),
    ("output-foreign-folder", ("build", ".", "-o", "foreign", "--no-pdf"), "--force"),
    ("check-output-is-project", ("check", ".", "-o", "."), "output folder (-o)"),
    ("missing-project", ("build", "nowhere"), "ccreport.toml"),
    ("project-is-a-csv", ("check", "data.csv"), "data.csv:1: TOML syntax"),
    ("missing-manifest-file", ("check", "other.toml"), "file not found"),
    ("serve-without-site", ("serve", ".", "-o", "foreign", "--no-watch"), "expected a built site"),
    ("new-into-project", ("new", "."), "ccreport"),
    (
        "cache-inside-output",
        ("build", ".", "-o", "out", "--cache-dir", "out/cache", "--no-pdf"),
        "cache folder (--cache-dir)",
    ),
    (
        "output-inside-cache",
        ("build", ".", "-o", "cache/out", "--cache-dir", "cache", "--no-pdf"),
        "cache folder (--cache-dir)",
    ),
]
for id, argv, fragment in CLI_PROBLEMS:
    case(f"cli.{id}", lambda m, f: f.update({"foreign/mine.txt": b"mine"}), fragment, argv=argv)


# --- issue 38: what check let through and build tripped on, and silent acceptance -----------------


def workforce(capacity: str):
    def edit(m: Manifest, files):
        m.criteria.append({"name": '"desk"', "kind": '"workforce"', "capacity": capacity})

    return edit


def cost_cells(cells: str, column=None):
    """``costs`` as a cost-benefit table; ``column(i, value)`` rewrites the cost column's cells."""

    def edit(m: Manifest, files):
        m.datasets[0]["costs"] = cells
        if column is not None:
            files["data.csv"] = column_replaced("cost", column).encode()

    return edit


FIFO = object()  # a file content: make a named pipe there


def parquet_with(kind: str, column: str):
    """The data as Parquet with ``column`` turned into a list (``kind = "list"``) or a struct."""

    def edit(m: Manifest, files):
        import io

        import pyarrow as pa
        import pyarrow.parquet as pq

        names = HEADER.split(",")
        cells = {name: [row.split(",")[i] for row in ROWS] for i, name in enumerate(names)}
        arrays = {
            name: pa.array([float(v) for v in values])
            if name in ("s1", "s2", "cost")
            else pa.array(values)
            for name, values in cells.items()
        }
        values = cells[column]
        arrays[column] = (
            pa.array([[v] for v in values])
            if kind == "list"
            else pa.array([{"value": v} for v in values])
        )
        sink = io.BytesIO()
        pq.write_table(pa.table(arrays), sink)
        files["data.parquet"] = sink.getvalue()
        m.datasets[0]["path"] = '"data.parquet"'

    return edit


ISSUE_38 = [
    # integers of any size: check reads them exactly and refuses what build cannot use
    (
        "criteria.capacity-400-digits",
        workforce(HUGE),
        ("criteria[1] (desk).capacity", "2**53"),
        "line",
        {},
    ),
    (
        "criteria.capacity-2**53+1",
        workforce(str(2**53 + 1)),
        ("criteria[1] (desk).capacity",),
        "line",
        {},
    ),
    (
        "costs.fn-400-digits",
        cost_cells("{ fn = " + HUGE + ", fp = 1 }"),
        ("datasets[1] (d).costs.fn",),
        "line",
        {},
    ),
    (
        "manifest.seed-5000-digits",
        set_key("project", "seed", "9" * 5000),
        ("ccreport.toml:", "TOML value", "5000 digits"),
        "line",
        {},
    ),
    (
        "manifest.positive-5000-digits",
        set_key("datasets", "positive", "7" * 5000),
        ("ccreport.toml:", "TOML value"),
        "line",
        {},
    ),
    (
        "data.score-5000-digits",
        data(rows_with(4, ",".join([ROWS[4].split(",")[0], "9" * 5000, *ROWS[4].split(",")[2:]]))),
        ("data.csv", "s1"),
        "row",
        {},
    ),
    (
        "data.cost-5000-digits",
        data(column_replaced("cost", lambda i, v: "9" * 5000 if i == 3 else v)),
        ("data.csv", "cost"),
        "row",
        {},
    ),
    # costs whose sums or ratios overflow
    (
        "costs.column-near-max-float",
        cost_cells('"cost"', lambda i, v: "1.7e308"),
        ("cost", "stays finite"),
        "row",
        {},
    ),
    (
        "costs.column-sum-overflows",
        cost_cells(
            '{ fn = "cost", tp = 1.7e308, fp = "cost" }', lambda i, v: "1.7e308" if i == 4 else v
        ),
        ("cost", "overflows"),
        "row",
        {},
    ),
    (
        "costs.number-near-max-float",
        cost_cells('{ fn = 1.7e308, fp = "cost" }'),
        ("data.csv", "costs.fn", "at most"),
        None,
        {},
    ),
    (
        "costs.numbers-sum-overflows",
        cost_cells("{ fn = 1.7e308, tp = 1.7e308, fp = 1 }"),
        ("datasets[1] (d).costs.fn", "overflows"),
        "line",
        {},
    ),
    (
        "priors.cost-ratio-overflows",
        prior(distribution='"point"', cost_fn="1e300", cost_fp="1e-300", p_positive="0.5"),
        ("priors[3] (p).cost_fn", "overflows or underflows"),
        "line",
        {},
    ),
    (
        "priors.cost-ratio-underflows",
        prior(distribution='"point"', cost_fn="1e-300", cost_fp="1e300", p_positive="0.5"),
        ("priors[3] (p).cost_fn", "overflows or underflows"),
        "line",
        {},
    ),
    # a negative misclassification cost is an error; benefits go in tp / tn
    (
        "costs.negative-fn-cell-offset-by-tp",
        cost_cells('{ fn = "cost", tp = 5, fp = "cost" }', lambda i, v: "-1" if i == 6 else v),
        ("cost", "misclassification cost >= 0"),
        "row",
        {},
    ),
    (
        "costs.negative-fp-cell-offset-by-tn",
        cost_cells('{ fn = "cost", fp = "cost", tn = 5 }', lambda i, v: "-2" if i == 7 else v),
        ("cost", "misclassification cost >= 0"),
        "row",
        {},
    ),
    (
        "costs.negative-fn-number",
        cost_cells('{ fn = -1, tp = 5, fp = "cost" }'),
        ("datasets[1] (d).costs.fn", "misclassification cost >= 0"),
        "line",
        {},
    ),
    (
        "costs.negative-fp-number",
        cost_cells('{ fn = "cost", fp = -3, tn = 4 }'),
        ("datasets[1] (d).costs.fp", "misclassification cost >= 0"),
        "line",
        {},
    ),
    (
        "priors.cost-fn-negative",
        prior(distribution='"point"', cost_fn="-5", cost_fp="1", p_positive="0.5"),
        ("priors[3] (p).cost_fn",),
        "line",
        {},
    ),
    # Parquet columns of nested types
    (
        "parquet.label-list",
        parquet_with("list", "label"),
        ("data.parquet", "label", "Parquet type list"),
        None,
        {},
    ),
    (
        "parquet.label-struct",
        parquet_with("struct", "label"),
        ("data.parquet", "label", "Parquet type struct"),
        None,
        {},
    ),
    (
        "parquet.fold-struct",
        parquet_with("struct", "fold"),
        ("data.parquet", "fold", "Parquet type struct"),
        None,
        {},
    ),
    (
        "parquet.fold-list",
        parquet_with("list", "fold"),
        ("data.parquet", "fold", "Parquet type list"),
        None,
        {},
    ),
    (
        "parquet.prediction-list",
        parquet_with("list", "pred"),
        ("data.parquet", "pred", "Parquet type list"),
        None,
        {},
    ),
    (
        "parquet.prediction-struct",
        parquet_with("struct", "pred"),
        ("data.parquet", "pred", "Parquet type struct"),
        None,
        {},
    ),
    # the environment's SOURCE_DATE_EPOCH: ASCII digits only, at most 10^11
    (
        "env.source-date-epoch-garbage",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": "garbage"},
    ),
    (
        "env.source-date-epoch-arabic-digits",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": "\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660"},
    ),
    (
        "env.source-date-epoch-fullwidth-digits",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": "\uff11\uff17\uff10\uff10"},
    ),
    (
        "env.source-date-epoch-5000-digits",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": "1" * 5000},
    ),
    (
        "env.source-date-epoch-after-9999",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": str(10**12)},
    ),
    (
        "env.source-date-epoch-over-10-to-11",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": str(10**11 + 1)},
    ),
    (
        "env.source-date-epoch-negative",
        None,
        ("SOURCE_DATE_EPOCH", "environment"),
        None,
        {"SOURCE_DATE_EPOCH": "-86400"},
    ),
    # a named pipe is called a named pipe, not a folder
    (
        "fifo.data-file",
        lambda m, f: f.update({"pipe.csv": FIFO}) or m.datasets[0].update(path='"pipe.csv"'),
        ("datasets[1] (d).path", "a named pipe"),
        "line",
        {},
    ),
    (
        "fifo.narrative",
        lambda m, f: f.update({"pipe.md": FIFO}) or m.project.update(narrative='"pipe.md"'),
        ("project.narrative", "a named pipe"),
        "line",
        {},
    ),
]
for id, edit, fragments, position, env in ISSUE_38:
    case(f"issue38.{id}", edit, *fragments, position=position, env=env)


# --- running them ---------------------------------------------------------------------------------


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
            assert any(PROBLEM_LINE.match(p)[c.position] for p in problems), (
                f"{c.id}: no {c.position} named in {err!r}"
            )


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
        if content is FIFO:
            os.mkfifo(root / name)
        else:
            (root / name).write_bytes(content)
    for name, value in c.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(root)
    before, temporary = snapshot(root), leftovers()

    if c.argv is not None and not c.expect:  # command-line misuse: argparse, exactly one line
        code, err = run(c.argv, capsys)
        assert code == 2
        assert (
            "Traceback" not in err
            and len(err.strip().splitlines()) == 1
            and USAGE_LINE.match(err.strip())
        ), err
    else:
        commands = (
            [c.argv]
            if c.argv
            else [("check", ".")]
            + ([] if c.templates else [("build", ".", "--no-pdf", "-q", "--no-cache")])
        )
        for argv in commands:
            code, err = run(argv, capsys)
            assert code == 2, f"{c.id}: {argv} exited {code}: {err}"
            assert_problem_lines(err, c)
            for fragment in c.expect:
                assert fragment in err, f"{c.id}: {fragment!r} not in {err!r}"
    assert snapshot(root) == before, f"{c.id}: the project or its previous output changed"
    assert leftovers() == temporary


# --- issue 38: `ccreport verify` on hostile archives ----------------------------------------------
#
# A report folder and a report.pdf built once from the corpus project, then tampered with one way
# per case: `ccreport verify` must refuse each before it reads anything outside the report or
# rebuilds: exit 2, exactly one line on standard error naming the file and field, nothing on
# standard output, no traceback (never exit 1, "differences", nor an internal error).


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """The corpus project built with its PDF into site/."""
    root = tmp_path_factory.mktemp("archive") / "proj"
    root.mkdir()
    for name, data in BASE_FILES.items():
        (root / name).write_bytes(data)
    (root / "ccreport.toml").write_text(Manifest().text())
    assert main(["build", str(root), "-q", "--no-cache"]) == 0
    return root


def edit_results(change):
    """Tamper with site/results.json: ``change(data)`` edits the parsed JSON (or returns new
    bytes)."""

    def tamper(root: Path, monkeypatch) -> Path:
        path = root / "site" / "results.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        replaced = change(data)
        path.write_bytes(replaced if isinstance(replaced, bytes) else json.dumps(data).encode())
        return root / "site"

    return tamper


def files_entry(index, key, value):
    def change(data):
        entry = data["provenance"]["files"][index]
        if value is DELETE:
            del entry[key]
        else:
            entry[key] = value

    return change


DELETE = object()


def side_file(path, sha="0" * 64):
    def change(data):
        data["datasets"]["d"]["roc_full"] = {"path": path, "rows": 3, "sha256": sha}

    return change


def in_site(action):
    def tamper(root: Path, monkeypatch) -> Path:
        action(root / "site")
        return root / "site"

    return tamper


def with_env(name, value, target="site"):
    def tamper(root: Path, monkeypatch) -> Path:
        monkeypatch.setenv(name, value)
        return root / target

    return tamper


def pdf_bytes(change):
    """Tamper with the bytes of site/report.pdf and verify the PDF alone."""

    def tamper(root: Path, monkeypatch) -> Path:
        path = root / "site" / "report.pdf"
        path.write_bytes(change(path.read_bytes()))
        return path

    return tamper


def pdf_attachments(change):
    """A PDF holding the report's attachments after ``change(attachments)`` (a dict name
    -> bytes)."""

    def tamper(root: Path, monkeypatch) -> Path:
        import pypdf

        path = root / "site" / "report.pdf"
        attachments = {
            name: contents[0] for name, contents in pypdf.PdfReader(path).attachments.items()
        }
        change(attachments)
        writer = pypdf.PdfWriter()
        writer.add_blank_page(100, 100)
        for name, data in attachments.items():
            writer.add_attachment(name, data)
        with open(path, "wb") as stream:
            writer.write(stream)
        return path

    return tamper


def attached_results(change):
    def edit(attachments):
        data = json.loads(attachments["results.json"])
        replaced = change(data)
        attachments["results.json"] = (
            replaced if isinstance(replaced, bytes) else json.dumps(data).encode()
        )

    return edit


def consistent_manifest(text: bytes):
    """Attachments whose manifest is ``text``, with results.json recording its digest and size."""

    def edit(attachments):
        import hashlib

        attachments["ccreport.toml"] = text
        data = json.loads(attachments["results.json"])
        entry = next(f for f in data["provenance"]["files"] if f["role"] == "manifest")
        entry.update(sha256=hashlib.sha256(text).hexdigest(), size=len(text))
        attachments["results.json"] = json.dumps(data).encode()

    return edit


def not_utf8(data):
    return (
        json.dumps(data)
        .replace('"Corpus"', '"Corp\\u00fcs"', 1)
        .encode("utf-8")
        .replace(b"\\u00fc", b"\xfc", 1)
    )


ARCHIVES = [
    # results.json: the file itself
    ("results-not-utf8", edit_results(not_utf8), "results.json: expected UTF-8 text"),
    ("results-truncated", edit_results(lambda d: json.dumps(d).encode()[:5000]), "invalid JSON"),
    ("results-an-array", edit_results(lambda d: b"[1, 2]"), "results.json generator"),
    (
        "results-nested-100000-deep",
        edit_results(lambda d: b"[" * 100000 + b"]" * 100000),
        "nested too deeply",
    ),
    (
        "results-nested-500-deep",
        edit_results(lambda d: d.update(extra=json.loads("[" * 500 + "]" * 500))),
        "nested deeper than 64 levels",
    ),
    (
        "results-integer-5000-digits",
        edit_results(lambda d: b'{"generator": "ccreport", "n": ' + b"7" * 5000 + b"}"),
        "invalid JSON",
    ),
    (
        "results-a-folder",
        in_site(lambda s: (s / "results.json").unlink() or (s / "results.json").mkdir()),
        "results.json: expected a regular file",
    ),
    (
        "results-a-symlink-outside",
        in_site(
            lambda s: (
                (s / "results.json").unlink() or (s / "results.json").symlink_to("/etc/hostname")
            )
        ),
        "symbolic link",
    ),
    ("generator-missing", edit_results(lambda d: d.pop("generator")), "results.json generator"),
    ("generator-a-number", edit_results(lambda d: d.update(generator=3)), "results.json generator"),
    ("provenance-missing", edit_results(lambda d: d.pop("provenance")), "results.json provenance"),
    # provenance.files
    (
        "files-a-string",
        edit_results(lambda d: d["provenance"].update(files="ccreport.toml")),
        "provenance.files: expected an array",
    ),
    (
        "files-as-strings",
        edit_results(
            lambda d: d["provenance"].update(files=[f["path"] for f in d["provenance"]["files"]])
        ),
        "provenance.files[0]: expected an object",
    ),
    (
        "files-without-sha256",
        edit_results(files_entry(0, "sha256", DELETE)),
        "provenance.files[0].sha256",
    ),
    (
        "files-sha256-not-hex",
        edit_results(files_entry(0, "sha256", "z" * 64)),
        "provenance.files[0].sha256: expected 64",
    ),
    (
        "files-sha256-a-number",
        edit_results(files_entry(0, "sha256", 12)),
        "provenance.files[0].sha256",
    ),
    ("files-size-negative", edit_results(files_entry(0, "size", -1)), "provenance.files[0].size"),
    (
        "files-size-huge-text",
        edit_results(files_entry(0, "size", "9" * 500)),
        "provenance.files[0].size",
    ),
    (
        "files-role-missing",
        edit_results(files_entry(1, "role", DELETE)),
        "provenance.files[1].role",
    ),
    (
        "files-path-absolute",
        edit_results(files_entry(-1, "path", "/etc/passwd")),
        ".path: expected a path relative to the manifest",
    ),
    (
        "files-path-climbs-inside",
        edit_results(files_entry(-1, "path", "x/../../../../etc/passwd")),
        ".path: expected a path relative",
    ),
    (
        "files-path-nul",
        edit_results(files_entry(-1, "path", "data.csv\x00.txt")),
        ".path: expected a path relative",
    ),
    (
        "files-path-a-list",
        edit_results(files_entry(-1, "path", ["data.csv"])),
        "provenance.files[3].path: expected a string, got an array",
    ),
    (
        "files-path-twice",
        edit_results(lambda d: d["provenance"]["files"].append(dict(d["provenance"]["files"][-1]))),
        "each input recorded once",
    ),
    ("files-no-manifest", edit_results(files_entry(0, "role", "data")), "role manifest"),
    # provenance: the date, its source, the software
    (
        "date-garbage",
        edit_results(lambda d: d["provenance"].update(date="garbage")),
        "provenance.date: expected an ISO 8601 moment",
    ),
    (
        "date-year-1-unpadded",
        edit_results(lambda d: d["provenance"].update(date="1-01-01T00:00:00Z")),
        "provenance.date",
    ),
    (
        "date-february-30",
        edit_results(lambda d: d["provenance"].update(date="2024-02-30T00:00:00Z")),
        "provenance.date",
    ),
    (
        "date-a-number",
        edit_results(lambda d: d["provenance"].update(date=1700000000)),
        "provenance.date",
    ),
    (
        "date-source-unknown",
        edit_results(lambda d: d["provenance"].update(date_source="sundial")),
        "provenance.date_source",
    ),
    (
        "software-a-string",
        edit_results(lambda d: d["provenance"].update(ccreport="0.1.0")),
        "provenance.ccreport",
    ),
    # side files: inside the report only
    (
        "side-file-outside",
        edit_results(side_file("../../../../etc/passwd")),
        "datasets.d.roc_full.path: expected a path inside the report",
    ),
    ("side-file-absolute", edit_results(side_file("/etc/passwd")), "datasets.d.roc_full.path"),
    (
        "side-file-sha256-a-number",
        edit_results(side_file("tables/x.parquet", 5)),
        "datasets.d.roc_full.sha256",
    ),
    # the folder: symbolic links, invocation.json, the environment
    (
        "symlink-loop",
        in_site(lambda s: (s / "figures" / "loop").symlink_to("loop")),
        "symbolic link",
    ),
    (
        "symlink-folder-loop",
        in_site(lambda s: (s / "figures" / "up").symlink_to("..")),
        "symbolic link",
    ),
    (
        "invocation-not-json",
        in_site(lambda s: (s / "invocation.json").write_bytes(b"\xff{")),
        "invocation.json",
    ),
    (
        "invocation-manifest-absolute",
        in_site(lambda s: (s / "invocation.json").write_text('{"manifest": "/etc/ccreport.toml"}')),
        "invocation.json manifest",
    ),
    (
        "invocation-manifest-a-number",
        in_site(lambda s: (s / "invocation.json").write_text('{"manifest": 7}')),
        "invocation.json manifest",
    ),
    (
        "invocation-manifest-not-toml",
        in_site(lambda s: (s / "invocation.json").write_text('{"manifest": "../data.csv"}')),
        "invocation.json manifest",
    ),
    (
        "env-source-date-epoch-garbage",
        with_env("SOURCE_DATE_EPOCH", "garbage"),
        "SOURCE_DATE_EPOCH: environment",
    ),
    (
        "env-source-date-epoch-5000-digits",
        with_env("SOURCE_DATE_EPOCH", "9" * 5000),
        "SOURCE_DATE_EPOCH: environment",
    ),
    (
        "env-source-date-epoch-garbage-pdf",
        with_env("SOURCE_DATE_EPOCH", "garbage", "site/report.pdf"),
        "SOURCE_DATE_EPOCH: environment",
    ),
    # report.pdf alone
    ("pdf-truncated", pdf_bytes(lambda b: b[: len(b) * 2 // 3]), "damaged PDF"),
    ("pdf-tail-cut", pdf_bytes(lambda b: b[:-300]), "damaged PDF"),
    ("pdf-empty", pdf_bytes(lambda b: b""), "damaged PDF"),
    (
        "pdf-without-results",
        pdf_attachments(lambda a: a.pop("results.json")),
        "results.json attached",
    ),
    (
        "pdf-results-not-utf8",
        pdf_attachments(attached_results(not_utf8)),
        "results.json: expected UTF-8 text",
    ),
    (
        "pdf-files-without-sha256",
        pdf_attachments(attached_results(files_entry(0, "sha256", DELETE))),
        "provenance.files[0].sha256",
    ),
    (
        "pdf-path-absolute",
        pdf_attachments(attached_results(files_entry(-1, "path", "/etc/passwd"))),
        ".path",
    ),
    (
        "pdf-date-garbage",
        pdf_attachments(attached_results(lambda d: d["provenance"].update(date="garbage"))),
        "provenance.date",
    ),
    (
        "pdf-path-file-and-folder",
        pdf_attachments(
            lambda a: (
                attached_results(
                    lambda d: d["provenance"]["files"].insert(
                        1,
                        {
                            "path": "narrative.md/inner.md",
                            "sha256": "0" * 64,
                            "size": 1,
                            "role": "narrative",
                        },
                    )
                )(a)
                or a.update({"narrative.md/inner.md": b"x"})
            )
        ),
        "can all be files",
    ),
    (
        "pdf-manifest-that-does-not-build",
        pdf_attachments(consistent_manifest(b"[project]\ntitle = 1\nseed = -1\n")),
        "rebuild: expected recorded inputs that build, got: ccreport.toml:2: project.title",
    ),
    # REPORT itself
    (
        "report-a-named-pipe",
        lambda root, mp: os.mkfifo(root / "pipe") or root / "pipe",
        "REPORT: expected a built output folder or a report.pdf, got something else",
    ),
    (
        "report-a-broken-symlink",
        lambda root, mp: (root / "gone").symlink_to(root / "nowhere") or root / "gone",
        "REPORT: expected a built output folder",
    ),
]


def test_the_archive_corpus_is_large():
    assert len(ARCHIVES) >= 30
    assert len({a[0] for a in ARCHIVES}) == len(ARCHIVES)


@pytest.mark.parametrize("id, tamper, fragment", ARCHIVES, ids=[a[0] for a in ARCHIVES])
def test_hostile_archive(id, tamper, fragment, archive, tmp_path, capsys, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(archive, root, symlinks=True)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    target = tamper(root, monkeypatch)
    monkeypatch.chdir(tmp_path)
    before = snapshot(root)
    code = main(["verify", str(target)])
    captured = capsys.readouterr()
    out, err = captured.out, captured.err
    assert code == 2, f"{id}: exited {code}: {err}"
    assert "Traceback" not in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1, f"{id}: not one line: {err!r}"
    assert fragment in err, f"{id}: {fragment!r} not in {err!r}"
    assert out == "", f"{id}: {out!r}"
    assert snapshot(root) == before


# --- issue 38: `ccreport serve` answers every request ---------------------------------------------


@pytest.fixture(params=["static", "live"])
def server(request, base):
    """A real preview server of the corpus site on 127.0.0.1 (a free port), in a thread."""
    import threading

    from ccreport.commands.serve import LiveState, make_server

    srv = make_server(base / "site", 0, LiveState() if request.param == "live" else None)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def raw_request(port: int, target: bytes, method: bytes = b"GET") -> bytes:
    """The status line of the answer to one request written on a raw socket ("" when none came)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            method + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


HOSTILE_REQUESTS = [
    (b"/index.html%00.txt", 400),
    (b"/%00", 400),
    (b"/index.html%0a", 400),
    (b"/" + b"a" * 300, 404),
    (b"/" + b"a" * 300 + b"/index.html", 404),
    (b"/figures/" + b"%C3%BC" * 200, 404),
    (b"/" + b"b/" * 2500, 404),
    (b"/%ff%fe", 400),
    (b"/../../etc/passwd", 404),
    (b"/no-such-file.html", 404),
    (b"/figures/", 404),
]


@pytest.mark.parametrize(
    "target, status", HOSTILE_REQUESTS, ids=[t[:40].decode() for t, _ in HOSTILE_REQUESTS]
)
def test_serve_answers_requests_it_cannot_map(target, status, server, capfd):
    for method in (b"GET", b"HEAD"):
        line = raw_request(server, target, method)
        assert line.startswith(b"HTTP/1.") and int(line.split()[1]) == status, (
            method,
            target[:60],
            line,
        )
    assert raw_request(server, b"/index.html").split()[1] == b"200"  # and keeps serving
    assert "Traceback" not in capfd.readouterr().err


def test_serve_handler_never_dies(server, monkeypatch, capfd):
    import http.client

    from ccreport.commands.serve import SiteHandler

    def broken(self, *args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(SiteHandler, "send_head", broken)
    monkeypatch.setattr(SiteHandler, "_send_html", broken)
    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    connection.request("GET", "/index.html")
    assert connection.getresponse().status == 500
    connection.close()
    err = capfd.readouterr().err
    assert (
        "Traceback" not in err
        and err.count("\n") == 1
        and "ccreport serve: could not answer GET '/index.html': RuntimeError: a bug" in err
    )
    monkeypatch.undo()
    assert raw_request(server, b"/index.html").split()[1] == b"200"
