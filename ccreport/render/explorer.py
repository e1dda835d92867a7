"""The operating-condition explorer's data: what a dataset page embeds for ``explorer.js``.

The explorer (docs/explorer.md) lets a reader choose the operating condition, the class mix
p(+) and the cost ratio r = C(-|+)/C(+|-) or PC(+) directly, and shows the decision there. It
computes nothing the build did not: this module copies, column by column, the numbers of the
results the report already holds, and the script applies the same rules as the decision box
(:mod:`ccreport.tasks.decisions`) at any PC(+):

* PC(+) = p r / (p r + 1 - p) (D&H 2006 Eq. 4 with C(+|-) = 1); the normalized expected cost of
  the ROC point (FPR, TPR) there is ``x (1 - TPR) + (1 - x) FPR`` (D&H 2006 Eq. 6).
* **The choice** at x: the first vertex of the dataset hybrid (the lower envelope over every
  classifier's thresholds, D&H 2006 section 5.1.2; vertices from (0, 0) to (1, 1)) whose closed
  optimality interval ``[low, high]`` holds x (at a switch point the one flagging fewer cases:
  :func:`ccreport.tasks.decisions.vertex_at`). Its ``[low, high]`` is the PC(+) range where the
  choice stays best; ``threshold_interval`` every cut-off flagging the same cases
  (:func:`ccreport.tasks.decisions.threshold_interval`).
* **The interval** of the expected cost: the chosen classifier's pointwise ``band`` read at x by
  linear interpolation between its grid points (what the cost-curve figures shade); at the PC(+)
  of a point prior, the classifier's exact ``expected_cost_interval.<prior>`` (the decision box's).
* **The runner-up**: the other classifier whose lower envelope is lowest at x (ties in manifest
  order), at its own vertex by the same rule; "significant" only where x lies in a family-wise
  region (``significant``) of the pair's comparison.
* ``flagged_share`` = p TPR + (1 - p) FPR; with unit costs (a point prior's ``cost_fn``,
  ``cost_fp``) the expected cost per case is NEC (p C(FN) + (1 - p) C(FP)) (D&H 2006 Eq. 5's
  normalizer).

Numbers keep their full binary value (JSON's shortest round-trip form), so the page reads exactly
what results.json says; only the drawn ROC points are rounded (to 1e-4, at most
:data:`ROC_DRAWN` per classifier): they are drawn, never reported.
"""

from __future__ import annotations

import json
import math

import numpy as np
from markupsafe import Markup

from ..results import DatasetResult, Results, dataset_priors
from ..tasks.decisions import threshold_interval

ROC_DRAWN = 400  # at most this many ROC points per classifier are drawn (every hull vertex kept)
SCRIPT = "explorer.js"  # the theme asset that draws the explorer (themes/default/explorer.js)


def _finite(v) -> float | None:
    """A float, or None for an infinite or missing value (JSON has no infinity)."""
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def _floats(values) -> list[float | None]:
    return [_finite(v) for v in np.asarray(values, dtype=float)]


def vertex_table(table, thresholds_of) -> dict:
    """The vertices of a selection table (an analysis ``Hybrid``) as columns: ``fpr``, ``tpr``,
    ``low``, ``high``, ``threshold`` (None: +inf, flag nobody), ``threshold_low`` (cut-offs in
    (threshold_low, threshold] flag the same cases; None: -inf) and ``member`` (index into the
    table's ``names``). ``thresholds_of(name)``: that classifier's distinct thresholds."""
    members = {int(i): np.asarray(thresholds_of(table.names[i])) for i in set(table.classifier)}
    lows = [
        threshold_interval(members[int(i)], float(t))[0]
        for i, t in zip(table.classifier, table.threshold)
    ]
    return {
        "member": [int(i) for i in table.classifier],
        "fpr": _floats(table.fpr),
        "tpr": _floats(table.tpr),
        "low": _floats(table.low),
        "high": _floats(table.high),
        "threshold": _floats(table.threshold),
        "threshold_low": _floats(lows),
    }


