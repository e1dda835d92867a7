"""Write every figure of a report to files, with captions and alt text, and return their index.

Files are byte-identical across runs: the package style sets ``svg.hashsalt``, text is drawn as
outlines in SVG (``svg.fonttype: path``) and fonts are embedded as TrueType in PDF
(``pdf.fonttype: 42``); the date metadata is removed from every format.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import numpy as np

from .. import figures as F
from .. import naming
from ..interrupts import ignore_interrupts
from ..results import ClassifierResult, ComparisonResult, DatasetResult, Results, dataset_priors

SAVE_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {"Software": None}}
PNG_DPI = 150
OVERVIEW_FOLDERS = ("overview",)  # figures/overview/ holds the index's figures, never a dataset's


def _fmt_range(r) -> str:
    return "none (never better than both trivial classifiers)" if r is None else f"{r[0]:.2f} < PC(+) < {r[1]:.2f}"


def _best_under(dataset: DatasetResult, prior: str) -> str:
    costs = {c.name: c.expected_cost.get(prior) for c in dataset.classifiers.values()}
    costs = {k: v for k, v in costs.items() if v is not None}
    if not costs:
        return ""
    best = min(costs, key=costs.get)
    return f"Lowest expected cost under the {prior} prior: {best} ({costs[best]:.3f})."


def _cost_caption(d: DatasetResult, rescaled: bool, with_priors: bool, highlight: str | None = None) -> str:
    crisp = [c.name for c in d.classifiers.values() if c.kind == "crisp"]
    parts = [
        f"Cost curves on {d.name}"
        + (f", {highlight} highlighted" if highlight else "")
        + ": normalized expected cost against PC(+), the probability-times-cost operating condition"
        + " (Drummond & Holte 2006). Each scoring classifier is drawn as its lower envelope"
        + (f"; the crisp classifier{'s' if len(crisp) > 1 else ''} {', '.join(crisp)} as a single cost line (its envelope faint)" if crisp else "")
        + ". The bold diagonals are the trivial classifiers (always negative, always positive)."
    ]
    if highlight:
        c = d.classifiers[highlight]
        if c.extra.get("band"):
            b = c.extra["band"]
            level = b.get("level")
            lt = f"{level:.0%} " if isinstance(level, (int, float)) else ""
            parts.append(
                f"The shaded region is the {lt}pointwise confidence band of {highlight}"
                + (f"; method: {b.get('method')}, {b.get('replicates')} replicates" if b.get("method") else "")
                + ("; dashed lines, the simultaneous band" if b.get("simultaneous") else "")
                + "."
            )
        if c.extra.get("fold_average"):
            fa = c.extra["fold_average"]
            parts.append(f"The dotted line is the vertical average of the {fa.get('n_folds', '')} per-fold cost curves.")
    if with_priors:
        parts.append("The panel underneath shows each prior over PC(+) on the same axis; a point prior is an arrow at its value.")
    elif highlight:
        parts.append("The other classifiers are drawn faint for reference.")
    else:
        parts.append("The strip underneath shows each classifier's operating range, where it beats both trivial classifiers.")
    if rescaled:
        parts.append("(Rescaled Y)")
    return " ".join(parts)


def _cost_alt(d: DatasetResult, results: Results) -> str:
    ranges = "; ".join(f"{c.name} {_fmt_range(c.operating_range)}" for c in d.classifiers.values())
    first_prior = next(iter(dataset_priors(results, d)), None)
    best = _best_under(d, first_prior) if first_prior else ""
    return f"Line chart of cost curves for {len(d.classifiers)} classifiers on {d.name}. Operating ranges: {ranges}. {best}".strip()


def _roc_caption(d: DatasetResult) -> str:
    return (
        f"ROC space for {d.name}: the ROC points of each classifier joined into a curve (thin) and their "
        "convex hull (in the classifier's line style, markers on hull vertices); a crisp classifier is one point. "
        "The dashed diagonal is chance. Each hull is the dual of the lower envelope in the cost-space figure."
    )


def _roc_alt(d: DatasetResult) -> str:
    aucs = ", ".join(f"{c.name} {c.auc:.3f}" for c in d.classifiers.values())
    return f"ROC curves with convex hulls for {len(d.classifiers)} classifiers on {d.name}. AUC: {aucs}."


def _diff_caption(d: DatasetResult, m: ComparisonResult) -> str:
    parts = [
        f"Difference of the cost curves of {m.a} and {m.b} on {d.name} ({m.a} minus {m.b}): below zero {m.a} "
        f"has the lower normalized expected cost, above zero {m.b} has."
    ]
    if m.crossovers:
        parts.append("Circles mark the crossovers, at PC(+) = " + ", ".join(f"{x:.3f}" for x in m.crossovers) + ".")
    else:
        parts.append("The curves do not cross.")
    band = m.extra.get("difference_band")
    if band:
        level = band.get("level")
        lt = f"{level:.0%} " if isinstance(level, (int, float)) else ""
        parts.append(f"The grey region is the {lt}confidence band of the difference; method: {band.get('method', 'paired resampling')}.")
    if m.extra.get("significant") is not None and band:
        parts.append("Bars along the bottom mark where the difference is significant, coloured by the cheaper classifier.")
    return " ".join(parts)


def _diff_alt(m: ComparisonResult) -> str:
    def ivs(xs):
        return ", ".join(f"{lo:.2f}-{hi:.2f}" for lo, hi in xs) or "nowhere"

    pc, v = m.max_difference
    sig = m.extra.get("significant")
    sig_text = ""
    if sig is not None:
        sig_text = " Significant: " + (", ".join(f"{s['better']} better on {float(s['lo']):.2f}-{float(s['hi']):.2f}" for s in sig) or "nowhere") + "."
    return (
        f"Difference {m.a} minus {m.b} in normalized expected cost across PC(+). {m.a} cheaper on {ivs(m.a_better)}; "
        f"{m.b} cheaper on {ivs(m.b_better)}. Largest difference {v:+.3f} at PC(+) = {pc:.2f}.{sig_text}"
    )


def _priors_alt(priors) -> str:
    priors = priors.priors if isinstance(priors, Results) else priors
    return "Densities over PC(+) of the priors: " + "; ".join(f"{p.name}, {p.description}" for p in priors.values()) + "."


# Characters every PDF font subset includes, so that most figures ask fontTools for the same subset
# and the subsetting (about 0.2 s a figure with DejaVu Sans) runs once per build, not per figure.
_BASE_CHARS = "".join(chr(i) for i in range(32, 127)) + "\u2212\u2191\u2193\u00d7\u2013\u2014\u00b1\u2264\u2265\u00b7"


@contextlib.contextmanager
def _shared_font_subsets():
    """Memoise matplotlib's PDF font subsetting for the duration of a write_figures call.

    Every subset is padded to the glyphs of ``_BASE_CHARS`` and its bytes are cached; each call,
    hit or miss, returns a font freshly loaded from those bytes, so the output does not depend on
    which figure came first. Uses a private matplotlib helper: if it is missing or has changed,
    nothing is patched and figures are just slower.
    """
    try:
        from fontTools.ttLib import TTFont
        from matplotlib.backends import _backend_pdf_ps as pdfps
        from matplotlib.font_manager import get_font

        original = pdfps.get_glyphs_subset
        results_class = pdfps.SubsetResults
        as_file = pdfps.font_as_file
    except (ImportError, AttributeError):
        yield
        return
    cache: dict = {}

    def get_glyphs_subset(fontfile, glyphs):
        try:
            font = get_font(fontfile)
            base = {font.get_char_index(ord(c)) for c in _BASE_CHARS} - {0}
            key = (str(fontfile), getattr(fontfile, "face_index", 0), frozenset(glyphs) | frozenset(base))
        except Exception:  # an unexpected font object: no caching
            return original(fontfile, glyphs)
        hit = cache.get(key)
        if hit is None:
            with original(fontfile, set(key[2])) as subset:
                hit = cache[key] = (as_file(subset.font).getvalue(), dict(subset.glyph_index_map))
        data, glyph_map = hit
        return results_class(TTFont(BytesIO(data), recalcTimestamp=False), dict(glyph_map))._as_cm()

    pdfps.get_glyphs_subset = get_glyphs_subset
    try:
        yield
    finally:
        pdfps.get_glyphs_subset = original


@dataclass(frozen=True)
class _Task:
    key: str
    stem: str  # path without extension, relative to the output folder
    width: str  # "column" | "full"
    kind: str
    dataset: str | None = None
    name: str | None = None  # classifier name (focus) or comparison key (diff)


def _above_half(c: ClassifierResult) -> bool:
    """Whether part of what the cost figure draws for ``c`` lies above nec = 0.5 (clipped there)."""
    tops = [max(c.cost_line)] if c.cost_line is not None else []
    band = c.extra.get("band")
    if band:
        tops.append(float(np.nanmax(np.asarray(band["upper"], float))))
        if band.get("simultaneous"):
            tops.append(float(np.nanmax(np.asarray(band["simultaneous"]["upper"], float))))
    return any(t > 0.5 + 1e-9 for t in tops)


def _tasks(results: Results, focus: bool, rescaled: bool | None = None) -> list[_Task]:
    """Every figure of the report, in report order."""
    tasks = [_Task("overview/small-multiples", "figures/overview/small-multiples", "full", "small-multiples")]
    if results.priors:
        tasks.append(_Task("overview/priors", "figures/overview/priors", "column", "priors"))
    for d in results.datasets.values():
        base = f"figures/{naming.stem(d.name, reserved=OVERVIEW_FOLDERS)}"
        tasks.append(_Task(f"{d.name}/cost", f"{base}/cost", "column", "cost", d.name))
        if rescaled or (rescaled is None and any(_above_half(c) for c in d.classifiers.values())):
            tasks.append(_Task(f"{d.name}/cost-rescaled", f"{base}/cost-rescaled", "column", "cost-rescaled", d.name))
        if dataset_priors(results, d):
            tasks.append(_Task(f"{d.name}/cost-priors", f"{base}/cost-priors", "column", "cost-priors", d.name))
        tasks.append(_Task(f"{d.name}/roc", f"{base}/roc", "column", "roc", d.name))
        if focus:
            for c in d.classifiers:
                tasks.append(_Task(f"{d.name}/focus/{c}", f"{base}/focus/{naming.stem(c)}", "column", "focus", d.name, c))
        for key, m in d.comparisons.items():
            stem = f"{base}/diff/{naming.pair_stem(m.a, m.b)}"
            tasks.append(_Task(f"{d.name}/diff/{key}", stem, "column", "diff", d.name, key))
    return tasks


def _make(results: Results, styles, t: _Task):
    """The figure, caption and alt text of one task."""
    d = results.datasets.get(t.dataset) if t.dataset is not None else None
    if t.kind == "small-multiples":
        return (
            F.small_multiples(results, styles),
            "Cost curves of every classifier on every dataset (one panel per dataset, same axes): "
            "normalized expected cost against PC(+); the bold diagonals are the trivial classifiers.",
            "Small multiples of cost curves, one panel per dataset: " + ", ".join(results.datasets) + ".",
        )
    if t.kind == "priors":
        return (
            F.prior_densities(results.priors),
            "The priors over the operating condition PC(+) used for expected costs: each as a density, "
            "a point prior as an arrow at its value.",
            _priors_alt(results),
        )
    if t.kind == "cost":
        return F.cost_space(d, styles), _cost_caption(d, False, False), _cost_alt(d, results)
    if t.kind == "cost-rescaled":
        return F.cost_space(d, styles, rescaled_y=True), _cost_caption(d, True, False), _cost_alt(d, results)
    if t.kind == "cost-priors":
        priors = dataset_priors(results, d)
        return (
            F.cost_priors(d, priors, styles, prior_order=list(results.priors)),
            _cost_caption(d, False, True),
            _cost_alt(d, results) + " " + _priors_alt(priors),
        )
    if t.kind == "roc":
        return F.roc_space(d, styles), _roc_caption(d), _roc_alt(d)
    if t.kind == "focus":
        rescale = _above_half(d.classifiers[t.name])
        return (
            F.classifier_focus(d, t.name, styles, rescaled_y=rescale),
            _cost_caption(d, rescale, False, highlight=t.name),
            _focus_alt(d, d.classifiers[t.name]),
        )
    if t.kind == "diff":
        m = d.comparisons[t.name]
        return F.difference(m, styles), _diff_caption(d, m), _diff_alt(m)
    raise ValueError(f"unknown figure kind {t.kind!r}")


def _render(results: Results, styles, folder: Path, formats, tasks) -> list[tuple[str, dict]]:
    out = []
    with F.style(), _shared_font_subsets():
        for t in tasks:
            fig, caption, alt = _make(results, styles, t)
            entry = {}
            for k, fmt in enumerate(formats):
                rel = f"{t.stem}.{fmt}"
                path = folder / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                kw = {"dpi": PNG_DPI} if fmt == "png" else {}
                fig.savefig(path, format=fmt, metadata=SAVE_METADATA.get(fmt), **kw)
                entry[fmt] = rel
                if k == 0:  # the layout is done: keep it for the other formats instead of redoing it
                    fig.set_layout_engine("none")
            entry.update(caption=caption, alt=alt, width=t.width)
            out.append((t.key, entry))
    return out


_FORKED: tuple | None = None  # (results, styles, folder, formats, tasks) inherited by forked workers


def _render_share(k: int, n: int):
    results, styles, folder, formats, tasks = _FORKED
    return _render(results, styles, folder, formats, tasks[k::n])


def _default_workers() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    return max(1, min(2, available))


def write_figures(
    results: Results,
    folder: Path,
    formats=("svg", "pdf"),
    *,
    focus: bool | None = None,
    rescaled: bool | None = None,
    styles: dict | None = None,
    workers: int | None = None,
) -> dict:
    """Write every figure of the report under ``folder/figures/`` and return the index.

    Index keys (names are the real dataset/classifier names; file names are stems of them, :mod:`ccreport.naming`):

    * ``"overview/small-multiples"`` - one cost-space panel per dataset, shared legend (full width);
    * ``"overview/priors"`` - every prior as a density over PC(+) (only if there are priors);
    * ``f"{dataset}/cost"`` - cost space with the operating-range strip (column width);
    * ``f"{dataset}/cost-rescaled"`` - the same with y from 0 to 1, captioned "(Rescaled Y)"; by
      default (``rescaled=None``) only when something drawn would be clipped at 0.5 (a crisp
      cost line or a band above it); ``True`` always, ``False`` never;
    * ``f"{dataset}/cost-priors"`` - cost space with the priors panel underneath (only with priors);
    * ``f"{dataset}/roc"`` - ROC points, curves and hulls;
    * ``f"{dataset}/focus/{classifier}"`` - one classifier highlighted over the others, with its
      confidence band and fold average; by default (``focus=None``) only for classifiers whose
      results carry ``extra["band"]`` or ``extra["fold_average"]``; ``True`` for all, ``False`` none;
      rescaled (0 to 1, "(Rescaled Y)" in the caption) when its band or cost line passes 0.5;
    * ``f"{dataset}/diff/{a} vs {b}"`` - the difference of each pair (the keys of
      ``DatasetResult.comparisons``), with its band and significant regions when present.

    Each value is ``{fmt: path relative to folder (posix), ..., "caption": str, "alt": str,
    "width": "column" | "full"}`` with one path per requested format, e.g.
    ``{"svg": "figures/sonar/cost.svg", "pdf": "figures/sonar/cost.pdf", "caption": ..., ...}``.
    The dict is in report order (overview, then per dataset: cost, cost-rescaled, cost-priors, roc,
    focus, diff). Files: ``figures/overview/*``, ``figures/<dataset-stem>/{cost,roc,...}``,
    ``figures/<dataset-stem>/focus/<classifier-stem>``, ``figures/<dataset-stem>/diff/<pair-stem>``
    (``naming.stem`` / ``naming.pair_stem``: injective, so no two figures share a file).
    Formats: any of "svg", "pdf", "png" (PNG at ``PNG_DPI``). ``workers`` (default: 2 where two
    CPUs are available and ``fork`` exists) splits the figures between forked processes; the
    files are the same bytes either way.
    """
    folder = Path(folder)
    styles = styles or F.classifier_styles(results)
    tasks = _tasks(results, focus=True if focus is None else focus, rescaled=rescaled)
    if focus is None:
        tasks = [t for t in tasks if t.kind != "focus" or _has_extras(results.datasets[t.dataset].classifiers[t.name])]
    workers = _default_workers() if workers is None else max(1, int(workers))
    workers = min(workers, max(1, len(tasks) // 4))
    if workers > 1 and "fork" in mp.get_all_start_methods():
        global _FORKED
        _FORKED = (results, styles, folder, tuple(formats), tasks)
        try:
            with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"), initializer=ignore_interrupts) as pool:
                shares = list(pool.map(_render_share, range(workers), [workers] * workers))
        finally:
            _FORKED = None
        done = dict(pair for share in shares for pair in share)
    else:
        done = dict(_render(results, styles, folder, tuple(formats), tasks))
    return {t.key: done[t.key] for t in tasks}


def planned_figures(results: Results, formats=("svg", "pdf")) -> dict:
    """The index :func:`write_figures` would return, with empty captions, without drawing anything
    (``ccreport check`` renders the project's templates with it)."""
    tasks = [t for t in _tasks(results, focus=True) if t.kind != "focus" or _has_extras(results.datasets[t.dataset].classifiers[t.name])]
    return {t.key: {**{fmt: f"{t.stem}.{fmt}" for fmt in formats}, "caption": "", "alt": "", "width": t.width} for t in tasks}


def _has_extras(c: ClassifierResult) -> bool:
    return bool(c.extra.get("band") or c.extra.get("fold_average"))


def _focus_alt(d: DatasetResult, c: ClassifierResult) -> str:
    text = f"Cost curve of {c.name} on {d.name} over the others; operating range {_fmt_range(c.operating_range)}."
    band = c.extra.get("band")
    if band:
        width = np.asarray(band["upper"], float) - np.asarray(band["lower"], float)
        text += f" Confidence band width from {np.nanmin(width):.3f} to {np.nanmax(width):.3f}."
    return text
