"""``ccreport verify REPORT``: does an archived report still follow from its inputs?

REPORT is a built output folder or a ``report.pdf`` on its own.

* **A folder**: its ``results.json`` records every input (``provenance.files``: path relative to the
  manifest, SHA-256, size). The project is found through ``invocation.json`` (the manifest's path
  relative to the folder, as the build wrote it), else ``--project``, else the folder's parent (the
  default ``PROJECT/site``). Each input is checked against its recorded digest; a missing input
  stops the check there.
* **A PDF**: its attachments (the manifest, data, narratives, template and theme overrides,
  ``results.json``) are extracted into a temporary project, each at its recorded path relative to
  the manifest (``../data/x.csv`` included), and checked against the digests of the attached
  results.json.

The project is then built again into a temporary folder with the recorded settings (they are in the
manifest) and the recorded build date and its source, without the task cache. Every value of
``results.json`` is compared (numbers exactly: the same inputs, seed and software give the same
bits) and reported by its path, ``datasets.sonar.classifiers.logreg.auc: 0.91 != 0.92`` (so the
SHA-256 recorded for each Parquet side file of a thinned curve is compared with the rebuild's);
each side file of a folder is checked against the SHA-256 results.json records for it; then every
output file is compared byte for byte (for a PDF: the PDF itself, whose attached results.json
carries the side files' hashes). ``invocation.json`` (how the
build was run) and the output marker are not part of the report and are not compared.

When the installed ccreport (version, commit, tree state) or the platform differs from the recorded
one, the software fields of results.json (``generator``, ``versions``, ``provenance.ccreport``,
``provenance.platform``) are not counted as differences but named in a note, since other software can
change numbers in their last bits and the bytes of every page; a difference is then a question for
the reader rather than proof that the inputs changed.

Exit status (:func:`ccreport.cli.main`): 0 all match, 1 differences (each listed), 2 unusable
REPORT (missing, not a ccreport output, a PDF without the archive, a results.json without provenance).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from .build_date import SOURCES, BuildDate
from .errors import Problem, UserInputError
from .manifest import MANIFEST_NAME, display_path  # noqa: F401
from .output_folder import MARKER, STAGING_MARKER
from .provenance import ccreport_source, platform_record

RESULTS = "results.json"
PDF = "report.pdf"
NOT_COMPARED = {"invocation.json", MARKER, STAGING_MARKER}
SOFTWARE_FIELDS = ("generator", "versions", "provenance.ccreport", "provenance.platform")


@dataclass
class Verification:
    """What verify found: differences (each one line), notes (not differences), what was compared."""

    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared_files: int = 0
    compared_values: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences


def _unusable(report: Path, expected: str) -> UserInputError:
    return UserInputError(Problem(display_path(report), "REPORT", expected))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _load_results(text: bytes | str, report: Path) -> dict:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise _unusable(report, f"expected a ccreport results.json, got invalid JSON ({error})") from None
    if not isinstance(data, dict) or not str(data.get("generator", "")).startswith("ccreport"):
        raise _unusable(report, "expected a ccreport results.json (its generator is not ccreport)")
    provenance = data.get("provenance")
    if not isinstance(provenance, dict) or not isinstance(provenance.get("files"), list):
        raise _unusable(report, "expected a results.json with provenance (written by a ccreport with `verify`); rebuild the report first")
    if provenance.get("date_source") not in SOURCES or not isinstance(provenance.get("date"), str):
        raise _unusable(report, "expected a recorded build date in results.json's provenance")
    return data


def recorded_date(results: dict) -> BuildDate:
    provenance = results["provenance"]
    moment = datetime.strptime(provenance["date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    return BuildDate(int(moment.timestamp()), provenance["date_source"])


# --- comparing results.json ----------------------------------------------------------------------


def _path(prefix: str, key) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def compare_values(recorded, rebuilt, prefix: str = "", skip: tuple[str, ...] = ()) -> tuple[list[str], int]:
    """Every difference between two JSON values, as ``path: recorded != rebuilt`` lines, and how
    many leaf values were compared. Numbers compare exactly (NaN equals NaN); ``skip``: paths left out."""
    if prefix in skip:
        return [], 0
    if isinstance(recorded, dict) and isinstance(rebuilt, dict):
        out, count = [], 0
        for key in list(recorded) + [k for k in rebuilt if k not in recorded]:
            where = _path(prefix, key)
            if where in skip:
                continue
            if key not in rebuilt:
                out.append(f"{where}: in the report, missing from the rebuild")
            elif key not in recorded:
                out.append(f"{where}: missing from the report, in the rebuild")
            else:
                found, n = compare_values(recorded[key], rebuilt[key], where, skip)
                out += found
                count += n
        return out, count
    if isinstance(recorded, list) and isinstance(rebuilt, list):
        out, count = [], 0
        for i, (a, b) in enumerate(zip(recorded, rebuilt)):
            found, n = compare_values(a, b, _path(prefix, i), skip)
            out += found
            count += n
        if len(recorded) != len(rebuilt):
            out.append(f"{prefix}: {len(recorded)} elements != {len(rebuilt)}")
        return out, count
    same = recorded == rebuilt and type(recorded) is type(rebuilt)
    if isinstance(recorded, (int, float)) and isinstance(rebuilt, (int, float)) and not isinstance(recorded, bool):
        same = recorded == rebuilt or (isinstance(recorded, float) and isinstance(rebuilt, float) and math.isnan(recorded) and math.isnan(rebuilt))
    return ([] if same else [f"{prefix}: {_shown(recorded)} != {_shown(rebuilt)}"]), 1


# --- the side files ---------------------------------------------------------------------------------


def side_files(value) -> list[dict]:
    """Every side-file record of a results.json value: the ``*_full`` entries of thinned curves
    (``path``, ``rows``, ``sha256``; :mod:`ccreport.results.curves`), in document order."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith("_full") and isinstance(item, dict) and isinstance(item.get("path"), str) and "sha256" in item:
                found.append(item)
            else:
                found += side_files(item)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                found += side_files(item)
    return found


