"""Figures legible in print and in greyscale (issue 36, point 3).

* report.pdf: every text a figure draws is at least :data:`MIN_PT` points tall at the size the
  figure is placed on the page (the placement transformation times the text's own);
* the panels of a grid (the difference curves of a dataset's pairs, its threshold-method
  figures, the panels of its each-classifier-highlighted figure) share one y range, so a row of
  them reads on one scale;
* the first eight classifiers differ pairwise in dash pattern and in marker (not colour alone);
* texts a figure places inside its axes do not cover the curves it draws.
"""

from __future__ import annotations

import numpy as np
import pytest

pypdf = pytest.importorskip("pypdf")

from site_fixtures import example_build, example_results  # noqa: E402

from ccreport.figures import classifier_styles, style  # noqa: E402
from ccreport.figures.registry import FigureOptions, specs  # noqa: E402
from ccreport.render.figure_pdfs import XOBJECT_NAME  # noqa: E402

MIN_PT = 6.0  # the smallest text a printed figure may carry, in points


def _matrix(a, b, c, d, e, f) -> np.ndarray:
    return np.array([[a, b, 0.0], [c, d, 0.0], [e, f, 1.0]], dtype=float)


def _operations(stream, reader):
    return pypdf.generic.ContentStream(stream, reader).operations


def _text_sizes(xobject, reader, placement: np.ndarray) -> list[tuple[float, str]]:
    """(size on the page in points, text) of every text show in a form XObject drawn with the
    page-space matrix ``placement``: the Tf size times the vertical scale of the text matrix
    composed with the form's CTM and its placement (PDF 32000-1, 9.4.4), nested forms included."""
    matrix = xobject.get("/Matrix")
    base = (_matrix(*[float(v) for v in matrix]) if matrix else np.eye(3)) @ placement
    ctm, stack = base, []
    tm, size, found = np.eye(3), 0.0, []
    leading = 0.0
    inner = (xobject.get("/Resources") or {}).get("/XObject") or {}
    for operands, op in _operations(xobject, reader):
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _matrix(*[float(v) for v in operands]) @ ctm
        elif op == b"BT":
            tm, line = np.eye(3), np.eye(3)
        elif op == b"Tm":
            tm = line = _matrix(*[float(v) for v in operands])
        elif op in (b"Td", b"TD"):
            line = _matrix(1, 0, 0, 1, float(operands[0]), float(operands[1])) @ line
            tm = line
            if op == b"TD":
                leading = -float(operands[1])
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"T*":
            line = _matrix(1, 0, 0, 1, 0, -leading) @ line
            tm = line
        elif op == b"Tf":
            size = float(operands[1])
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            full = tm @ ctm
            vertical = float(np.hypot(full[1, 0], full[1, 1]))  # the text space's y unit
            text = operands[-1]
            shown = (
                "".join(str(t) for t in text if isinstance(t, str | bytes))
                if isinstance(text, list)
                else str(text)
            )
            found.append((abs(size) * vertical, shown))
        elif op == b"Do":
            child = inner.get(operands[0])
            if child is not None and child.get_object().get("/Subtype") == "/Form":
                found += _text_sizes(child.get_object(), reader, ctm)
    return found


def placed_text_sizes(pdf_path) -> dict[tuple[int, str], list[tuple[float, str]]]:
    """(page number, XObject name) -> the sizes on the page of the texts of every figure drawn
    there (the form XObjects report.pdf draws figures with, ccreport.render.figure_pdfs)."""
    reader = pypdf.PdfReader(pdf_path)
    sizes = {}
    for number, page in enumerate(reader.pages, 1):
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        ctm, stack = np.eye(3), []
        for operands, op in _operations(page.get_contents(), reader):
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _matrix(*[float(v) for v in operands]) @ ctm
            elif op == b"Do" and XOBJECT_NAME.search(operands[0]):
                xobject = xobjects[operands[0]].get_object()
                sizes[(number, operands[0])] = _text_sizes(xobject, reader, ctm)
    return sizes


