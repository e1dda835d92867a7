"""``report.pdf`` with WeasyPrint, from the same templates as the site.

Each page of the site is rendered again with ``print=True`` (base.html then emits only the
content block, without navigation or download links) and becomes a chapter of the report: a
title page, a table of contents and the lists of figures and of tables with the page of each
entry, then the chapters. The chapters and the front are two documents, the front laid out once
with the pages the chapters were laid out on (:func:`laid_out_report`), their pages joined into
one PDF. Every figure and table of the site is in it, with the site's number: both show the one
numbering of :mod:`ccreport.render.catalogue`, computed once when the site's pages are built. The
theme's ``report.css`` holds the paged-media rules (running header, page numbers, tables that do not
break mid-row, wide tables on landscape pages, grids of per-classifier and per-pair figures three to
a row). Figures are laid out by WeasyPrint as the site's ``<img>`` SVG boxes but drawn from the
figures' own vector PDF files, copied in as form XObjects (:mod:`ccreport.render.figure_pdfs`: about
a tenth of the CPU of WeasyPrint drawing the SVG); a figure without a PDF file is drawn from its SVG
(vectors, the dense artists the rasters matplotlib embedded), never from PNG, which would make every
line a raster.

Dates and reproducible bytes: the document's ``dcterms.created/modified`` (the PDF's CreationDate
and ModDate), the attachments' dates and the title page carry the build date
(:mod:`ccreport.runtime.build_date`: ``SOURCE_DATE_EPOCH``, else ``[project] date``, else the time
of the build). WeasyPrint stamps the embedded font subsets with ``SOURCE_DATE_EPOCH``, which is set
to the build date while writing, so with a fixed date two builds of the same inputs give the same
bytes.

The PDF is a tagged PDF/A-3b (``pdf_tags``: headings, paragraphs, tables, figures with their alt
text are in the structure tree) with the archive attached as PDF/A-3 associated files, each once
(:mod:`ccreport.render.pdfa` repairs what WeasyPrint 70 gets wrong in PDF/A-3: every attachment
twice in the catalog's ``/AF``, a compressed XMP stream, interpolated images, a stream /Length off
by one): ``results.json`` and every file of the project that shaped the output (the manifest, data,
narratives, template overrides, the project's theme), named by their paths relative to the manifest,
so :mod:`ccreport.commands.verify` can rebuild the report from the PDF alone. If PDF/A output fails
(it should not with WeasyPrint 70) a plain tagged PDF is written instead.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

from ..paths import DEFAULT_THEME, theme_figure_style, themes_dir
from ..runtime.build_date import FROM_ENVIRONMENT, BuildDate, build_date
from ..runtime.collector import collector_paused
from .column_widths import table_widths_for
from .figure_pdfs import FigureImages
from .item_lists import balanced_columns
from .pdf_streams import deflate_streams
from .pdfa import pdfa_repairs
from .site import PDF_NAME, Site, page_context, render_template

PDF_VARIANT = "pdf/a-3b"
RESULTS_ATTACHMENT = "results.json"
ROLE_DESCRIPTIONS = {
    "manifest": "The project manifest as given",
    "data": "A data file of the project",
    "narrative": "A narrative of the project",
    "template": "A template override of the project",
    "theme": "A file of the project's theme",
}

_H2 = re.compile(r'<h2 id="([^"]+)"[^>]*>(.*?)</h2>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_PAGE_LINK = re.compile(r'href="([A-Za-z0-9_.-]+)\.html(#[^"]*)?"')


@contextmanager
def fixed_source_date(epoch: int):
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def _internal_links(html: str) -> str:
    """Links between site pages become links inside the PDF: page.html -> #page,
    page.html#a -> #a."""

    def replace(match: re.Match) -> str:
        page, anchor = match.group(1), match.group(2)
        return f'href="{anchor}"' if anchor else f'href="#page-{page}"'

    return _PAGE_LINK.sub(replace, html)


