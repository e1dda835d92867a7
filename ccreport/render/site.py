"""The static HTML site: Results (+ the figure index + the project's theme) -> pages, tables,
assets.

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

import linecache
import re
import shutil
import traceback
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from markupsafe import Markup

from .. import paths
from ..analysis.instance_cost_bins import (
    BINS,
)  # the methods text states the instance-cost bootstrap's bin count
from ..errors import Problem, UserInputError
from ..figures import specs as figure_specs
from ..project import naming
from ..results import DatasetResult, Results, dataset_priors
from . import findings as fd
from . import page_nav
from . import tables as tb
from .catalogue import Catalogue, number_items
from .decision_summary import decision_summary
from .explorer import explorer_json
from .markdown_text import render_markdown, strip_leading_title

# the methods page's generated parts
from .methods_page import interval_coverage, limitations, probability_rules_table
from .page_names import dataset_link, dataset_page_slug, slug
from .sections import DATASET_SECTIONS, PageSection, instance_costs, overview, provenance
from .sections.figure_sections import cited_pairs

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
    number: int | None = (
        None  # assigned once for the site and report.pdf (ccreport.render.catalogue)
    )
    scope: str = (
        "dataset"  # the registered kind's scope: "report", "dataset", "classifier" or "pair"
    )
    panel_caption: str | None = None  # in report.pdf's grid of panels, instead of the caption
    panels_note: str | None = None  # said once before that grid (ccreport.figures.registry)
    size: tuple[int, int] | None = None  # the SVG's CSS px (page_nav.svg_size): the <img> box

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
    part: str = "body"  # the whole page in report.pdf's body, or in its appendix
    appendix_keys: frozenset[str] = frozenset()  # the figures and tables of its appendix sections

    @property
    def filename(self) -> str:
        return f"{self.slug}.html"

    def part_of(self, key: str) -> str:
        """Where the page's figure or table ``key`` is in report.pdf: "body" or "appendix"."""
        return "appendix" if self.part == "appendix" or key in self.appendix_keys else "body"

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of report.pdf the page has something in, in order."""
        if self.part == "appendix":
            return ("appendix",)
        return ("body", "appendix") if self.appendix_keys else ("body",)


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
            panel_caption=entry.get("panel_caption"),
            panels_note=entry.get("panels_note"),
        )
    return figures


def classifier_index(results: Results) -> dict[str, dict]:
    """Each classifier name -> its kind and the datasets it was evaluated on (manifest order)."""
    out: dict[str, dict] = {}
    for d in results.datasets.values():
        for name, c in d.classifiers.items():
            out.setdefault(name, {"kind": c.kind, "datasets": []})["datasets"].append(d.name)
    return out


# --- pages ------------------------------------------------------------------------------------


def _placed(
    results: Results,
    d: DatasetResult | None,
    section: str,
    figures: dict[str, Figure],
    shows=None,
) -> list[Figure]:
    """The figures of the index that the registered kinds put in a section, in report order;
    ``shows(name)``: whether the figure of that classifier or pair (None: the dataset's) is
    wanted."""
    found = []
    for spec in figure_specs(section=section):
        names = (
            [None]
            if spec.scope in ("report", "dataset")
            else list(d.classifiers if spec.scope == "classifier" else d.comparisons)
        )
        for name in names:
            key = spec.key_for() if spec.scope == "report" else spec.key_for(d.name, name)
            if key in figures and (shows is None or shows(name)):
                figure = figures[key]
                figure.scope = spec.scope
                found.append(figure)
    return found


def dataset_sections(
    results: Results,
    d: DatasetResult,
    figures: dict[str, Figure],
    cited: frozenset[str] = frozenset(),
) -> list[PageSection]:
    """The dataset page's sections with their tables and figures (the index's figures under
    ``<dataset>/`` that no registered kind places are shown with the main figures). ``cited``:
    the comparison keys the dataset's findings quote (a section's ``shows`` may select by them)."""
    priors = list(dataset_priors(results, d))
    out = []
    for section in DATASET_SECTIONS:
        tables = {name: t for name, t in section.tables(d, priors).items() if t is not None}
        placed = [
            figure
            for of in section.figures_of or (section.id,)
            for figure in _placed(
                results,
                d,
                of,
                figures,
                lambda name, section=section: section.shows(d, cited, name),
            )
        ]
        out.append(PageSection(section, tables, placed))
    placed = {f.key for s in out for f in s.figures}
    overview = {
        spec.key_for() for spec in figure_specs() if spec.scope == "report"
    }  # a dataset may be named "overview"
    main = next(s for s in out if s.id == "figures")
    main.figures += [
        f
        for k, f in figures.items()
        if k.startswith(f"{d.name}/") and k not in placed and k not in overview
    ]
    return out


def build_pages(results: Results, figures: dict[str, Figure]) -> list[Page]:
    pages = [
        Page(
            "index",
            results.title,
            "Overview",
            "index.html",
            tables={
                "priors": overview.priors_table(results),
                "expected_cost": overview.cross_dataset_table(results),
            },
            figures={f.key: f for f in _placed(results, None, "overview", figures)},
            data={
                "narrative": render_markdown(
                    strip_leading_title(results.narrative_markdown, results.title)
                )
            },
        )
    ]
    for d in results.datasets.values():
        found = fd.dataset_findings(results, d)
        sections = dataset_sections(results, d, figures, cited_pairs(found))
        by_id = {s.id: s for s in sections}
        cheapest = {"cheapest": found.cheapest} if found.cheapest is not None else {}
        appendix = [s for s in sections if s.appendix]
        pages.append(
            Page(
                dataset_page_slug(d.name),
                f"Dataset: {d.name}",
                d.name,
                "dataset.html",
                tables=cheapest | {name: t for s in sections for name, t in s.tables.items()},
                figures={f.key: f for s in sections for f in s.figures},
                appendix_keys=frozenset(
                    [f.key for s in appendix for f in s.figures]
                    + [t.key for s in appendix for t in s.tables.values()]
                ),
                data={
                    "dataset": d,
                    "dataset_findings": found,
                    "sections": sections,
                    "main_figures": by_id["figures"].figures,
                    "focus_figures": by_id["focus"].figures,
                    "pair_figures": [f for s in sections for f in s.figures if f.scope == "pair"],
                    "narrative": render_markdown(d.narrative_markdown, heading_offset=1),
                    "explorer": explorer_json(results, d),  # templates/explorer.html
                },
            )
        )
    rules = probability_rules_table(results)
    pages.append(
        Page(
            "methods",
            "Methods",
            "Methods",
            "methods.html",
            tables={} if rules is None else {"probability_rules": rules},
            data={
                "instance_cost_bins": BINS,
                "limitations": limitations(results),
                "coverage": interval_coverage(),
            },
            part="appendix",
        )
    )
    pages.append(
        Page(
            "provenance",
            "Provenance",
            "Provenance",
            "provenance.html",
            tables={
                "inputs": provenance.inputs_table(results),
                "settings": provenance.settings_table(results),
                "versions": provenance.versions_table(results),
                "build": provenance.build_table(results),
            },
            part="appendix",
        )
    )
    return pages


# --- templates --------------------------------------------------------------------------------


class TemplateSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, narrowed further: no attribute that is a module, and no call of
    anything but what the render was given (the context's values and Jinja2's globals), Jinja2's
    and ccreport's own functions and the methods of plain values (str, numbers, containers). A
    project's templates (and a theme's, and those a report.pdf carries, which ``ccreport verify``
    renders) are data: they format the report's values, and can neither reach Python's internals
    nor call a library function that writes a file or starts a process."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._attribute_verdicts: dict[tuple[type, type, str], bool] = {}

    def is_safe_attribute(self, obj, attr, value) -> bool:
        """Jinja2's verdict (:func:`jinja2.sandbox.is_internal_attribute`,
        :func:`jinja2.sandbox.modifies_known_mutable`: tests of ``obj``'s class and of ``attr``
        only), remembered per class and attribute name, and never a module."""
        if isinstance(value, types.ModuleType):
            return False
        key = (type(obj), obj.__class__, attr)  # isinstance reads __class__ as well as the type
        verdict = self._attribute_verdicts.get(key)
        if verdict is None:
            verdict = self._attribute_verdicts[key] = super().is_safe_attribute(obj, attr, value)
        return verdict

    def call(__self, __context, __obj, *args, **kwargs):  # Jinja2's own signature
        given = any(__obj is value for value in __context.parent.values())
        if not given and not _callable_allowed(__obj):
            raise SecurityError(f"{__obj!r} is not safely callable")
        return super().call(__context, __obj, *args, **kwargs)


_PLAIN = (
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    list,
    tuple,
    dict,
    set,
    frozenset,
    range,
    type(None),
    Markup,
)
_OWN_MODULES = ("ccreport", "jinja2", "markupsafe")


def _callable_allowed(obj) -> bool:
    """Whether a template may call ``obj`` (:class:`TemplateSandbox`): a function, class or
    method defined in ccreport, Jinja2 or MarkupSafe, or a method of a plain value."""
    owner = getattr(obj, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        if isinstance(owner, _PLAIN):
            return True
        obj = type(owner)
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in _OWN_MODULES


def make_environment(project_root: Path | None, theme: Path) -> jinja2.Environment:
    base = jinja2.FileSystemLoader(str(paths.templates_dir()))
    loaders: list[jinja2.BaseLoader] = []
    if project_root is not None and (project_root / "templates").is_dir():
        loaders.append(jinja2.FileSystemLoader(str(project_root / "templates")))
    if (theme / "templates").is_dir():
        loaders.append(jinja2.FileSystemLoader(str(theme / "templates")))
    loaders += [base, jinja2.PrefixLoader({"base": base})]
    env = TemplateSandbox(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        cost=tb.cost,
        auc=tb.auc,
        pc=tb.pc,
        interval=tb.interval,
        markdown=render_markdown,
        slug=slug,
        dataset_href=dataset_link,
    )
    env.filters.update(page_contents=page_nav.page_contents)
    env.filters.update(
        instance_cost_sentence=instance_costs.what_changes,
        instance_cost_left_out=instance_costs.left_out,
    )
    return env


def _template_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """The innermost traceback frame that is in a template file (jinja maps frames to templates)."""
    found = (None, None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if (
            frame.filename.endswith((".html", ".xml", ".txt", ".css", ".jinja", ".j2"))
            and Path(frame.filename).exists()
        ):
            found = (frame.filename, frame.lineno)
    return found


def _recursion_frame(exc: RecursionError) -> tuple[str | None, int | None]:
    """Where a template includes or extends itself: of the template lines on the endless cycle
    (those the traceback holds more than once), the innermost in a file of the project or its
    theme, else (a cycle through ccreport's own templates only) the innermost of the cycle."""
    frames = [
        (f.filename, f.lineno)
        for f in traceback.extract_tb(exc.__traceback__)
        if f.filename.endswith((".html", ".xml", ".txt", ".css", ".jinja", ".j2"))
        and Path(f.filename).exists()
    ]
    seen: dict[tuple[str, int | None], int] = {}
    for frame in frames:
        seen[frame] = seen.get(frame, 0) + 1
    cycle = [frame for frame in frames if seen[frame] > 1] or frames
    built_in = paths.templates_dir().resolve()
    own = [frame for frame in cycle if not Path(frame[0]).resolve().is_relative_to(built_in)]

    def pulling(word: str) -> list:
        return [
            frame for frame in own if re.search(word, linecache.getline(frame[0], frame[1] or 0))
        ]

    return (
        pulling(r"\b(include|import|from)\b")
        or pulling(r"\bextends\b")
        or own
        or cycle
        or [(None, None)]
    )[-1]


def template_error(exc: Exception, name: str) -> UserInputError:
    """A one-line UserInputError naming the template file, line and what went wrong."""
    if isinstance(exc, SecurityError):
        file, line = _template_frame(exc)
        file = file or name
        expected = (
            f"refused by the template sandbox ({str(exc).rstrip('.')}): templates format the "
            "report's values and cannot run code"
        )
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        file, line = exc.filename or exc.name or name, exc.lineno
        expected = f"template syntax error: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        file, line = _template_frame(exc)
        file = file or name
        expected = f"template not found: {exc.name}"
    else:
        file, line = _template_frame(exc)
        file = file or name
        expected = (
            f"undefined variable: {exc}"
            if isinstance(exc, jinja2.UndefinedError)
            else f"template error: {type(exc).__name__}: {exc}"
        )
    return UserInputError(Problem(file=str(file), field="template", expected=expected, line=line))


def _undecodable_template(
    env: jinja2.Environment, name: str, exc: UnicodeDecodeError
) -> UserInputError:
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
                    return UserInputError(
                        Problem(
                            str(path),
                            "template",
                            f"expected UTF-8 text, got byte 0x{data[bad.start]:02x}",
                            line=line,
                        )
                    )
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
        file, line = _recursion_frame(exc)
        raise UserInputError(
            Problem(
                str(file or name),
                "template",
                "a template includes or extends itself (endless recursion)",
                line=line,
            )
        ) from None
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
    catalogue: Catalogue = field(
        default_factory=Catalogue
    )  # the one numbering of figures and tables


def copy_theme(theme: Path, out: Path) -> None:
    """The default theme's assets, overlaid by the chosen theme's (so a theme may ship only
    style.css)."""
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    for folder in dict.fromkeys([paths.themes_dir() / paths.DEFAULT_THEME, theme]):
        for f in sorted(folder.rglob("*")):
            rel = f.relative_to(folder)
            if f.is_symlink() and not f.resolve().is_relative_to(folder.resolve()):
                # a theme publishes its own files only, never what a link points to outside it
                continue
            if (
                f.is_file()
                and rel.parts[0] != "templates"
                and f.suffix not in (".py", ".pyc", ".mplstyle")
            ):
                (assets / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, assets / rel)


def page_context(site_context: dict, page: Page, print_mode: bool) -> dict:
    context = dict(site_context)
    context.update(page.data)
    context.update(page=page, tables=page.tables, figures=page.figures, print=print_mode)
    context["part"] = None  # report.pdf renders a page's "body" and its "appendix" apart
    return context


def render_site(
    results: Results, project, out: Path, figures: dict | None = None, pdf: bool = True
) -> Site:
    """Write the HTML pages, the tables (CSV, LaTeX) and the theme assets into ``out``."""
    site = site_model(results, project, out, figures, pdf)
    copy_theme(site.theme, Path(out))
    write_pages(site, out)
    return site


def site_model(
    results: Results, project, out: Path, figures: dict | None = None, pdf: bool = True
) -> Site:
    """The site's pages, numbering and template context, writing nothing: what report.pdf is laid
    out from (:func:`ccreport.render.pdf.render_pdf`) before the figure files exist, and what
    :func:`write_pages` writes once they do. ``figures``: the figure index
    (:func:`ccreport.render.figure_files.write_figures` or ``figure_index``)."""
    root = getattr(project, "root", None)
    theme = paths.theme_dir(
        getattr(project, "theme", paths.DEFAULT_THEME) or paths.DEFAULT_THEME, root
    )
    env = make_environment(root, theme)
    pages = build_pages(results, figures_from_index(figures))
    catalogue = number_items(pages)
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
        "report_findings": [
            p.data["dataset_findings"] for p in pages if "dataset_findings" in p.data
        ],
        "decision_summary": decision_summary(results, catalogue),
    }
    return Site(results, pages, env, theme, site_context, catalogue)


def write_pages(site: Site, out: Path) -> None:
    """Write ``site``'s HTML pages and tables (CSV, LaTeX) into ``out``, each figure's ``<img>``
    sized from its SVG file there (:func:`ccreport.render.page_nav.svg_size`)."""
    out = Path(out)
    for figure in {id(f): f for page in site.pages for f in page.figures.values()}.values():
        figure.size = page_nav.svg_size(out / figure.svg)
    (out / "tables").mkdir(exist_ok=True)
    for page in site.pages:
        html = render_template(site.env, page.template, page_context(site.context, page, False))
        (out / page.filename).write_text(html, encoding="utf-8")
        for table in page.tables.values():
            (out / table.csv_href).write_text(table.to_csv(), encoding="utf-8")
            (out / table.tex_href).write_text(table.to_latex(), encoding="utf-8")


def as_markup(html: str) -> Markup:
    return Markup(html)
