"""The audit archive (issue 15): build date, provenance, the PDF's attachments and tags, ccreport
verify."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.commands.build import build
from ccreport.commands.verify import compare_values
from ccreport.errors import UserInputError
from ccreport.project.manifest import load_project
from ccreport.runtime import build_date as bd

FAST = 'bootstrap = 500\ncalibration = "off"'
NOT_REPORT = {"invocation.json"}


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name not in NOT_REPORT
    }


# --- the build date ------------------------------------------------------------------------------


def test_date_precedence_environment_then_manifest_then_clock():
    now = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
    from_env = bd.build_date(date(2020, 1, 2), now, {"SOURCE_DATE_EPOCH": "86400"})
    assert (from_env.iso, from_env.source, from_env.fixed) == (
        "1970-01-02T00:00:00Z",
        "SOURCE_DATE_EPOCH",
        True,
    )
    from_manifest = bd.build_date(date(2020, 1, 2), now, {})
    assert (from_manifest.iso, from_manifest.source) == ("2020-01-02T00:00:00Z", "manifest")
    assert from_manifest.display() == "2020-01-02"
    from_clock = bd.build_date(None, now, {"SOURCE_DATE_EPOCH": ""})
    assert (from_clock.iso, from_clock.source, from_clock.fixed) == (
        "2025-03-04T05:06:07Z",
        "build time",
        False,
    )
    assert from_clock.display() == "2025-03-04 05:06:07 UTC"


@pytest.mark.parametrize("value", ["yesterday", "-5", "1.5", "99999999999999"])
def test_bad_source_date_epoch_is_a_user_error(value):
    with pytest.raises(UserInputError) as caught:
        bd.build_date(None, environ={"SOURCE_DATE_EPOCH": value})
    assert str(caught.value.problems[0]).startswith(
        "SOURCE_DATE_EPOCH: environment: expected seconds since 1970"
    )


def test_manifest_date_read_and_validated_with_its_line(tmp_path, capsys):
    root = write_tiny_project(tmp_path / "p", settings=FAST + "\ndate = 2024-05-01")
    assert load_project(root).build_date == date(2024, 5, 1)
    text = (root / "ccreport.toml").read_text()
    (root / "ccreport.toml").write_text(text.replace("date = 2024-05-01", 'date = "2024-02-30"'))
    assert main(["check", str(root)]) == 2
    err = capsys.readouterr().err
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("date"))
    assert f"ccreport.toml:{line}: project.date: expected an ISO date such as 2024-05-01" in err


# --- one build with the PDF, looked at in several ways --------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A tiny project outside whose folder the data lie (../shared/data.csv), built with the PDF on
    one worker and on two, with SOURCE_DATE_EPOCH fixed."""
    base = tmp_path_factory.mktemp("archive")
    root = write_tiny_project(base / "project", settings=FAST)
    (base / "shared").mkdir()
    shutil.move(root / "data.csv", base / "shared" / "data.csv")
    manifest = root / "ccreport.toml"
    manifest.write_text(
        manifest.read_text().replace('path = "data.csv"', 'path = "../shared/data.csv"')
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", "1700000000")
        build(root, base / "one", workers=1)
        build(root, base / "two", workers=2)
    return root, base / "one", base / "two"


def test_byte_identical_on_one_worker_and_two(built):
    _, one, two = built
    assert files_of(one) == files_of(two)
    assert json.loads((two / "invocation.json").read_text())["workers"]["requested"] == 2


def test_results_json_records_date_and_provenance(built):
    root, one, _ = built
    data = json.loads((one / "results.json").read_text())
    provenance = data["provenance"]
    assert (provenance["date"], provenance["date_source"]) == (
        "2023-11-14T22:13:20Z",
        "SOURCE_DATE_EPOCH",
    )
    assert provenance["ccreport"]["version"] and "tree" in provenance["ccreport"]
    assert set(provenance["platform"]) == {"python", "implementation", "os"}
    paths = {f["path"]: f for f in provenance["files"]}
    assert set(paths) == {"ccreport.toml", "narrative.md", "../shared/data.csv"}
    data_file = root.parent / "shared" / "data.csv"
    assert paths["../shared/data.csv"]["size"] == data_file.stat().st_size
    import hashlib

    assert (
        paths["../shared/data.csv"]["sha256"] == hashlib.sha256(data_file.read_bytes()).hexdigest()
    )
    assert data["datasets"]["tiny"]["path"] == "../shared/data.csv"
    assert (
        str(root.parent) not in (one / "results.json").read_text()
    )  # no absolute path of this machine


def test_pdf_dates_tags_and_attachments_each_once(built):
    pypdf = pytest.importorskip("pypdf")
    _, one, _ = built
    reader = pypdf.PdfReader(one / "report.pdf")
    assert reader.metadata["/CreationDate"].startswith("D:20231114221320")
    assert reader.metadata["/ModDate"].startswith("D:20231114221320")
    assert "2023-11-14" in reader.pages[0].extract_text()
    root = reader.trailer["/Root"]
    assert root["/MarkInfo"]["/Marked"] and "/StructTreeRoot" in root
    attached = reader.attachments
    assert sorted(attached) == sorted(
        ["results.json", "ccreport.toml", "narrative.md", "../shared/data.csv"]
    )
    assert all(len(v) == 1 for v in attached.values())
    associated = [str(a.get_object()["/F"]) for a in root["/AF"]]
    assert sorted(associated) == sorted(attached)  # each once in the catalog's /AF
    assert attached["results.json"][0] == (one / "results.json").read_bytes()
    if shutil.which("pdfinfo"):
        info = subprocess.run(
            ["pdfinfo", str(one / "report.pdf")], capture_output=True, text=True
        ).stdout
        assert "Tagged:          yes" in info


def test_provenance_page_lists_build_and_files(built):
    _, one, _ = built
    page = (one / "provenance.html").read_text()
    assert (
        "2023-11-14T22:13:20Z" in page
        and "SOURCE_DATE_EPOCH" in page
        and "../shared/data.csv" in page
    )
    assert "operating system" in page and "invocation.json" in page


def test_verify_report_pdf_alone_in_an_empty_folder(built, tmp_path, monkeypatch, capsys):
    _, one, _ = built
    alone = tmp_path / "empty"
    alone.mkdir()
    shutil.copy(one / "report.pdf", alone / "report.pdf")
    monkeypatch.chdir(alone)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")  # the recorded date is used, not the environment's
    assert main(["verify", "report.pdf"]) == 0
    assert "verified report.pdf" in capsys.readouterr().out
    assert [p.name for p in alone.iterdir()] == ["report.pdf"]


# --- verify on folders (no PDF: fast) -------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    root = write_tiny_project(tmp_path / "p", settings=FAST)
    build(root, tmp_path / "p" / "site", pdf=False)
    return root, root / "site"


def test_verify_passes_on_a_fresh_build(folder, capsys):
    _, out = folder
    assert main(["verify", str(out)]) == 0
    assert "values of results.json" in capsys.readouterr().out


def test_verify_names_the_number_edited_by_hand(folder, capsys):
    _, out = folder
    data = json.loads((out / "results.json").read_text())
    auc = data["datasets"]["tiny"]["classifiers"]["good"]["auc"]
    text = (out / "results.json").read_text().replace(json.dumps(auc), "0.5", 1)
    (out / "results.json").write_text(text)
    assert main(["verify", str(out)]) == 1
    out_text = capsys.readouterr().out
    assert f"results.json datasets.tiny.classifiers.good.auc: 0.5 != {auc}" in out_text
    assert "file results.json: differs from the rebuild" in out_text


def test_verify_names_a_data_file_changed_after_the_build(folder, capsys):
    root, out = folder
    lines = (root / "data.csv").read_text().splitlines()
    first = lines[1].split(",")
    first[1] = str(float(first[1]) + 3)
    lines[1] = ",".join(first)
    (root / "data.csv").write_text("\n".join(lines) + "\n")
    assert main(["verify", str(out)]) == 1
    text = capsys.readouterr().out
    assert "input data.csv (data): sha256" in text and "changed after the build" in text
    assert "results.json datasets.tiny.sha256:" in text


def test_verify_unusable_report_exits_2(tmp_path, capsys):
    (tmp_path / "x").mkdir()
    assert main(["verify", str(tmp_path / "x")]) == 2
    assert "expected a ccreport output folder holding results.json" in capsys.readouterr().err
    (tmp_path / "not.pdf").write_bytes(b"hello")
    assert main(["verify", str(tmp_path / "not.pdf")]) == 2


def test_compare_values_paths():
    found, n = compare_values(
        {"a": {"b": [1.0, 2.0]}, "c": "x"}, {"a": {"b": [1.0, 2.5]}, "c": "x", "d": 1}
    )
    assert found == ["a.b[1]: 2.0 != 2.5", "d: missing from the report, in the rebuild"] and n == 3


# --- the unchanged-rebuild key knows the date -----------------------------------------------------


def test_a_new_fixed_date_renders_again_and_the_same_date_does_not(tmp_path, monkeypatch):
    root = write_tiny_project(tmp_path / "p", settings=FAST)
    out, cache = tmp_path / "out", tmp_path / "cache"
    build(root, out, pdf=False, cache_dir=cache)
    marker = (out / ".ccreport-output").stat().st_mtime_ns
    build(root, out, pdf=False, cache_dir=cache)
    assert (out / ".ccreport-output").stat().st_mtime_ns == marker  # unchanged: nothing written
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    build(root, out, pdf=False, cache_dir=cache)
    assert (
        json.loads((out / "results.json").read_text())["provenance"]["date"]
        == "2027-01-15T08:00:00Z"
    )
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    (root / "ccreport.toml").write_text(
        (root / "ccreport.toml").read_text().replace("[project]", "[project]\ndate = 2024-05-01")
    )
    build(root, out, pdf=False, cache_dir=cache)
    data = json.loads((out / "results.json").read_text())["provenance"]
    assert (data["date"], data["date_source"]) == ("2024-05-01T00:00:00Z", "manifest")
