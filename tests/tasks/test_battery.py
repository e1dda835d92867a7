"""The battery's one plan, its executors and the one settings record (issue 17)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ccreport.analysis import priors as pr
from ccreport.analysis.bootstrap import bootstrap_scores
from ccreport.project import manifest
from ccreport.project.loaders import Dataset
from ccreport.project.settings import SETTING_KEYS, AnalysisSettings, task_rng
from ccreport.results import ClassifierResult, ComparisonResult
from ccreport.tasks import bands_task as uncertainty
from ccreport.tasks.battery import TASK_KINDS, Task, TaskKind, assemble, plan, run_task
from ccreport.tasks.executors import ProcessPoolExecutor, SerialExecutor, executor_for


def _dataset(name="d", n=40, seed=0, with_crisp=True):
    rng = np.random.default_rng(seed)
    labels = np.r_[np.ones(n // 2, bool), np.zeros(n - n // 2, bool)]
    scores = {"a": rng.normal(size=n) + labels, "b": rng.normal(size=n) + 0.5 * labels}
    predictions = {"c": rng.random(n) < 0.3 + 0.4 * labels} if with_crisp else {}
    return Dataset(
        name=name,
        path=None,
        sha256="0" * 64,
        labels=labels,
        positive_label="p",
        negative_label="n",
        scores=scores,
        predictions=predictions,
    )


PRIORS = {"uniform": pr.UniformPrior(0.0, 1.0)}
NO_BOOTSTRAP = AnalysisSettings(bootstrap=0)


def test_plan_has_one_task_per_kind_and_scope_member_with_stable_keys():
    data = [_dataset("d1"), _dataset("d2", with_crisp=False)]
    tasks = plan(data, ["a", "b", "c", "missing"], {"d1": PRIORS, "d2": PRIORS}, NO_BOOTSTRAP)
    keys = [t.key for t in tasks]
    assert len(keys) == len(set(keys))
    assert [k for k in keys if k[0] in ("classifier", "uncertainty")][:5] == [
        ("classifier", "d1", "a"),
        ("uncertainty", "d1", "a"),
        ("classifier", "d1", "b"),
        ("uncertainty", "d1", "b"),
        ("classifier", "d1", "c"),
    ]
    # d1: 3 classifiers + 3 pairs; d2: 2 classifiers + 1 pair ("c" and "missing" have no column
    # there)
    per = {s: sum(k.scope == s for k in TASK_KINDS) for s in ("dataset", "classifier", "pair")}
    assert len(tasks) == (3 + 2) * per["classifier"] + (3 + 1) * per["pair"] + 2 * per["dataset"]
    assert ("pair", "d1", "a", "c") in keys and not any("missing" in k for k in keys)
    assert all(t.settings is NO_BOOTSTRAP for t in tasks)
    assert [t.key for t in tasks] == [
        t.key
        for t in plan(data, ["a", "b", "c", "missing"], {"d1": PRIORS, "d2": PRIORS}, NO_BOOTSTRAP)
    ]


def test_assemble_builds_the_typed_results_in_manifest_order():
    tasks = plan([_dataset()], ["b", "a", "c"], {"d": PRIORS}, NO_BOOTSTRAP)
    found = assemble(tasks, SerialExecutor().map(tasks))["d"]
    assert list(found.classifiers) == ["b", "a", "c"]
    assert list(found.comparisons) == ["b vs a", "b vs c", "a vs c"]
    assert all(
        isinstance(c, ClassifierResult) and c.band is None for c in found.classifiers.values()
    )
    assert all(
        isinstance(m, ComparisonResult) and m.difference_band is None
        for m in found.comparisons.values()
    )
    assert found.classifiers["c"].kind == "crisp" and list(found.fields) == ["hybrid"]


def test_a_new_kind_is_one_entry_and_its_fields_reach_its_scope():
    def dataset_size(inputs, settings):
        return {
            "size": int(inputs.labels.size),
            "classifiers": [c.name for c in inputs.classifiers],
        }

    kinds = TASK_KINDS + (TaskKind("size", "dataset", dataset_size),)
    tasks = plan([_dataset(n=30)], ["a", "b", "c"], {"d": PRIORS}, NO_BOOTSTRAP, kinds=kinds)
    assert [t.key for t in tasks if t.key[0] == "size"] == [("size", "d")]
    found = assemble(tasks, [run_task(t) for t in tasks])["d"]
    assert {k: found.fields[k] for k in ("size", "classifiers")} == {
        "size": 30,
        "classifiers": ["a", "b", "c"],
    }
    with pytest.raises(ValueError, match="unknown scope"):
        plan(
            [_dataset()],
            ["a"],
            {"d": PRIORS},
            NO_BOOTSTRAP,
            kinds=(TaskKind("x", "galaxy", dataset_size),),
        )


def test_executors_give_the_same_outputs_and_one_worker_means_this_process():
    assert isinstance(executor_for(1), SerialExecutor) and isinstance(
        executor_for(None), SerialExecutor
    )
    assert isinstance(executor_for(3), ProcessPoolExecutor) and executor_for(3).workers == 3
    with pytest.raises(ValueError):
        ProcessPoolExecutor(0)
    settings = AnalysisSettings(bootstrap=200, calibration="off")
    tasks = plan([_dataset(n=30)], ["a", "c"], {"d": PRIORS}, settings)
    keys = [t.key for t in tasks]
    serial_outputs, pooled_outputs = SerialExecutor().map(tasks), ProcessPoolExecutor(2).map(tasks)
    serial, pooled = dict(zip(keys, serial_outputs)), dict(zip(keys, pooled_outputs))
    band_s = assemble(tasks, serial_outputs)["d"].classifiers["a"].band
    band_p = assemble(tasks, pooled_outputs)["d"].classifiers["a"].band
    np.testing.assert_array_equal(band_s.lower, band_p.lower)
    fields_s = serial["pairs", "d"]["comparison_fields"]["a", "c"]
    fields_p = pooled["pairs", "d"]["comparison_fields"]["a", "c"]
    assert (
        fields_s["expected_cost_difference_interval"]["uniform"].to_dict()
        == fields_p["expected_cost_difference_interval"]["uniform"].to_dict()
    )
    assert (
        fields_s["family_wise"].to_dict()["critical_value"]
        == fields_p["family_wise"].to_dict()["critical_value"]
    )
    assert ProcessPoolExecutor(2).map([]) == []


def test_a_task_draws_the_same_numbers_alone_or_among_others():
    settings = AnalysisSettings(bootstrap=200, calibration="double")
    tasks = plan([_dataset(n=30)], ["a", "b"], {"d": PRIORS}, settings)
    together = dict(zip([t.key for t in tasks], SerialExecutor().map(tasks)))
    for key, read in [
        (
            ("uncertainty", "d", "b"),
            lambda out: out[uncertainty.BAND_CALIBRATION].calibration.upper,
        ),
        (
            ("pairs", "d"),
            lambda out: out["classifier_fields"]["b"][uncertainty.BAND_REPLICATES].values,
        ),
    ]:
        (alone,) = [t for t in tasks if t.key == key]
        assert isinstance(alone, Task)
        np.testing.assert_array_equal(read(run_task(alone)), read(together[key]))


def test_a_scoring_classifiers_band_is_read_from_the_datasets_one_resampling():
    """Issue 9 item 1: the band's replicates are the dataset's (the pairs task's), read at the
    levels the classifier's own task calibrated; with one classifier too; a crisp classifier's band
    is its own task's binomial band."""
    settings = AnalysisSettings(bootstrap=200, calibration="double")
    for names in (["a", "b", "c"], ["a"]):
        tasks = plan([_dataset(n=40)], names, {"d": PRIORS}, settings)
        outputs = SerialExecutor().map(tasks)
        found = dict(zip([t.key for t in tasks], outputs))
        reps = found["pairs", "d"]["classifier_fields"]["a"][uncertainty.BAND_REPLICATES]
        own = found["uncertainty", "d", "a"][uncertainty.BAND_CALIBRATION]
        assert "band" not in found["uncertainty", "d", "a"] and own.calibration.outer > 0
        band = assemble(tasks, outputs)["d"].classifiers["a"].band
        lower, upper = uncertainty.interval_fields(reps, own.calibration, [])[
            "band"
        ]  # studentized (issue 33)
        np.testing.assert_array_equal(band.lower, lower)
        np.testing.assert_array_equal(band.upper, upper)
        assert band.method == "stratified instance bootstrap" and band.calibration is not None
    # one scoring classifier: its own stratified bootstrap from the dataset's generator (O(R
    # x groups) on merged score groups, where the shared draw of several classifiers is O(R x n))
    data = _dataset(n=40)
    tasks = plan([data], ["a"], {"d": PRIORS}, settings)
    (pairs,) = [t for t in tasks if t.key == ("pairs", "d")]
    alone = run_task(pairs)["classifier_fields"]["a"][uncertainty.BAND_REPLICATES]
    own = bootstrap_scores(
        task_rng(settings.seed, "bootstrap", "d"), data.labels, data.scores["a"], 200, PRIORS
    )
    assert alone.values.tobytes() == own.values.tobytes()
    tasks = plan([_dataset(n=40)], ["a", "c"], {"d": PRIORS}, settings)
    outputs = SerialExecutor().map(tasks)
    assert "c" not in dict(zip([t.key for t in tasks], outputs))["pairs", "d"]["classifier_fields"]
    assert assemble(tasks, outputs)["d"].classifiers["c"].band.method == "binomial (row marginals)"


def test_settings_declared_once_drive_the_manifest_and_results():
    assert (
        set(SETTING_KEYS) <= set(manifest.PROJECT_KEYS)
        and "workers" not in SETTING_KEYS
        and "scheduler" not in SETTING_KEYS
    )
    for f in dataclasses.fields(AnalysisSettings):
        assert f"``{f.name}``" in manifest.__doc__
        assert f.metadata["doc"] in manifest.__doc__
    assert list(AnalysisSettings().to_dict()) == [
        "confidence",
        "bootstrap",
        "band",
        "calibration",
        "partial_ranges",
        "threshold_axis",
        "comparisons",
    ]
    assert manifest.DEFAULT_SEED == AnalysisSettings().seed


def test_pairs_task_resamples_once_and_takes_significance_only_from_the_family_wise_test():
    """Issue 10: one dataset task fills every pair; ``significant`` is the family-wise test's,
    p_holm is the step-down max-T adjustment over every pair and prior, and the result equals the
    analysis layer's."""
    from ccreport.analysis.paired_bootstrap import bootstrap_dataset
    from ccreport.analysis.significance import (
        dataset_inference,
        holm,
        step_down_max_t,
        studentized,
    )
    from ccreport.project.settings import task_rng

    priors = {"uniform": pr.UniformPrior(0.0, 1.0), "low": pr.UniformPrior(0.0, 0.3)}
    settings = AnalysisSettings(bootstrap=200, calibration="off")
    data = _dataset(n=60)
    tasks = plan([data], ["a", "b", "c"], {"d": priors}, settings)
    keys = [t.key for t in tasks]
    assert ("pairs", "d") in keys and not any(k[0] == "pairs" and len(k) > 2 for k in keys)
    out = run_task(tasks[keys.index(("pairs", "d"))])
    fields = out["comparison_fields"]
    assert list(fields) == [("a", "b"), ("a", "c"), ("b", "c")]
    reps = bootstrap_dataset(
        task_rng(settings.seed, "bootstrap", "d"),
        data.labels,
        data.scores,
        data.predictions,
        200,
        priors,
    )
    ref = dataset_inference(reps, list(fields), settings.confidence, list(priors))
    raw = {}
    for pair, f in fields.items():
        fw = ref[pair].family_wise
        assert [(s.lo, s.hi, s.better) for s in f["significant"]] == [
            (s["lo"], s["hi"], s["better"]) for s in fw.significant
        ]
        assert (
            f["family_wise"].critical_value == fw.critical
            and f["family_wise"].p_value == fw.p_value
        )
        assert (
            f["difference_band"].kind == "pointwise" and "not adjusted" in f["difference_band"].note
        )
        np.testing.assert_array_equal(f["difference_band"].lower, ref[pair].pointwise[0])
        for p, iv in f["expected_cost_difference_interval"].items():
            assert iv.p_value == ref[pair].expected[p]["p_value"] and iv.p_holm >= iv.p_value
            raw[(*pair, p)] = iv.p_value
    tests = [(a, b, p) for a, b in fields for p in priors]
    stats = [
        studentized(
            reps.expected_difference(a, b, p, raw=True), ref[(a, b)].expected[p]["difference"]
        )
        for a, b, p in tests
    ]
    adjusted = dict(
        zip(tests, step_down_max_t([t for t, _ in stats], np.column_stack([n for _, n in stats])))
    )
    bonferroni_holm = holm(raw)
    for pair, f in fields.items():
        for p, iv in f["expected_cost_difference_interval"].items():
            assert iv.p_holm == pytest.approx(adjusted[(*pair, p)])
            assert (
                iv.p_holm <= bonferroni_holm[(*pair, p)] + 0.05
            )  # never much above Holm, often below
            assert "Westfall" in iv.adjustment
    results = assemble(tasks, [run_task(t) for t in tasks])["d"]
    m = results.comparisons["a vs b"]
    assert m.family_wise is not None and "significant_simultaneous" not in m.to_dict()
    assert "p_holm" in m.to_dict()["expected_cost_difference_interval"]["uniform"]
    assert (
        run_task(dataclasses.replace(tasks[keys.index(("pairs", "d"))], settings=NO_BOOTSTRAP))
        == {}
    )


def test_band_target_states_the_measured_shortfall_for_few_distinct_scores():
    """Issue 10 item 4 (figures re-measured for issue 33): a classifier with at most FEW_SCORES
    distinct scores gets what its band does and the measured coverage (at PC(+) = 0.1-0.9, n =
    200, from ccreport.analysis.measured_coverage) in its band's target text; continuous scores do
    not."""
    from ccreport.analysis import measured_coverage as mc
    from ccreport.tasks.bands_task import FEW_SCORES, TARGET_FEW_SCORES, TARGET_SCORES

    data = _dataset(n=60, with_crisp=False)
    data.scores["a"] = np.round(data.scores["a"])  # a handful of distinct values
    assert np.unique(data.scores["a"]).size <= FEW_SCORES < np.unique(data.scores["b"]).size
    settings = AnalysisSettings(bootstrap=50, calibration="off")
    tasks = plan([data], ["a", "b"], {"d": PRIORS}, settings)
    found = assemble(tasks, SerialExecutor().map(tasks))["d"].classifiers
    few, many = found["a"].band.target, found["b"].band.target
    assert few == TARGET_SCORES + TARGET_FEW_SCORES
    assert mc.span(mc.FIVE_ROUNDED_SELECTED) in few
    assert many == TARGET_SCORES


def test_usable_folds_counts_each_selection_set_as_the_loop_did():
    """usable_folds by per-fold counts (O(n)) agrees with checking every selection set by a mask."""
    from ccreport.tasks.battery import usable_folds

    def by_masks(labels, folds):
        codes = np.unique(folds)
        if codes.size < 2:
            return None
        for k in codes:
            rest = labels[folds != k]
            if rest.all() or not rest.any():
                return None
        return folds

    rng = np.random.default_rng(11)
    for trial in range(300):
        n = int(rng.integers(1, 12))
        labels = rng.random(n) < rng.random()
        folds = rng.integers(0, int(rng.integers(1, 5)), n)
        if trial % 3 == 0:
            folds = np.array([f"f{f}" for f in folds])
        assert (usable_folds(labels, folds) is None) == (by_masks(labels, folds) is None)


def test_a_pool_does_its_meanwhile_once_while_the_workers_run(tmp_path):
    """``meanwhile`` runs in this process once every task is handed out (the workers exist), and
    changes no output."""
    import multiprocessing

    from site_fixtures import write_tiny_project

    from ccreport.commands.build import compute_results
    from ccreport.project.loaders import load_project_data
    from ccreport.project.manifest import load_project
    from ccreport.project.project_files import read_project_files
    from ccreport.results import write_results_json

    project = load_project(write_tiny_project(tmp_path / "project"))
    datasets = load_project_data(project)
    files = read_project_files(project, datasets)
    workers_seen = []
    pool = ProcessPoolExecutor(
        2, meanwhile=lambda: workers_seen.append(len(multiprocessing.active_children()))
    )
    pooled = compute_results(project, datasets, files, pool)
    assert len(workers_seen) == 1 and workers_seen[0] >= 1
    serial = compute_results(project, datasets, files, SerialExecutor())
    assert write_results_json(pooled) == write_results_json(serial)
