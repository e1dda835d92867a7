"""Issue 38: what `verify` reads back is validated, and what it prints stays readable.

The hostile archives themselves (tampered results.json, PDFs, symbolic links...) are cases of
tests/commands/test_bad_input_corpus.py; here: the four-digit ISO dates a build writes and verify
reads back, the summary of many differences, and the validation helpers.
"""

from __future__ import annotations

import json
import tempfile
from datetime import date
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.commands.build import build
from ccreport.commands.verify import (
    UnusableReport,
    Verification,
    difference_section,
    load_results,
    recorded_date,
)
from ccreport.runtime import build_date as bd

FAST = 'bootstrap = 500\ncalibration = "off"'


# --- ISO 8601 dates with four-digit years ---------------------------------------------------------


@pytest.mark.parametrize(
    "day, iso",
    [
        (date(1, 1, 1), "0001-01-01T00:00:00Z"),
        (date(999, 12, 31), "0999-12-31T00:00:00Z"),
        (date(1970, 1, 1), "1970-01-01T00:00:00Z"),
        (date(9999, 12, 31), "9999-12-31T00:00:00Z"),
    ],
)
def test_build_dates_are_iso_with_four_digit_years_and_read_back(day, iso):
    moment = bd.BuildDate(bd.epoch_of_date(day), bd.FROM_MANIFEST)
    assert moment.iso == iso and moment.display() == iso[:10]
    assert bd.parse_iso(iso) == moment.epoch
    if day.year < 1000:  # as strftime("%Y") writes it on glibc: not ISO 8601
        assert bd.parse_iso(iso.lstrip("0")) is None


@pytest.mark.parametrize(
    "text",
    [
        "garbage",
        "1-01-01T00:00:00Z",
        "2024-02-30T00:00:00Z",
        "2024-01-01T24:00:00Z",
        "0000-01-01T00:00:00Z",
        "2024-01-01 00:00:00Z",
        "2024-01-01T00:00:00",
        "\u0662\u0660\u0662\u0664-01-01T00:00:00Z",
        1700000000,
        None,
    ],
)
def test_parse_iso_refuses_what_is_not_a_moment(text):
    assert bd.parse_iso(text) is None


@pytest.mark.parametrize(
    "value",
    [
        "\u0661\u0667\u0660\u0660",
        "\uff11\uff12",
        "1" * 5000,
        "1" * 13,
        "+5",
        "-5",
        "1e9",
        "garbage",
    ],
)
def test_source_date_epoch_ascii_digits_up_to_year_9999(value):
    with pytest.raises(bd.UserInputError, match="SOURCE_DATE_EPOCH: environment: expected seconds"):
        bd.parse_epoch(value)
    assert bd.parse_epoch(str(bd.MAX_ENVIRONMENT_EPOCH)) == bd.MAX_ENVIRONMENT_EPOCH


def test_a_year_1_build_records_a_date_verify_reads(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)  # the manifest's date decides
    root = write_tiny_project(tmp_path / "p", settings=FAST + "\ndate = 0001-01-01")
    build(root, root / "site", pdf=False)
    results = json.loads((root / "site" / "results.json").read_text(encoding="utf-8"))
    assert results["provenance"]["date"] == "0001-01-01T00:00:00Z"
    assert (
        recorded_date(
            load_results((root / "site" / "results.json").read_bytes(), root / "site")
        ).epoch
        == bd.MIN_EPOCH
    )
    assert main(["verify", str(root / "site")]) == 0, capsys.readouterr()


# --- many differences are summarised --------------------------------------------------------------


