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


