"""Which pairs of classifiers a dataset compares: the ``[project] comparisons`` setting.

Every pair costs a figure, a table row, a paired test per prior and a member of the Holm family, so
with k classifiers "all pairs" (k(k - 1)/2 of them: 496 at k = 32) is not always what a reader
wants. The manifest chooses one of

* ``"all"``: every unordered pair, in manifest order (a before b when a is declared first);
* ``"best"``: the dataset's best classifier against every other, as (best, other), the others in
  manifest order. The best is the classifier of lowest **in-sample expected cost** (the expectation
  of its lower envelope, D&H 2006 section 4.2) under the **first prior, in manifest order, that
  applies to the dataset**; costs within a relative 1e-9 of the lowest are ties, and ties go to the
  classifier declared first. (Every dataset has a prior: without ``[[priors]]`` the uniform one,
  whose expected cost is the area under the lower envelope.);
* ``{ baseline = "name" }``: that classifier against every other, as (baseline, other);
* ``[["a", "b"], ...]``: exactly these pairs, each as written (differences are a - b);
* ``"auto"`` (the default): ``"all"`` while the dataset has at most :data:`AUTO_ALL_MAX` (8)
  classifiers (28 pairs), ``"best"`` beyond (k - 1 pairs).

A pair (or a baseline) whose classifiers are not both evaluated on a dataset is left out there: a
baseline missing from a dataset's file gives that dataset no pairs. Everything downstream follows
the chosen pairs: the pair tasks of the plan (:func:`ccreport.tasks.battery.plan`), hence the pair
figures, tables, LaTeX tables, the decision box's runner-up test (present only when its pair is
chosen), the Holm family (chosen pairs x priors) and ``results.json``, whose
``datasets.<d>.comparison_choice`` records what was chosen and why
(:class:`~ccreport.results.ComparisonChoice`).

:func:`read_comparisons` reads and checks the setting's form (manifest or notebook);
:func:`check_names` checks its names against the declared classifiers; :func:`choose` resolves it on
one dataset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..analysis.envelope import lower_envelope
from ..analysis.roc import crisp_roc, roc_points
from ..project.manifest_checks import Checker, Where, printable, shown
from ..project.settings import COMPARISON_RULES, COMPARISONS, Comparisons
from ..results import ComparisonChoice

AUTO_ALL_MAX = (
    8  # "auto" compares all pairs up to this many classifiers on a dataset (28 pairs), else "best"
)
TIE_RTOL = 1e-9  # expected costs this close (relative) to the lowest tie for "best"


def _listed(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_listed(v) for v in value) + "]"
    return shown(value)


def read_comparisons(
    check: Checker, table: dict, key: str, where: Where, default: Comparisons
) -> Comparisons | None:
    """The form of ``comparisons``: a keyword, ``{ baseline = name }`` or a list of [a, b] pairs.

    Reports (one problem each) a wrong type, an unknown keyword, a table with other keys, a pair
    that is not two names, a self-pair and a duplicate pair ([a, b] and [b, a] are the same pair).
    Names are checked against the classifiers by :func:`check_names`. Returns None after a problem.
    """
    value = table.get(key)
    if value is None:
        return default
    if isinstance(value, str):
        if value in COMPARISON_RULES:
            return Comparisons(rule=value)
        check.report(where, (key,), f"expected {COMPARISONS}, got {shown(value)}")
        return None
    if isinstance(value, dict):
        if (
            set(value) != {"baseline"}
            or not isinstance(value["baseline"], str)
            or not value["baseline"].strip()
        ):
            check.report(
                where,
                (key,),
                'expected a table { baseline = "<classifier>" } naming one classifier, got '
                f"{_table(value)}",
            )
            return None
        return Comparisons(rule="baseline", baseline=value["baseline"])
    if not isinstance(value, (list, tuple)):
        check.report(where, (key,), f"expected {COMPARISONS}, got {shown(value)}")
        return None
    found: list[tuple[str, str]] = []
    seen: dict[frozenset, int] = {}
    ok = True
    for i, item in enumerate(value, start=1):
        if not (
            isinstance(item, (list, tuple))
            and len(item) == 2
            and all(isinstance(v, str) and v.strip() for v in item)
        ):
            check.report(
                where,
                (key,),
                f"entry {i}: expected a pair [a, b] of classifier names, got {_listed(item)}",
            )
            ok = False
        elif item[0] == item[1]:
            check.report(
                where, (key,), f"entry {i}: expected two different classifiers, got {_listed(item)}"
            )
            ok = False
        elif frozenset(item) in seen:
            check.report(
                where,
                (key,),
                f"entry {i}: duplicate pair {_listed(item)} (entry {seen[frozenset(item)]} is "
                "the same pair)",
            )
            ok = False
        else:
            seen[frozenset(item)] = i
            found.append((item[0], item[1]))
    return Comparisons(rule="pairs", pairs=tuple(found)) if ok else None


def _table(value: dict) -> str:
    return (
        "{ " + ", ".join(f"{k} = {_listed(v)}" for k, v in value.items()) + " }" if value else "{}"
    )


def check_names(
    check: Checker,
    comparisons: Comparisons | None,
    names: Sequence[str],
    where: Where,
    key: str = "comparisons",
) -> None:
    """Report every name of ``comparisons`` that is not a declared classifier (one problem each)."""
    if comparisons is None:
        return
    known = ", ".join(f'"{n}"' for n in names)

    def quoted(name: str) -> str:
        return f'"{printable(name)}"'

    if comparisons.rule == "baseline" and comparisons.baseline not in names:
        check.report(
            where,
            (key,),
            f"unknown classifier {quoted(comparisons.baseline)} as baseline; expected one of "
            f"{known}",
        )
    for i, pair in enumerate(comparisons.pairs, start=1):
        for name in pair:
            if name not in names:
                check.report(
                    where,
                    (key,),
                    f"entry {i}: unknown classifier {quoted(name)}; expected one of {known}",
                )


def rule_for(comparisons: Comparisons, k: int) -> str:
    """The rule applied on a dataset of ``k`` classifiers ("auto" resolved by
    :data:`AUTO_ALL_MAX`)."""
    if comparisons.rule == "auto":
        return "all" if k <= AUTO_ALL_MAX else "best"
    return comparisons.rule


def best_of(names: Sequence[str], costs: Sequence[float]) -> str:
    """The name of lowest cost; costs within a relative :data:`TIE_RTOL` of it tie, and the first
    name (manifest order) of the tied ones wins."""
    values = np.asarray(costs, dtype=float)
    lowest = float(values.min())
    tied = np.flatnonzero(values <= lowest + TIE_RTOL * abs(lowest))
    return names[int(tied[0])]


def choose(
    comparisons: Comparisons,
    present: Sequence[str],
    costs: Callable[[], Sequence[float]],
    prior: str | None,
) -> ComparisonChoice:
    """The pairs one dataset compares, and the record of why.

    ``present``: the dataset's classifiers in manifest order; ``costs()``: their in-sample expected
    costs under ``prior`` (the dataset's first prior), called only when the rule is "best".
    """
    present = list(present)
    rule = rule_for(comparisons, len(present))
    reference, basis = None, None
    if rule == "all":
        pairs = [(a, b) for i, a in enumerate(present) for b in present[i + 1 :]]
    elif rule == "pairs":
        pairs = [p for p in comparisons.pairs if p[0] in present and p[1] in present]
    else:
        if rule == "best" and present:
            reference = best_of(present, costs())
            basis = (
                f"lowest in-sample expected cost under prior {prior!r}; ties to the classifier "
                "declared first"
            )
        elif rule == "baseline":
            reference = comparisons.baseline if comparisons.baseline in present else None
        pairs = [] if reference is None else [(reference, n) for n in present if n != reference]
    return ComparisonChoice(
        requested=comparisons.to_dict(),
        rule=rule,
        reference=reference,
        basis=basis,
        pairs=tuple(pairs),
    )


def in_sample_cost(
    labels: np.ndarray, scores: np.ndarray | None, predictions: np.ndarray | None, prior
) -> float:
    """A classifier's in-sample expected cost under ``prior``: the prior's expectation of its lower
    envelope (D&H 2006 section 4.2), the same number as its ``expected_cost`` in results.json."""
    roc = roc_points(labels, scores) if scores is not None else crisp_roc(labels, predictions)
    env = lower_envelope(roc)
    return float(prior.expected(env.pc, env.nec))
