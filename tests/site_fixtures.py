"""Shared helpers for the site and PDF tests: tiny projects, synthetic Results and a fake figure
index.

The fake figure index follows the contract of ccreport.render.figure_files.write_figures: key ->
{"svg", "pdf", "caption", "alt", "width"}, with real (small) SVG and PDF files written by
matplotlib, so the site and the PDF can be tested before, and independently of, the real figures.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import numpy as np

from ccreport.analysis import priors as pr
from ccreport.project.settings import AnalysisSettings
from ccreport.results import DatasetResult, InputFile, Results
from ccreport.tasks.battery import analyse_classifier, analyse_pair, prior_result

SCEPTIC_PRIOR = """
[[priors]]
name = "sceptic"
distribution = "beta"
a = 2
b = 8
"""


def write_tiny_project(
    root: Path,
    title: str = "Tiny project",
    theme: str | None = None,
    n: int = 60,
    *,
    folds: int | None = None,
    settings: str = "bootstrap = 500",
    extra_priors: str = SCEPTIC_PRIOR,
    seed: int = 7,
) -> Path:
    """A small valid project: one dataset, two scoring classifiers and a crisp one, a uniform prior.

    ``folds`` adds a fold column; ``settings`` are extra ``[project]`` lines; ``extra_priors`` is
    TOML appended after the uniform prior (a beta prior by default).
    """
    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = np.array(["pos"] * (n // 2) + ["neg"] * (n - n // 2))
    y = labels == "pos"
    columns = {
        "label": labels,
        "good": np.round(rng.normal(size=n) + 1.5 * y, 3),
        "weak": np.round(rng.normal(size=n) + 0.5 * y, 1),
        "rule": np.where(rng.normal(size=n) + 1.2 * y > 0.6, "pos", "neg"),
    }
    if folds:
        columns["fold"] = np.array([f"f{i % folds}" for i in range(n)])
    rows = zip(*columns.values())
    lines = [",".join(columns)] + [",".join(str(v) for v in row) for row in rows]
    (root / "data.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "narrative.md").write_text("# Tiny\n\nSome *narrative* text.\n", encoding="utf-8")
    theme_line = f'theme = "{theme}"' if theme else ""
    fold_line = 'fold = "fold"' if folds else ""
    manifest = f"""
[project]
title = {toml_string(title)}
seed = 3
narrative = "narrative.md"
{settings}
{theme_line}
[[datasets]]
name = "tiny"
path = "data.csv"
label = "label"
positive = "pos"
{fold_line}

[[classifiers]]
name = "good"
scores = "good"

[[classifiers]]
name = "weak"
scores = "weak"

[[classifiers]]
name = "rule"
predictions = "rule"

[[priors]]
name = "uniform"
distribution = "uniform"
{extra_priors}"""
    (root / "ccreport.toml").write_text(manifest.lstrip(), encoding="utf-8")
    return root


def toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def synthetic_results(
    classifier_names=("alpha", "beta"), dataset="d1", title="Synthetic", seed=1
) -> Results:
    """Results built straight from the battery (no manifest, no files): any names allowed."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(40, bool), np.zeros(60, bool)]
    priors = {"uniform": pr.UniformPrior(0.0, 1.0), "sceptic": pr.BetaPrior(2.0, 8.0)}
    classifiers = {}
    for i, name in enumerate(classifier_names):
        scores = np.round(rng.normal(size=y.size) + (0.5 + i) * y, 2)
        classifiers[name] = analyse_classifier(name, y, scores, None, priors)
    names = list(classifiers)
    comparisons = {}
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            m = analyse_pair(classifiers[names[i]], classifiers[names[j]])
            comparisons[m.key] = m
    d = DatasetResult(
        name=dataset,
        path="data.csv",
        sha256="0" * 64,
        n_pos=40,
        n_neg=60,
        positive_label="<pos>",
        negative_label="neg & co",
        n_folds=None,
        classifiers=classifiers,
        comparisons=comparisons,
        priors=tuple(priors),
        narrative_markdown="Text with <script>alert(2)</script> and a [link](https://example.org).",
    )
    return Results(
        title=title,
        generator="ccreport test",
        versions={"python": "3"},
        settings=AnalysisSettings(seed=seed, confidence=0.9, bootstrap=1000, band="pointwise"),
        inputs=(InputFile("ccreport.toml", "1" * 64, "manifest"),),
        priors={
            "uniform": prior_result("uniform", priors["uniform"], (("high", 1.0), ("low", 0.0))),
            "sceptic": prior_result("sceptic", priors["sceptic"], (("a", 2.0), ("b", 8.0))),
        },
        datasets={dataset: d},
        manifest_text='[project]\ntitle = "<b>x</b>"\n',
    )


