"""The figures in report.pdf from their own vector PDF files, as form XObjects.

Every figure is written by matplotlib twice, as SVG (for the site) and as a vector PDF
(``pdf.fonttype: 42``: DejaVu as embedded CIDFontType2 subsets with ToUnicode maps; transparency by
``/ca``/``/CA`` ExtGStates; dense artists as images with soft masks). WeasyPrint 70 can lay out an
SVG but draws it with its pure-Python SVG interpreter: about 0.1 CPU s a figure, half of the PDF
stage (benchmarks/README.md, "Where the PDF stage's time goes"). It cannot embed a PDF. So here,
for each figure whose SVG ``figures/X.svg`` has a sibling ``figures/X.pdf``:

* layout stays WeasyPrint's: the ``<img>`` keeps its SVG ``src``, and the WeasyPrint image cache
  (``HTML.render(cache=...)``, :class:`FigureImages`) answers that URL with a :class:`FigurePdf`,
  whose intrinsic size is the PDF's MediaBox in points (``1pt = 4/3 px``), the very size the SVG
  declares (``width="Wpt" height="Hpt"``; matplotlib writes both from one figure size);
* drawing: :meth:`FigurePdf.draw` is called where WeasyPrint would draw the SVG, inside the
  ``<img>``'s tagged ``/Figure`` marked-content sequence (so the structure tree, the alt text and
  the reading order are WeasyPrint's) with the box's transformation current (CSS px, y down). It
  registers a form XObject (``/BBox`` = the figure's MediaBox, content = the page's content stream,
  copied as matplotlib compressed it) in the page resources and draws it with
  ``q w/W 0 0 -h/H -x0·w/W h+y0·h/H cm /ccfigN Do Q``, i.e. the figure's own coordinates (points,
  y up) mapped onto the box's ``w x h`` px (y down);
* the XObject's ``/Resources`` (fonts, font files, ExtGStates, marker XObjects, images, patterns)
  need object numbers, which only the ``pydyf.PDF`` being written has: the ``write_pdf`` finisher
  (:meth:`FigureImages.embed`) copies them from the figure file, each indirect object once per
  figure, streams with their encoded bytes and filters as they are (no re-compression).

Nothing is re-encoded, so the drawing is matplotlib's own PDF rendering of the figure (the same
artists as the SVG; text in the same DejaVu font files). A figure without a PDF file (or whose PDF
cannot be read) falls back to the SVG route: WeasyPrint draws the SVG, with its fonts pinned by
:mod:`ccreport.render.figure_fonts`. Deterministic: ids ``ccfig0_, ccfig1_, ...`` in drawing
order, objects copied in the file's dictionary order.

Public seams only: WeasyPrint's image protocol (``get_intrinsic_size``, ``draw``, and
``Stream.add_image`` with ``id`` and ``get_x_object``, as WeasyPrint's own images use it; the
XObject is then named ``i<id>0``), the ``write_pdf`` finisher, pydyf's objects, and pypdf's streams
(an encoded stream's stored bytes through the base ``StreamObject.get_data``);
tests/render/test_figure_pdfs.py.
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

XOBJECT_PREFIX = "ccfig"  # a figure's image id is ccfig0_, ccfig1_, ... in drawing order
XOBJECT_NAME = re.compile(
    rf"{XOBJECT_PREFIX}(\d+)_"
)  # in the page's XObject name WeasyPrint makes of the id
PX_PER_PT = 4 / 3  # CSS: 1pt = 4/3 px
_NO_COPY = ("/Length",)  # pydyf writes the length of the bytes it writes


class FigurePdf:
    """One figure's vector PDF as a WeasyPrint image (``get_intrinsic_size`` and ``draw``)."""

    def __init__(self, path: Path, owner: FigureImages, ready=None):
        self.path = Path(path)
        self._owner = owner
        self._page = None
        self.id: str | None = None  # set when first drawn (XOBJECT_PREFIX)
        self.name: str | None = None
        self.xobject = None
        self._ready = ready
        if ready is None:
            self._load()

    def _load(self) -> None:
        """Read the PDF file (once ``ready(path)`` returns, when given): its MediaBox, and whether
        report.pdf can draw it (raises ValueError when not)."""
        if self._page is not None:
            return
        import pypdf

        if self._ready is not None:
            self._ready(self.path)
        self._reader = pypdf.PdfReader(self.path)
        page = self._reader.pages[0]
        box = page.mediabox
        self.box = (float(box.left), float(box.bottom), float(box.right), float(box.top))
        self.width, self.height = self.box[2] - self.box[0], self.box[3] - self.box[1]
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"{self.path}: empty MediaBox")
        cid_zero = [name for name, font in page_fonts(page) if draws_cid_zero(font)]
        if cid_zero:
            raise ValueError(
                f"{self.path}: font {cid_zero[0]} maps CID 0 to a glyph (PDF/A: .notdef)"
            )
        self._page = page

    def get_intrinsic_size(self, image_resolution, font_size):
        """``(width, height, ratio)`` in CSS px: the MediaBox's points times 4/3, as the SVG's
        ``Wpt x Hpt``."""
        self._load()
        return self.width * PX_PER_PT, self.height * PX_PER_PT, self.width / self.height

    def draw(self, stream, concrete_width, concrete_height, _style):
        """Draw the figure into the ``concrete_width x concrete_height`` px box (y down) of
        ``stream``.

        Registered as WeasyPrint registers its own images (``stream.add_image``, which names the
        XObject ``i<id>0``, e.g. ``iccfig0_0`` and asks :meth:`get_x_object` for it when the page is
        written)."""
        self._load()
        if self.xobject is None:
            self.xobject = self._form_xobject()
            self.id = f"{XOBJECT_PREFIX}{len(self._owner.drawn)}_"
            self._owner.drawn.append(self)
        self.name = stream.add_image(self, False, 1)
        x0, y0, _, _ = self.box
        sx, sy = concrete_width / self.width, concrete_height / self.height
        with stream.stacked():
            stream.transform(a=sx, d=-sy, e=-x0 * sx, f=concrete_height + y0 * sy)
            stream.draw_x_object(self.name)

    def get_x_object(self, interpolate, dpi_ratio):
        """The figure's form XObject (WeasyPrint's image protocol; neither argument applies to a
        form)."""
        return self.xobject

    def _form_xobject(self):
        import pydyf

        contents = self._page.get_contents()
        data, extra = _stream_bytes(contents)
        compress = (
            "Filter" not in extra
        )  # decoded content (e.g. of a /Contents array): pydyf deflates it
        extra.update({"Type": "/XObject", "Subtype": "/Form", "BBox": pydyf.Array(self.box)})
        return pydyf.Stream([data], pydyf.Dictionary(extra), compress=compress)

    def embed_resources(self, pdf, shared: dict | None = None) -> None:
        """Set the XObject's ``/Resources`` to a copy, in ``pdf``, of the figure page's resources
        (``shared``: streams already copied from other figures, see :func:`_copy`)."""
        resources = self._page.get("/Resources")
        self.xobject.extra["Resources"] = (
            _copy(resources, pdf, {}, shared) if resources is not None else _empty_dictionary()
        )


