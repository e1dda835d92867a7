"""The dataset hybrid's band, criterion intervals and hybrid tests, inside the dataset's one
resampling (:mod:`ccreport.analysis.selection.hybrid_bands`).

:func:`readers` tells :func:`~ccreport.analysis.paired_bootstrap.bootstrap_dataset` what to read on
every replicate hull (each Neyman-Pearson and workforce criterion, each performance-independent rule
of a probability-scoring classifier); :func:`hybrid_band` turns the replicates into a
:class:`~ccreport.results.HybridBand`. Both are called by the ``pairs`` task
(:func:`ccreport.tasks.bands_task.pairs_task`), so the hybrid is read on the same resampled
instances as every pair comparison. Under ``calibration`` = "auto" (within its budget) or
"double", the band's and the expected-cost intervals' upper levels are calibrated by a fast double
bootstrap of the hybrid (:mod:`ccreport.analysis.selection.hybrid_calibration`, generator
``task_rng(seed, "hybrid calibration", dataset)``, so the dataset's one resampling is unchanged).
"""

from __future__ import annotations

import numpy as np

from ..analysis import calibration as cb
from ..analysis import selection as sel
from ..analysis.roc import crisp_roc, roc_points
from ..analysis.selection import hybrid_bands as hb
from ..analysis.selection import hybrid_calibration as hc
from ..analysis.selection.criteria import workforce_capacity
from ..project.settings import task_rng
from ..results import HybridBand


def _probabilities(c) -> bool:
    s = c.scores
    return s is not None and s.size > 0 and float(s.min()) >= 0.0 and float(s.max()) <= 1.0


def readers(inputs) -> dict:
    """classifier name -> {criterion name: replicate reader} for the criteria of ``inputs``."""
    n_cases = inputs.labels.size
    pi = float(np.mean(inputs.labels))
    out = {}
    for c in inputs.classifiers:
        mine = {}
        for key, crit in inputs.criteria.items():
            if isinstance(crit, sel.NeymanPearson):
                mine[key] = hb.neyman_pearson_reader(crit.max_fpr)
            elif isinstance(crit, sel.Workforce) and crit.n_pos is None:
                mine[key] = hb.workforce_reader(
                    workforce_capacity(crit.capacity, crit.capacity_share, n_cases)
                )
            elif isinstance(crit, sel.PerformanceIndependent) and _probabilities(c):
                prior = pi if crit.prior is None else crit.prior
                mine[key] = hb.independent_reader(c.scores, crit.rule, inputs.priors, prior)
        out[c.name] = mine
    return out


def hybrid_band(inputs, settings, reps) -> HybridBand:
    """The :class:`~ccreport.results.HybridBand` of the dataset from its replicates ``reps``."""
    y = inputs.labels
    rocs = {
        c.name: roc_points(y, c.scores) if c.scores is not None else crisp_roc(y, c.predictions)
        for c in inputs.classifiers
    }
    env = sel.dataset_hybrid(rocs).envelope
    hybrid_expected = {
        p: float(prior.expected(env.pc, env.nec)) for p, prior in inputs.priors.items()
    }
    criteria, independent = {}, {}
    pi = float(np.mean(y))
    for key, crit in inputs.criteria.items():
        if isinstance(crit, sel.NeymanPearson):
            found = {n: sel.neyman_pearson(r, crit.max_fpr) for n, r in rocs.items()}
        elif isinstance(crit, sel.Workforce) and crit.n_pos is None:
            found = {
                n: sel.workforce(r, crit.capacity, crit.capacity_share) for n, r in rocs.items()
            }
        elif isinstance(crit, sel.PerformanceIndependent):
            prior = pi if crit.prior is None else crit.prior
            independent[key] = {
                c.name: (key, hb.independent_expected(y, c.scores, crit.rule, inputs.priors, prior))
                for c in inputs.classifiers
                if _probabilities(c)
            }
            continue
        else:
            continue
        criteria[key] = {"sample": {n: (ch.fpr, ch.tpr) for n, ch in found.items()}}
    level = settings.confidence
    names = list(rocs)
    cal, method = None, reps.method
    if cb.wanted(settings.calibration, y.size):
        cal = hc.calibrate_hybrid(
            task_rng(settings.seed, "hybrid calibration", inputs.dataset),
            y,
            {c.name: c.scores for c in inputs.classifiers if c.scores is not None},
            {c.name: c.predictions for c in inputs.classifiers if c.scores is None},
            names,
            level,
            inputs.priors,
        )
        method += "; " + hc.METHOD
    inf = hb.hybrid_inference(
        reps, names, inputs.priors, hybrid_expected, level, criteria, independent, cal
    )
    return HybridBand(
        level=level,
        replicates=reps.replicates,
        method=method,
        target=hb.TARGET_UNCALIBRATED if cal is None else hb.TARGET_CALIBRATED,
        inference=inf,
    )
