"""The figures' SVG text in report.pdf: drawn with the font files matplotlib measured it with.

The figures' SVG files carry text as text (``svg.fonttype: none`` in ``ccreport.mplstyle``):
``<text style="font-family: 'DejaVu Sans', sans-serif">``. WeasyPrint resolves such a family
through fontconfig, which on one machine finds another version of DejaVu Sans and on another none
at all (and a fallback with other metrics); an ``@font-face`` rule of the same family name does not
override an installed font. So for report.pdf, and only there, each figure SVG WeasyPrint fetches
has every quoted family name ``'X'`` of its ``font-family`` declarations preceded by
``'ccreport figure X'`` (:func:`pin_svg_fonts`), and :func:`figure_font_css` binds those names, by
``@font-face``, to the files ``matplotlib.font_manager.findfont`` resolves in the figure style
(package style plus the theme's ``figures.mplstyle``). The site's SVG files are not changed.

Interface for the PDF stage (:func:`ccreport.render.pdf.render_pdf`): :func:`weasyprint_options`
gives the ``HTML(...)`` keyword (a URL fetcher that pins the fonts of the SVGs under ``figures/``)
and the ``render(...)`` keywords (the ``@font-face`` stylesheet and its font configuration).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import matplotlib

from ..figures.style import style
from ..figures.style import theme_style as theme_style_context

PINNED_PREFIX = "ccreport figure "
_FAMILY = re.compile(r"font-family: ?([^;\"]*)")
_QUOTED = re.compile(r"'([^']+)'")


def pin_svg_fonts(svg: str) -> str:
    """Each quoted family name ``'X'`` of the SVG's ``font-family`` declarations becomes
    ``'ccreport figure X', 'X'`` (generic names such as ``sans-serif`` are left as they are)."""
    return _FAMILY.sub(
        lambda m: (
            "font-family: " + _QUOTED.sub(lambda q: f"'{PINNED_PREFIX}{q[1]}', '{q[1]}'", m[1])
        ),
        svg,
    )


FONT_VARIANTS = tuple(
    itertools.product(("normal", "oblique"), ("normal", "bold"))
)  # (style, weight)


def figure_font_css(theme_style: Path | None = None) -> str:
    """``@font-face`` rules binding :data:`PINNED_PREFIX` + each font family name the figures'
    SVG text uses to the font file matplotlib laid that text out with.

    Inside the package style and ``theme_style`` (the theme's ``figures.mplstyle``), for the text
    font (``font.family``) and the mathtext font (``mathtext.fontset``; ``dejavusans`` and
    ``dejavuserif`` use DejaVu Sans / Serif), each of regular, bold, oblique, bold oblique is
    resolved as matplotlib resolves it (``font_manager.findfont``) and bound under the names the
    SVG may carry: the file's own family name and every name the style lists for the generic
    family. Sources are ``file:`` URLs of matplotlib's installation, so the rules are for this
    process's WeasyPrint, not for files that leave the machine. Deterministic: same style, same
    text.
    """
    from matplotlib import font_manager as fm

    rules = []
    with theme_style_context(theme_style), style():
        rc = matplotlib.rcParams
        families = []
        for family in rc["font.family"]:
            names = list(rc.get(f"font.{family}", [])) if family in fm.font_family_aliases else []
            families.append(([family], names))  # looked up as matplotlib looks up the text's font
        mathtext = {"dejavusans": "DejaVu Sans", "dejavuserif": "DejaVu Serif"}.get(
            rc["mathtext.fontset"]
        )
        if mathtext is not None:
            families.append(([mathtext], []))
        seen = set()
        for family, names in families:
            for slant, weight in FONT_VARIANTS:
                prop = fm.FontProperties(family=family, style=slant, weight=weight)
                path = Path(fm.findfont(prop, fallback_to_default=True))
                own = fm.ttfFontProperty(fm.get_font(path))  # the file's own family, style, weight
                for name in dict.fromkeys([own.name, *names]):
                    if (name, own.style, own.weight) in seen:
                        continue
                    seen.add((name, own.style, own.weight))
                    rules.append(
                        f'@font-face {{ font-family: "{PINNED_PREFIX}{name}"; '
                        f'src: url("{path.as_uri()}"); '
                        f"font-style: {own.style}; "
                        f"font-weight: {fm.weight_dict.get(own.weight, own.weight)}; }}"
                    )
    return "\n".join(rules) + "\n"


def weasyprint_options(out: Path, theme_style: Path | None = None) -> tuple[dict, dict]:
    """``(html_kwargs, render_kwargs)`` for
    ``weasyprint.HTML(**html_kwargs).render(**render_kwargs)``: the SVG files under ``out/figures/``
    are fetched with their fonts pinned (:func:`pin_svg_fonts`), every other URL as WeasyPrint
    fetches it; the stylesheet binds the pinned names (:func:`figure_font_css` for ``theme_style``,
    the theme's ``figures.mplstyle``)."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    figures = (Path(out).resolve() / "figures").as_uri() + "/"

    class PinningFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            response = super().fetch(url, headers)
            if not (url.startswith(figures) and url.split("?")[0].endswith(".svg")):
                return response
            try:
                text = response.read().decode("utf-8")
            finally:
                response.close()
            return URLFetcherResponse(
                response.url, pin_svg_fonts(text).encode("utf-8"), {"Content-Type": "image/svg+xml"}
            )

    fonts = FontConfiguration()
    stylesheet = CSS(string=figure_font_css(theme_style), font_config=fonts)
    return {"url_fetcher": PinningFetcher()}, {"stylesheets": [stylesheet], "font_config": fonts}