def page_fonts(page):
    """``(name, font dictionary)`` of each font of the page's resources."""
    resources = page.get("/Resources")  # pypdf < 5: ``get`` may answer an indirect reference
    fonts = resources.get_object().get("/Font") if resources is not None else None
    return [
        (str(name), font.get_object())
        for name, font in (fonts.get_object() if fonts is not None else {}).items()
    ]


def draws_cid_zero(font) -> bool:
    """Whether a Type0 font's ``/CIDToGIDMap`` gives CID 0 a glyph other than GID 0 (.notdef):
    matplotlib numbers a second subset (ligatures, alternate glyphs) from character code 0, which a
    PDF/A validator reads as drawing .notdef (ISO 19005-3 6.2.11.8); such a figure takes the SVG
    route."""
    if font.get("/Subtype") != "/Type0":
        return False
    descendants = font.get("/DescendantFonts")
    for descendant in descendants.get_object() if descendants is not None else []:
        mapping = descendant.get_object().get("/CIDToGIDMap")
        if mapping is None or not hasattr(mapping.get_object(), "get_data"):
            continue  # /Identity: CID 0 is GID 0
        data = mapping.get_object().get_data()
        if data[:2] not in (b"", b"\x00\x00"):
            return True
    return False


def _empty_dictionary():
    import pydyf

    return pydyf.Dictionary()


