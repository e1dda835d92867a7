"""Replaces the character codes matplotlib's PDF backend gives a font's second subset (from 0, read
as .notdef by PDF/A), so report.pdf embeds such figures' PDF files rather than drawing their SVG
(WeasyPrint draws SVG text about 2.4x slower).

matplotlib numbers the glyphs it cannot give their own code (a ligature such as DejaVu's "ff" in
"Difference", a second glyph for one character) from code 0 of a second subset, i.e. CID 0, which
PDF/A-3 reads as drawing ``.notdef`` (ISO 19005-3 6.2.11.8). report.pdf draws a figure whose PDF
maps CID 0 to a glyph from its SVG instead (:mod:`ccreport.render.figure_pdfs`), so without this
speedup the report looks the same and is valid, only slower to typeset. It patches matplotlib's
private ``CharacterTracker``, entered through :func:`notdef_at_code_zero`, which patches nothing
unless ``ccreport.speedups.active`` allows it for the installed matplotlib.
"""

from __future__ import annotations

import contextlib
import weakref

from . import active

WRITTEN_FOR = ("3.11",)  # matplotlib versions whose CharacterTracker this was written against


@contextlib.contextmanager
def notdef_at_code_zero():
    """While writing figures, a font's second subset (glyphs matplotlib's PDF backend cannot give
    their own character code) starts with code 0 bound to glyph 0, ``.notdef``, so its real glyphs
    get codes (CIDs) from 1. If the speedup is off, or matplotlib's private ``CharacterTracker`` is
    missing or has changed, nothing is patched (report.pdf then draws such a figure from its
    SVG)."""
    if not active("figure_subsets", "matplotlib", WRITTEN_FOR):
        yield
        return
    try:
        from matplotlib.backends import _backend_pdf_ps as pdfps
        from matplotlib.font_manager import FontPath

        tracker, glyph_map_class = pdfps.CharacterTracker, pdfps.GlyphMap
        original = tracker.track_glyph
    except (ImportError, AttributeError):
        yield
        return

    fonts_of = weakref.WeakKeyDictionary()  # tracker -> {font: (its glyph map, its subsets)}

    def track_glyph(self, font, chars, glyph):
        try:
            fonts = fonts_of.get(self)
            if fonts is None:
                fonts = fonts_of[self] = {}
            known = fonts.get(font)
            if (
                known is None
            ):  # the tracker's own entries for the font, made as track_glyph makes them
                path = FontPath(font.fname, font.face_index)
                known = fonts[font] = (
                    self.glyph_maps.setdefault(path, glyph_map_class()),
                    self.used.setdefault(path, [{}]),
                )
            glyph_map, subsets = known
            if len(subsets) == 1:
                charcode, chars = (
                    (ord(chars[0]), chars) if isinstance(chars, str) else (chars, chr(chars))
                )
                opens_second = glyph_map.get(chars, glyph) is None and (
                    len(chars) > 1
                    or self.subset_size != 0
                    and (charcode >= self.subset_size or charcode in subsets[0])
                )  # matplotlib's own condition for a glyph to go to a further subset
                if opens_second:
                    subsets.append({0: 0})
                    glyph_map.add("\0", 0, 1, 0)
        except Exception:  # pragma: no cover - another matplotlib: its own behaviour
            pass
        return original(self, font, chars, glyph)

    tracker.track_glyph = track_glyph
    try:
        yield
    finally:
        tracker.track_glyph = original
