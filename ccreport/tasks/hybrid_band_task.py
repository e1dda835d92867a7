"""The dataset hybrid's band, criterion intervals and hybrid tests, inside the dataset's one
resampling (:mod:`ccreport.analysis.selection.hybrid_bands`).

:func:`readers` tells :func:`~ccreport.analysis.paired_bootstrap.bootstrap_dataset` what to read on
every replicate hull (each Neyman-Pearson and workforce criterion, each performance-independent rule
of a probability-scoring classifier); :func:`hybrid_band` turns the replicates into a
:class:`~ccreport.results.HybridBand`. Both are called by the ``pairs`` task
(:func:`ccreport.tasks.bands_task.pairs_task`), so the hybrid is read on the same resampled
instances as every pair comparison.
"""

from __future__ import annotations

import numpy as np

from ..analysis import selection as sel
from ..analysis.roc import crisp_roc, roc_points
from ..analysis.selection import hybrid_bands as hb
from ..analysis.selection.criteria import workforce_capacity
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
    inf = hb.hybrid_inference(
        reps, list(rocs), inputs.priors, hybrid_expected, level, criteria, independent
    )
    return HybridBand(
        level=level, replicates=reps.replicates, method=reps.method, target=hb.TARGET, inference=inf
    )
