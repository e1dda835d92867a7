"""The notebook API: the battery on arrays, figures in one line, and from a notebook to a report.

* :func:`evaluate` - ``ccreport build``'s battery on arrays (:mod:`.evaluate`);
* :func:`write_project` - a project folder ``ccreport build`` turns into the report
  (:mod:`.export`);
* :class:`CostCurveDisplay`, :class:`DifferenceDisplay` - scikit-learn style displays drawing the
  report's figures (:mod:`.displays`); :class:`KendallCurveDisplay`, :class:`ThresholdChoiceDisplay`
  (threshold choice, :mod:`.threshold_displays`); :class:`RocivDisplay`,
  :class:`InstanceCostCurveDisplay` (instance-varying costs, :mod:`.instance_cost_displays`).

See docs/notebook.md.
"""

from .evaluate import evaluate
from .export import write_project

__all__ = ["evaluate", "write_project"]
