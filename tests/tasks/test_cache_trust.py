"""The task cache is read back as untrusted input (ccreport.tasks.cache, "Trust"): a damaged or
foreign entry is discarded with one line and recomputed, and the build is byte-identical to a cold
one.

Each case damages a copy of a warm cache in one way of issue 38 (a flipped byte in the largest
pickles, truncated pickles, a plain pickle of None, a signed pickle of None, another user's key, a
pickle that runs code, edited / deleted / added / linked figure files, a pipe where an entry was)
and rebuilds from it; the rebuild must equal the cold build file by file (results.json, every page,
every table and figure file, report.pdf).
"""

import os
import pickle
import shutil
from pathlib import Path

import pytest
from conftest import FIXED_EPOCH
from site_fixtures import write_tiny_project

from ccreport.cli import main
from ccreport.tasks import cache

FAST = 'bootstrap = 500\ncalibration = "off"'


def snapshot(folder: Path) -> dict[str, bytes]:
    """The output's bytes, without invocation.json (its command line names -o and --cache-dir)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "invocation.json"
    }


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A project, its cold build (no cache) and a warm cache, whose build equals the cold one."""
    base = tmp_path_factory.mktemp("warm")
    root = write_tiny_project(base / "proj", settings=FAST, extra_priors="")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        patch.setenv("SOURCE_DATE_EPOCH", FIXED_EPOCH)  # as in every test's builds (conftest)
        assert main(["build", ".", "-o", str(base / "cold"), "-q", "--no-cache"]) == 0
        assert (
            main(["build", ".", "-o", str(base / "cold-no-pdf"), "-q", "--no-cache", "--no-pdf"])
            == 0
        )
        assert (
            main(["build", ".", "-o", str(base / "warm"), "-q", "--cache-dir", str(base / "cache")])
            == 0
        )
    cold = {True: snapshot(base / "cold"), False: snapshot(base / "cold-no-pdf")}
    assert "report.pdf" in cold[True] and any(k.endswith(".svg") for k in cold[True])
    assert any(k.startswith("figures/") and k.endswith(".pdf") for k in cold[True])
    assert snapshot(base / "warm") == cold[True]
    return root, cold, base / "cache"


def entries(folder: Path) -> list[Path]:
    """The task entries, largest first."""
    return sorted(folder.glob("??/*.pickle"), key=lambda p: (-p.stat().st_size, p.name))


def stored_figures(folder: Path) -> Path:
    """The stored folder holding the most figures (the cache stores the overview's and each
    dataset's figures apart)."""
    return max(
        (folder / "folders").iterdir(),
        key=lambda stored: (len(list(stored.rglob("*"))), stored.name),
    )


def figure_files(folder: Path, suffix: str) -> list[Path]:
    return sorted((stored_figures(folder) / "figures").rglob(f"*{suffix}"))


def resign(path: Path, key: bytes, payload: bytes) -> None:
    name = path.stem
    path.write_bytes(
        cache.ENTRY_MAGIC + cache.entry_mac(key, cache.ENTRY_MAGIC, name, payload) + payload
    )


def payload_of(path: Path) -> bytes:
    return path.read_bytes()[len(cache.ENTRY_MAGIC) + 32 :]


class Touch:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def flip(folder, marker):
    for path in entries(folder)[:3]:
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x01
        path.write_bytes(bytes(data))
    return "3 failed its HMAC"


def truncate(folder, marker):
    for path in entries(folder)[:3]:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return "3 failed its HMAC"


def plain_none(folder, marker):
    for path in entries(folder)[:2]:
        path.write_bytes(pickle.dumps(None))
    return "2 failed its HMAC"


def signed_none(folder, marker):
    """A valid entry of the wrong type (what a bug or another version could leave)."""
    for path in entries(folder)[:2]:
        resign(path, cache.secret(), pickle.dumps(None))
    return "2 held the wrong type"


