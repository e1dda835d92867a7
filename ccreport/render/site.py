"""The static HTML site: Results (+ the figure index + the project's theme) -> pages, tables, assets.

Pages sit side by side at the top of the output folder (``index.html``, ``dataset-<name>.html``,
``methods.html``, ``provenance.html``) so every link is a plain relative one and the site works
from ``file://`` as well as from any static server. Tables are written beside them as
``tables/<key>.csv`` and ``tables/<key>.tex``; the theme's stylesheets are copied to ``assets/``.

Templates are found, first match wins, in: the project's ``templates/`` folder, the theme's own
``templates/`` folder (if it has one), the shipped base templates; the base templates are also
reachable as ``base/<name>`` so an override can ``{% extends "base/dataset.html" %}`` and call
``super()`` in a block. ``StrictUndefined`` makes a template typo fail the build;
:func:`template_error` turns any template failure into a one-line
:class:`~ccreport.errors.UserInputError` naming the template file and line.
"""

from __future__ import annotations

import shutil
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from .. import naming, paths
from ..errors import Problem, UserInputError
from ..results import ComparisonResult, DatasetResult, Results, classifier_names, dataset_priors
from . import tables as tb
from .markdown_text import render_markdown, strip_leading_title

PDF_NAME = "report.pdf"


# --- the content model ------------------------------------------------------------------------


@dataclass
class Figure:
    """One figure of the index (see ccreport.render.figure_files), with its number once assigned."""

    key: str
    svg: str
    pdf: str | None
    caption: str
    alt: str
    width: str = "full"  # "column" | "full"
    number: int | None = None
    in_print: bool = True  # also in report.pdf (per-pair and per-classifier figures are site-only)

    @property
    def id(self) -> str:
        return "figure-" + naming.html_id(*self.key.split("/"))

    @property
    def svg_href(self) -> str:
        return quote(self.svg)

    @property
    def pdf_href(self) -> str | None:
        return None if self.pdf is None else quote(self.pdf)


@dataclass
class Page:
    slug: str
    title: str
    nav_title: str
    template: str
    tables: dict[str, tb.Table] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def filename(self) -> str:
        return f"{self.slug}.html"


def slug(text: str) -> str:
    """A file stem / id of a name, injective and short (:func:`ccreport.naming.stem`)."""
    return naming.stem(text)


def dataset_page_slug(name: str) -> str:
    return "dataset-" + naming.stem(name)


def figures_from_index(index: dict | None) -> dict[str, Figure]:
    figures = {}
    for key, entry in (index or {}).items():
        figures[key] = Figure(
            key=key,
            svg=entry["svg"],
            pdf=entry.get("pdf"),
            caption=entry.get("caption", ""),
            alt=entry.get("alt", entry.get("caption", "")),
            width=entry.get("width", "full"),
        )
    return figures


# --- tables -----------------------------------------------------------------------------------


def _dataset_link(name: str) -> str:
    return dataset_page_slug(name) + ".html"


def datasets_table(results: Results) -> tb.Table:
    t = tb.Table(
        "index-datasets",
        "Datasets: class counts, the positive class and the classifiers evaluated.",
        ["Dataset", "Positives", "Negatives", "Positive class", "Folds", "Classifiers"],
    )
    for d in results.datasets.values():
        t.rows.append(
            [
                tb.text(d.name, href=_dataset_link(d.name)),
                tb.num(d.n_pos, 0),
                tb.num(d.n_neg, 0),
                tb.text(d.positive_label),
                tb.text(tb.DASH if d.n_folds is None else d.n_folds),
                tb.text(", ".join(d.classifiers)),
            ]
        )
    return t


def priors_table(results: Results) -> tb.Table:
    t = tb.Table(
        "index-priors",
        "Priors: the distributions over the operating condition PC(+) under which expected costs are reported.",
        ["Prior", "Kind", "Description", "Datasets"],
    )
    used = prior_datasets(results)
    for p in results.priors.values():
        names = used.get(p.name) or []
        shown = "all" if len(names) == len(results.datasets) else (", ".join(names) or tb.DASH)
        t.rows.append([tb.text(p.name), tb.text(p.kind), tb.text(p.description), tb.Cell(shown, names)])
    return t