def chapters(site: Site, attachments: bool) -> list[dict]:
    """report.pdf's chapters: the body (every page's body part: the overview, each dataset's body
    sections), then the appendix (each dataset's appendix sections, the methods, the provenance),
    each appendix chapter titled "Appendix A", "Appendix B", ... (:attr:`Page.parts`)."""
    out = []
    widths = table_widths_for(site.theme, themes_dir() / DEFAULT_THEME)  # tables' fixed layout
    for part in ("body", "appendix"):
        for page in site.pages:
            if part not in page.parts:
                continue
            context = page_context(site.context, page, True)
            context["attachments"] = attachments
            context["part"] = part
            context["table_widths"] = widths
            body = _internal_links(render_template(site.env, page.template, context))
            title = "Overview" if page.slug == "index" else page.title
            if part == "body":
                number = prefix = str(sum(c["part"] == "body" for c in out) + 1)
            else:
                prefix = appendix_letter(sum(c["part"] == "appendix" for c in out))
                number = f"Appendix {prefix}"
                if page.part == "body":
                    title = f"{page.nav_title}: details"
            sections = [
                {"id": i, "title": unescape(_TAG.sub("", t)).strip()} for i, t in _H2.findall(body)
            ]
            out.append(
                {
                    "id": f"page-{page.slug}" + ("-appendix" if page.part != part else ""),
                    "number": number,
                    "prefix": prefix,
                    "part": part,
                    "title": title,
                    "kind": page.template.removesuffix(".html"),
                    "body": _markup(body),
                    "sections": sections,
                }
            )
    return out


