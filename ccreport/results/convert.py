"""Turning result records into JSON-ready values (shared by every result module)."""

from __future__ import annotations

import math

import numpy as np


def dict_or_none(value):
    """``value.to_dict()``, or None for an analysis that did not run."""
    return None if value is None else value.to_dict()


def dicts(mapping):
    """Each record of a mapping in its JSON form, keys kept."""
    return {k: v.to_dict() for k, v in mapping.items()}


def list_of_dicts(items):
    """Each record of a sequence in its JSON form."""
    return [v.to_dict() for v in items]


def clean(value):
    """Recursively turn numpy values into JSON-ready Python values; NaN/inf become None."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, np.ndarray):
        return clean(value.tolist())
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def pairs_list(x, y) -> list[list[float]]:
    return np.column_stack([x, y]).tolist()


def interval_list(iv):
    return None if iv is None else list(iv)


def envelope_comparison_dict(m) -> dict:
    """The keys every envelope comparison writes (D&H 2006 sections 4.3-4.4), from the fields of
    :class:`ccreport.analysis.envelope.Comparison` that ``m`` carries: crossovers, where each side
    is better or tied, the largest difference and each side's largest lead, and the difference
    curve."""
    return {
        "crossovers": list(m.crossovers),
        "a_better": [list(iv) for iv in m.a_better],
        "b_better": [list(iv) for iv in m.b_better],
        "ties": [list(iv) for iv in m.ties],
        "max_difference": {"pc": m.max_difference[0], "a_minus_b": m.max_difference[1]},
        "a_max_advantage": {"pc": m.a_max_advantage[0], "b_minus_a": m.a_max_advantage[1]},
        "b_max_advantage": {"pc": m.b_max_advantage[0], "a_minus_b": m.b_max_advantage[1]},
        "difference_curve": pairs_list(m.difference_pc, m.difference),
    }