def classifier_index(results: Results) -> dict[str, dict]:
    """Each classifier name -> its kind and the datasets it was evaluated on (manifest order)."""
    out: dict[str, dict] = {}
    for d in results.datasets.values():
        for name, c in d.classifiers.items():
            out.setdefault(name, {"kind": c.kind, "datasets": []})["datasets"].append(d.name)
    return out


def prior_datasets(results: Results) -> dict[str, list[str]]:
    return {p: [d.name for d in results.datasets.values() if p in dataset_priors(results, d)] for p in results.priors}


def cross_dataset_table(results: Results) -> tb.Table:
    names = classifier_names(results)
    t = tb.Table(
        "index-expected-cost",
        "Expected normalized cost of each classifier's lower envelope under each prior, by dataset. "
        f"The lowest cost in each row is in bold and starred ({tb.BEST_MARK}).",
        ["Dataset", "Prior"] + names,
        note=f"{tb.BEST_MARK} lowest expected cost in the row. Costs at {tb.COST_DIGITS} decimals; "
        "the CSV file has full precision and names the best classifier.",
        compact=len(names) > 5,
    )
    best_names = []
    for d in results.datasets.values():
        for p in dataset_priors(results, d):
            row = [tb.text(d.name, href=_dataset_link(d.name)), tb.text(p)]
            cells = []
            for name in names:
                c = d.classifiers.get(name)
                cells.append(tb.num(None if c is None else c.expected_cost.get(p), tb.COST_DIGITS))
            tb.mark_best(cells)
            best_names.append(" ".join(n for n, c in zip(names, cells) if c.best))
            t.rows.append(row + cells)
    t.extra_csv["best"] = best_names
    return t


def summary_table(d: DatasetResult, priors: list[str]) -> tb.Table:
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-summary",
        f"Classifiers on {d.name}: AUC, operating range (the PC(+) interval where the classifier beats "
        "both trivial classifiers) and expected normalized cost under each prior, with its rank.",
        ["Classifier", "Kind", "AUC", "Operating range"] + [f"E[cost] {p}" for p in priors] + ["Mean rank"],
        note=f"Rank in parentheses (1 = cheapest); {tb.BEST_MARK} and bold: the cheapest under that prior. "
        "Mean rank averages the ranks over the priors.",
        compact=len(priors) > 3,
    )
    by_prior = {p: tb.ranks({n: c.expected_cost.get(p) for n, c in d.classifiers.items()}) for p in priors}
    prior_cells: dict[str, list[tb.Cell]] = {p: [] for p in priors}
    for name, c in d.classifiers.items():
        row = [
            tb.text(name),
            tb.text(c.kind),
            tb.num(c.auc, tb.AUC_DIGITS),
            tb.interval_cell([] if c.operating_range is None else [c.operating_range]),
        ]
        for p in priors:
            rank = by_prior[p].get(name)
            cell = tb.num(c.expected_cost.get(p), tb.COST_DIGITS, note="" if rank is None else f"({rank})")
            prior_cells[p].append(cell)
            row.append(cell)
        mine = [by_prior[p][name] for p in priors if name in by_prior[p]]
        row.append(tb.num(sum(mine) / len(mine) if mine else None, 1))
        t.rows.append(row)
    for cells in prior_cells.values():
        tb.mark_best(cells)
    return t


def comparison_table(d: DatasetResult) -> tb.Table:
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-comparisons",
        f"Pairwise comparisons on {d.name}: where the lower envelopes cross, the PC(+) intervals where "
        "each classifier is cheaper, and the largest difference in normalized expected cost.",
        ["A", "B", "Crossovers (PC(+))", "A cheaper on", "B cheaper on", "Largest |A \u2212 B| at PC(+)", "A \u2212 B there"],
        note="Intervals of PC(+) at 3 decimals; outside them the two envelopes are equal "
        "(both trivial, or identical). A negative difference means A is cheaper.",
        compact=True,
    )
    for m in d.comparisons.values():
        t.rows.append(
            [
                tb.text(m.a),
                tb.text(m.b),
                tb.Cell(", ".join(tb.pc(x) for x in m.crossovers) or tb.DASH, list(m.crossovers),
                        parts=[tb.pc(x) for x in m.crossovers] or None),
                tb.interval_cell(m.a_better),
                tb.interval_cell(m.b_better),
                tb.num(m.max_difference[0], tb.PC_DIGITS),
                tb.num(m.max_difference[1], tb.COST_DIGITS),
            ]
        )
    return t


