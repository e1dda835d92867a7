"""ccreport: cost-curve analysis reports for binary classifiers.

The public API does what ``ccreport build`` does, piece by piece, for notebook users::

    from ccreport import roc_points, lower_envelope, operating_range, expected_cost, BetaPrior
    roc = roc_points(y_true, scores)          # Fawcett 2006 Alg. 1, ties as diagonal segments
    env = lower_envelope(roc)                 # D&H 2006 section 3.1, trivial classifiers included
    operating_range(env)                      # (lo, hi) in PC(+), or None
    expected_cost(env, BetaPrior(2, 8))       # exact, D&H 2006 section 3.2

    from ccreport import build
    results = build("example_project")        # the whole battery + results.json + site + PDF
"""

from .version import __version__  # noqa: E402,F401

from .analysis.conditions import normalized_expected_cost, probability_cost  # noqa: E402
from .analysis.envelope import Envelope, compare, cost_lines, lower_envelope, operating_range  # noqa: E402
from .analysis.priors import (  # noqa: E402
    BetaPrior,
    InducedPrior,
    PointPrior,
    UniformPrior,
    expected_cost,
)
from .analysis.roc import RocCurve, auc, convex_hull, crisp_roc, roc_points  # noqa: E402

__all__ = [
    "BetaPrior",
    "Envelope",
    "InducedPrior",
    "PointPrior",
    "RocCurve",
    "UniformPrior",
    "auc",
    "build",
    "compare",
    "convex_hull",
    "cost_lines",
    "crisp_roc",
    "expected_cost",
    "lower_envelope",
    "normalized_expected_cost",
    "operating_range",
    "probability_cost",
    "roc_points",
]


def build(project_dir=".", out_dir=None, workers=None, pdf=True, **options):
    """Build a project as ``ccreport build`` does and return its Results (see ccreport.build.build)."""
    from .build import build as _build

    return _build(project_dir, out_dir, workers=workers, pdf=pdf, **options)