def _stream_bytes(stream) -> tuple[bytes, dict]:
    """``(bytes, filter entries)`` of a pypdf stream: its encoded bytes and
    ``/Filter``/``/DecodeParms`` when it is encoded, else its data (and no filter)."""
    from pypdf.generic import EncodedStreamObject, StreamObject

    if isinstance(stream, EncodedStreamObject) and "/Filter" in stream:
        extra = {"Filter": _serialise(stream["/Filter"])}
        if "/DecodeParms" in stream:
            extra["DecodeParms"] = _serialise(stream["/DecodeParms"])
        return StreamObject.get_data(
            stream
        ), extra  # the bytes as stored (encoded), as matplotlib compressed them
    return stream.get_data(), {}


def _serialise(value) -> bytes:
    """A direct pypdf value (name, number, string, boolean, null, or a dictionary/array of them
    without references) as PDF bytes, written by pypdf (a name: once per distinct name, see
    :func:`name_bytes`)."""
    from pypdf.generic import NameObject

    if type(value) is NameObject:
        return name_bytes(str(value))
    buffer = io.BytesIO()
    value.write_to_stream(buffer)
    return buffer.getvalue()


@functools.lru_cache(maxsize=4096)
def name_bytes(name: str) -> bytes:
    """The PDF bytes pypdf writes for the name ``name`` (``NameObject.write_to_stream``, which
    escapes it character by character: a third of the copying's time when asked for each of the
    ~40,000 names the example's figures hold). A function of the string alone, so kept per
    string."""
    from pypdf.generic import NameObject

    buffer = io.BytesIO()
    NameObject(name).write_to_stream(buffer)
    return buffer.getvalue()


def _key(name) -> bytes:
    return _serialise(name)[1:]  # pydyf writes the solidus


def _copy(value, pdf, done: dict, shared: dict | None = None):
    """``value`` (pypdf) as a pydyf value: dictionaries, arrays and streams become pydyf objects,
    indirect objects are added to ``pdf`` once each (``done``: source object number -> reference),
    anything else its PDF bytes. ``shared`` (across figures): a stream whose dictionary holds no
    reference is added once per distinct (dictionary, bytes), e.g. the font programs, which the
    build pads to the same glyphs in every figure (``render/figure_files.py``)."""
    import pydyf
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject

    if isinstance(value, IndirectObject):
        if value.idnum not in done:
            target = value.get_object()
            key = _stream_key(target) if shared is not None else None
            if key is not None and key in shared:
                done[value.idnum] = shared[key]
            elif isinstance(target, (StreamObject, DictionaryObject, ArrayObject)):
                copied = _shell(target)
                pdf.add_object(copied)
                done[value.idnum] = copied.reference
                _fill(copied, target, pdf, done, shared)
                if key is not None:
                    shared[key] = copied.reference
            else:
                done[value.idnum] = _copy(target, pdf, done, shared)
        return done[value.idnum]
    if isinstance(value, (StreamObject, DictionaryObject, ArrayObject)):
        copied = _shell(value)
        _fill(copied, value, pdf, done, shared)
        if isinstance(copied, pydyf.Stream):  # a stream is always an indirect object
            pdf.add_object(copied)
            return copied.reference
        return copied
    return _serialise(value)


