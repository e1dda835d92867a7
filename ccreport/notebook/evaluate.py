"""``ccreport.evaluate``: the battery of ``ccreport build`` on arrays already in a notebook.

The arrays become the in-memory project ``ccreport build`` would read
(:func:`~ccreport.notebook.project.notebook_project`), and
:func:`ccreport.commands.build.compute_results` runs the same plan -> executor -> assemble on it:
there is no second analysis path, so every number equals the report's for the same data, and
``results.json`` is byte for byte the one ``ccreport build`` writes for the folder
:func:`ccreport.write_project` makes of the same arguments.
"""

from __future__ import annotations

import weakref

from ..commands.build import compute_results
from ..results import Results
from ..tasks.executors import executor_for
from .project import DEFAULT_DATASET, DEFAULT_TITLE, NotebookProject, notebook_project

# Results of evaluate -> the project they were computed from (write_project writes it)
SOURCES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def evaluate(
    y_true,
    scores=None,
    *,
    predictions=None,
    pos_label=None,
    priors=None,
    folds=None,
    costs=None,
    title: str = DEFAULT_TITLE,
    dataset: str = DEFAULT_DATASET,
    workers: int = 1,
    **settings,
) -> Results:
    """Run the whole battery (D&H 2006 sections 3-4.7) on arrays and return its Results.

    ``y_true``: each instance's true class (two values); ``scores``: ``{"name": scores, ...}``,
    higher = more positive; ``predictions``: ``{"name": labels, ...}`` of crisp classifiers, each
    label one of y_true's classes (a single cost line, D&H 2006 Eq. 2). Any 1-d numpy array, list,
    pandas Series or pyarrow array. ``pos_label``: the positive class (None: 1 or True, for classes
    {0, 1}, {-1, 1}, {False, True}, as scikit-learn).
    ``priors``: ``{"name": prior}``, each a manifest ``[[priors]]`` table as a dict
    (``{"distribution": "beta", "a": 2, "b": 8}``) or a ready prior (``BetaPrior(2, 8)``; uniform,
    beta, point, induced); default one uniform prior. ``folds``: each instance's cross-validation
    fold (fold averages, D&H 2006 section 4.5). ``costs``: instance-varying costs (Fawcett 2006,
    ROCIV), as the manifest's ``costs``: an array of each instance's misclassification cost (each
    positive's false-negative cost, each negative's false-positive cost; the short form), or the
    cost-benefit form ``{"fn": ..., "fp": ..., "tp": ..., "tn": ..., "unit": "DM"}``, each cell an
    array (one value per instance) or a number, positives costing fn + tp and negatives fp + tn.
    ``settings``: the manifest's ``[project]`` settings (seed, confidence, bootstrap, band,
    calibration, ..., ``comparisons``: "all", "best", ``{"baseline": name}`` or a list of (a, b)
    pairs; :mod:`ccreport.tasks.comparisons`), checked by the same declaration with the same
    messages; ``title``/``dataset``: the report's title and the dataset's name; ``workers``:
    processes (results do not depend on it).

    Raises :class:`ccreport.errors.UserInputError`, one line per problem naming ``evaluate`` and the
    argument: ``evaluate: bootstrap: expected an integer from 500 to 20000, got 10``.
    """
    source = notebook_project(
        "evaluate",
        y_true,
        scores,
        predictions=predictions,
        pos_label=pos_label,
        priors=priors,
        folds=folds,
        costs=costs,
        title=title,
        dataset=dataset,
        **settings,
    )
    return run(source, workers)


def run(source: NotebookProject, workers: int = 1) -> Results:
    """The battery on an in-memory project, as ``ccreport build`` runs it (compute_results)."""
    results = compute_results(source.project, [source.dataset], source.files, executor_for(workers))
    SOURCES[results] = source
    return results


def source_of(results: Results) -> NotebookProject | None:
    """The in-memory project an ``evaluate`` call computed these Results from (None: another
    origin)."""
    return SOURCES.get(results)
