"""Write every figure of a report to files, with captions and alt text, and return their index.

Files are byte-identical across runs: the package style sets ``svg.hashsalt``, text is drawn as
outlines in SVG (``svg.fonttype: path``) and fonts are embedded as TrueType in PDF
(``pdf.fonttype: 42``); the date metadata is removed from every format.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from io import BytesIO
from pathlib import Path

import numpy as np

from .. import figures as F
from ..results import ClassifierResult, ComparisonResult, DatasetResult, Results

SAVE_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {"Software": None}}
PNG_DPI = 150


def slug(name: str) -> str:
    """A file-name-safe, lower-case form of a name ('German credit/2' -> 'german-credit-2')."""
    s = re.sub(r"[^a-z0-9_.-]+", "-", name.lower()).strip("-.")
    return s or "x"


class _Slugs:
    """Unique slugs within one folder: a name whose slug is taken gets a short hash of the name."""

    def __init__(self):
        self.used: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        s = slug(name)
        if s in self.used and self.used[s] != name:
            s = f"{s}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
        self.used[s] = name
        return s


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
                + (f" ({b.get('method')}, {b.get('replicates')} replicates)" if b.get("method") else "")
                + ("; dashed lines, the simultaneous band" if b.get("simultaneous") else "")
                + "."
            )
        if c.extra.get("fold_average"):
            fa = c.extra["fold_average"]
            parts.append(f"The dotted line is the average of the {fa.get('n_folds', '')} per-fold cost curves, hatched between their extremes.")
    if with_priors:
        parts.append("The panel underneath shows each prior over PC(+) on the same axis; a point prior is an arrow at its value.")
    else:
        parts.append("The strip underneath shows each classifier's operating range, where it beats both trivial classifiers.")
    if rescaled:
        parts.append("(Rescaled Y)")
    return " ".join(parts)


def _cost_alt(d: DatasetResult, results: Results) -> str:
    ranges = "; ".join(f"{c.name} {_fmt_range(c.operating_range)}" for c in d.classifiers.values())
    first_prior = next(iter(results.priors), None)
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
        parts.append(f"The grey region is the {lt}confidence band of the difference ({band.get('method', 'paired resampling')}).")
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


def _priors_alt(results: Results) -> str:
    return "Densities over PC(+) of the priors: " + "; ".join(p.description for p in results.priors.values()) + "."


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


class _Writer:
    def __init__(self, folder: Path, formats):
        self.folder = Path(folder)
        self.formats = tuple(formats)
        self.index: dict[str, dict] = {}

    def add(self, key: str, fig, relstem: str, caption: str, alt: str, width: str):
        entry = {}
        for fmt in self.formats:
            rel = f"{relstem}.{fmt}"
            path = self.folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            kw = {"dpi": PNG_DPI} if fmt == "png" else {}
            fig.savefig(path, format=fmt, metadata=SAVE_METADATA.get(fmt), **kw)
            entry[fmt] = rel
        entry.update(caption=caption, alt=alt, width=width)
        self.index[key] = entry


def write_figures(
    results: Results,
    folder: Path,
    formats=("svg", "pdf"),
    *,
    focus: bool = True,
    styles: dict | None = None,
) -> dict:
    """Write every figure of the report under ``folder/figures/`` and return the index.

    Index keys (names are the real dataset/classifier/prior names; file names are slugs):

    * ``"overview/small-multiples"`` - one cost-space panel per dataset, shared legend (full width);
    * ``"overview/priors"`` - every prior as a density over PC(+) (only if there are priors);
    * ``f"{dataset}/cost"`` - cost space with operating-range strip (column width);
    * ``f"{dataset}/cost-rescaled"`` - the same with y from 0 to 1, "(Rescaled Y)";
    * ``f"{dataset}/cost-priors"`` - cost space with the priors panel underneath (only with priors);
    * ``f"{dataset}/roc"`` - ROC points, curves and hulls;
    * ``f"{dataset}/focus/{classifier}"`` - one classifier highlighted with its band and fold
      average when present (only if ``focus``);
    * ``f"{dataset}/diff/{a} vs {b}"`` - the difference of each pair (keys of ``comparisons``).

    Each value is ``{fmt: path relative to folder (posix), ..., "caption": str, "alt": str,
    "width": "column" | "full"}`` with one path per requested format, e.g.
    ``{"svg": "figures/sonar/cost.svg", "pdf": "figures/sonar/cost.pdf", ...}``. The index is in
    report order: overview, then per dataset cost, cost-rescaled, cost-priors, roc, focus, diff.
    Files land in ``figures/overview/`` and ``figures/<dataset-slug>/`` (``focus/``, ``diff/``).
    """
    folder = Path(folder)
    styles = styles or F.classifier_styles(results)
    w = _Writer(folder, formats)
    with F.style(), _shared_font_subsets():
        fig = F.small_multiples(results, styles)
        w.add(
            "overview/small-multiples",
            fig,
            "figures/overview/small-multiples",
            "Cost curves of every classifier on every dataset (one panel per dataset, same axes): "
            "normalized expected cost against PC(+); bold diagonals are the trivial classifiers.",
            "Small multiples of cost curves, one panel per dataset: " + ", ".join(results.datasets) + ".",
            "full",
        )
        if results.priors:
            w.add(
                "overview/priors",
                F.prior_densities(results.priors),
                "figures/overview/priors",
                "The priors over the operating condition PC(+) used for expected costs: each as a density, "
                "a point prior as an arrow at its value.",
                _priors_alt(results),
                "column",
            )
        dataset_slugs = _Slugs()
        for d in results.datasets.values():
            base = f"figures/{dataset_slugs(d.name)}"
            w.add(f"{d.name}/cost", F.cost_space(d, styles), f"{base}/cost", _cost_caption(d, False, False),
                  _cost_alt(d, results), "column")
            w.add(f"{d.name}/cost-rescaled", F.cost_space(d, styles, rescaled_y=True), f"{base}/cost-rescaled",
                  _cost_caption(d, True, False), _cost_alt(d, results), "column")
            if results.priors:
                w.add(f"{d.name}/cost-priors", F.cost_priors(d, results.priors, styles), f"{base}/cost-priors",
                      _cost_caption(d, False, True), _cost_alt(d, results) + " " + _priors_alt(results), "column")
            w.add(f"{d.name}/roc", F.roc_space(d, styles), f"{base}/roc", _roc_caption(d), _roc_alt(d), "column")
            if focus:
                names = _Slugs()
                for c in d.classifiers.values():
                    w.add(f"{d.name}/focus/{c.name}", F.classifier_focus(d, c.name, styles), f"{base}/focus/{names(c.name)}",
                          _cost_caption(d, False, False, highlight=c.name), _focus_alt(d, c), "column")
            names = _Slugs()
            for key, m in d.comparisons.items():
                stem = f"{base}/diff/{names(m.a)}--vs--{names(m.b)}"
                w.add(f"{d.name}/diff/{key}", F.difference(m, styles), stem, _diff_caption(d, m), _diff_alt(m), "column")
    return w.index


def _focus_alt(d: DatasetResult, c: ClassifierResult) -> str:
    text = f"Cost curve of {c.name} on {d.name} over the others; operating range {_fmt_range(c.operating_range)}."
    band = c.extra.get("band")
    if band:
        width = np.asarray(band["upper"], float) - np.asarray(band["lower"], float)
        text += f" Confidence band width from {np.nanmin(width):.3f} to {np.nanmax(width):.3f}."
    return text
