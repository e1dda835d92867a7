"""Shared fixtures: a temporary project folder to write manifests and data files into; the
shards plugin (tests/shards.py: ``--shard=I/N``, ``--record-durations``)."""

from pathlib import Path

import pytest

pytest_plugins = ["shards"]


@pytest.fixture
def project_dir(tmp_path, monkeypatch) -> Path:
    """An empty project folder, also the working folder, so problems name files relative to it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def write(project_dir):
    """``write("data/a.csv", text)``: write a file into the project folder, making folders."""

    def write(relative: str, text: str | bytes) -> Path:
        path = project_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return write


FIXED_EPOCH = "1700000000"  # 2023-11-14T22:13:20Z


@pytest.fixture(autouse=True)
def fixed_build_date(monkeypatch):
    """Every test builds with a fixed date (SOURCE_DATE_EPOCH), so two builds give the same bytes
    whenever they run; a test of the other date sources removes it with monkeypatch.delenv."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)


@pytest.fixture(autouse=True, scope="session")
def cache_key_of_the_session(tmp_path_factory):
    """The task cache's per-user key (ccreport.tasks.cache.key_path) is a file of the test session,
    not of the user running the tests (session scope: module fixtures that build use it too); a test
    of the key's own location sets or removes the variable itself."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(
            "CCREPORT_CACHE_KEY", str(tmp_path_factory.getbasetemp() / "ccreport-cache-key")
        )
        yield
