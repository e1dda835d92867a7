"""The manifest's ``[[criteria]]`` entries: selection criteria (Drummond & Holte 2006 section 5.1).

Each entry names a criterion evaluated for every classifier of every dataset it applies to, and
for the dataset hybrid (the issue-11 analyses of :mod:`ccreport.analysis.selection`)::

    [[criteria]]
    name = "fpr-5%"                 # unique; the key in results.json
    kind = "neyman_pearson"         # best TPR at FPR <= max_fpr (Fig. 23)
    max_fpr = 0.05                  # in (0, 1]
    [[criteria]]
    name = "review-desk"
    kind = "workforce"              # at most W cases flagged (Eq. 11-12, Fig. 24)
    capacity = 120                  # W in cases, an integer >= 0; or
    # capacity_share = 0.1          # W as a share of the evaluated cases, in [0, 1]
    [[criteria]]
    name = "threshold-from-costs"
    kind = "performance_independent"  # threshold from PC(+) alone (Figs. 21-22)
    rule = "bayes_prior"            # default; or "score_driven" or "literal"

Every entry may restrict itself to some datasets with ``datasets = ["german_credit"]`` (a
workforce capacity in cases depends on the size of the evaluated set).
"""

from __future__ import annotations

from dataclasses import dataclass

from .settings import Bound

CRITERION_KINDS = ("neyman_pearson", "workforce", "performance_independent")
RULES = ("bayes_prior", "score_driven", "literal")  # ccreport.analysis.selection.RULES
CRITERION_PARAMETERS = {
    "neyman_pearson": ("max_fpr",),
    "workforce": ("capacity", "capacity_share"),
    "performance_independent": ("rule",),
}
MAX_FPR = Bound("a number in (0, 1]", lambda x: 0 < x <= 1)
CAPACITY = Bound("an integer >= 0 (cases)", lambda x: x >= 0, integer=True)
SHARE = Bound("a number in [0, 1]", lambda x: 0 <= x <= 1)


@dataclass(frozen=True)
class CriterionSpec:
    """One validated ``[[criteria]]`` entry: ``params`` are (key, value) pairs sorted by key."""

    name: str
    kind: str
    params: tuple[tuple[str, object], ...]
    line: int | None = None
    datasets: tuple[str, ...] | None = None  # None: every dataset

    def applies_to(self, dataset: str) -> bool:
        return self.datasets is None or dataset in self.datasets

    def param(self, key: str, default=None):
        return dict(self.params).get(key, default)


def read_criterion(check, where, table: dict, taken: dict[str, int]) -> CriterionSpec | None:
    """One ``[[criteria]]`` table, every problem reported through ``check`` (a manifest Checker)."""
    where = where.named(check.name(table, where, taken))
    kind = check.choice(table, "kind", where, CRITERION_KINDS, required=True)
    every = tuple(k for keys in CRITERION_PARAMETERS.values() for k in keys)
    allowed = ("name", "kind", "datasets") + (CRITERION_PARAMETERS[kind] if kind else every)
    for key in table:
        if key in allowed:
            continue
        if key in every:
            takes = ", ".join(CRITERION_PARAMETERS[kind])
            check.report(where, (key,), f"'{key}' is not a parameter of a {kind} criterion, which takes {takes}")
        else:
            check.report(where, (key,), f"unknown key '{key}'; expected one of {', '.join(allowed)}")
    datasets = check.dataset_list(table, where)
    if kind is None:
        return None
    params = None
    if kind == "neyman_pearson":
        value = check.number(table, "max_fpr", where, MAX_FPR, required=True)
        params = None if value is None else (("max_fpr", float(value)),)
    elif kind == "workforce":
        given = [k for k in ("capacity", "capacity_share") if k in table]
        if len(given) != 1:
            check.report(where, ("capacity",), "expected exactly one of capacity (cases, an integer >= 0) and capacity_share (a share of the cases, in [0, 1])")
        else:
            bound = CAPACITY if given[0] == "capacity" else SHARE
            value = check.number(table, given[0], where, bound, required=True)
            params = None if value is None else ((given[0], value if given[0] == "capacity" else float(value)),)
    else:
        rule = check.choice(table, "rule", where, RULES, default="bayes_prior")
        params = None if rule is None else (("rule", rule),)
    if where.name is None or params is None or ("datasets" in table and datasets is None):
        return None
    line = check.lines.line_of(where.section, where.index)
    return CriterionSpec(where.name, kind, params, line=line, datasets=datasets)