def _shell(value):
    import pydyf
    from pypdf.generic import ArrayObject, StreamObject

    if isinstance(value, StreamObject):
        data, extra = _stream_bytes(value)
        return pydyf.Stream([data], pydyf.Dictionary(extra), compress=not extra)
    if isinstance(value, ArrayObject):
        return pydyf.Array()
    return pydyf.Dictionary()


def _stream_key(value):
    """``(dictionary bytes, stream bytes)`` of a stream whose dictionary holds no reference
    (else None)."""
    from pypdf.generic import IndirectObject, StreamObject

    if not isinstance(value, StreamObject) or any(
        isinstance(v, IndirectObject) for k, v in value.items() if k not in _NO_COPY
    ):
        return None
    data, extra = _stream_bytes(value)
    entries = tuple(sorted((_key(k), _serialise(v)) for k, v in value.items() if k not in _NO_COPY))
    return entries, data


def _fill(copied, value, pdf, done, shared=None) -> None:
    import pydyf
    from pypdf.generic import StreamObject

    if isinstance(copied, pydyf.Array):
        copied.extend(_copy(item, pdf, done, shared) for item in value)
        return
    target = copied.extra if isinstance(copied, pydyf.Stream) else copied
    for key, item in value.items():
        if key in _NO_COPY or (
            isinstance(value, StreamObject) and key in ("/Filter", "/DecodeParms")
        ):
            continue
        target[_key(key)] = _copy(item, pdf, done, shared)


def _no_wait(path) -> None:
    return None


class FigureImages(dict):
    """WeasyPrint's image cache (``HTML.render(cache=...)``) answering the URL of each
    ``figures/**/X.svg`` under ``out`` that has a sibling ``X.pdf`` with a :class:`FigurePdf`
    (other URLs: WeasyPrint's own loading and caching). :meth:`embed` is the ``write_pdf``
    finisher's part.

    ``planned``: figure PDF files a build is writing while WeasyPrint lays out (possibly not yet
    there); each is answered with a :class:`FigurePdf` that reads its file when first laid out,
    after ``ready(path)`` returns (None: at once). Such a figure has no SVG route: a planned PDF
    report.pdf cannot draw (an unreadable file, a font subset drawing CID 0, which the build's
    figure files never hold, :func:`ccreport.render.figure_files.split_pages`) stops the build
    with the file named, where an unplanned one is drawn from its SVG."""

    def __init__(self, out: Path, planned=(), ready=None):
        super().__init__()
        self.figures = (Path(out) / "figures").resolve()
        self.drawn: list[FigurePdf] = []
        self.planned = {Path(p).resolve() for p in planned}
        self.ready = ready

    def figure_pdf(self, url: str) -> Path | None:
        """The vector PDF of the figure SVG at ``url`` (None: not a figure SVG, or no PDF)."""
        if not isinstance(url, str):
            return None
        parts = urlsplit(url)
        if parts.scheme != "file" or not parts.path.endswith(".svg"):
            return None
        path = Path(url2pathname(unquote(parts.path))).resolve()
        if self.figures not in path.parents:
            return None
        pdf = path.with_suffix(".pdf")
        return pdf if pdf in self.planned or pdf.is_file() else None

    def __contains__(self, url) -> bool:
        if dict.__contains__(self, url):
            return True
        pdf = self.figure_pdf(url)
        if pdf is None:
            return False
        if pdf in self.planned:  # read when first laid out, once written
            self[url] = FigurePdf(pdf, self, ready=self.ready or _no_wait)
            return True
        try:
            self[url] = FigurePdf(pdf, self)
        except Exception:  # an unreadable PDF: the SVG route
            return False
        return True

    def embed(self, pdf) -> None:
        """Copy each drawn figure's resources into ``pdf`` (a ``pydyf.PDF``), in drawing order."""
        shared: dict = {}
        for figure in self.drawn:
            figure.embed_resources(pdf, shared)
