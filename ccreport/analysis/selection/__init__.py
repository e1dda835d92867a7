"""Selection criteria and hybrid classifiers (Drummond & Holte 2006 section 5; 2000
sections 2.2-2.3).

* :mod:`.hull`: threshold tables and the dataset hybrid (cost-minimizing selection);
* :mod:`.criteria`: Neyman-Pearson and workforce utilisation on the ROC hull;
* :mod:`.independent`: performance-independent selection (threshold rules, parameter-based);
* :mod:`.out_of_fold`: honest (out-of-fold) evaluation of empirical selection;
* :mod:`.curves`: the piecewise, possibly discontinuous hybrid cost curve;
* :mod:`.pruning`: ROC hulls of long paths from few of their points (block pruning);
* :mod:`.classifier`: everything for one classifier or one dataset, as results.json wants it.
"""

from .classifier import (
    ClassifierSelection,
    Criterion,
    DatasetSelection,
    NeymanPearson,
    PerformanceIndependent,
    Workforce,
    select_classifier,
    select_dataset,
    select_scores,
)
from .criteria import (
    BASES,
    NeymanPearsonChoice,
    WorkforceChoice,
    neyman_pearson,
    operating_point,
    rank_constrained,
    workforce,
)
from .curves import HybridCurve
from .family import ParameterBased, select_family
from .hull import Hybrid, Tie, dataset_hybrid, threshold_table
from .independent import (
    RULES,
    IndependentSelection,
    parameter_based,
    performance_independent,
    tau_from_ratio,
    threshold_for,
    value_at,
)
from .out_of_fold import OutOfFold, out_of_fold

__all__ = [
    "BASES",
    "RULES",
    "ClassifierSelection",
    "Criterion",
    "DatasetSelection",
    "Hybrid",
    "HybridCurve",
    "IndependentSelection",
    "NeymanPearson",
    "NeymanPearsonChoice",
    "OutOfFold",
    "PerformanceIndependent",
    "ParameterBased",
    "select_family",
    "Tie",
    "Workforce",
    "WorkforceChoice",
    "dataset_hybrid",
    "neyman_pearson",
    "operating_point",
    "rank_constrained",
    "out_of_fold",
    "parameter_based",
    "performance_independent",
    "select_classifier",
    "select_dataset",
    "select_scores",
    "tau_from_ratio",
    "threshold_for",
    "threshold_table",
    "value_at",
    "workforce",
]