def test_the_size_reader_sees_a_scaled_figure(tmp_path):
    """The reader itself: a figure with 10-pt text drawn at half size reads as 5 pt."""
    import pydyf

    pdf = pydyf.PDF()
    font = pydyf.Dictionary({"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"})
    pdf.add_object(font)
    form = pydyf.Stream(
        [b"BT /F1 10 Tf 1 0 0 1 5 5 Tm (seven) Tj ET"],
        extra={
            "Type": "/XObject",
            "Subtype": "/Form",
            "BBox": pydyf.Array([0, 0, 100, 50]),
            "Resources": pydyf.Dictionary({"Font": pydyf.Dictionary({"F1": font.reference})}),
        },
    )
    pdf.add_object(form)
    content = pydyf.Stream([b"q 0.5 0 0 0.5 20 20 cm /ccfig0_0 Do Q"])
    pdf.add_object(content)
    resources = pydyf.Dictionary({"XObject": pydyf.Dictionary({"ccfig0_0": form.reference})})
    page = pydyf.Dictionary(
        {
            "Type": "/Page",
            "Parent": pdf.pages.reference,
            "MediaBox": pydyf.Array([0, 0, 200, 200]),
            "Contents": content.reference,
            "Resources": resources,
        }
    )
    pdf.add_page(page)
    path = tmp_path / "scaled.pdf"
    with path.open("wb") as f:
        pdf.write(f)
    assert placed_text_sizes(path) == {(1, "/ccfig0_0"): [(5.0, "seven")]}


def test_no_figure_text_under_6pt_in_report_pdf():
    """Every text of every figure of the example's report.pdf is at least 6 pt as placed."""
    sizes = placed_text_sizes(example_build() / "report.pdf")
    assert sizes, "no figure XObjects found in report.pdf"
    assert sum(len(texts) for texts in sizes.values()) > 100
    small = sorted(
        (round(size, 2), page, text)
        for (page, _), texts in sizes.items()
        for size, text in texts
        if size < MIN_PT - 1e-6
    )
    assert not small, f"{len(small)} figure texts under {MIN_PT} pt, e.g. {small[:8]}"


# --- shared y ranges in a grid of panels --------------------------------------------------------


def _grid_figures(kind: str):
    results = example_results()
    spec = next(s for s in specs() if s.kind == kind)
    styles = classifier_styles(results)
    for dataset in results.datasets.values():
        subjects = [
            s for s in spec.subjects(results, dataset, styles) if spec.wanted(s, FigureOptions())
        ]
        if len(subjects) > 1:
            yield dataset.name, [spec.draw(s) for s in subjects]


@pytest.mark.parametrize("kind", ["diff", "threshold-methods"])
def test_panels_of_a_grid_share_their_y_range(kind):
    """All panels of one grid (one dataset's pairs or classifiers) have the same y limits, so any
    row of them can be read on one scale."""
    seen = 0
    for name, figures in _grid_figures(kind):
        limits = {
            tuple(np.round(ax.get_ylim(), 9))
            for fig in figures
            for ax in fig.axes
            if ax.get_label() != "<colorbar>" and ax.get_ylabel()
        }
        assert len(limits) == 1, (name, kind, limits)
        seen += 1
    assert seen


@pytest.mark.parametrize("kind, legends", [("diff", 0), ("threshold-methods", 1)])
def test_a_grid_draws_its_shared_legend_once_at_most(kind, legends):
    """What a legend would say the same in every panel of a grid is said once: the threshold
    choice methods' legend on one panel (the one its note names), the difference and highlighted
    panels' in the grid's note (their own captions name the pair or classifier). Panels without
    a legend are as tall as their axes, so a row takes less of the page."""
    results = example_results()
    spec = next(s for s in specs() if s.kind == kind)
    styles = classifier_styles(results)
    seen = 0
    for dataset in results.datasets.values():
        subjects = [
            s for s in spec.subjects(results, dataset, styles) if spec.wanted(s, FigureOptions())
        ]
        if len(subjects) < 2:
            continue
        figures = [spec.draw(s) for s in subjects]
        with_legend = [s.name for s, f in zip(subjects, figures, strict=True) if f.legends]
        assert len(with_legend) == legends, (dataset.name, kind, with_legend)
        note = spec.panels_note(subjects[0])
        if legends:
            from ccreport.figures.threshold_choice import methods_key_panel

            assert with_legend == [methods_key_panel(dataset)]
            assert f"on {with_legend[0]}'s panel" in note
        bare = {f.get_figheight() for f in figures if not f.legends}
        assert len(bare) == 1, (dataset.name, kind, bare)  # one row height for the bare panels
        assert all(f.get_figheight() > max(bare) for f in figures if f.legends)
        seen += 1
    assert seen


# --- eight classifiers in greyscale -------------------------------------------------------------


def test_eight_classifiers_differ_in_dash_and_in_marker():
    names = [f"c{i}" for i in range(8)]
    styles = list(classifier_styles(names).values())
    dashes = [repr(s.linestyle) for s in styles]
    markers = [s.marker for s in styles]
    colours = [s.color for s in styles]
    assert len(set(dashes)) == 8 and len(set(markers)) == 8 and len(set(colours)) == 8