def check_side_files(results: dict, report: Path, verification: Verification) -> None:
    """Each side file results.json names must be in the report folder with the recorded SHA-256
    (the rebuild's own hashes are compared with the recorded ones as results.json values)."""
    for entry in side_files(results):
        path = report / PurePosixPath(_safe_relative(entry["path"], report))
        if not path.is_file():
            verification.differences.append(f"file {entry['path']}: named in results.json, missing from the report")
            continue
        digest = hashlib.sha256()
        with open(path, "rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != entry["sha256"]:
            verification.differences.append(
                f"file {entry['path']}: sha256 {digest.hexdigest()} != {entry['sha256']} recorded in results.json")


# --- the inputs ------------------------------------------------------------------------------------


def _safe_relative(path: str, report: Path) -> PurePosixPath:
    """A recorded path: relative, posix, ``..`` only as leading parts, no empty or odd parts."""
    pure = PurePosixPath(path)
    parts = pure.parts
    leading = 0
    while leading < len(parts) and parts[leading] == "..":
        leading += 1
    rest = parts[leading:]
    if pure.is_absolute() or not rest or any(p in ("", ".", "..") or "\\" in p or "\0" in p for p in rest):
        raise _unusable(report, f"expected recorded input paths relative to the manifest, got {path!r}")
    return pure


def check_inputs(files: list[dict], root: Path, verification: Verification) -> bool:
    """Compare each recorded input under ``root`` with its digest; False when one is missing."""
    complete = True
    for entry in files:
        path = root / entry["path"]
        if not path.is_file():
            verification.differences.append(f"input {entry['path']} ({entry.get('role')}): missing (recorded sha256 {entry['sha256']})")
            complete = False
            continue
        digest = _sha256(path.read_bytes())
        if digest != entry["sha256"]:
            verification.differences.append(
                f"input {entry['path']} ({entry.get('role')}): sha256 {digest} != recorded {entry['sha256']}; the file changed after the build"
            )
    return complete


def extract_pdf(report: Path, folder: Path) -> tuple[dict, Path, bytes]:
    """The attached results.json, the project root it was unpacked to, and the PDF's bytes."""
    try:
        import pypdf
    except ImportError:  # pragma: no cover - pypdf is a dependency
        raise _unusable(report, "verifying a PDF needs pypdf (pip install pypdf)") from None
    data = report.read_bytes()
    try:
        attachments = pypdf.PdfReader(report).attachments
    except Exception as error:  # pypdf raises many kinds on a damaged file
        raise _unusable(report, f"expected a ccreport report.pdf, could not read it ({type(error).__name__}: {error})") from None
    if RESULTS not in attachments:
        raise _unusable(report, "expected a report.pdf with results.json attached (a PDF written by ccreport build)")
    for name, contents in attachments.items():
        if len(contents) != 1:
            raise _unusable(report, f"expected each attachment once, got {len(contents)} named {name!r}")
    results = _load_results(attachments[RESULTS][0], report)
    paths = [_safe_relative(f["path"], report) for f in results["provenance"]["files"]]
    depth = max((sum(1 for p in path.parts if p == "..") for path in paths), default=0)
    root = folder.joinpath("project", *[f"up{i}" for i in range(depth)])
    root.mkdir(parents=True)
    for entry, path in zip(results["provenance"]["files"], paths):
        contents = attachments.get(entry["path"])
        if contents is None:
            continue  # reported as missing by check_inputs
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(contents[0])
    return results, root, data


def _project_of_folder(report: Path, project: Path | None) -> Path:
    if project is not None:
        return Path(project)
    try:
        invocation = json.loads((report / "invocation.json").read_text(encoding="utf-8"))
        manifest = (report / invocation["manifest"]).resolve()
        if manifest.is_file():
            return manifest.parent
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return report.resolve().parent


# --- the whole check -------------------------------------------------------------------------------


def _software_notes(results: dict, verification: Verification) -> bool:
    """Notes on the recorded versus the installed software; True when they differ."""
    recorded = results["provenance"].get("ccreport", {})
    installed = ccreport_source()
    differs = any(recorded.get(k) != installed.get(k) for k in ("version", "commit", "tree"))
    if differs:
        verification.notes.append(
            f"the report was built by ccreport {recorded.get('version')} (commit {recorded.get('commit') or 'unknown'}, "
            f"{recorded.get('tree')}); this is ccreport {installed.get('version')} (commit {installed.get('commit') or 'unknown'}, "
            f"{installed.get('tree')}): differences below may come from the software rather than the inputs"
        )
    elif recorded.get("tree") != "clean":
        verification.notes.append(f"ccreport's source tree was {recorded.get('tree')!r} when built: the commit alone does not pin the software")
    platform_now = platform_record()
    if results["provenance"].get("platform") != platform_now:
        verification.notes.append(
            f"built on {results['provenance'].get('platform')}, verified on {platform_now}: bytes of figures and the PDF may differ with fonts and libraries"
        )
        differs = True
    return differs


def _compare_files(original: Path, rebuilt: Path, verification: Verification) -> None:
    def listing(folder: Path) -> set[str]:
        return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name not in NOT_COMPARED}

    mine, theirs = listing(original), listing(rebuilt)
    for name in sorted(mine | theirs):
        if name not in theirs:
            verification.differences.append(f"file {name}: in the report, not in the rebuild")
        elif name not in mine:
            verification.differences.append(f"file {name}: missing from the report, made by the rebuild")
        else:
            verification.compared_files += 1
            if (original / name).read_bytes() != (rebuilt / name).read_bytes():
                verification.differences.append(f"file {name}: differs from the rebuild")


