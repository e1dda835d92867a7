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
    [[criteria]]
    name = "cost-trained-trees"
    kind = "parameter_based"        # a family trained under different conditions (D&H 2000 s. 2.3)
    members = { tree_r11 = 0.0833, tree_r5 = 0.1667, tree_r1 = 0.5 }

``members`` maps each member, a crisp classifier of the manifest (a ``predictions`` column: one
ROC point), to its training condition tau in PC(+) units, in [0, 1] (from a probability-cost ratio
R: tau = 1 / (1 + R); from a training prior p and cost ratio r = C(-|+)/C(+|-): tau = p r / (p r +
1 - p)). At least two members with distinct conditions; the member with the nearest tau is used,
switching at midpoints (:func:`ccreport.analysis.selection.parameter_based`). A scoring member is an
error: the paper defines no threshold for "the condition it was trained under".

Every entry may restrict itself to some datasets with ``datasets = ["german_credit"]`` (a
workforce capacity in cases depends on the size of the evaluated set).
"""

from __future__ import annotations

from dataclasses import dataclass

from .manifest_checks import shown
from .settings import Bound

CRITERION_KINDS = ("neyman_pearson", "workforce", "performance_independent", "parameter_based")
RULES = ("bayes_prior", "score_driven", "literal")  # ccreport.analysis.selection.RULES
CRITERION_PARAMETERS = {
    "neyman_pearson": ("max_fpr",),
    "workforce": ("capacity", "capacity_share"),
    "performance_independent": ("rule",),
    "parameter_based": ("members",),
}
TRAINING_PC = Bound("a number in [0, 1] (the member's training PC(+))", lambda x: 0 <= x <= 1)
MAX_FPR = Bound("a number in (0, 1]", lambda x: 0 < x <= 1)
MAX_CAPACITY = (
    2**53
)  # every integer up to it is a float exactly (the criterion computes in float64)
CAPACITY = Bound(
    "an integer >= 0 (cases), at most 2**53", lambda x: 0 <= x <= MAX_CAPACITY, integer=True
)
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
            check.report(
                where,
                (key,),
                f"'{key}' is not a parameter of a {kind} criterion, which takes {takes}",
            )
        else:
            check.report(
                where, (key,), f"unknown key '{key}'; expected one of {', '.join(allowed)}"
            )
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
            check.report(
                where,
                ("capacity",),
                "expected exactly one of capacity (cases, an integer >= 0) and capacity_share (a "
                "share of the cases, in [0, 1])",
            )
        else:
            bound = CAPACITY if given[0] == "capacity" else SHARE
            value = check.number(table, given[0], where, bound, required=True)
            params = (
                None
                if value is None
                else ((given[0], value if given[0] == "capacity" else float(value)),)
            )
    elif kind == "parameter_based":
        members = read_members(check, where, table)
        params = None if members is None else (("members", members),)
    else:
        rule = check.choice(table, "rule", where, RULES, default="bayes_prior")
        params = None if rule is None else (("rule", rule),)
    if where.name is None or params is None or ("datasets" in table and datasets is None):
        return None
    line = check.lines.line_of(where.section, where.index)
    return CriterionSpec(where.name, kind, params, line=line, datasets=datasets)


def read_members(check, where, table: dict) -> tuple[tuple[str, float], ...] | None:
    """A parameter-based family's ``members``: crisp classifier name -> training PC(+), at least
    two, distinct conditions in [0, 1]; ((name, tau), ...) in the manifest's order, or None."""
    value = table.get("members")
    what = (
        "a table of crisp classifier name = training PC(+), e.g. members = { tree_a = 0.2, "
        "tree_b = 0.5 }"
    )
    if value is None:
        check.report(where, ("members",), f"missing required key; expected {what}")
        return None
    if not isinstance(value, dict):
        check.report(where, ("members",), f"expected {what}, got {shown(value)}")
        return None
    if len(value) < 2:
        check.report(
            where,
            ("members",),
            f"expected at least two members (a family to select from), got {len(value)}",
        )
        return None
    known = check.classifier_kinds
    out, ok, seen = [], True, {}
    for name in value:
        if name not in known:
            listed = ", ".join(known) or "none"
            check.report(
                where,
                ("members", name),
                f"expected a classifier of this manifest ({listed}), got {shown(name)}",
            )
            ok = False
            continue
        if known[name] != "predictions":
            check.report(
                where,
                ("members", name),
                "expected a crisp classifier (a predictions column: one ROC point); "
                f"'{name}' has scores, and a training condition names no threshold of them",
            )
            ok = False
        got = check.number(value, name, where.inner("members"), TRAINING_PC, required=True)
        if got is None:
            ok = False
            continue
        if float(got) in seen:
            check.report(
                where,
                ("members", name),
                f"expected distinct training conditions; '{seen[float(got)]}' also has {got}",
            )
            ok = False
            continue
        seen[float(got)] = name
        out.append((name, float(got)))
    return tuple(out) if ok else None
