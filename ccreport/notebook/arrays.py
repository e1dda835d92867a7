"""Arrays from a notebook (numpy, lists, pandas Series, pyarrow arrays) checked as the loaders check
a data file, every problem one line naming the function and the argument instead of a file.

Positions are 0-based indices into the arrays (the loaders name 1-based rows of a file).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import Problem, UserInputError
from ..project.manifest import NAME_PATTERN, shown

MAX_REPORTED = 5
BINARY_DEFAULTS = (
    {0, 1},
    {-1, 1},
    {False, True},
)  # classes for which pos_label=None means 1 (True)


def column(values, source: str, argument: str) -> np.ndarray:
    """One column as a 1-d numpy array: a numpy array, a list, a pandas Series or Index, a pyarrow
    Array or ChunkedArray (pandas and pyarrow are never imported here)."""
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        try:
            array = values.to_numpy(zero_copy_only=False)  # pyarrow
        except TypeError:
            array = values.to_numpy()  # pandas
    else:
        array = np.asarray(values)
    if array.ndim != 1:
        raise UserInputError(
            Problem(source, argument, f"expected a one-dimensional array, got shape {array.shape}")
        )
    return array


def _indices(positions: np.ndarray) -> str:
    shown_ = ", ".join(str(int(i)) for i in positions[:MAX_REPORTED])
    more = f" and {positions.size - MAX_REPORTED} more" if positions.size > MAX_REPORTED else ""
    return f"index {shown_}{more}" if positions.size == 1 else f"indices {shown_}{more}"


def _missing(array: np.ndarray) -> np.ndarray:
    """Positions of missing values: None, NaN, pandas NA (object arrays) or NaN (floats)."""
    if array.dtype.kind == "f":
        return np.flatnonzero(np.isnan(array))
    if array.dtype.kind == "O":
        return np.flatnonzero(
            [
                v is None
                or (isinstance(v, float) and v != v)
                or type(v).__name__ in ("NAType", "NaTType")
                for v in array
            ]
        )
    return np.empty(0, dtype=np.int64)


def same_length(array: np.ndarray, n: int, source: str, argument: str) -> None:
    if array.size != n:
        raise UserInputError(
            Problem(
                source,
                argument,
                f"expected {n} values (one per element of y_true), got {array.size}",
            )
        )


def scores(values, n: int, source: str, argument: str) -> np.ndarray:
    """Scores as float64, every one finite (higher = more positive)."""
    array = column(values, source, argument)
    same_length(array, n, source, argument)
    if array.dtype.kind == "b":
        raise UserInputError(
            Problem(
                source,
                argument,
                "expected numbers (scores, higher = more positive), got booleans; pass crisp "
                "predictions as predictions={name: labels}",
            )
        )
    try:
        floats = (
            array.astype(np.float64)
            if array.dtype.kind != "O"
            else np.array([np.nan if v is None else v for v in array], dtype=np.float64)
        )
    except (TypeError, ValueError):
        raise UserInputError(
            Problem(source, argument, f"expected numbers, got values of type {array.dtype}")
        ) from None
    bad = np.flatnonzero(~np.isfinite(floats))
    if bad.size:
        first = array[bad[0]]
        raise UserInputError(
            Problem(
                source,
                f"{argument} at {_indices(bad)}",
                "expected a finite number, got "
                f"{shown(first.item() if hasattr(first, 'item') else first)}",
            )
        )
    return floats


def _python(value):
    return value.item() if isinstance(value, np.generic) else value


def classes(y_true, pos_label, source: str) -> tuple[np.ndarray, object, object]:
    """The true classes: (labels as bool, True = positive; the positive value; the negative value).

    ``pos_label=None`` is allowed only when the classes are {0, 1}, {-1, 1} or {False, True}
    (scikit-learn's rule); the positive class is then 1 (True).
    """
    array = column(y_true, source, "y_true")
    missing = _missing(array)
    if missing.size:
        raise UserInputError(
            Problem(
                source, f"y_true at {_indices(missing)}", "missing value; expected a class value"
            )
        )
    if array.size == 0:
        raise UserInputError(
            Problem(source, "y_true", "no values; a cost curve needs instances of both classes")
        )
    try:
        values, counts = np.unique(array, return_counts=True)
    except TypeError:
        raise UserInputError(
            Problem(
                source, "y_true", "expected class values of one type (numbers, strings or booleans)"
            )
        ) from None
    values = [_python(v) for v in values]
    if len(values) == 1:
        rows = "1 value" if counts[0] == 1 else f"{counts[0]} values"
        raise UserInputError(
            Problem(
                source,
                "y_true",
                f"only one class present: {rows} {'is' if counts[0] == 1 else 'are'} all "
                f"{values[0]!r}; a cost curve needs both classes",
            )
        )
    if len(values) > 2:
        listed = ", ".join(repr(v) for v in values[:MAX_REPORTED])
        raise UserInputError(
            Problem(source, "y_true", f"expected exactly two classes, got {len(values)}: {listed}")
        )
    if pos_label is None:
        if not any(set(values) == allowed for allowed in BINARY_DEFAULTS) or any(
            isinstance(v, str) for v in values
        ):
            raise UserInputError(
                Problem(
                    source,
                    "pos_label",
                    f"y_true holds {values[0]!r} and {values[1]!r}; expected pos_label= one of "
                    "them (None only for classes 0 and 1, -1 and 1, or False and True)",
                )
            )
        pos_label = True if True in values and isinstance(values[0], bool) else 1
    pos_label = _python(pos_label)
    if pos_label not in values:
        raise UserInputError(
            Problem(
                source,
                "pos_label",
                f"expected one of y_true's classes ({values[0]!r}, "
                f"{values[1]!r}), got {pos_label!r}",
            )
        )
    negative = values[1] if values[0] == pos_label else values[0]
    positive = values[0] if values[0] == pos_label else values[1]
    return array == positive, positive, negative


def predictions(values, n: int, positive, negative, source: str, argument: str) -> np.ndarray:
    """Crisp predictions as bool (True = predicted positive); each must be one of y_true's
    classes."""
    array = column(values, source, argument)
    same_length(array, n, source, argument)
    try:
        known = np.isin(
            array,
            np.array([positive, negative], dtype=object if isinstance(positive, str) else None),
        )
    except TypeError:
        known = np.zeros(array.size, dtype=bool)
    bad = np.flatnonzero(~known)
    if bad.size:
        got = _python(array[bad[0]])
        raise UserInputError(
            Problem(
                source,
                f"{argument} at {_indices(bad)}",
                f"expected {positive!r} or {negative!r} (the classes of y_true), got {got!r}",
            )
        )
    return array == positive


def folds(values, labels: np.ndarray, source: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Fold codes 0..k-1 in the order of :func:`ccreport.project.loaders.fold_order` of the folds'
    texts."""
    from ..project.loaders import fold_order

    array = column(values, source, "folds")
    same_length(array, labels.size, source, "folds")
    missing = _missing(array)
    if missing.size:
        raise UserInputError(
            Problem(
                source,
                f"folds at {_indices(missing)}",
                "missing value; expected the fold of each instance",
            )
        )
    try:
        unique, inverse = np.unique(array, return_inverse=True)
    except TypeError:
        raise UserInputError(
            Problem(source, "folds", "expected fold values of one type (numbers or strings)")
        ) from None
    texts = [str(_python(v)) for v in unique]  # one per fold, as a data file would hold them
    names = fold_order(sorted(set(texts)))
    if len(names) != len(texts):
        raise UserInputError(
            Problem(
                source, "folds", "expected folds whose texts differ (two values print the same)"
            )
        )
    rank = np.array([names.index(t) for t in texts], dtype=np.int64)
    codes = rank[np.ravel(inverse)]
    positives = np.bincount(codes, weights=labels.astype(float), minlength=len(names))
    sizes = np.bincount(codes, minlength=len(names))
    if not np.any((positives > 0) & (positives < sizes)):
        k = len(names)
        raise UserInputError(
            Problem(
                source,
                "folds",
                f"no fold holds both classes ({k} fold{'s' if k != 1 else ''}, each all one "
                "class); fold averaging needs at least one fold with positives and negatives",
            )
        )
    return codes, tuple(names)


def costs(values, labels: np.ndarray, source: str) -> np.ndarray:
    """Per-instance costs (each positive's false-negative cost, each negative's false-positive
    cost): numbers >= 0 with a total > 0 in each class (Fawcett 2006, section 3)."""
    found = scores(values, labels.size, source, "costs")
    negative = np.flatnonzero(found < 0)
    if negative.size:
        raise UserInputError(
            Problem(
                source,
                f"costs at {_indices(negative)}",
                f"expected a cost >= 0, got {found[negative[0]]!r}",
            )
        )
    for in_class, who in ((labels, "positive"), (~labels, "negative")):
        if not np.any(found[in_class] > 0):
            raise UserInputError(
                Problem(
                    source,
                    "costs",
                    f"every {who} instance costs 0; expected a total > 0 in each class (an "
                    "instance-cost ROC curve divides by it)",
                )
            )
    return found


COST_CELLS = ("fn", "fp", "tp", "tn")


def cost_matrix(mapping, labels: np.ndarray, source: str) -> tuple[dict, str | None, np.ndarray]:
    """The manifest's cost-benefit form ``{fn, fp, tp, tn, unit}`` (Fawcett 2006, section 3): each
    cell an array (one value per instance) or a number; positives cost ``fn + tp``, negatives
    ``fp + tn`` (:func:`ccreport.analysis.instance_costs.transformed_costs`).

    Returns (the given cells, float or float64 array each; the unit or None; each instance's cost),
    checked as the loader checks the data file's cost columns: finite cells, every cost >= 0 and a
    total > 0 in each class.
    """
    from ..analysis.instance_costs import transformed_costs

    unknown = [key for key in mapping if key not in (*COST_CELLS, "unit")]
    if unknown:
        raise UserInputError(
            Problem(
                source,
                "costs",
                f"unknown key {unknown[0]!r}; expected fn, fp, tp, tn (arrays or numbers) and unit",
            )
        )
    unit = mapping.get("unit")
    if unit is not None and (not isinstance(unit, str) or not unit.strip()):
        raise UserInputError(
            Problem(
                source,
                "costs['unit']",
                f'expected a label for the unit of the costs, such as "EUR", got {unit!r}',
            )
        )
    cells: dict = {}
    for key in COST_CELLS:
        if key not in mapping or mapping[key] is None:
            continue
        value = mapping[key]
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)
        ):
            if not np.isfinite(value):
                raise UserInputError(
                    Problem(
                        source,
                        f"costs[{key!r}]",
                        f"expected a finite number or an array, got {value!r}",
                    )
                )
            cells[key] = float(value)
        else:
            cells[key] = scores(value, labels.size, source, f"costs[{key!r}]")
    for error, benefit, who in (("fn", "tp", "positives"), ("fp", "tn", "negatives")):
        if error not in cells and benefit not in cells:
            raise UserInputError(
                Problem(
                    source,
                    "costs",
                    f"expected {error} (or the benefit {benefit}), the {who}' cost; got neither",
                )
            )
    values = transformed_costs(labels, **cells)
    bad = np.flatnonzero(values < 0)
    if bad.size:
        first = int(bad[0])
        error, benefit = ("fn", "tp") if labels[first] else ("fp", "tn")
        raise UserInputError(
            Problem(
                source,
                f"costs at {_indices(bad)}",
                f"expected {error} + {benefit} >= 0 after the "
                f"cost-benefit transform, got {float(values[first])!r}",
            )
        )
    for in_class, error, benefit, who in (
        (labels, "fn", "tp", "positive"),
        (~labels, "fp", "tn", "negative"),
    ):
        if not np.any(values[in_class] > 0):
            raise UserInputError(
                Problem(
                    source,
                    "costs",
                    f"every {who} instance costs 0 ({error} + {benefit}); expected a total > 0 in "
                    "each class (an instance-cost ROC curve divides by it)",
                )
            )
    return cells, unit, values


def named(mapping, source: str, argument: str) -> dict:
    """A dict of classifier name -> values; names as the manifest's (letters, digits, _ . -)."""
    if mapping is None:
        return {}
    if not isinstance(mapping, Mapping):
        raise UserInputError(
            Problem(
                source,
                argument,
                "expected a dict of classifier name -> array, such as "
                f'{{"logreg": scores}}, got {type(mapping).__name__}',
            )
        )
    for name in mapping:
        if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
            raise UserInputError(
                Problem(
                    source,
                    argument,
                    "expected names of letters, digits, '_', '.' or '-' only (names are used in "
                    f"file names), got {name!r}",
                )
            )
    return dict(mapping)
