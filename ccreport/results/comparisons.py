"""The record of which pairs a dataset compares and why (``[project] comparisons``;
:mod:`ccreport.tasks.comparisons`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class ComparisonChoice:
    """The pairs of one dataset: what the manifest asked for, the rule applied and the pairs chosen.

    ``requested``: the setting in the manifest's form ("auto", "all", "best", {"baseline": name}
    or a list of pairs); ``rule``: what was applied here ("all", "best", "baseline" or "pairs";
    "auto" resolved by the dataset's number of classifiers); ``reference``: the classifier every
    other is compared against (best or baseline; None otherwise or when absent from the dataset);
    ``basis``: how the best was chosen (None unless "best"); ``pairs``: (a, b) in order.
    """

    requested: Any
    rule: str
    reference: str | None
    basis: str | None
    pairs: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict:
        out = {"requested": self.requested, "rule": self.rule}
        if self.reference is not None:
            out["reference"] = self.reference
        if self.basis is not None:
            out["basis"] = self.basis
        out["n_pairs"] = len(self.pairs)
        return out