def _difference_cell(m: ComparisonResult, prior: str) -> tb.Cell:
    value = m.expected_cost_difference.get(prior)
    cell = tb.num(value, tb.COST_DIGITS)
    interval = (m.extra.get("expected_cost_difference_interval") or {}).get(prior)
    if interval:
        lo, hi, pv = interval.get("lower"), interval.get("upper"), interval.get("p_value")
        cell.note = f"[{tb.cost(lo)}, {tb.cost(hi)}]" + ("" if pv is None else f" p={tb.fmt(pv, 3)}")
        cell.best = lo is not None and hi is not None and (lo > 0 or hi < 0)
        cell.mark, cell.mark_label = tb.SIGNIFICANT_MARK, "interval excludes 0"
    return cell


def differences_table(d: DatasetResult, priors: list[str]) -> tb.Table:
    has_intervals = any("expected_cost_difference_interval" in m.extra for m in d.comparisons.values())
    has_significance = any("significant" in m.extra for m in d.comparisons.values())
    columns = ["A", "B"] + [f"E[A] \u2212 E[B] {p}" for p in priors]
    if has_significance:
        columns.append("Significantly cheaper on (PC(+))")
    note = "Difference of expected normalized costs; negative: A is cheaper under that prior."
    if has_intervals:
        note += (
            f" In brackets: paired bootstrap {_level(d)} interval and p-value; {tb.SIGNIFICANT_MARK} and bold: the "
            "interval excludes 0."
        )
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-differences",
        f"Differences in expected cost between each pair on {d.name}, under each prior.",
        columns,
        note=note,
        compact=True,
    )
    for m in d.comparisons.values():
        row = [tb.text(m.a), tb.text(m.b)] + [_difference_cell(m, p) for p in priors]
        if has_significance:
            sig = m.extra.get("significant") or []
            parts = [f"{tb.interval(s.get('lo'), s.get('hi'))} {s.get('better', '')}".strip() for s in sig]
            row.append(tb.Cell(", ".join(parts) or tb.DASH, [[s.get("lo"), s.get("hi"), s.get("better")] for s in sig],
                               parts=parts or None))
        t.rows.append(row)
    return t


def _level(d: DatasetResult) -> str:
    for c in d.classifiers.values():
        band = c.extra.get("band")
        if band and band.get("level") is not None:
            return f"{100 * float(band['level']):g}%"
    return ""


def interval_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    if not any("expected_cost_interval" in c.extra for c in d.classifiers.values()):
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-intervals",
        f"Bootstrap {_level(d)} confidence intervals of each classifier's expected cost on {d.name}.",
        ["Classifier"] + [f"E[cost] {p}" for p in priors],
        note="Expected normalized cost, then its bootstrap confidence interval in brackets.",
        compact=len(priors) > 3,
    )
    for name, c in d.classifiers.items():
        ivs = c.extra.get("expected_cost_interval") or {}
        row = [tb.text(name)]
        for p in priors:
            cell = tb.num(c.expected_cost.get(p), tb.COST_DIGITS)
            if p in ivs and ivs[p] is not None:
                cell.note = f"[{tb.cost(ivs[p][0])}, {tb.cost(ivs[p][1])}]"
            row.append(cell)
        t.rows.append(row)
    return t


def band_table(d: DatasetResult) -> tb.Table | None:
    bands = {n: c.extra["band"] for n, c in d.classifiers.items() if c.extra.get("band")}
    if not bands:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-bands",
        f"Bootstrap confidence bands around the cost curves on {d.name}.",
        ["Classifier", "Band", "Method", "Replicates", "Level", "Calibration", "Mean width", "Largest width"],
        note=_band_note(bands),
        compact=True,
    )
    for name, band in bands.items():
        widths = _widths(band.get("lower"), band.get("upper"))
        kind = band.get("type") or ("simultaneous" if band.get("simultaneous") else "pointwise")
        t.rows.append(
            [
                tb.text(name),
                tb.text(kind),
                tb.text(band.get("method", tb.DASH)),
                tb.num(band.get("replicates"), 0),
                tb.text(tb.DASH if band.get("level") is None else f"{100 * float(band['level']):g}%"),
                tb.text(_calibration_text(band)),
                tb.num(sum(widths) / len(widths) if widths else None, tb.COST_DIGITS),
                tb.num(max(widths) if widths else None, tb.COST_DIGITS),
            ]
        )
    return t


