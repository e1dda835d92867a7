"""``report.pdf`` with WeasyPrint, from the same templates as the site.

Each page of the site is rendered again with ``print=True`` (base.html then emits only the
content block, without navigation or download links) and becomes a chapter of ``report.html``: a
title page, a table of contents whose page numbers come from CSS ``target-counter``, then the
chapters. The theme's ``report.css`` holds the paged-media rules (running header, page numbers,
tables that do not break mid-row). Figures are the site's SVG files, which WeasyPrint draws as vectors.

Reproducible bytes: WeasyPrint stamps the embedded font subsets and, for PDF/A, the document dates
with the current time. We set ``SOURCE_DATE_EPOCH`` (honouring one already in the environment,
else the fixed :data:`DEFAULT_EPOCH`), give the document fixed ``dcterms.created/modified`` dates
and fixed attachment dates, so two builds of the same inputs give the same bytes.

The PDF is a PDF/A-3b with ``results.json`` and the manifest attached, so the numbers travel with
the report; if that fails (it should not with WeasyPrint 70) a plain PDF is written instead.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from html import unescape
from pathlib import Path

from .site import PDF_NAME, Site, number_items, page_context, render_template

DEFAULT_EPOCH = 1136073600  # 2006-01-01T00:00:00Z, the year of Drummond & Holte's "Cost curves"
PDF_VARIANT = "pdf/a-3b"

_H2 = re.compile(r'<h2 id="([^"]+)"[^>]*>(.*?)</h2>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_PAGE_LINK = re.compile(r'href="([A-Za-z0-9_.-]+)\.html(#[^"]*)?"')


def source_epoch() -> int:
    value = os.environ.get("SOURCE_DATE_EPOCH")
    try:
        return int(value) if value is not None else DEFAULT_EPOCH
    except ValueError:
        return DEFAULT_EPOCH


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
    """Links between site pages become links inside the PDF: page.html -> #page, page.html#a -> #a."""

    def replace(match: re.Match) -> str:
        page, anchor = match.group(1), match.group(2)
        return f'href="{anchor}"' if anchor else f'href="#page-{page}"'

    return _PAGE_LINK.sub(replace, html)


def chapters(site: Site, attachments: bool) -> list[dict]:
    number_items(site.pages, print_mode=True)
    out = []
    for number, page in enumerate(site.pages, start=1):
        context = page_context(site.context, page, True)
        context["attachments"] = attachments
        body = _internal_links(render_template(site.env, page.template, context))
        sections = [{"id": i, "title": unescape(_TAG.sub("", t)).strip()} for i, t in _H2.findall(body)]
        title = "Overview" if page.slug == "index" else page.title
        out.append(
            {"id": f"page-{page.slug}", "number": number, "title": title, "kind": page.template.removesuffix(".html"),
             "body": _markup(body), "sections": sections}
        )
    return out


def _markup(html: str):
    from markupsafe import Markup

    return Markup(html)


def report_html(site: Site, epoch: int, attachments: bool) -> str:
    created = datetime.fromtimestamp(epoch, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    context = dict(site.context)
    context.update(
        chapters=chapters(site, attachments), created=created, print=True, attachments=attachments, page=None
    )
    return render_template(site.env, "report.html", context)


def render_pdf(site: Site, out: Path, manifest_path: Path | None = None) -> Path:
    """Write ``out/report.pdf`` from a rendered site (``out`` holds its figures and assets)."""
    import weasyprint

    out = Path(out)
    epoch = source_epoch()
    moment = datetime.fromtimestamp(epoch, tz=timezone.utc)
    attached = []
    results_json = out / "results.json"
    if results_json.is_file():
        attached.append((results_json, "results.json", "Every number of the report (ccreport results schema)"))
    if manifest_path is not None and Path(manifest_path).is_file():
        attached.append((Path(manifest_path), "ccreport.toml", "The project manifest as given"))
    html = report_html(site, epoch, attachments=bool(attached))
    target = out / PDF_NAME
    with fixed_source_date(epoch):
        document = weasyprint.HTML(string=html, base_url=str(out) + os.sep).render()
        attachments = [
            weasyprint.Attachment(
                filename=str(path), name=name, description=description, created=moment, modified=moment,
                relationship="Data",
            )
            for path, name, description in attached
        ]
        try:
            document.write_pdf(target, pdf_variant=PDF_VARIANT if attachments else None, attachments=attachments,
                               pdf_identifier=b"ccreport-report")
        except Exception:  # pragma: no cover - a PDF/A failure should not lose the report
            document.write_pdf(target, pdf_identifier=b"ccreport-report")
    return target
