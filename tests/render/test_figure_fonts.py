"""The figures' SVG text in report.pdf is drawn with matplotlib's own font files
(ccreport.render.figure_fonts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib import font_manager as fm

from ccreport import figures as F
from ccreport.render.figure_fonts import (
    PINNED_PREFIX,
    figure_font_css,
    pin_svg_fonts,
    weasyprint_options,
)

ROOT = Path(__file__).resolve().parents[2]
RULE = re.compile(
    r'@font-face \{ font-family: "([^"]+)"; src: url\("file://([^"]+)"\); font-style: (\w+); '
    r"font-weight: (\d+); \}"
)


def test_pin_svg_fonts_names_the_pinned_family_first():
    text = (
        "<text style=\"font-size: 7px; font-family: 'DejaVu Sans', sans-serif; text-anchor: "
        'end">0.2</text>'
    )
    math = (
        '<g style="fill: #111111"><text><tspan style="font-size: 8px; font-family: \'DejaVu '
        "Sans'\">x</tspan></text></g>"
    )
    assert pin_svg_fonts(text) == (
        "<text style=\"font-size: 7px; font-family: 'ccreport figure DejaVu Sans', 'DejaVu "
        "Sans', sans-serif; "
        'text-anchor: end">0.2</text>'
    )
    assert "font-family: 'ccreport figure DejaVu Sans', 'DejaVu Sans'\"" in pin_svg_fonts(math)
    assert pin_svg_fonts('<path d="M 0 0"/>') == '<path d="M 0 0"/>'


def test_css_binds_the_files_matplotlib_lays_text_out_with():
    rules = RULE.findall(figure_font_css())
    assert (
        len(rules) == len(figure_font_css().strip().splitlines()) == 4
    )  # regular, bold, oblique, bold oblique
    with F.style():
        for slant, weight in (
            ("normal", "normal"),
            ("oblique", "normal"),
            ("normal", "bold"),
            ("oblique", "bold"),
        ):
            path = fm.findfont(fm.FontProperties(family=["sans-serif"], style=slant, weight=weight))
            assert (PINNED_PREFIX + "DejaVu Sans", str(Path(path))) in {(r[0], r[1]) for r in rules}
    assert {r[3] for r in rules} == {"400", "700"}
    serif = RULE.findall(figure_font_css(ROOT / "themes" / "journal" / "figures.mplstyle"))
    assert {r[0] for r in serif} == {PINNED_PREFIX + "DejaVu Serif"}
    assert all(Path(r[1]).name.startswith("DejaVuSerif") for r in serif) and "italic" in {
        r[2] for r in serif
    }


def _fonts_of(pdf: Path) -> set[str]:
    pypdf = pytest.importorskip("pypdf")
    names = set()
    for page in pypdf.PdfReader(pdf).pages:
        resources = page["/Resources"]
        for ref in resources.get("/Font", {}).values():
            names.add(str(ref.get_object()["/BaseFont"]).split("+")[-1])
        for xobject in resources.get(
            "/XObject", {}
        ).values():  # WeasyPrint draws an <img> SVG into the page itself
            fonts = xobject.get_object().get("/Resources", {}).get("/Font", {})
            names |= {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in fonts.values()}
    return names


def test_weasyprint_draws_figure_text_with_the_pinned_file(tmp_path):
    """With the options, the figure's text is set in the pinned face (the PDF's font is named after
    it); without them WeasyPrint takes whatever fontconfig finds for 'DejaVu Sans'."""
    weasyprint = pytest.importorskip("weasyprint")
    (tmp_path / "figures").mkdir()
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text '
        'style="font-size: 12px; '
        'font-family: \'DejaVu Sans\', sans-serif" x="4" y="20">PC(+) 0.25</text></svg>'
    )
    (tmp_path / "figures" / "f.svg").write_text(svg, encoding="utf-8")
    html = '<p style="font-family: serif">Body</p><img src="figures/f.svg">'
    html_options, render_options = weasyprint_options(tmp_path)
    weasyprint.HTML(string=html, base_url=str(tmp_path) + "/", **html_options).render(
        **render_options
    ).write_pdf(tmp_path / "pinned.pdf")
    weasyprint.HTML(string=html, base_url=str(tmp_path) + "/").render().write_pdf(
        tmp_path / "plain.pdf"
    )
    pinned, plain = _fonts_of(tmp_path / "pinned.pdf"), _fonts_of(tmp_path / "plain.pdf")
    assert "ccreport-figure-DejaVu-Sans" in pinned
    assert not any(n.startswith("ccreport") for n in plain)
    assert (tmp_path / "figures" / "f.svg").read_text(
        encoding="utf-8"
    ) == svg  # the site's file is not changed