def test_many_differences_are_counted_by_section_shown_twenty_and_written_to_a_file(tmp_path):
    found = Verification(notes=["a note"])
    found.differences = [
        f"results.json datasets.sonar.classifiers.a.roc_points[{i}][0]: 0.1 != 0.2"
        for i in range(30)
    ]
    found.differences += [f"results.json priors.p{i}: 1 != 2" for i in range(3)] + [
        "file figures/a.svg: differs from the rebuild",
        "file index.html: differs from the rebuild",
        "input data.csv (data): sha256 x != recorded y; the file changed after the build",
    ]
    lines = found.report_lines(tmp_path)
    assert lines[0] == "note: a note"
    assert lines[1] == (
        "36 differences: 30 in results.json datasets.sonar, 3 in results.json priors, 1 in "
        "file figures/, "
        "1 in file index.html, 1 in input"
    )
    assert lines[2:22] == found.differences[:20]
    listed = list(tmp_path.glob("ccreport-verify-*.txt"))
    assert (
        len(listed) == 1
        and lines[22] == f"... and 16 more; every difference is listed in {listed[0]}"
    )
    assert listed[0].read_text(encoding="utf-8").splitlines() == found.differences
    assert len(lines) == 23


def test_few_differences_are_all_shown(tmp_path):
    found = Verification(differences=[f"results.json seed: {i} != 1" for i in range(20)])
    assert found.report_lines(tmp_path) == found.differences and not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "line, section",
    [
        ("results.json datasets.d.n_pos: 15 != 16", "results.json datasets.d"),
        ("results.json datasets: in the report, missing from the rebuild", "results.json datasets"),
        ("results.json inputs[2].sha256: 'a' != 'b'", "results.json inputs"),
        ("file tables/d.csv: differs from the rebuild", "file tables/"),
        ("file report.pdf: differs from the rebuilt report.pdf", "file report.pdf"),
    ],
)
def test_difference_section(line, section):
    assert difference_section(line) == section


def test_one_label_cell_edited_gives_a_summary_not_thousands_of_lines(
    tmp_path, capsys, monkeypatch
):
    root = write_tiny_project(tmp_path / "p", settings=FAST)
    build(root, root / "site", pdf=False)
    lines = (root / "data.csv").read_text(encoding="utf-8").splitlines()
    lines[1] = ("neg" if lines[1].startswith("pos") else "pos") + lines[1][3:]
    (root / "data.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["verify", str(root / "site")]) == 1
    out = capsys.readouterr().out.splitlines()
    notes = [line for line in out if line.startswith("note: ")]
    assert len(out) - len(notes) == 22, out  # the counts, 20 differences, the file
    listed = list(tmp_path.glob("ccreport-verify-*.txt"))
    assert len(listed) == 1 and out[-1].endswith(str(listed[0]))
    every = listed[0].read_text(encoding="utf-8").splitlines()
    assert len(every) > 100 and out[len(notes) + 1 : len(notes) + 21] == every[:20]
    assert (
        out[len(notes)].startswith(f"{len(every)} differences: ")
        and "in results.json datasets.tiny" in out[len(notes)]
    )


# --- validation helpers ---------------------------------------------------------------------------


def test_load_results_names_the_field(tmp_path):
    good = {
        "generator": "ccreport 1",
        "provenance": {
            "files": [{"path": "ccreport.toml", "sha256": "a" * 64, "size": 3, "role": "manifest"}],
            "date": "2024-05-01T00:00:00Z",
            "date_source": "manifest",
        },
    }
    assert load_results(json.dumps(good).encode(), tmp_path)["generator"] == "ccreport 1"
    for path in ("../ccreport.toml/..", "a//b", "./a", "a\\b", "a\nb", "x" * 256, ""):
        good["provenance"]["files"][0]["path"] = path
        with pytest.raises(
            UnusableReport,
            match=r"provenance\.files\[0\]\.path: expected a path relative to the manifest",
        ):
            load_results(json.dumps(good).encode(), tmp_path)


@pytest.mark.parametrize("command", ["check", "verify"])
def test_an_invalid_source_date_epoch_is_one_line_in_a_fresh_process(tmp_path, command):
    """numpy.f2py reads SOURCE_DATE_EPOCH with int() when scipy.special imports it: in a fresh
    process an invalid value must still reach ccreport's own one-line error, exit 2."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SOURCE_DATE_EPOCH": "garbage"}
    example = Path(__file__).resolve().parents[2] / "example_project"
    target = str(tmp_path / "site") if command == "verify" else str(example)
    done = subprocess.run(
        [sys.executable, "-m", "ccreport", command, target],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0].startswith(
        "SOURCE_DATE_EPOCH: environment: expected seconds"
    ), done.stderr