def signed_garbage(folder, marker):
    path = entries(folder)[0]
    resign(path, cache.secret(), b"\x80\x05not a pickle")
    return "1 could not be unpickled"


def other_users_key(folder, marker):
    """Every entry as another user's ccreport wrote it, one of them a pickle that runs code."""
    other = b"\x07" * 32
    paths = entries(folder)
    for path in paths:
        resign(path, other, payload_of(path))
    resign(paths[0], other, pickle.dumps(Touch(marker)))
    return f"{len(paths)} failed its HMAC"


def code_pickle(folder, marker):
    for path in entries(folder):
        path.write_bytes(pickle.dumps(Touch(marker)))
    return f"{len(entries(folder))} failed its HMAC"


def pipe(folder, marker):
    path = entries(folder)[0]
    path.unlink()
    os.mkfifo(path)
    return "1 unreadable"


def edited_svgs(folder, marker):
    for path in figure_files(folder, ".svg"):
        path.write_text(
            path.read_text(encoding="utf-8").replace("</svg>", "<text>edited</text></svg>"),
            encoding="utf-8",
        )
    return "1 had a file missing, added or changed"


def edited_figure_pdf(folder, marker):
    path = figure_files(folder, ".pdf")[0]
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x01
    path.write_bytes(bytes(data))
    return "1 had a file missing, added or changed"


def deleted_figure(folder, marker):
    figure_files(folder, ".svg")[0].unlink()
    return "1 had a file missing, added or changed"


def added_figure(folder, marker):
    shutil.copy(
        figure_files(folder, ".svg")[0], figure_files(folder, ".svg")[0].parent / "extra.svg"
    )
    return "1 had a file missing, added or changed"


def linked_figure(folder, marker):
    secret = folder.parent / "secret.svg"
    secret.write_text("<svg>private</svg>")
    path = figure_files(folder, ".svg")[0]
    path.unlink()
    path.symlink_to(secret)
    return "1 had a file missing, added or unreadable"


def edited_index(folder, marker):
    manifest = stored_figures(folder) / cache.MANIFEST_NAME
    manifest.write_bytes(manifest.read_bytes().replace(b'"caption": "', b'"caption": "Edited: ', 1))
    return "1 failed its HMAC"


DAMAGES = [
    flip,
    truncate,
    plain_none,
    signed_none,
    signed_garbage,
    other_users_key,
    code_pickle,
    pipe,
    edited_svgs,
    edited_figure_pdf,
    deleted_figure,
    added_figure,
    linked_figure,
    edited_index,
]
WITH_PDF = {
    flip,
    code_pickle,
    edited_svgs,
    edited_figure_pdf,
}  # report.pdf too (builds with it are slower)


def intact(folder: Path) -> bool:
    """Whether every entry of the cache passes its checks now."""
    c = cache.Cache(folder)
    ok = all(c.get(path.stem) is not cache.MISSING for path in entries(folder))
    for stored in (folder / "folders").iterdir():
        (group,) = list(
            (stored / "figures").iterdir()
        )  # figures/<group>: the overview's or a dataset's
        ok &= (
            c.get_folder(stored.name, folder.parent / "scratch", f"figures/{group.name}")
            is not cache.MISSING
        )
    return ok and not c.discarded


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.__name__ for d in DAMAGES])
def test_a_damaged_cache_gives_the_cold_build(warm, damage, tmp_path, monkeypatch, capsys):
    root, colds, warm_cache = warm
    pdf = damage in WITH_PDF
    cold = colds[pdf]
    folder = tmp_path / "cache"
    shutil.copytree(warm_cache, folder, symlinks=True)
    marker = tmp_path / "marker"
    reasons = damage(folder, marker)
    monkeypatch.chdir(root)
    capsys.readouterr()
    assert (
        main(
            [
                "build",
                ".",
                "-o",
                str(tmp_path / "out"),
                "-q",
                "--cache-dir",
                str(folder),
                *([] if pdf else ["--no-pdf"]),
            ]
        )
        == 0
    )
    notes = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert (
        len(notes) == 1 and "discarded and recomputed" in notes[0] and f"({reasons})" in notes[0]
    ), notes
    assert not marker.exists()
    assert snapshot(tmp_path / "out") == cold
    assert intact(folder)  # the damaged entries were replaced by good ones


