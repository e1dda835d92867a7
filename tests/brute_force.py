"""Independent, deliberately naive reference computations for the tests (O(n^2), no shared code)."""

from __future__ import annotations

import itertools

import numpy as np


def roc_points_by_thresholds(y, s):
    """ROC points by thresholding at every distinct score (plus +inf): O(n * k)."""
    y = np.asarray(y, bool)
    thresholds = np.concatenate(([np.inf], np.unique(s)[::-1]))
    tpr = np.array([np.mean(s[y] >= t) for t in thresholds])
    fpr = np.array([np.mean(s[~y] >= t) for t in thresholds])
    return fpr, tpr


def mann_whitney_auc(y, s):
    """P(score of a positive > score of a negative) + 1/2 P(tie), over all pairs."""
    y = np.asarray(y, bool)
    pos, neg = s[y][:, None], s[~y][None, :]
    return float(np.mean((pos > neg) + 0.5 * (pos == neg)))


def envelope_vertices(fpr, tpr):
    """Exact lower envelope of all cost lines (with the trivial ones) by pairwise intersections.

    Every envelope vertex is an intersection of two lines (or an end), so evaluating the minimum of
    all lines at every pairwise intersection inside [0, 1] gives the envelope exactly.
    """
    f = np.concatenate(([0.0, 1.0], np.asarray(fpr, float)))
    t = np.concatenate(([0.0, 1.0], np.asarray(tpr, float)))
    start, end = f, 1.0 - t  # nec at pc = 0 and at pc = 1
    xs = [0.0, 1.0]
    for i, j in itertools.combinations(range(f.size), 2):
        d = (end[i] - start[i]) - (end[j] - start[j])
        if d != 0:
            x = (start[j] - start[i]) / d
            if 0.0 < x < 1.0:
                xs.append(x)
    xs = np.unique(xs)
    return xs, min_cost(f, t, xs)


def min_cost(fpr, tpr, pc):
    """Minimum over the cost lines of the points (fpr, tpr) and the trivial ones, at each pc."""
    f = np.concatenate(([0.0, 1.0], np.asarray(fpr, float)))
    t = np.concatenate(([0.0, 1.0], np.asarray(tpr, float)))
    pc = np.asarray(pc, float)
    return np.min((1.0 - t)[:, None] * pc[None, :] + f[:, None] * (1.0 - pc[None, :]), axis=0)