def _calibration_text(band: dict) -> str:
    """What the double bootstrap did to a band: the range of its upper edge's quantile level and,
    with a simultaneous band, the factor on its critical value."""
    cal = band.get("calibration")
    if not cal:
        return tb.DASH
    levels = [float(v) for v in cal["upper_level"]]
    lo, hi = 100 * min(levels), 100 * max(levels)
    span = f"{lo:.1f}%" if hi - lo < 0.05 else f"{lo:.1f}–{hi:.1f}%"
    text = f"upper edge at the {span} quantile"
    if band.get("simultaneous"):
        text += f"; sup-norm ×{float(cal['sup_scale']):.2f}"
    return text


def _band_note(bands: dict) -> str:
    calibrated = [b for b in bands.values() if b.get("calibration")]
    band = calibrated[0] if calibrated else next(iter(bands.values()))
    parts = ["Width: upper minus lower bound of normalized expected cost, over the PC(+) grid of the band."]
    if band.get("correction"):
        parts.append(f"Bounds: {band['correction']}.")
    if band.get("target"):
        parts.append(f"What the band covers: {band['target']}.")
    return " ".join(parts)


def fold_table(d: DatasetResult, priors: list[str]) -> tb.Table | None:
    folds = {n: c.extra["fold_average"] for n, c in d.classifiers.items() if c.extra.get("fold_average")}
    if not folds:
        return None
    t = tb.Table(
        f"{dataset_page_slug(d.name)}-folds",
        f"Fold averages on {d.name}: the expected cost of the cost curves averaged vertically over the folds, "
        "with the range over the folds.",
        ["Classifier", "Folds"] + [f"E[cost] {p}" for p in priors],
        note="Each fold's lower envelope is built from its own examples, so a fold-average cost is not the cost of the pooled "
        "curve in the summary table. In brackets: the smallest and largest fold's expected cost.",
        compact=len(priors) > 3,
    )
    for name, f in folds.items():
        row = [tb.text(name), tb.num(f.get("n_folds"), 0)]
        for p in priors:
            cell = tb.num((f.get("expected_cost") or {}).get(p), tb.COST_DIGITS)
            per_fold = [v for v in (f.get("fold_expected_cost") or {}).get(p) or [] if v is not None]
            if per_fold:
                cell.note = f"[{tb.cost(min(per_fold))}, {tb.cost(max(per_fold))}]"
            row.append(cell)
        t.rows.append(row)
    return t


def _widths(lower, upper) -> list[float]:
    if lower is None or upper is None:
        return []
    return [float(u) - float(lo) for lo, u in zip(lower, upper) if lo is not None and u is not None]


def inputs_table(results: Results) -> tb.Table:
    t = tb.Table(
        "provenance-inputs",
        "Input files, relative to the project folder, with their SHA-256 digests.",
        ["File", "Role", "SHA-256"],
        compact=True,
    )
    for f in results.inputs:
        t.rows.append([tb.text(f.path), tb.text(f.role), tb.text(f.sha256, mono=True)])
    return t


def versions_table(results: Results) -> tb.Table:
    t = tb.Table("provenance-versions", "Software versions used for this build.", ["Software", "Version"])
    t.rows.append([tb.text("ccreport"), tb.text(results.generator.split(" ", 1)[-1])])
    for name, version in results.versions.items():
        t.rows.append([tb.text(name), tb.text(version)])
    return t


def settings_table(results: Results) -> tb.Table:
    t = tb.Table("provenance-settings", "Settings of the analyses.", ["Setting", "Value"])
    t.rows.append([tb.text("seed"), tb.text(results.seed)])
    for key, value in results.settings.items():
        t.rows.append([tb.text(key), tb.text(value)])
    t.rows.append([tb.text("results.json schema"), tb.text(results.schema_version)])
    return t


# --- pages ------------------------------------------------------------------------------------


OVERVIEW_FIGURES = ("overview/priors", "overview/small-multiples")  # page order
MAIN_FIGURES = ("cost", "roc", "cost-priors", "cost-rescaled")


