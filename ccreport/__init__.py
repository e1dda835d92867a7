"""ccreport: cost-curve analysis reports for binary classifiers.

The public API does what ``ccreport build`` does, piece by piece, for notebook users::

    from ccreport import roc_points, lower_envelope, operating_range, expected_cost, BetaPrior
    roc = roc_points(y_true, scores)          # Fawcett 2006 Alg. 1, ties as diagonal segments
    env = lower_envelope(roc)                 # D&H 2006 section 3.1, trivial classifiers included
    operating_range(env)                      # (lo, hi) in PC(+), or None
    expected_cost(env, BetaPrior(2, 8))       # exact, D&H 2006 section 3.2

    from ccreport import build
    results = build("example_project")        # the whole battery + results.json + site + PDF

    from ccreport import evaluate, CostCurveDisplay, write_project   # docs/notebook.md
    results = evaluate(
        y_true, {"logreg": p_lr, "tree": p_tree}, priors={"sceptic": BetaPrior(2, 8)}
    )
    CostCurveDisplay.from_predictions(y_true, p_lr, name="logreg")
    write_project(results, "my_project")      # then: ccreport build my_project
"""

from .runtime.build_date import libraries_see_no_invalid_epoch  # noqa: E402
from .version import __version__  # noqa: E402,F401

with (
    libraries_see_no_invalid_epoch()
):  # numpy.f2py's import reads SOURCE_DATE_EPOCH (runtime/build_date.py)
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
    from .notebook import evaluate, write_project  # noqa: E402  (docs/notebook.md)

NOTEBOOK_DISPLAYS = {  # name -> module of ccreport.notebook; imported on first use (matplotlib)
    "CostCurveDisplay": "displays",
    "DifferenceDisplay": "displays",
    "KendallCurveDisplay": "threshold_displays",
    "ThresholdChoiceDisplay": "threshold_displays",
    "RocivDisplay": "instance_cost_displays",
    "InstanceCostCurveDisplay": "instance_cost_displays",
}


def __getattr__(name):
    if name in NOTEBOOK_DISPLAYS:
        import importlib

        return getattr(
            importlib.import_module(f".notebook.{NOTEBOOK_DISPLAYS[name]}", __name__), name
        )
    raise AttributeError(f"module 'ccreport' has no attribute {name!r}")


__all__ = [
    "BetaPrior",
    "CostCurveDisplay",
    "DifferenceDisplay",
    "Envelope",
    "InstanceCostCurveDisplay",
    "KendallCurveDisplay",
    "RocivDisplay",
    "ThresholdChoiceDisplay",
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
    "evaluate",
    "expected_cost",
    "lower_envelope",
    "normalized_expected_cost",
    "operating_range",
    "probability_cost",
    "roc_points",
    "write_project",
]


from .commands.build import build as _build  # noqa: E402


def build(project_dir=".", out_dir=None, workers=None, pdf=True, **options):
    """Build a project as ``ccreport build`` does and return its Results (see
    ccreport.commands.build.build)."""
    return _build(project_dir, out_dir, workers=workers, pdf=pdf, **options)