def fake_figure_index(results: Results, out: Path) -> dict:
    """Write small SVG + PDF files for every key of the figure contract and return the index."""
    from matplotlib.figure import Figure

    keys = [("overview/priors", "column")]
    for d in results.datasets.values():
        keys += [
            (f"{d.name}/cost", "full"),
            (f"{d.name}/roc", "column"),
        ]
        keys += [(f"{d.name}/diff/{k}", "column") for k in d.comparisons]
    index = {}
    for i, (key, width) in enumerate(keys):
        stem = "figures/" + re.sub(r"[^A-Za-z0-9_./-]+", "_", key)
        (out / stem).parent.mkdir(parents=True, exist_ok=True)
        fig = Figure(figsize=(7 if width == "full" else 3.5, 2.6 if width == "full" else 2.6))
        ax = fig.add_subplot()
        ax.plot([0, 0.5, 1], [0, 0.3 + 0.01 * i, 0], label=key)
        ax.set_xlabel("PC(+)")
        ax.set_ylabel("normalized expected cost")
        fig.savefig(out / f"{stem}.svg", metadata={"Date": None})
        fig.savefig(out / f"{stem}.pdf", metadata={"CreationDate": None})
        index[key] = {
            "svg": f"{stem}.svg",
            "pdf": f"{stem}.pdf",
            "caption": f"Caption of {key}.",
            "alt": f"Alt text of {key}",
            "width": width,
        }
    return index


# --- reading a built site -------------------------------------------------------------------------


class PageParser(html.parser.HTMLParser):
    """Collects links (href/src), element ids, and every table as rows of cell texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.tables: dict[str, list[list[str]]] = {}
        self._figure_ids: list[str | None] = []
        self._table = None
        self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append(attrs[name])
        if tag == "figure":
            self._figure_ids.append(attrs.get("id"))
        elif tag == "table":
            self._table = []
            key = self._figure_ids[-1] if self._figure_ids else f"table{len(self.tables)}"
            self.tables[key] = self._table
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "figure" and self._figure_ids:
            self._figure_ids.pop()
        elif tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None:
            self._table[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse_page(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


OUTSIDE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)


def check_site(out: Path) -> dict[str, PageParser]:
    """Every link of every page resolves inside ``out``; no outside URL anywhere. Returns the parsed
    pages."""
    pages = {p.name: parse_page(p) for p in sorted(out.glob("*.html"))}
    assert "index.html" in pages
    problems = []
    for name, page in pages.items():
        for link in page.links:
            if OUTSIDE.match(link):
                problems.append(f"{name}: outside URL {link}")
                continue
            parts = urlsplit(link)
            target = unquote(parts.path) if parts.path else name
            if not (out / target).is_file():
                problems.append(f"{name}: missing file {link}")
                continue
            if (
                parts.fragment
                and target.endswith(".html")
                and unquote(parts.fragment) not in pages[target].ids
            ):
                problems.append(f"{name}: missing anchor {link}")
    for css in out.rglob("*.css"):
        for url in re.findall(
            r"url\(\s*['\"]?([^'\")]+)|@import\s+['\"]([^'\"]+)", css.read_text()
        ):
            url = url[0] or url[1]
            if OUTSIDE.match(url) and not url.startswith("data:"):
                problems.append(f"{css.name}: outside URL {url}")
    for page_path in out.glob("*.html"):
        text = page_path.read_text(encoding="utf-8")
        for m in re.finditer(r"(?:src|href)\s*=\s*[\"']?\s*(https?:|//)", text):
            problems.append(f"{page_path.name}: outside URL at {m.start()}")
    assert not problems, "\n".join(problems)
    return pages


# --- the example project, built once per test session ---------------------------------------------

EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"
_BUILT: dict[str, Path] = {}


def example_build() -> Path:
    """The example project built with the PDF into a temporary folder (once per session).

    Import it as ``from site_fixtures import ...``, as every test does: imported as
    ``tests.site_fixtures`` this file is a second module, with its own build (twice the time).
    The shards plugin (tests/shards.py) keeps the files that import it in one process.
    Build time is measured in benchmarks/build_speed.py, never in a test.
    """
    if "example" not in _BUILT:
        import tempfile

        from ccreport.commands.build import build

        out = Path(tempfile.mkdtemp(prefix="ccreport-example-")) / "site"
        _BUILT["example results"] = build(EXAMPLE, out, pdf=True)
        _BUILT["example"] = out
    return _BUILT["example"]


def example_results() -> Results:
    """The typed Results of :func:`example_build` (the same build)."""
    example_build()
    return _BUILT["example results"]