def _dataset_figures(d: DatasetResult, figures: dict[str, Figure]):
    """A dataset's figures in page order: main (also in the PDF), one per classifier highlighted, one per pair.

    Figures of the index under ``<dataset>/`` that are none of these are shown after the main ones.
    """
    main = [figures[f"{d.name}/{k}"] for k in MAIN_FIGURES if f"{d.name}/{k}" in figures]
    focus = [figures[f"{d.name}/focus/{c}"] for c in d.classifiers if f"{d.name}/focus/{c}" in figures]
    pairs = [figures[f"{d.name}/diff/{k}"] for k in d.comparisons if f"{d.name}/diff/{k}" in figures]
    placed = {f.key for f in main + focus + pairs}
    main += [f for k, f in figures.items() if k.startswith(f"{d.name}/") and k not in placed and k not in OVERVIEW_FIGURES]
    for f in focus + pairs:
        f.in_print = False
    return main, focus, pairs


def build_pages(results: Results, figures: dict[str, Figure]) -> list[Page]:
    pages = [
        Page(
            "index",
            results.title,
            "Overview",
            "index.html",
            tables={
                "datasets": datasets_table(results),
                "priors": priors_table(results),
                "expected_cost": cross_dataset_table(results),
            },
            figures={k: figures[k] for k in OVERVIEW_FIGURES if k in figures},
            data={"narrative": render_markdown(strip_leading_title(results.narrative_markdown, results.title))},
        )
    ]
    for d in results.datasets.values():
        priors = list(dataset_priors(results, d))
        page_tables = {"summary": summary_table(d, priors)}
        if (iv := interval_table(d, priors)) is not None:
            page_tables["intervals"] = iv
        if (bands := band_table(d)) is not None:
            page_tables["bands"] = bands
        if (fold := fold_table(d, priors)) is not None:
            page_tables["folds"] = fold
        page_tables["comparisons"] = comparison_table(d)
        page_tables["differences"] = differences_table(d, priors)
        main, focus, pair_figures = _dataset_figures(d, figures)
        all_figures = {f.key: f for f in main + focus + pair_figures}
        pages.append(
            Page(
                dataset_page_slug(d.name),
                f"Dataset: {d.name}",
                d.name,
                "dataset.html",
                tables=page_tables,
                figures=all_figures,
                data={
                    "dataset": d,
                    "main_figures": main,
                    "focus_figures": focus,
                    "pair_figures": pair_figures,
                    "narrative": render_markdown(d.narrative_markdown, heading_offset=1),
                },
            )
        )
    pages.append(Page("methods", "Methods", "Methods", "methods.html"))
    pages.append(
        Page(
            "provenance",
            "Provenance",
            "Provenance",
            "provenance.html",
            tables={"inputs": inputs_table(results), "settings": settings_table(results), "versions": versions_table(results)},
        )
    )
    return pages


def number_items(pages: list[Page], print_mode: bool = False) -> None:
    """Number tables and figures through the whole report, in page order.

    The PDF leaves out the site-only figures (``in_print`` false), so it is numbered again for print.
    """
    n_table = n_figure = 0
    for page in pages:
        for figure in page.figures.values():
            if print_mode and not figure.in_print:
                figure.number = None
                continue
            n_figure += 1
            figure.number = n_figure
        for table in page.tables.values():
            n_table += 1
            table.number = n_table


# --- templates --------------------------------------------------------------------------------


def make_environment(project_root: Path | None, theme: Path) -> jinja2.Environment:
    base = jinja2.FileSystemLoader(str(paths.templates_dir()))
    loaders: list[jinja2.BaseLoader] = []
    if project_root is not None and (project_root / "templates").is_dir():
        loaders.append(jinja2.FileSystemLoader(str(project_root / "templates")))
    if (theme / "templates").is_dir():
        loaders.append(jinja2.FileSystemLoader(str(theme / "templates")))
    loaders += [base, jinja2.PrefixLoader({"base": base})]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(cost=tb.cost, auc=tb.auc, pc=tb.pc, interval=tb.interval, markdown=render_markdown, slug=slug,
                       dataset_href=_dataset_link)
    return env


