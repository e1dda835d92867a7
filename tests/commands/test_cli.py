"""The ccreport command end to end: build, check, new; bad input exits 2 with one line per
problem."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ccreport.cli import main


def run_cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "ccreport", *args], capture_output=True, text=True, cwd=cwd
    )


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    root = tmp_path_factory.mktemp("starter") / "proj"
    assert main(["new", str(root)]) == 0
    return root


def test_new_project_builds(starter, tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(starter), "-o", str(out), "--no-pdf"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["schema_version"] == "1.0"
    d = results["datasets"]["synthetic"]
    assert set(d["classifiers"]) == {"sharp", "blunt", "rule"}
    assert d["n_pos"] + d["n_neg"] == 400
    assert set(d["comparisons"]) == {"sharp vs blunt", "sharp vs rule", "blunt vs rule"}
    assert d["classifiers"]["rule"]["kind"] == "crisp"
    # every input is recorded with its hash
    roles = {i["role"] for i in results["inputs"]}
    assert {"manifest", "data", "narrative"} <= roles
    # every project gets the generated findings and "How to read this report" (issue 14)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert (
        'id="index-how-to-read"' in index and 'id="index-findings"' in index and "Quote: " in index
    )
    assert "Quote: " in (out / "dataset-synthetic.html").read_text(encoding="utf-8")


def test_new_refuses_a_non_empty_folder(starter, capsys):
    assert main(["new", str(starter)]) == 2
    assert "not empty" in capsys.readouterr().err


def test_check_ok(starter, capsys):
    assert main(["check", str(starter)]) == 0
    assert "ok" in capsys.readouterr().out


def _break_manifest(root: Path) -> None:
    text = (root / "ccreport.toml").read_text()
    text = text.replace('positive = "pos"', 'posative = "pos"').replace("a = 2\n", "a = -2\n")
    (root / "ccreport.toml").write_text(text)


def test_bad_manifest_exit_2_every_problem_no_traceback_output_kept(starter, tmp_path):
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(starter, proj)
    out = tmp_path / "out"
    assert main(["build", str(proj), "-o", str(out), "--no-pdf"]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _break_manifest(proj)
    result = run_cli("build", str(proj), "-o", str(out), "--no-pdf")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    problems = [line for line in lines if "ccreport.toml:" in line]
    assert len(problems) >= 2, result.stderr  # the unknown key and the bad beta parameter, together
    assert any("posative" in line for line in problems) and any(".a" in line for line in problems)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_bad_data_names_file_row_and_column(starter, tmp_path):
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(starter, proj)
    csv = proj / "data" / "predictions.csv"
    lines = csv.read_text().splitlines()
    cells = lines[7].split(",")
    cells[2] = "nan"
    lines[7] = ",".join(cells)
    csv.write_text("\n".join(lines) + "\n")
    result = run_cli("check", str(proj))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "predictions.csv" in result.stderr
        and "sharp" in result.stderr
        and "nan" in result.stderr.lower()
    )


def test_missing_project_is_a_clean_error(tmp_path):
    result = run_cli("build", str(tmp_path / "nowhere"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "ccreport.toml" in result.stderr


def test_help_is_useful():
    result = run_cli("--help")
    assert result.returncode == 0
    for word in ("build", "check", "new", "serve", "ccreport.toml"):
        assert word in result.stdout
    assert "--workers" in run_cli("build", "--help").stdout


def test_same_inputs_same_bytes_any_worker_count(starter, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert main(["build", str(starter), "-o", str(a), "--no-pdf", "-j", "1"]) == 0
    assert main(["build", str(starter), "-o", str(b), "--no-pdf", "-j", "2"]) == 0
    assert (a / "results.json").read_bytes() == (b / "results.json").read_bytes()


def test_build_and_serve_take_the_manifest_path_too(starter, tmp_path, capsys, monkeypatch):
    # regression: with PROJECT_DIR/ccreport.toml, build wrote PROJECT_DIR/site but printed
    # PROJECT_DIR/ccreport.toml/site, and serve looked there and exited 2
    import http.server
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(starter, proj)
    manifest = proj / "ccreport.toml"
    site = (proj / "site").resolve()
    assert main(["build", str(manifest), "--no-pdf"]) == 0
    assert (site / "index.html").is_file()
    assert capsys.readouterr().out.startswith(f"built {site} in ")

    served = {}

    class Server:
        def __init__(self, address, handler):
            served["directory"] = handler.keywords["directory"]
            self.server_address = address

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def serve_forever(self):
            raise KeyboardInterrupt

    monkeypatch.setattr(http.server, "ThreadingHTTPServer", Server)
    for given in (manifest, proj):
        assert main(["serve", str(given), "--no-watch"]) == 0
        assert Path(served.pop("directory")).resolve() == site


def test_the_command_line_imports_the_web_server_only_to_serve():
    """``ccreport build`` does not pay for http.server's import (and mimetypes', ssl's)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import ccreport.cli\n"
        "print(sorted(m for m in ('http.server', 'ccreport.commands.serve') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    from ccreport.commands import serve

    assert (serve.PORT_MIN, serve.PORT_MAX) == (1, 65535)