# --- the key --------------------------------------------------------------------------------------


def test_the_key_file_is_made_private_where_the_environment_says(tmp_path, monkeypatch):
    monkeypatch.delenv(cache.KEY_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.key_path() == tmp_path / "xdg" / "ccreport" / "cache-key"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.key_path() == tmp_path / "home" / ".cache" / "ccreport" / "cache-key"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.key_path() == tmp_path / "home" / ".cache" / "ccreport" / "cache-key"
    monkeypatch.setenv(cache.KEY_ENV, str(tmp_path / "ci" / "key"))
    assert cache.key_path() == tmp_path / "ci" / "key"
    key = cache.secret()
    assert len(key) == 32 and (tmp_path / "ci" / "key").read_bytes() == key
    assert (tmp_path / "ci" / "key").stat().st_mode & 0o777 == 0o600
    assert cache.secret() == key  # made once, then read


def test_a_key_file_others_may_read_turns_the_cache_off_with_one_line(
    tmp_path, monkeypatch, capsys
):
    path = tmp_path / "key"
    path.write_bytes(b"k" * 32)
    path.chmod(0o644)
    monkeypatch.setenv(cache.KEY_ENV, str(path))
    with cache.using(tmp_path / "cache") as active:
        assert active is None
    (line,) = capsys.readouterr().err.splitlines()
    assert (
        line.startswith("ccreport: building without the cache: the cache key ")
        and "chmod 600" in line
    )
    short = tmp_path / "short"
    short.write_bytes(b"k" * 5)
    short.chmod(0o600)
    monkeypatch.setenv(cache.KEY_ENV, str(short))
    with cache.using(tmp_path / "cache") as active:
        assert active is None
    assert "does not hold a key of 32 bytes" in capsys.readouterr().err


def test_the_cached_type_is_the_functions_return_annotation():
    from ccreport.results import PriorResult
    from ccreport.tasks.battery import prior_result, run_task
    from ccreport.tasks.comparisons import in_sample_cost

    assert cache.expected_type(run_task) is dict
    assert cache.expected_type(in_sample_cost) is float
    assert cache.expected_type(prior_result) is PriorResult


# --- the cache and the output folder --------------------------------------------------------------


@pytest.mark.parametrize(
    "out, cache_dir, where",
    [
        ("out", "out/cache", "is inside the output folder"),
        ("out", "out", "is the output folder"),
        ("cache/out", "cache", "holds the output folder"),
    ],
)
def test_a_cache_inside_the_output_or_around_it_is_refused(
    warm, tmp_path, monkeypatch, capsys, out, cache_dir, where
):
    root = warm[0]
    monkeypatch.chdir(tmp_path)
    shutil.copytree(root, tmp_path / "proj")
    assert main(["build", "proj", "-o", out, "--cache-dir", cache_dir, "-q"]) == 2
    (line, count) = capsys.readouterr().err.splitlines()
    assert (
        line.startswith(
            f"{cache_dir}: cache folder (--cache-dir): expected a folder apart from the "
            "output folder"
        )
        and where in line
    )
    assert not (tmp_path / "out").exists() and not (tmp_path / "cache").exists()


def test_the_default_cache_inside_the_output_is_refused(warm, tmp_path, monkeypatch, capsys):
    shutil.copytree(warm[0], tmp_path / "proj")
    monkeypatch.chdir(tmp_path / "proj")
    assert main(["build", ".", "-o", ".ccreport-cache/site", "-q"]) == 2
    assert "holds the output folder" in capsys.readouterr().err