def drawn_roc(c) -> list[list[float]]:
    """At most :data:`ROC_DRAWN` ROC points of ``c`` (evenly by index, ends and hull kept),
    rounded to 1e-4: for drawing only."""
    fpr, tpr = np.asarray(c.roc_fpr, float), np.asarray(c.roc_tpr, float)
    if fpr.size > ROC_DRAWN:
        keep = np.unique(np.linspace(0, fpr.size - 1, ROC_DRAWN).round().astype(int))
        fpr = np.concatenate([fpr[keep], np.asarray(c.hull_fpr, float)])
        tpr = np.concatenate([tpr[keep], np.asarray(c.hull_tpr, float)])
        order = np.lexsort((tpr, fpr))
        fpr, tpr = fpr[order], tpr[order]
    return np.round(np.column_stack([fpr, tpr]), 4).tolist()


def explorer_data(results: Results, d: DatasetResult) -> dict | None:
    """The explorer's data for dataset ``d``, or None when the dataset has no hybrid (then the
    page has no explorer). Keys: ``dataset``, ``class_mix`` (n_pos / n), ``level``,
    ``classifiers`` (per classifier: ``name``, ``kind``, ``table`` of :func:`vertex_table`,
    ``band`` {pc, lower, upper} or None, ``roc`` of :func:`drawn_roc`), ``hybrid`` (its
    :func:`vertex_table`, members indexing ``classifiers``), ``pairs`` (per comparison ``a``,
    ``b`` indices, ``level`` and ``regions`` [[lo, hi, better index]] or None when not tested),
    ``points`` (per point prior: ``name``, ``pc``, ``p_positive``, ``cost_fn``, ``cost_fp``,
    ``unit``, ``intervals`` [[lo, hi] or None per classifier])."""
    if d.hybrid is None or any(c.selection is None for c in d.classifiers.values()):
        return None
    names = list(d.classifiers)
    index = {n: i for i, n in enumerate(names)}

    def thresholds_of(name):
        return d.classifiers[name].selection.thresholds

    classifiers = []
    for c in d.classifiers.values():
        band = None
        if c.band is not None:
            band = {"pc": _floats(c.band.pc), "lower": _floats(c.band.lower)}
            band["upper"] = _floats(c.band.upper)
        classifiers.append(
            {
                "name": c.name,
                "kind": c.kind,
                "table": vertex_table(c.selection.table, thresholds_of),
                "band": band,
                "roc": drawn_roc(c),
            }
        )
    hybrid = d.hybrid.hybrid
    table = vertex_table(hybrid, thresholds_of)
    table["member"] = [index[hybrid.names[i]] for i in hybrid.classifier]
    pairs = []
    for m in d.comparisons.values():
        regions = None
        if m.significant is not None:
            regions = [[r.lo, r.hi, index[r.better]] for r in m.significant]
        level = None if m.family_wise is None else float(m.family_wise.level)
        pairs.append({"a": index[m.a], "b": index[m.b], "level": level, "regions": regions})
    class_mix = d.n_pos / (d.n_pos + d.n_neg)
    points = []
    for p in dataset_priors(results, d).values():
        if p.kind != "point" or p.point is None:
            continue
        intervals = []
        for c in d.classifiers.values():
            found = (c.expected_cost_interval or {}).get(p.name)
            intervals.append(None if found is None else [found.lower, found.upper])
        fn, fp = p.params.get("cost_fn"), p.params.get("cost_fp")
        points.append(
            {
                "name": p.name,
                "pc": float(p.point),
                "p_positive": float(p.params.get("p_positive", class_mix)),
                "cost_fn": None if fn is None else float(fn),
                "cost_fp": None if fp is None else float(fp),
                "unit": str(p.params.get("unit", "")),
                "intervals": intervals,
            }
        )
    return {
        "dataset": d.name,
        "class_mix": class_mix,
        "level": float(results.settings.confidence),
        "classifiers": classifiers,
        "hybrid": table,
        "pairs": pairs,
        "points": points,
    }


def script_json(data) -> Markup:
    """``data`` as JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&``
    are written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (JSON.parse reads them back), so no
    name can close the element or start a comment."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(raw, escaped)
    return Markup(text)


def explorer_json(results: Results, d: DatasetResult) -> Markup | None:
    """:func:`explorer_data` as :func:`script_json`, or None when the dataset has none."""
    data = explorer_data(results, d)
    return None if data is None else script_json(data)