def appendix_letter(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: the label of the appendix chapter ``index`` (from 0)."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def _markup(html: str):
    from markupsafe import Markup

    return Markup(html)


FRONT_PAGES = 2  # the title page, then the contents and the lists: the front's usual length


def report_html(
    site: Site,
    epoch: int,
    attachments: bool,
    part: str = "front",
    front_pages: int = FRONT_PAGES,
    page_numbers: dict[str, int] | None = None,
    total_pages: int = 0,
) -> str:
    """One of report.pdf's two HTML documents (:func:`render_pdf` lays out both).

    ``part="chapters"``: ``front_pages`` empty pages (the first sets the running title), then
    every chapter. ``part="front"``: the title page, the contents and the lists of figures and of
    tables, each entry's page number written in (``page_numbers``: anchor -> page, as the chapters
    were laid out; an anchor not in it gets none), "Page n of ``total_pages``" at the foot.
    Tables carry the column widths of :mod:`ccreport.render.column_widths` where it measured them
    (fixed layout), else WeasyPrint lays them out automatically."""
    if part not in ("front", "chapters"):
        raise ValueError(f"part must be 'front' or 'chapters', not {part!r}")
    date = BuildDate(epoch, FROM_ENVIRONMENT)
    context = dict(site.context)
    context.update(
        chapters=chapters(site, attachments),
        catalogue=site.catalogue,
        created=date.iso,
        build_date=date.display(),
        print=True,
        attachments=attachments,
        page=None,
        item_columns=balanced_columns,  # the lists of figures and tables, in columns
        part=part,
        front_pages=front_pages,
        page_numbers=page_numbers or {},
        total_pages=total_pages,
    )
    return render_template(site.env, "report.html", context)


def anchor_pages(pages, first: int = 1) -> dict[str, int]:
    """Anchor -> number of the page it is on (``pages``: WeasyPrint's laid-out pages, public
    ``Page.anchors``; the first page numbered ``first``); an anchor on two pages: the first,
    where its box starts, as CSS ``target-counter(..., page)`` counts it."""
    numbers: dict[str, int] = {}
    for number, page in enumerate(pages, start=first):
        for anchor in page.anchors:
            numbers.setdefault(anchor, number)
    return numbers


def laid_out_report(layout, html_of, front_pages: int = FRONT_PAGES, attempts: int = 4):
    """report.pdf's pages, its front with the page numbers of the chapters: a list of laid-out
    pages (``layout(html)`` lays out an HTML document and returns its WeasyPrint ``Document``;
    ``html_of(part, front_pages, page_numbers, total_pages)`` is :func:`report_html` for the site)
    and the document whose metadata the PDF takes (the chapters').

    Page numbers in the contents as CSS ``target-counter`` make WeasyPrint lay out the page that
    holds them again once the targets are known, and again once the page count is (CSS Generated
    Content for Paged Media: the layout repeats until the counters settle). Instead the chapters are
    laid out once, after ``front_pages`` empty pages; each anchor's page is read from the layout
    and written into the front, laid out once. The front's own length decides: should it not
    take ``front_pages`` pages, the chapters are laid out again after as many as it takes (at most
    ``attempts`` layouts of each; the front's length does not depend on the numbers' values but
    through their widths, so one is the rule)."""
    for _ in range(attempts):
        body = layout(html_of("chapters", front_pages, None, 0))
        numbers = anchor_pages(body.pages)
        front = layout(html_of("front", front_pages, numbers, len(body.pages)))
        if len(front.pages) == front_pages:
            return front.pages + body.pages[front_pages:], body
        front_pages = len(front.pages)
    raise RuntimeError(f"report.pdf's front pages did not settle in {attempts} layouts")


def archive_attachments(out: Path, project, files) -> list[tuple[Path, str, str]]:
    """``(file, name, description)`` of each attachment: results.json, then every file of
    ``files`` (:class:`ccreport.results.ProvenanceFile`, paths relative to the manifest) found
    through ``project.root``. Names are those relative paths, descriptions give role and SHA-256."""
    attached = []
    results_json = Path(out) / "results.json"
    if results_json.is_file():
        attached.append(
            (
                results_json,
                RESULTS_ATTACHMENT,
                "Every number of the report (ccreport results schema)",
            )
        )
    if project is None:
        return attached
    for f in files:
        path = Path(project.root) / f.path
        if path.is_file():
            attached.append(
                (path, f.path, f"{ROLE_DESCRIPTIONS.get(f.role, f.role)}; SHA-256 {f.sha256}")
            )
    return attached


def figure_fonts(out: Path, project=None) -> tuple[dict, dict]:
    """WeasyPrint options pinning the figures' SVG text to matplotlib's font files
    (:func:`ccreport.render.figure_fonts.weasyprint_options`, with the theme's
    ``figures.mplstyle``)."""
    from .figure_fonts import weasyprint_options

    return weasyprint_options(
        out, theme_figure_style(project) if getattr(project, "root", None) is not None else None
    )


def render_pdf(
    site: Site,
    out: Path,
    project=None,
    date: BuildDate | None = None,
    figure_pdfs: bool = True,
    ready=None,
) -> Path:
    """Write ``out/report.pdf`` from a rendered site (``out`` holds its figures, assets and
    results.json).

    ``project``: the :class:`ccreport.project.manifest.Project` whose files are attached (as
    ``site.results.provenance`` lists them; None: only results.json); ``date``: the build date
    (None: the one the results record, else ``SOURCE_DATE_EPOCH`` or the present moment);
    ``figure_pdfs``: draw each figure from its vector PDF file (:mod:`ccreport.render.figure_pdfs`;
    False: every figure through its SVG, the route of figures without a PDF file); ``ready``:
    the figures' files are still being written (:func:`ccreport.render.figure_files.start_figures`)
    and ``ready(path)`` returns once the one at ``path`` is: every figure of ``site`` is then
    drawn from its PDF file, read when WeasyPrint first lays it out, so the layout of the pages
    before a figure overlaps its drawing (None: the files are all there).
    """
    import weasyprint

    out = Path(out)
    results = site.context["results"]
    provenance = getattr(results, "provenance", None)
    if date is None:
        date = build_date(None)
        if provenance is not None:
            date = BuildDate(
                int(
                    datetime.strptime(provenance.date, "%Y-%m-%dT%H:%M:%SZ")
                    .replace(tzinfo=UTC)
                    .timestamp()
                ),
                provenance.date_source,
            )
    moment = date.moment
    attached = archive_attachments(out, project, provenance.files if provenance is not None else ())
    target = out / PDF_NAME
    with fixed_source_date(date.epoch), collector_paused():
        html_options, render_options = figure_fonts(
            out, project
        )  # the figures' SVG text in their own font files
        planned = [out / f.pdf for page in site.pages for f in page.figures.values() if f.pdf]
        # figures drawn from their own PDF files
        images = (
            FigureImages(out, planned if ready is not None else (), ready) if figure_pdfs else {}
        )

        def layout(html: str):
            source = weasyprint.HTML(string=html, base_url=str(out) + os.sep, **html_options)
            return source.render(cache=images, **render_options)

        def html_of(part, front_pages, page_numbers, total_pages):
            return report_html(
                site, date.epoch, bool(attached), part, front_pages, page_numbers, total_pages
            )

        pages, body = laid_out_report(layout, html_of)
        document = body.copy(pages)  # WeasyPrint's public way to join documents' pages
        attachments = [
            weasyprint.Attachment(
                filename=str(path),
                name=name,
                description=description,
                created=moment,
                modified=moment,
                relationship="Source" if name != RESULTS_ATTACHMENT else "Data",
            )
            for path, name, description in attached
        ]

        def finisher(document, pdf):
            if figure_pdfs:
                images.embed(pdf)  # before the repairs, which then cover the copied objects too
            pdfa_repairs(document, pdf)
            deflate_streams(pdf)  # each stream deflated once, not at each of pydyf's two passes

        options = dict(pdf_identifier=b"ccreport-report", pdf_tags=True, finisher=finisher)
        try:
            document.write_pdf(
                target,
                pdf_variant=PDF_VARIANT if attachments else None,
                attachments=attachments,
                **options,
            )
        except Exception:  # pragma: no cover - a PDF/A failure should not lose the report
            document.write_pdf(target, **options)
    # WeasyPrint keeps the figures' @font-face files in a temporary folder until its font
    # configuration is freed; remove it now (its finaliser), not whenever (or, at a fast exit,
    # never) that happens
    render_options["font_config"].__del__()
    return target
