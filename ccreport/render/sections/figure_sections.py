"""The dataset page's sections that only show figures (the registered kinds naming them).

The body shows the cost curves beside the difference curves of the pairs the findings cite (the
pairs whose comparison a finding quotes: :func:`cited_pairs`); the appendix the ROC curves, each
classifier highlighted and the difference curves of the other pairs.
"""

from __future__ import annotations

from ...results import DatasetResult
from .base import Section


def cited_pairs(findings) -> frozenset[str]:
    """The comparison keys (``"a vs b"``) that a dataset's findings quote: every
    :class:`~ccreport.render.findings.Ref` of the quote and the findings whose ``results.json``
    path is ``("datasets", <dataset>, "comparisons", <key>, ...)``."""
    keys = set()
    for finding in [findings.quote, *findings.findings]:
        for ref in finding.refs:
            if len(ref.path) > 3 and ref.path[0] == "datasets" and ref.path[2] == "comparisons":
                keys.add(ref.path[3])
    return frozenset(keys)


def _dataset_or_cited(d: DatasetResult, cited: frozenset[str], name: str | None) -> bool:
    return name is None or name in cited


def _not_cited(d: DatasetResult, cited: frozenset[str], name: str | None) -> bool:
    return name not in cited


FIGURES = Section(
    "figures",
    "Cost curves and the differences the findings cite",
    "Cost curves",
    figures_of=("figures", "differences"),
    shows=_dataset_or_cited,
)
CURVES = Section("curves", "ROC curves", "ROC curves", part="appendix")
FOCUS = Section(
    "focus", "Each classifier highlighted", "Each classifier highlighted", part="appendix"
)
DIFFERENCES = Section(
    "differences",
    "Difference curves of the other pairs",
    "Other difference curves",
    part="appendix",
    shows=_not_cited,
)