def test_a_classifier_keeps_its_style_in_every_figure():
    """The same classifier is drawn with the same dash pattern and marker in the dataset's cost
    and ROC figures (and so in every figure passed the same styles)."""
    results = example_results()
    styles = classifier_styles(results)
    dataset = next(iter(results.datasets.values()))
    from ccreport.figures import cost_space, roc_space

    with style():
        for fig in (cost_space(dataset, styles), roc_space(dataset, styles)):
            lines = [ln for ax in fig.axes for ln in ax.get_lines()]
            for name, s in styles.items():
                if name not in dataset.classifiers:
                    continue
                mine = [ln for ln in lines if ln.get_color() == s.color]
                assert mine, name
                assert any(ln.get_marker() == s.marker for ln in mine), name


# --- labels that do not cover curves ------------------------------------------------------------


def _covered(fig, ax, texts, lines) -> list[str]:
    """The texts whose box (less 1.5 px all round) any of ``lines`` passes through, drawn at the
    figure's size: each line's path in display coordinates, sampled 40 times a segment."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with style():
        FigureCanvasAgg(fig).draw()
    paths = []
    for line in lines:
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), float))
        t = np.linspace(0.0, 1.0, 40)[:, None, None]
        paths.append((xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2))
    points = np.concatenate(paths) if paths else np.empty((0, 2))
    hits = []
    for text in texts:
        box = text.get_window_extent().expanded(1.0, 1.0)
        x0, y0, x1, y1 = box.x0 + 1.5, box.y0 + 1.5, box.x1 - 1.5, box.y1 - 1.5
        inside = (points[:, 0] > x0) & (points[:, 0] < x1) & (points[:, 1] > y0)
        if np.any(inside & (points[:, 1] < y1)):
            hits.append(text.get_text())
    return hits


def _curves(ax):
    """The lines of an axes that are drawn as lines (not marker-only), two points or more."""
    return [
        ln
        for ln in ax.get_lines()
        if ln.get_linestyle() not in ("None", "") and len(ln.get_xdata()) > 1
    ]


def test_hybrid_labels_cover_no_curve_and_no_prior_line():
    """The dataset hybrid's segment labels sit under the hybrid (the lowest curve), so they cover
    none of the curves, and off the priors' dotted lines; the priors' names cover no curve
    either."""
    results = example_results()
    spec = next(s for s in specs() if s.kind == "hybrid")
    styles = classifier_styles(results)
    labelled = 0
    for dataset in results.datasets.values():
        (subject,) = spec.subjects(results, dataset, styles)
        fig = spec.draw(subject)
        ax = fig.axes[0]
        texts = [t for t in ax.texts if t.get_text().strip()]
        labelled += len(texts)
        assert not _covered(fig, ax, texts, _curves(ax)), dataset.name
    assert labelled >= 8


def test_difference_labels_cover_no_curve_and_no_crossover_line():
    """The "A cheaper" labels of every difference panel lie clear of the difference curve and of
    the crossovers' dotted lines, on the grid's shared y scale."""
    results = example_results()
    spec = next(s for s in specs() if s.kind == "diff")
    styles = classifier_styles(results)
    seen = 0
    for dataset in results.datasets.values():
        for subject in spec.subjects(results, dataset, styles):
            fig = spec.draw(subject)
            ax = fig.axes[0]
            texts = [t for t in ax.texts if "cheaper" in t.get_text()]
            seen += len(texts)
            assert not _covered(fig, ax, texts, _curves(ax)), subject.name
    assert seen


def test_focus_panels_share_the_rescaled_axis_when_one_band_passes_half():
    """One classifier's band passing 0.5 rescales every panel of its dataset's
    each-classifier-highlighted figure (0 to 1), not that panel alone, and the caption says
    "(Rescaled Y)"; without it every panel runs to 0.5 and the caption does not say so."""
    import dataclasses

    from synthetic import synthetic_results

    results = synthetic_results(
        datasets=("a",), classifiers=("logreg", "stump", "tree"), bands=True
    )
    spec = next(s for s in specs() if s.kind == "focus")
    styles = classifier_styles(results)
    d = results.datasets["a"]

    def limits(dataset):
        (subject,) = spec.subjects(results, dataset, styles)
        fig = spec.draw(subject)
        panels = [ax for ax in fig.axes if ax.get_visible()]
        assert len(panels) == len(dataset.classifiers)
        return {ax.get_ylim() for ax in panels}, spec.caption(subject)

    plain, caption = limits(d)
    assert plain == {(0.0, 0.5)} and "(Rescaled Y)" not in caption
    c = d.classifiers["stump"]
    band = dataclasses.replace(c.band, upper=np.maximum(np.asarray(c.band.upper, float), 0.6))
    high = dataclasses.replace(
        d, classifiers={**d.classifiers, "stump": dataclasses.replace(c, band=band)}
    )
    rescaled, caption = limits(high)
    assert rescaled == {(0.0, 1.0)} and "(Rescaled Y)" in caption


def test_each_classifier_highlighted_is_one_figure_with_one_legend():
    """A dataset's classifiers highlighted are one figure of small multiples with one legend
    (every panel's keys said once), not one figure per classifier."""
    results = example_results()
    spec = next(s for s in specs() if s.kind == "focus")
    styles = classifier_styles(results)
    for dataset in results.datasets.values():
        subjects = [
            s for s in spec.subjects(results, dataset, styles) if spec.wanted(s, FigureOptions())
        ]
        assert len(subjects) == 1, dataset.name
        fig = spec.draw(subjects[0])
        assert len(fig.legends) == 1 and not any(ax.get_legend() for ax in fig.axes)
        titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
        assert titles == list(dataset.classifiers)


def test_clear_of_picks_a_gap_between_crossover_lines():
    from ccreport.figures.difference import clear_of

    assert clear_of([], "a", "\u2193", 2.16) == (0.012, "a cheaper \u2193")
    x, text = clear_of([0.2], "logreg", "\u2191", 2.16)  # too narrow before 0.2: after it
    assert text == "logreg cheaper \u2191" and x == pytest.approx(0.212)
    # lines every 0.1: nothing fits; two lines, inside the axes
    x, text = clear_of(np.linspace(0.1, 0.9, 9), "a_long_classifier_name", "\u2193", 2.16)
    assert text == "a_long_classifier_name\ncheaper \u2193" and 0.0 < x < 0.7


def test_segment_labels_hang_under_the_curve_and_off_the_priors():
    from ccreport.figures.selection import LABEL_WIDTH, place_segment_labels

    pc, nec = np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.3, 0.0])
    segs = [
        {"low": 0.0, "high": 0.5, "classifier": "a", "threshold": 0.5},
        {"low": 0.5, "high": 0.5 + LABEL_WIDTH / 2, "classifier": "b", "threshold": 0.2},
        {"low": 0.5 + LABEL_WIDTH / 2, "high": 1.0, "classifier": "c", "threshold": 0.1},
    ]
    per_char, height, gap = 0.01, 0.02, 0.005
    placed = place_segment_labels(pc, nec, segs, [0.3], per_char, height, gap)
    assert [t.split()[0] for t, _, _ in placed] == ["1", "3"]  # segment 2 is too narrow
    for text, x, y in placed:
        left, right = x - 0.5 * len(text) * per_char, x + 0.5 * len(text) * per_char
        assert y <= np.interp([left, right], pc, nec).min() - gap + 1e-12  # under the curve
        assert y - height >= 0.0  # above the x axis
        assert not left - per_char / 2 <= 0.3 <= right + per_char / 2  # off the prior's line
    assert place_segment_labels(pc, nec, [], [], per_char, height, gap) == []
    # no room under a flat curve on the axis: left to the table
    flat = place_segment_labels(pc, np.zeros(3), segs, [], per_char, height, gap)
    assert flat == []


def test_roc_legend_sits_in_the_lower_right_clear_of_every_curve():
    """The ROC figure's legend sits inside the axes, under the chance diagonal, where no hull
    goes: none of its labels covers a curve. A classifier worse than chance, whose curve runs
    there, sends it under the axes again."""
    import dataclasses

    from synthetic import synthetic_dataset

    from ccreport.figures import roc_space

    results = example_results()
    styles = classifier_styles(results)
    for dataset in results.datasets.values():
        fig = roc_space(dataset, styles)
        (ax,) = fig.axes
        key = ax.get_legend()
        assert key is not None and not fig.legends, dataset.name
        assert not _covered(fig, ax, key.get_texts(), _curves(ax)), dataset.name
    d = synthetic_dataset("bad", classifiers=("logreg", "tree"))
    low = dataclasses.replace(
        d.classifiers["tree"], roc_fpr=np.array([0.0, 0.8, 1.0]), roc_tpr=np.array([0.0, 0.1, 1.0])
    )  # worse than chance across the lower right
    fig = roc_space(dataclasses.replace(d, classifiers={**d.classifiers, "tree": low}))
    assert fig.axes[0].get_legend() is None and len(fig.legends) == 1
