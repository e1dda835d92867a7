"""Running the battery on a Dask distributed cluster (issue 9 item 6): ``--scheduler`` / ``[project]
scheduler``.

Results are byte-identical to a local build; a scheduler that cannot be used is one line, exit 2,
with the previous output untouched. The byte-identity test runs a ``distributed.LocalCluster`` of
two worker processes (marked slow: starting it takes 10-20 s on a loaded 2-core machine).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.commands.build import compute_results
from ccreport.errors import UserInputError
from ccreport.project.loaders import load_project_data
from ccreport.project.manifest import load_project
from ccreport.project.project_files import read_project_files
from ccreport.results import results_to_json
from ccreport.tasks.executors import DaskExecutor, SerialExecutor, cluster

distributed = pytest.importorskip("distributed")

FAST = 'bootstrap = 500\ncalibration = "off"'


def results_json(root: Path, executor) -> str:
    project = load_project(root)
    data = load_project_data(project)
    results = compute_results(project, data, read_project_files(project, data), executor)
    return results_to_json(dataclasses.replace(results, versions={}, generator="ccreport"))


def refused(address, **kw) -> str:
    with pytest.raises(UserInputError) as e:
        with cluster(address, "command line", "--scheduler", **kw):
            pass
    (problem,) = e.value.problems
    text = str(problem)
    assert "\n" not in text and text.startswith("command line: --scheduler: ")
    return text


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_nobody_listens_on_is_refused_quickly():
    text = refused(f"tcp://127.0.0.1:{free_port()}", timeout=2)
    assert "cannot reach the Dask scheduler" in text and "dask scheduler" in text


def test_something_that_is_not_a_scheduler_is_refused(tmp_path):
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        conn, _ = server.accept()
        conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nhello" * 50)
        conn.close()

    threading.Thread(target=answer, daemon=True).start()
    try:
        text = refused(f"tcp://127.0.0.1:{server.getsockname()[1]}", timeout=2)
    finally:
        server.close()
    assert "no Dask scheduler answered" in text or "not a Dask scheduler" in text


def test_a_malformed_address_is_refused():
    assert "expected the address of a Dask scheduler such as tcp://HOST:PORT" in refused(
        "localhost:8786"
    )


def test_without_dask_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    assert 'pip install "ccreport[cluster]"' in refused("tcp://127.0.0.1:8786")


@pytest.fixture(scope="module")
def threads_cluster():
    """An in-process cluster (threads): quick to start, for the checks of the connection."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as c:
        yield c


def test_a_worker_of_another_ccreport_is_refused(threads_cluster, monkeypatch):
    monkeypatch.setattr(
        distributed.Client, "run", lambda self, f: {"tcp://10.0.0.9:1234": ("0.0.9", "ab" * 32)}
    )
    text = refused(threads_cluster.scheduler_address)
    assert (
        "the Dask worker tcp://10.0.0.9:1234 runs ccreport 0.0.9" in text
        and "install the same ccreport" in text
    )


def test_a_scheduler_without_workers_is_refused():
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as c:
        assert "has no workers" in refused(c.scheduler_address)


def test_threads_cluster_gives_the_serial_bytes(tmp_path, threads_cluster):
    root = write_tiny_project(tmp_path / "p", settings=FAST)
    with cluster(threads_cluster.scheduler_address, "command line", "--scheduler") as executor:
        assert isinstance(executor, DaskExecutor)
        on_cluster = results_json(root, executor)
    assert on_cluster == results_json(root, SerialExecutor())


def test_an_unreachable_scheduler_in_the_manifest_leaves_the_output_alone(tmp_path, capsys):
    root = write_tiny_project(
        tmp_path / "p", settings=FAST + f'\nscheduler = "tcp://127.0.0.1:{free_port()}"'
    )
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("previous")
    assert (
        main(["build", str(root), "-o", str(out), "--no-pdf", "-q", "--no-cache", "--force"]) == 2
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 2
        and "ccreport.toml: project.scheduler: cannot reach the Dask scheduler" in err[0]
    ), err
    assert "Traceback" not in "\n".join(err)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert not list(tmp_path.glob("*staging*")) and not list(tmp_path.glob(".site*"))


@pytest.mark.slow
def test_local_cluster_of_two_workers_builds_the_same_bytes(tmp_path, monkeypatch):
    """results.json, every figure and page: byte-identical to a local build (fixed
    SOURCE_DATE_EPOCH)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    root = write_tiny_project(tmp_path / "p", settings=FAST, folds=3)
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert main(["build", str(root), "-o", str(local), "--no-pdf", "-q", "--no-cache"]) == 0
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as c:
        assert len(c.workers) == 2
        assert (
            main(
                [
                    "build",
                    str(root),
                    "-o",
                    str(remote),
                    "--no-pdf",
                    "-q",
                    "--no-cache",
                    "--scheduler",
                    c.scheduler_address,
                ]
            )
            == 0
        )
    files = sorted(
        p.relative_to(local)
        for p in local.rglob("*")
        if p.is_file() and p.name != "invocation.json"
    )
    assert files == sorted(
        p.relative_to(remote)
        for p in remote.rglob("*")
        if p.is_file() and p.name != "invocation.json"
    )
    assert any(p.parts[0] == "figures" for p in files)
    for name in files:
        assert (local / name).read_bytes() == (remote / name).read_bytes(), name
    assert '"scheduler"' in (remote / "invocation.json").read_text()
