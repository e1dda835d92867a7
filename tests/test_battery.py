"""The battery's one plan, its executors and the one settings record (issue 17)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ccreport import manifest
from ccreport.analysis import priors as pr
from ccreport.battery import TASK_KINDS, Task, TaskKind, assemble, plan, run_task
from ccreport.executors import ProcessPoolExecutor, SerialExecutor, executor_for
from ccreport.loaders import Dataset
from ccreport.results import ClassifierResult, ComparisonResult
from ccreport.settings import SETTING_KEYS, AnalysisSettings


def _dataset(name="d", n=40, seed=0, with_crisp=True):
    rng = np.random.default_rng(seed)
    labels = np.r_[np.ones(n // 2, bool), np.zeros(n - n // 2, bool)]
    scores = {"a": rng.normal(size=n) + labels, "b": rng.normal(size=n) + 0.5 * labels}
    predictions = {"c": rng.random(n) < 0.3 + 0.4 * labels} if with_crisp else {}
    return Dataset(name=name, path=None, sha256="0" * 64, labels=labels, positive_label="p", negative_label="n",
                   scores=scores, predictions=predictions)


PRIORS = {"uniform": pr.UniformPrior(0.0, 1.0)}
NO_BOOTSTRAP = AnalysisSettings(bootstrap=0)


def test_plan_has_one_task_per_kind_and_scope_member_with_stable_keys():
    data = [_dataset("d1"), _dataset("d2", with_crisp=False)]
    tasks = plan(data, ["a", "b", "c", "missing"], {"d1": PRIORS, "d2": PRIORS}, NO_BOOTSTRAP)
    keys = [t.key for t in tasks]
    assert len(keys) == len(set(keys))
    assert [k for k in keys if k[0] in ("classifier", "uncertainty")][:5] == [("classifier", "d1", "a"), ("uncertainty", "d1", "a"), ("classifier", "d1", "b"),
                        ("uncertainty", "d1", "b"), ("classifier", "d1", "c")]
    # d1: 3 classifiers + 3 pairs; d2: 2 classifiers + 1 pair ("c" and "missing" have no column there)
    per = {s: sum(k.scope == s for k in TASK_KINDS) for s in ("dataset", "classifier", "pair")}
    assert len(tasks) == (3 + 2) * per["classifier"] + (3 + 1) * per["pair"] + 2 * per["dataset"]
    assert ("pair", "d1", "a", "c") in keys and not any("missing" in k for k in keys)
    assert all(t.settings is NO_BOOTSTRAP for t in tasks)
    assert [t.key for t in tasks] == [t.key for t in plan(data, ["a", "b", "c", "missing"], {"d1": PRIORS, "d2": PRIORS}, NO_BOOTSTRAP)]


def test_assemble_builds_the_typed_results_in_manifest_order():
    tasks = plan([_dataset()], ["b", "a", "c"], {"d": PRIORS}, NO_BOOTSTRAP)
    found = assemble(tasks, SerialExecutor().map(tasks))["d"]
    assert list(found.classifiers) == ["b", "a", "c"]
    assert list(found.comparisons) == ["b vs a", "b vs c", "a vs c"]
    assert all(isinstance(c, ClassifierResult) and c.band is None for c in found.classifiers.values())
    assert all(isinstance(m, ComparisonResult) and m.difference_band is None for m in found.comparisons.values())
    assert found.classifiers["c"].kind == "crisp" and list(found.fields) == ["hybrid"]


def test_a_new_kind_is_one_entry_and_its_fields_reach_its_scope():
    def dataset_size(inputs, settings):
        return {"size": int(inputs.labels.size), "classifiers": [c.name for c in inputs.classifiers]}

    kinds = TASK_KINDS + (TaskKind("size", "dataset", dataset_size),)
    tasks = plan([_dataset(n=30)], ["a", "b", "c"], {"d": PRIORS}, NO_BOOTSTRAP, kinds=kinds)
    assert [t.key for t in tasks if t.key[0] == "size"] == [("size", "d")]
    found = assemble(tasks, [run_task(t) for t in tasks])["d"]
    assert {k: found.fields[k] for k in ("size", "classifiers")} == {"size": 30, "classifiers": ["a", "b", "c"]}
    with pytest.raises(ValueError, match="unknown scope"):
        plan([_dataset()], ["a"], {"d": PRIORS}, NO_BOOTSTRAP, kinds=(TaskKind("x", "galaxy", dataset_size),))


def test_executors_give_the_same_outputs_and_one_worker_means_this_process():
    assert isinstance(executor_for(1), SerialExecutor) and isinstance(executor_for(None), SerialExecutor)
    assert isinstance(executor_for(3), ProcessPoolExecutor) and executor_for(3).workers == 3
    with pytest.raises(ValueError):
        ProcessPoolExecutor(0)
    settings = AnalysisSettings(bootstrap=200, calibration="off")
    tasks = plan([_dataset(n=30)], ["a", "c"], {"d": PRIORS}, settings)
    keys = [t.key for t in tasks]
    serial = dict(zip(keys, SerialExecutor().map(tasks)))
    pooled = dict(zip(keys, ProcessPoolExecutor(2).map(tasks)))
    band_s, band_p = serial["uncertainty", "d", "a"]["band"], pooled["uncertainty", "d", "a"]["band"]
    np.testing.assert_array_equal(band_s.lower, band_p.lower)
    assert serial["pair", "d", "a", "c"]["expected_cost_difference_interval"]["uniform"].to_dict() == \
        pooled["pair", "d", "a", "c"]["expected_cost_difference_interval"]["uniform"].to_dict()
    assert ProcessPoolExecutor(2).map([]) == []


def test_a_task_draws_the_same_numbers_alone_or_among_others():
    settings = AnalysisSettings(bootstrap=200, calibration="off")
    tasks = plan([_dataset(n=30)], ["a", "b"], {"d": PRIORS}, settings)
    alone = [t for t in tasks if t.key == ("uncertainty", "d", "b")]
    together = dict(zip([t.key for t in tasks], SerialExecutor().map(tasks)))
    np.testing.assert_array_equal(run_task(alone[0])["band"].upper, together["uncertainty", "d", "b"]["band"].upper)
    assert isinstance(alone[0], Task)


def test_settings_declared_once_drive_the_manifest_and_results():
    assert set(SETTING_KEYS) <= set(manifest.PROJECT_KEYS) and "workers" not in SETTING_KEYS
    for f in dataclasses.fields(AnalysisSettings):
        assert f"``{f.name}``" in manifest.__doc__
        assert f.metadata["doc"] in manifest.__doc__
    assert list(AnalysisSettings().to_dict()) == ["confidence", "bootstrap", "band", "calibration", "partial_ranges",
                                                 "threshold_axis"]
    assert manifest.DEFAULT_SEED == AnalysisSettings().seed
