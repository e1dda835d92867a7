"""Write every figure of a report to files, with captions and alt text, and return their index.

Files are byte-identical across runs: the package style sets ``svg.hashsalt``, fonts are embedded
as TrueType subsets in PDF (``pdf.fonttype: 42``) and the date metadata is removed from every
format.

Text in the SVG files is text (``svg.fonttype: none``: ``<text>`` elements naming the style's font,
``'DejaVu Sans', sans-serif`` in the package style), not glyph outlines: the files are 45% smaller,
cheaper to write, their text selectable and editable, and WeasyPrint draws them 2.4x faster in
report.pdf (benchmarks/README.md, "Figure stage and SVG text"). How a browser shows that text
depends on the fonts of the reader's machine (matplotlib laid it out with the style's font, and a
narrower fallback sans only leaves some space); report.pdf pins it to the very font files
matplotlib measured the text with (:mod:`ccreport.render.figure_fonts`).

report.pdf draws each figure from its PDF file where it can (:mod:`ccreport.render.figure_pdfs`).
The PDF files of a run of at most :data:`FIGURES_PER_DOCUMENT` figures of one group folder are
drawn as the pages of one matplotlib ``PdfPages`` document, so fontTools subsets each font once per
run rather than once per figure, and split into one file per figure (:func:`split_pages`, which
also renumbers a font subset that starts at code 0, read as ``.notdef`` by PDF/A). Text is drawn
without ligatures (:func:`without_ligatures`).

Each figure is laid out once (:func:`lay_out_once`) and its SVG and PDF drawn in one walk of its
artists (:mod:`ccreport.render.figure_saving`, matplotlib's public renderer API; ``savefig`` once
per file under rcParams it does not reproduce: ``figure_saving.can_save_both``). Where
``ccreport.speedups`` allows (on by default, off with ``CCREPORT_SPEEDUPS=0`` or another
matplotlib), work repeated from figure to figure is shared (:mod:`ccreport.speedups.figure_caches`);
the SVG files are byte-identical either way. Figures are split between forked worker processes
(``workers``); the files are the same bytes for any number of them. A figure's index entry
(caption, alt text, files) is a function of its subject, known before it is drawn
(:func:`figure_index`), so a build lays out report.pdf while the workers draw
(:func:`start_figures`, :class:`FigureRun`).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import re
import string
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_pdf import PdfFile, PdfPages
from matplotlib.text import Text

from .. import figures as F
from ..figures import FigureOptions, FigureSpec, Subject
from ..project import naming
from ..results import Results
from ..runtime.interrupts import ignore_interrupts
from ..speedups import figure_caches
from . import figure_saving

SAVE_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {"Software": None}}
PNG_DPI = 150
NO_LIGATURES = ("-liga",)  # HarfBuzz feature string: standard ligatures off


OVERVIEW_FOLDERS = ("overview",)  # figures/overview/ holds the index's figures, never a dataset's


@dataclass(frozen=True, eq=False)
class _Task:
    """One figure to draw: its kind, what it shows, its index key and file stem."""

    spec: FigureSpec
    subject: Subject
    key: str
    stem: str  # path without extension, relative to the output folder


def group_folder(dataset: str | None) -> str:
    """The folder (relative to the output, posix) holding a dataset's figures, ``figures/overview``
    for ``None`` (the overview's): every figure's files are in exactly one of these."""
    return "figures/" + (
        OVERVIEW_FOLDERS[0] if dataset is None else naming.stem(dataset, reserved=OVERVIEW_FOLDERS)
    )


def group_of(entry: dict) -> str:
    """The group folder (:func:`group_folder`) of an index entry of :func:`write_figures`."""
    path = next(entry[fmt] for fmt in ("svg", "pdf", "png") if fmt in entry)
    return "/".join(path.split("/")[:2])


def _stem(spec: FigureSpec, subject: Subject, dataset: str | None) -> str:
    """The spec's file stem for a subject, names turned into stems by :mod:`ccreport.project.naming`
    (injective: no two figures ever share a file)."""
    wanted = {field for _, field, _, _ in string.Formatter().parse(spec.stem) if field}
    values = {
        "dataset_slug": None if dataset is None else group_folder(dataset).removeprefix("figures/")
    }
    if "name_slug" in wanted:
        values["name_slug"] = naming.stem(subject.name)
    if "pair_slug" in wanted:
        m = subject.comparison
        values["pair_slug"] = naming.pair_stem(m.a, m.b)
    return "figures/" + spec.stem.format(**values)


def _tasks(results: Results, styles, options: FigureOptions) -> list[_Task]:
    """Every figure of the report, in report order: the registry's kinds, scope by scope."""
    tasks = []
    for spec in F.specs("report"):
        subject = Subject(results, styles)
        if spec.wanted(subject, options):
            tasks.append(_Task(spec, subject, spec.key_for(), _stem(spec, subject, None)))
    for d in results.datasets.values():
        for scope in ("dataset", "classifier", "pair"):
            for spec in F.specs(scope):
                for subject in spec.subjects(results, d, styles):
                    if spec.wanted(subject, options):
                        tasks.append(
                            _Task(
                                spec,
                                subject,
                                spec.key_for(d.name, subject.name),
                                _stem(spec, subject, d.name),
                            )
                        )
    return tasks


NO_LAYOUT_ENGINE = {"figure.autolayout": False, "figure.constrained_layout.use": False}


def lay_out_once(fig) -> None:
    """Run the figure's layout engine once, as ``savefig`` would, then remove it, so that each
    format is drawn exactly once. Save the figure inside
    ``matplotlib.rc_context(NO_LAYOUT_ENGINE)``.

    ``savefig`` on a figure with a layout engine (even the placeholder ``set_layout_engine("none")``
    leaves) first draws the whole figure without output to run the engine, then draws it again for
    real: four draws for SVG + PDF where two do. The engine measures text with the renderer of the
    canvas's default format, here SVG's (72 dpi), as ``savefig(format="svg")`` would, so the files
    are byte-identical to laying out inside ``savefig`` (the package's engine rounds the positions
    it leaves: :class:`~ccreport.figures.style.ReproducibleLayout`). ``savefig`` sets the engine
    to None and back around its draw, and "back to None" means the rc's default engine
    (constrained, in the package style) unless ``NO_LAYOUT_ENGINE`` is in force.
    """
    engine = fig.get_layout_engine()
    if engine is None:
        return
    dpi = fig.dpi
    with matplotlib.rc_context({"savefig.format": "svg"}):
        engine.execute(fig)
    fig.dpi = dpi  # the SVG renderer the engine measured with left the figure at 72 dpi
    with matplotlib.rc_context(NO_LAYOUT_ENGINE):
        fig.set_layout_engine(None)  # None here means no engine at all (not a placeholder)


def drawing_contexts() -> contextlib.ExitStack:
    """What every figure is drawn inside: the package and theme style, and the speedups' shared
    work (nothing when they are off). Entered once per :func:`_render` call, or once per worker
    process for its whole life (:func:`_start_worker`)."""
    stack = contextlib.ExitStack()
    stack.enter_context(F.style())
    stack.enter_context(figure_caches.shared_work())
    return stack


def _render(folder: Path, formats, chunks) -> list[tuple[str, dict]]:
    """Draw the figures of each chunk (:func:`font_chunks`) and write their files; the PDF files
    of a chunk are the pages of one ``PdfPages`` document, so they share its font subsets."""
    with drawing_contexts():
        return [pair for chunk in chunks for pair in _render_chunk(folder, formats, chunk)]


def _render_chunk(folder: Path, formats, chunk: list[_Task]) -> list[tuple[str, dict]]:
    """Draw one chunk's figures (inside :func:`drawing_contexts`) and write their files: the PDF
    pages into one matplotlib ``PdfFile`` where the SVG and PDF are drawn in one walk
    (:func:`~ccreport.render.figure_saving.can_save_both`), else one ``PdfPages``."""
    buffer = io.BytesIO()
    pages = None
    if "pdf" in formats:
        document = PdfFile if figure_saving.can_save_both() else PdfPages
        pages = document(buffer, metadata=SAVE_METADATA["pdf"])
    entries = [_render_one(t, folder, formats, pages) for t in chunk]
    if isinstance(pages, PdfFile):
        pages.finalize()
        pages.close()
    elif pages is not None:
        pages.close()
    if pages is not None:
        split_pages(buffer.getvalue(), [folder / e["pdf"] for e in entries])
    return [(t.key, e) for t, e in zip(chunk, entries, strict=True)]


def _entry(t: _Task, formats) -> dict:
    """A figure's index entry (:func:`write_figures`): its files, caption, alt text and width, and
    for a grid's panel its panel caption and the grid's note; functions of the subject alone, so
    known before the figure is drawn (:func:`figure_index`)."""
    entry = {fmt: f"{t.stem}.{fmt}" for fmt in formats}
    entry.update(caption=t.spec.caption(t.subject), alt=t.spec.alt(t.subject), width=t.spec.width)
    if t.spec.panel_caption is not None:  # report.pdf's grid: the panel's facts, the rest said once
        entry.update(
            panel_caption=t.spec.panel_caption(t.subject),
            panels_note=t.spec.panels_note(t.subject),
        )
    return entry


def _render_one(t: _Task, folder: Path, formats, pages) -> dict:
    """Draw one figure and write its files (its PDF as the next page of ``pages``, a
    ``PdfPages``; None: no PDF); return its index entry."""
    fig = t.spec.draw(t.subject)
    entry = _entry(t, formats)
    (folder / t.stem).parent.mkdir(parents=True, exist_ok=True)
    with figure_caches.tick_updates():  # from layout to the last file, not while drawing code runs
        lay_out_once(fig)  # measures text without font features: ligatures do not matter yet
        without_ligatures(fig)  # every text, the tick labels the layout made among them
        _save(fig, folder, entry, list(formats), pages)
    return entry


def without_ligatures(fig) -> None:
    """Turn the font's standard ligatures off (``Text.set_fontfeatures``, HarfBuzz's ``-liga``) in
    every text of ``fig``. With them on, matplotlib's PDF backend gives a ligature glyph (DejaVu's
    "ff" of "Difference") a character code of a second font subset counted from 0, which PDF/A
    reads as a use of ``.notdef`` (ISO 19005-3 6.2.11.8), so report.pdf would have to draw that
    figure from its SVG (:mod:`ccreport.render.figure_pdfs`). Text is measured without features
    (``RendererBase.get_text_width_height_descent``), so layout and the SVG files (text as text)
    do not change; only the PDF draws "f", "f" instead of the "ff" glyph."""
    for text in fig.findobj(Text):
        if text.get_fontfeatures() != NO_LIGATURES:
            text.set_fontfeatures(NO_LIGATURES)


def _save(fig, folder: Path, entry: dict, pending: list, pages=None) -> None:
    """Write the laid-out figure in each format of ``pending``; the PDF as the next page of
    ``pages``, or its own file when None. ``pages`` a ``PdfFile`` (:func:`_render_chunk` makes one
    where :func:`~ccreport.render.figure_saving.can_save_both`): the SVG and PDF drawn in one walk;
    a ``PdfPages``: each by ``savefig``."""
    if isinstance(pages, PdfFile):
        svg = folder / entry["svg"] if "svg" in pending else None
        figure_saving.save_svg_and_pdf(fig, svg, pages, svg_metadata=SAVE_METADATA["svg"])
        pending = [fmt for fmt in pending if fmt not in ("svg", "pdf")]
        pages = None
        if not pending:
            return
    pdf_target = pages if pages is not None else folder / entry.get("pdf", "")
    pdf_kw = {} if pages is not None else {"metadata": SAVE_METADATA["pdf"]}
    with matplotlib.rc_context(NO_LAYOUT_ENGINE):
        for fmt in pending:
            if fmt == "pdf":
                fig.savefig(pdf_target, format="pdf", **pdf_kw)
                continue
            kw = {"dpi": PNG_DPI} if fmt == "png" else {}
            fig.savefig(folder / entry[fmt], format=fmt, metadata=SAVE_METADATA.get(fmt), **kw)


_RESOURCE_NAME = re.compile(rb"/([^\s/\[\]<>(){}%]+)")  # a name token of a content stream
_NAMED_RESOURCES = ("/Font", "/XObject", "/ExtGState", "/Pattern", "/Shading", "/ColorSpace")


def split_pages(document: bytes, targets: list[Path]) -> None:
    """Write page ``i`` of the PDF ``document`` (matplotlib's ``PdfPages``) to ``targets[i]`` as a
    PDF of its own, with pypdf's public API (``PdfWriter.add_page``, ``write``).

    matplotlib gives every page of a document one resource dictionary (all fonts, images, marker
    forms and graphics states of all pages); each page's file keeps of it only the entries whose
    names its content stream uses (every ``/Name`` token of the decoded stream: a superset of the
    resources it draws with), so a file holds its own figure and the document's font subsets.
    A font whose glyphs start at code 0 is renumbered from 1 (:func:`_codes_from_one`). The bytes
    are a function of ``document`` alone (pypdf writes no date and no random identifier)."""
    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    reader = pypdf.PdfReader(io.BytesIO(document))
    if len(reader.pages) != len(targets):
        raise ValueError(f"{len(reader.pages)} pages for {len(targets)} figure files")
    contents = [page.get_contents().get_data() for page in reader.pages]
    shifted = _codes_from_one(reader, contents)
    for page, content, target in zip(reader.pages, contents, targets, strict=True):
        used = {b"/" + name for name in _RESOURCE_NAME.findall(content)}
        resources = page["/Resources"].get_object()
        kept = DictionaryObject()
        for key, value in resources.items():
            value = value.get_object()
            if key in _NAMED_RESOURCES and isinstance(value, DictionaryObject):
                value = DictionaryObject(
                    (name, item) for name, item in value.items() if name.encode() in used
                )
            kept[NameObject(key)] = value
        page[NameObject("/Resources")] = kept
        writer = pypdf.PdfWriter()
        added = writer.add_page(page)
        if shifted and shifted & used:
            stream = DecodedStreamObject()
            stream.set_data(_shift_shown_codes(content, shifted))
            added.replace_contents(stream.flate_encode(level=6))
        with open(target, "wb") as file:
            writer.write(file)


# A content stream's tokens that matter to which font shows a string: a literal string (matplotlib
# escapes every parenthesis in one), a font selection, q and Q (which save and restore the font),
# and the start of a hex string or dictionary (never in matplotlib's content: then nothing shifts).
_TEXT_TOKEN = re.compile(
    rb"(?P<string>\((?:\\.|[^\\()])*\))"
    rb"|(?P<font>/[^\s/\[\]<>(){}%]+)\s+[-+.\d]+\s+Tf\b"
    rb"|(?P<save>\bq\b)|(?P<restore>\bQ\b)|(?P<hex><)",
    re.S,
)
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _codes_from_one(reader, contents: list[bytes]) -> set[bytes]:
    """Renumber, in ``reader``'s objects, every Type0 font of the document whose code (CID) 0
    shows a glyph: matplotlib numbers a second subset of a font (glyphs without a character code
    of their own: the ligatures of a multi-line text, whose lines matplotlib draws without the
    text's font features) from 0, which PDF/A reads as a use of ``.notdef`` (ISO 19005-3
    6.2.11.8). Each code ``c`` becomes ``c + 1``: the CIDToGIDMap gains a leading ``.notdef``, the
    ``/W`` runs and the ToUnicode ranges start one later; the strings shown in it are shifted by
    :func:`_shift_shown_codes`. Returns the resource names (``b"/F2"``) of the fonts renumbered
    (none when a content stream holds a token the shift does not read, a hex string)."""
    from pypdf.generic import NumberObject

    from .figure_pdfs import draws_cid_zero

    fonts = (reader.pages[0]["/Resources"].get_object().get("/Font") or {}) if contents else {}
    names = {name.encode(): ref for name, ref in fonts.items() if draws_cid_zero(ref.get_object())}
    if not names or any(m["hex"] for c in contents for m in _TEXT_TOKEN.finditer(c)):
        return set()
    for ref in names.values():
        cid_font = ref.get_object()["/DescendantFonts"][0].get_object()
        mapping = cid_font["/CIDToGIDMap"].get_object()
        mapping.set_data(b"\0\0" + mapping.get_data())
        widths = cid_font["/W"]
        at = 0
        while at < len(widths):  # [first [w ...] first [w ...]] or [first last w]
            widths[at] = NumberObject(int(widths[at]) + 1)
            plain = not hasattr(widths[at + 1], "__len__")
            if plain:
                widths[at + 1] = NumberObject(int(widths[at + 1]) + 1)
            at += 3 if plain else 2
        to_unicode = ref.get_object()["/ToUnicode"].get_object()
        to_unicode.set_data(
            re.sub(
                rb"^<([0-9a-fA-F]{4})> <([0-9a-fA-F]{4})>(?= \[| <)",
                lambda m: b"<%04x> <%04x>" % (int(m[1], 16) + 1, int(m[2], 16) + 1),
                to_unicode.get_data(),
                flags=re.M,
            )
        )
    return set(names)


def _shift_shown_codes(content: bytes, fonts: set[bytes]) -> bytes:
    """``content`` with each two-byte code of every string shown in one of ``fonts`` increased by
    one (:func:`_codes_from_one`); the strings re-escaped as matplotlib escapes them."""
    from matplotlib.backends.backend_pdf import pdfRepr

    current, saved = None, []

    def replace(m: re.Match) -> bytes:
        nonlocal current
        if m["font"]:
            current = m["font"]
        elif m["save"]:
            saved.append(current)
        elif m["restore"]:
            current = saved.pop() if saved else None
        elif m["string"] and current in fonts:
            codes = unescape_literal(m["string"][1:-1])
            return pdfRepr(
                b"".join(
                    (int.from_bytes(codes[i : i + 2]) + 1).to_bytes(2)
                    for i in range(0, len(codes), 2)
                )
            )
        return m[0]

    return _TEXT_TOKEN.sub(replace, content)


def unescape_literal(body: bytes) -> bytes:
    """The bytes of a PDF literal string's body (ISO 32000-1 7.3.4.2 escapes)."""
    out, at = bytearray(), 0
    while at < len(body):
        byte = body[at : at + 1]
        if byte != b"\\":
            out += byte
            at += 1
            continue
        nxt = body[at + 1 : at + 2]
        if nxt in _ESCAPES:
            out += _ESCAPES[nxt]
            at += 2
        elif nxt.isdigit():
            digits = re.match(rb"[0-7]{1,3}", body[at + 1 : at + 4])[0]
            out.append(int(digits, 8) & 0xFF)
            at += 1 + len(digits)
        elif nxt in (b"\r", b"\n"):  # a line continuation
            at += 2 + (body[at + 1 : at + 3] == b"\r\n")
        else:
            out += nxt
            at += 2
    return bytes(out)


FIGURES_PER_DOCUMENT = 20  # at most this many figures' PDF files share one font subset


def font_chunks(tasks: list[_Task]) -> list[list[_Task]]:
    """``tasks`` (report order) cut into runs of figures of one group folder
    (:func:`group_folder`): a group of ``n`` figures into ``ceil(n / FIGURES_PER_DOCUMENT)`` runs
    whose lengths differ by at most one, in order. A chunk's PDF files are drawn as one
    ``PdfPages`` document and share its font subsets, which matplotlib makes once per document
    (with fontTools, about 0.1-0.2 CPU s per font): fewer, longer runs subset less often, more runs
    balance the workers better. The cut is a function of the group's figures alone, so a group
    redrawn on its own (``groups``), or by another worker, gives the same bytes."""
    groups: list[list[_Task]] = []
    last = None
    for t in tasks:
        group = "/".join(t.stem.split("/")[:2])
        if group != last:
            groups.append([])
        groups[-1].append(t)
        last = group
    chunks: list[list[_Task]] = []
    for members in groups:
        count = -(-len(members) // FIGURES_PER_DOCUMENT)
        size, extra = divmod(len(members), count)
        at = 0
        for k in range(count):
            step = size + (k < extra)
            chunks.append(members[at : at + step])
            at += step
    return chunks


_FORKED: tuple | None = None  # (folder, formats, chunks, then, gate, stop) inherited by workers
_WORKER_CONTEXTS: list = []  # a worker's drawing_contexts, open for the process's life


def _start_worker() -> None:
    """Initializer of a figure worker: SIGINT left to the main process, and the drawing contexts
    entered once, so the speedups' shared work serves every chunk the worker draws."""
    ignore_interrupts()
    _WORKER_CONTEXTS.append(drawing_contexts().__enter__())


def _draw_chunk(k: int) -> list[tuple[str, dict]]:
    folder, formats, chunks, *_ = _FORKED
    return _render_chunk(folder, formats, chunks[k])


def _then():
    """A worker's last task: ``then()`` once the main process opens the gate (every run written),
    unless the run was stopped."""
    *_, then, gate, stop = _FORKED
    gate.wait()
    return None if stop.is_set() else then()


DEFAULT_MAX_WORKERS = 8  # the default's cap: each worker shares less of the caches' work (speedups)


def _default_workers() -> int:
    """The CPUs this process may run on, at most :data:`DEFAULT_MAX_WORKERS`."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    return max(1, min(DEFAULT_MAX_WORKERS, available))


class FigureRun:
    """Figures being drawn (:func:`start_figures`): each file's readiness (:meth:`wait`) and, when
    all are written, the index the drawing returned (:meth:`result`; known before, without
    drawing: :func:`figure_index`). A context manager: leaving it stops the workers (figures not
    yet started are not drawn)."""

    def __init__(self, tasks, folder: Path, formats, futures=(), done=None, pool=None, then=None):
        self._tasks = tasks
        self._futures = list(futures)
        self._done = done  # {key: entry} once every figure is written
        self._pool = pool
        self._then = then  # (the future of the then task, the gate, the stop event)
        self._pending: dict[Path, object] = {}  # a file -> the future of the chunk writing it
        for chunk, future in self._futures:
            for t in chunk:
                for fmt in formats:
                    self._pending[(folder / f"{t.stem}.{fmt}").resolve()] = future

    def wait(self, path) -> None:
        """Return once the file at ``path`` is written, if this run writes it (else at once);
        raise what drawing its chunk raised."""
        future = self._pending.get(Path(path).resolve())
        if future is not None:
            future.result()

    def result(self) -> dict:
        """The index of the figures drawn (the figures' own entries, equal to
        :func:`figure_index`'s), once all are written, in report order."""
        if self._done is None:
            done = dict(pair for _, future in self._futures for pair in future.result())
            if self._then is not None:
                self._then[0].result()
            self._done = {t.key: done[t.key] for t in self._tasks}
            self.close()
        return self._done

    def close(self) -> None:
        global _FORKED
        if self._pool is not None:
            if self._then is not None:  # a then task not yet past its gate does nothing
                _, gate, stop = self._then
                stop.set()
                gate.set()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            _FORKED = None

    def __enter__(self) -> FigureRun:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_figures(
    results: Results,
    folder: Path,
    formats=("svg", "pdf"),
    *,
    focus: bool | None = None,
    rescaled: bool | None = None,
    styles: dict | None = None,
    workers: int | None = None,
    theme_style: Path | None = None,
    groups=None,
) -> dict:
    """Write every figure of the report under ``folder/figures/`` and return the index.

    Index keys are those of the registered figure kinds (:mod:`ccreport.figures`, each declared by
    a :class:`~ccreport.figures.FigureSpec` beside its drawing function); names are the real
    dataset/classifier names, file names are stems of them (:mod:`ccreport.project.naming`:
    injective and short). Shipped kinds:

    * ``"overview/priors"`` - every prior as a density over PC(+) (only if there are priors);
    * ``f"{dataset}/cost"`` - cost space with the operating-range strip (column width);
    * ``f"{dataset}/roc"`` - ROC points, curves and hulls;
    * ``f"{dataset}/cost-priors"`` - cost space with the priors panel underneath (only with priors);
    * ``f"{dataset}/cost-rescaled"`` - the same as cost with y from 0 to 1, captioned
      "(Rescaled Y)"; by default (``rescaled=None``) only when something drawn would be clipped
      at 0.5 (a crisp cost line or a band above it); ``True`` always, ``False`` never;
    * ``f"{dataset}/focus"`` - each classifier highlighted over the others in a panel of its own
      (shared axes, one legend), with its confidence band and fold average; by default
      (``focus=None``) only when some classifier's results carry a ``band`` or a
      ``fold_average``; ``True`` always, ``False`` never; rescaled (0 to 1, "(Rescaled Y)" in
      the caption) when a band or cost line passes 0.5;
    * ``f"{dataset}/diff/{a} vs {b}"`` - the difference of each pair (the keys of
      ``DatasetResult.comparisons``), with its band and significant regions when present.

    Each value is ``{fmt: path relative to folder (posix), ..., "caption": str, "alt": str,
    "width": "column" | "full"}`` with one path per requested format, e.g.
    ``{"svg": "figures/sonar/cost.svg", "pdf": "figures/sonar/cost.pdf", "caption": ..., ...}``.
    The dict is in report order (overview, then per dataset: its figures, one per pair, each group
    in the kinds' ``order``). Files: ``figures/overview/*``,
    ``figures/<dataset-stem>/{cost,roc,focus,...}``, ``figures/<dataset-stem>/diff/<pair-stem>``.
    Formats: any of "svg", "pdf", "png" (PNG at ``PNG_DPI``). ``workers`` (default: the CPUs
    available, at most ``DEFAULT_MAX_WORKERS``; never more than one per four figures or per run of
    :func:`font_chunks`; forked processes, where ``fork`` exists) draws the runs in worker processes
    (:func:`start_figures`); the files are the same bytes either way. ``theme_style``: the theme's
    ``figures.mplstyle``, layered over the package style for every figure
    (:func:`ccreport.figures.theme_style`). ``groups``: only the figures whose files are in these
    folders (:func:`group_folder`; None: all), so a build redraws only the datasets whose figures
    its cache does not hold; each figure is drawn as it is drawn among all of them.
    """
    with start_figures(
        results,
        folder,
        formats,
        focus=focus,
        rescaled=rescaled,
        styles=styles,
        workers=workers,
        theme_style=theme_style,
        groups=groups,
    ) as run:
        return run.result()


def _planned_tasks(results, focus, rescaled, styles, groups) -> list[_Task]:
    styles = styles or F.classifier_styles(results)
    tasks = _tasks(results, styles, FigureOptions(focus=focus, rescaled=rescaled))
    if groups is not None:
        wanted = set(groups)
        tasks = [t for t in tasks if "/".join(t.stem.split("/")[:2]) in wanted]
    return tasks


def figure_index(
    results: Results,
    formats=("svg", "pdf"),
    *,
    focus: bool | None = None,
    rescaled: bool | None = None,
    styles: dict | None = None,
    theme_style: Path | None = None,
    groups=None,
) -> dict:
    """The index :func:`write_figures` returns for these arguments (the same entries, in the same
    order: captions, alt text, widths and files), without drawing anything."""
    with F.theme_style(theme_style):
        tasks = _planned_tasks(results, focus, rescaled, styles, groups)
        return {t.key: _entry(t, formats) for t in tasks}


def start_figures(
    results: Results,
    folder: Path,
    formats=("svg", "pdf"),
    *,
    focus: bool | None = None,
    rescaled: bool | None = None,
    styles: dict | None = None,
    workers: int | None = None,
    theme_style: Path | None = None,
    groups=None,
    then=None,
) -> FigureRun:
    """Begin :func:`write_figures` (same arguments) and return its :class:`FigureRun` at once: with
    more than one worker the runs of :func:`font_chunks` are drawn by forked worker processes, in
    report order, each run by the first worker free, while this process goes on (report.pdf's
    layout waits only for the figures it has reached, :meth:`FigureRun.wait`); with one, they are
    drawn here before it returns. The files are the same bytes either way. ``then``: a function
    (no arguments, return value unused) called once every figure is written, in a worker (forked
    with it) when there are workers, else here; :meth:`FigureRun.result` raises what it raised
    (a build writes its HTML pages so, which read the SVG files' sizes)."""
    folder = Path(folder)
    formats = tuple(formats)
    with F.theme_style(theme_style):
        tasks = _planned_tasks(results, focus, rescaled, styles, groups)
        chunks = font_chunks(tasks)
        workers = _default_workers() if workers is None else max(1, int(workers))
        workers = min(workers, len(chunks), max(1, len(tasks) // 4))
        if workers > 1 and "fork" in mp.get_all_start_methods():
            global _FORKED
            context = mp.get_context("fork")
            gate, stop = context.Event(), context.Event()
            _FORKED = (folder, formats, chunks, then, gate, stop)
            pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker)
            try:  # the workers are forked at the first submission, inside the theme's style
                futures = [(chunk, pool.submit(_draw_chunk, k)) for k, chunk in enumerate(chunks)]
                later = None if then is None else (pool.submit(_then), gate, stop)
            except BaseException:
                stop.set()
                gate.set()
                pool.shutdown(wait=True, cancel_futures=True)
                _FORKED = None
                raise
            _open_when_done([future for _, future in futures], gate)
            return FigureRun(tasks, folder, formats, futures, pool=pool, then=later)
        done = dict(_render(folder, formats, chunks))
        if then is not None:
            then()
        return FigureRun(tasks, folder, formats, done={t.key: done[t.key] for t in tasks})


def _open_when_done(futures: list, gate) -> None:
    """Set ``gate`` once every one of ``futures`` is done (written, failed or cancelled)."""
    left = [len(futures)]
    lock = threading.Lock()

    def one_done(_future) -> None:
        with lock:
            left[0] -= 1
            if left[0] == 0:
                gate.set()

    if not futures:
        gate.set()
    for future in futures:
        future.add_done_callback(one_done)


def planned_figures(results: Results, formats=("svg", "pdf")) -> dict:
    """The index :func:`write_figures` would return, with empty captions, without drawing anything
    (``ccreport check`` renders the project's templates with it)."""
    tasks = _tasks(results, F.classifier_styles(results), FigureOptions())
    return {
        t.key: {
            **{fmt: f"{t.stem}.{fmt}" for fmt in formats},
            "caption": "",
            "alt": "",
            "width": t.spec.width,
        }
        for t in tasks
    }