def verify(report: str | Path, project: str | Path | None = None, workers: int = 1) -> Verification:
    """Check REPORT (an output folder or a report.pdf) against a rebuild from its inputs (module doc)."""
    from .build import build

    report = Path(report)
    verification = Verification()
    if not report.exists():
        raise _unusable(report, "expected a built output folder or a report.pdf, got nothing at that path")
    with tempfile.TemporaryDirectory(prefix="ccreport-verify-") as scratch:
        scratch = Path(scratch)
        if report.is_dir():
            if not (report / RESULTS).is_file():
                raise _unusable(report, "expected a ccreport output folder holding results.json")
            recorded_text = (report / RESULTS).read_text(encoding="utf-8")
            results = _load_results(recorded_text, report)
            root = _project_of_folder(report, Path(project) if project is not None else None)
            pdf = (report / PDF).is_file()
            pdf_bytes = None
        else:
            results, root, pdf_bytes = extract_pdf(report, scratch)
            pdf = True
        if not any(f.get("role") == "manifest" for f in results["provenance"]["files"]):
            raise _unusable(report, f"expected the project's {MANIFEST_NAME}; none recorded")
        software_differs = _software_notes(results, verification)
        if not check_inputs(results["provenance"]["files"], root, verification):
            verification.notes.append("an input is missing: the report was not rebuilt")
            return verification
        manifest = next(root / f["path"] for f in results["provenance"]["files"] if f.get("role") == "manifest")
        out = scratch / "rebuild"
        build(manifest, out, workers=workers, pdf=pdf, cache_dir=None, date=recorded_date(results),
              command_line=["ccreport", "verify", str(report)])
        rebuilt = json.loads((out / RESULTS).read_text(encoding="utf-8"))
        skip = SOFTWARE_FIELDS if software_differs else ()
        found, count = compare_values(results, rebuilt, skip=skip)
        verification.differences += [f"results.json {line}" for line in found]
        verification.compared_values = count
        if report.is_dir():
            check_side_files(results, report, verification)
            _compare_files(report, out, verification)
        else:
            verification.compared_files = 1
            if pdf_bytes != (out / PDF).read_bytes():
                verification.differences.append(f"file {report.name}: differs from the rebuilt report.pdf")
        if software_differs and verification.differences:
            verification.notes.append("the software differs from the recorded one (above): compare the numbers, not the bytes")
    return verification