def _template_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """The innermost traceback frame that is in a template file (jinja maps frames to templates)."""
    found = (None, None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith((".html", ".xml", ".txt", ".css", ".jinja", ".j2")) and Path(frame.filename).exists():
            found = (frame.filename, frame.lineno)
    return found


def template_error(exc: Exception, name: str) -> UserInputError:
    """A one-line UserInputError naming the template file, line and what went wrong."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        file, line = exc.filename or exc.name or name, exc.lineno
        expected = f"template syntax error: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        file, line = _template_frame(exc)
        file = file or name
        expected = f"template not found: {exc.name}"
    else:
        file, line = _template_frame(exc)
        file = file or name
        expected = f"undefined variable: {exc}" if isinstance(exc, jinja2.UndefinedError) else f"template error: {type(exc).__name__}: {exc}"
    return UserInputError(Problem(file=str(file), field="template", expected=expected, line=line))


def _undecodable_template(env: jinja2.Environment, name: str, exc: UnicodeDecodeError) -> UserInputError:
    """A template file that is not UTF-8: name the file (the loader's frames carry no template)."""
    for loader in getattr(env.loader, "loaders", [env.loader]):
        for folder in getattr(loader, "searchpath", []):
            for path in sorted(Path(folder).rglob("*")):
                try:
                    if path.is_file():
                        path.read_bytes().decode("utf-8")
                except UnicodeDecodeError as bad:
                    data = path.read_bytes()
                    line = data.count(b"\n", 0, bad.start) + 1
                    return UserInputError(Problem(str(path), "template", f"expected UTF-8 text, got byte 0x{data[bad.start]:02x}", line=line))
    return UserInputError(Problem(name, "template", f"expected UTF-8 text: {exc.reason}"))


def render_template(env: jinja2.Environment, name: str, context: dict) -> str:
    """Render ``name``; any error raised from a template's own code is the template author's
    (one line naming the template file and line), as are a template that includes itself and a
    template file that is not UTF-8. Errors raised outside template code are bugs and propagate."""
    try:
        return env.get_template(name).render(context)
    except UnicodeDecodeError as exc:
        raise _undecodable_template(env, name, exc) from exc
    except RecursionError as exc:
        file, line = _template_frame(exc)
        raise UserInputError(Problem(str(file or name), "template", "a template includes or extends itself (endless recursion)", line=line)) from None
    except jinja2.TemplateError as exc:
        raise template_error(exc, name) from exc
    except Exception as exc:
        if _template_frame(exc)[0] is None:
            raise
        raise template_error(exc, name) from exc


# --- writing ----------------------------------------------------------------------------------


@dataclass
class Site:
    """What the PDF renderer needs from a site build."""

    results: Results
    pages: list[Page]
    env: jinja2.Environment
    theme: Path
    context: dict


def copy_theme(theme: Path, out: Path) -> None:
    """The default theme's assets, overlaid by the chosen theme's (so a theme may ship only style.css)."""
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    for folder in dict.fromkeys([paths.themes_dir() / paths.DEFAULT_THEME, theme]):
        for f in sorted(folder.rglob("*")):
            rel = f.relative_to(folder)
            if f.is_symlink() and not f.resolve().is_relative_to(folder.resolve()):
                continue  # a theme publishes its own files only, never what a link points to outside it
            if f.is_file() and rel.parts[0] != "templates" and f.suffix not in (".py", ".pyc"):
                (assets / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, assets / rel)


def page_context(site_context: dict, page: Page, print_mode: bool) -> dict:
    context = dict(site_context)
    context.update(page.data)
    context.update(page=page, tables=page.tables, figures=page.figures, print=print_mode)
    return context


def render_site(results: Results, project, out: Path, figures: dict | None = None, pdf: bool = True) -> Site:
    """Write the HTML pages, the tables (CSV, LaTeX) and the theme assets into ``out``."""
    out = Path(out)
    root = getattr(project, "root", None)
    theme = paths.theme_dir(getattr(project, "theme", paths.DEFAULT_THEME) or paths.DEFAULT_THEME, root)
    env = make_environment(root, theme)
    pages = build_pages(results, figures_from_index(figures))
    number_items(pages)
    site_context = {
        "results": results,
        "pages": pages,
        "title": results.title,
        "generator": results.generator,
        "pdf_href": PDF_NAME if pdf else None,
        "theme_name": theme.name,
        "classifiers": classifier_index(results),
        "attachments": False,
        "tb": tb,
    }
    copy_theme(theme, out)
    (out / "tables").mkdir(exist_ok=True)
    for page in pages:
        html = render_template(env, page.template, page_context(site_context, page, False))
        (out / page.filename).write_text(html, encoding="utf-8")
        for table in page.tables.values():
            (out / table.csv_href).write_text(table.to_csv(), encoding="utf-8")
            (out / table.tex_href).write_text(table.to_latex(), encoding="utf-8")
    return Site(results, pages, env, theme, site_context)


def as_markup(html: str) -> Markup:
    return Markup(html)
