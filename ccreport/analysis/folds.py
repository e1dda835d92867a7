"""Averaging a classifier's cost curves over folds, vertically in cost space (D&H 2006 section 4.5).

Averaging over folds: why cost space and not ROC space
------------------------------------------------------
ROC curves are usually averaged "vertically" (Provost et al. 1998): the mean true positive rate at
each false positive rate. That puts points of different curves into correspondence by their false
positive rate, which is not an operating condition, so the average ROC curve does not describe the
average performance at any operating condition: the expected cost of the averaged ROC curve is not
the average of the folds' expected costs, and it lies below the iso-performance line joining the
curves' optimal points (D&H 2006, Fig. 14). Averaging cost curves vertically puts points into
correspondence by their operating condition PC(+): the mean normalized expected cost at each PC(+)
is exactly the average performance at that condition, and, because expectation over a prior is
linear, the expected cost of the average curve under any prior equals the average of the folds'
expected costs (D&H 2006, section 4.5, Fig. 15). Translated back to ROC space, the average of two
one-point classifiers' cost curves has its central vertex midway between their ROC points, on the
iso-performance line that joins them (Fig. 15b), where both ROC averages fall below it (Fig. 14).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .envelope import lower_envelope
from .hull_costs import GRID, curves_expected
from .roc import crisp_roc, roc_points


@dataclass(frozen=True, eq=False)
class FoldAverage:
    """The vertical average in cost space of the folds' lower envelopes (D&H 2006 section 4.5).

    ``pc``: the union of the folds' envelope vertices and the band grid, so ``nec`` (the mean) is
    exact and linear between points; ``lower``/``upper``: pointwise min/max across folds at ``pc``;
    ``expected``: prior -> expected cost of the mean curve (= the mean of the folds' expected
    costs); ``fold_expected``: prior -> each fold's expected cost; ``folds``: names of the folds
    used.
    """

    pc: np.ndarray
    nec: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    expected: dict
    fold_expected: dict
    folds: tuple
    skipped: tuple


def fold_average(
    labels, folds, fold_names, scores=None, predictions=None, priors: dict | None = None, grid=GRID
) -> FoldAverage:
    """Average a classifier's cost curves over folds, vertically in cost space (D&H 2006
    section 4.5).

    Each fold's curve is the lower envelope of its ROC points on that fold's instances (for a crisp
    classifier: its cost line and the trivial classifiers). Folds lacking a class are skipped.
    """
    priors = priors or {}
    y = np.asarray(labels, dtype=bool)
    f = np.asarray(folds)
    curves, used, skipped = [], [], []
    for code, name in enumerate(fold_names):
        m = f == code
        yy = y[m]
        if yy.size == 0 or yy.all() or not yy.any():
            skipped.append(name)
            continue
        roc = (
            roc_points(yy, np.asarray(scores)[m])
            if scores is not None
            else crisp_roc(yy, np.asarray(predictions)[m])
        )
        env = lower_envelope(roc)
        curves.append((env.pc, env.nec))
        used.append(name)
    if not curves:
        raise ValueError("no fold has both classes")
    pc = np.union1d(np.asarray(grid, dtype=float), np.concatenate([c[0] for c in curves]))
    stack = np.vstack([np.interp(pc, c[0], c[1]) for c in curves])
    nec = stack.mean(axis=0)
    fold_expected = {p: curves_expected(curves, prior).tolist() for p, prior in priors.items()}
    return FoldAverage(
        pc=pc,
        nec=nec,
        lower=stack.min(axis=0),
        upper=stack.max(axis=0),
        expected={p: float(curves_expected([(pc, nec)], prior)[0]) for p, prior in priors.items()},
        fold_expected=fold_expected,
        folds=tuple(used),
        skipped=tuple(skipped),
    )
