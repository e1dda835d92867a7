"""The Results of a build: frozen dataclasses, and their JSON form (``results.json``).

Everything downstream (figures, pages, the PDF) reads these objects and nothing else. Each analysis
has its own frozen result types with their own ``to_dict`` (their JSON form), in a module of this
package named after the analysis, held as an optional field of :class:`ClassifierResult`,
:class:`ComparisonResult` or :class:`DatasetResult` (``None``: the analysis did not run, and its key
is left out of ``results.json``). The JSON form is versioned by ``SCHEMA_VERSION``;
``docs/results-schema.md`` documents every key. Serialisation is deterministic: keys in manifest
order, floats as Python's shortest round-trip repr, so the same inputs and seed give the same bytes.

* :mod:`.core` - the records every build has (priors, classifiers, comparisons, datasets, the
  provenance, :class:`Results`) and the JSON form;
* :mod:`.uncertainty`, :mod:`.threshold_choice`, :mod:`.instance_costs`, :mod:`.selection` - one
  module per analysis;
* :mod:`.convert` - turning records into JSON-ready values; :mod:`.tables` - rows for notebooks.
"""

from __future__ import annotations

from .bands import (
    Band,
    CalibrationDescription,
    DifferenceBand,
    ExpectedCostDifferenceInterval,
    ExpectedCostInterval,
    FamilyWiseResult,
    FoldAverageResult,
    SignificantRegion,
    SimultaneousBand,
)
from .comparisons import ComparisonChoice
from .core import (
    SCHEMA_VERSION,
    ClassifierResult,
    ComparisonResult,
    DatasetResult,
    InputFile,
    PriorResult,
    Provenance,
    ProvenanceFile,
    Results,
    ResultsDigests,
    classifier_names,
    dataset_priors,
    results_json_digests,
    results_to_dict,
    results_to_json,
    write_results_json,
)
from .instance_costs import (
    InstanceCostComparisonResult,
    InstanceCostDifferenceIntervals,
    InstanceCostIntervals,
    InstanceCosts,
)
from .selection import (
    CURVE_POINTS,
    Decision,
    DecisionsResult,
    FamilyResult,
    HybridBand,
    HybridResult,
    NotApplicable,
    SelectionResult,
    bounded_curve,
)
from .threshold_choice import (
    AreaDifference,
    PartialAreaResult,
    ThresholdChoiceComparison,
    ThresholdChoiceResult,
    ThresholdMethodResult,
)

__all__ = [
    "ClassifierResult",
    "ComparisonChoice",
    "ComparisonResult",
    "DatasetResult",
    "InputFile",
    "PriorResult",
    "Provenance",
    "ProvenanceFile",
    "Results",
    "SCHEMA_VERSION",
    "classifier_names",
    "dataset_priors",
    "results_to_dict",
    "results_json_digests",
    "results_to_json",
    "ResultsDigests",
    "write_results_json",
    "Band",
    "CalibrationDescription",
    "DifferenceBand",
    "ExpectedCostDifferenceInterval",
    "ExpectedCostInterval",
    "FamilyWiseResult",
    "FoldAverageResult",
    "SignificantRegion",
    "SimultaneousBand",
    "AreaDifference",
    "PartialAreaResult",
    "ThresholdChoiceComparison",
    "ThresholdChoiceResult",
    "ThresholdMethodResult",
    "InstanceCostComparisonResult",
    "InstanceCostDifferenceIntervals",
    "InstanceCostIntervals",
    "InstanceCosts",
    "CURVE_POINTS",
    "Decision",
    "DecisionsResult",
    "HybridBand",
    "FamilyResult",
    "HybridResult",
    "NotApplicable",
    "SelectionResult",
    "bounded_curve",
]
