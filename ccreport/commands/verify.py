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
``provenance.platform``) are not counted as differences but named in a note, since other software
can change numbers in their last bits and the bytes of every page; a difference is then a question
for the reader rather than proof that the inputs changed.

The input is treated as hostile: before anything is read from the project or rebuilt, every field
verify uses is validated (:func:`load_results`, :func:`_project_of_folder`): results.json must be
UTF-8 JSON from ccreport; ``provenance.files`` a list of objects, each with ``path`` (relative to
the manifest, POSIX, ``..`` only as leading parts), ``sha256`` (64 lower-case hex digits), ``role``
(text) and ``size`` (an integer >= 0), no path twice, exactly one ``manifest``; ``provenance.date``
an ISO 8601 moment ``YYYY-MM-DDTHH:MM:SSZ`` (years 0001-9999) and ``date_source`` one of
:data:`ccreport.runtime.build_date.SOURCES`; ``provenance.ccreport`` an object of texts; every
side-file record (``*_full``) a path inside the report folder with a SHA-256; invocation.json
(when present) an object whose ``manifest`` is a relative path of a ``.toml`` file. A report folder
holding a symbolic link (ccreport writes none) is refused, so nothing outside the folder is ever
read as part of the report. ``SOURCE_DATE_EPOCH`` in the environment must be valid (matplotlib and
WeasyPrint read it during the rebuild). Messages and warnings of the PDF library are caught and said
in ccreport's words. Anything malformed is one line naming the file and the field, exit 2.

Many differences are summarised (:meth:`Verification.report_lines`): counts by section, the first
:data:`SHOWN_DIFFERENCES`, and every one written to a file whose path is printed.

Exit status (:func:`ccreport.cli.main`): 0 all match, 1 differences (each listed), 2 unusable
REPORT (missing, not a ccreport output, a PDF without the archive, a results.json without
provenance, a malformed or tampered field).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import stat
import tempfile
import warnings
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import Problem, UserInputError
from ..project.manifest import MANIFEST_NAME, display_path  # noqa: F401
from ..runtime.build_date import ENVIRONMENT, SOURCES, BuildDate, parse_epoch, parse_iso
from ..runtime.output_folder import MARKER, STAGING_MARKER
from ..runtime.provenance import ccreport_source, platform_record

RESULTS = "results.json"
PDF = "report.pdf"
NOT_COMPARED = {"invocation.json", MARKER, STAGING_MARKER}
SOFTWARE_FIELDS = ("generator", "versions", "provenance.ccreport", "provenance.platform")
SHOWN_DIFFERENCES = 20  # more are counted by section and written to a file
SHA256 = re.compile(r"[0-9a-f]{64}")
MAX_DEPTH = 64  # results.json nests about 8 levels; the comparison recurses once per level
MAX_RESULTS_BYTES = 1 << 30  # a results.json larger than this is not one ccreport wrote


@dataclass
class Verification:
    """What verify found: differences (each one line), notes (not differences), what was
    compared."""

    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared_files: int = 0
    compared_values: int = 0

    @property
    def ok(self) -> bool:
        return not self.differences

    def report_lines(self, folder: str | Path | None = None) -> list[str]:
        """The lines to print: each note, then the differences - all of them when there are at most
        :data:`SHOWN_DIFFERENCES`; else their count per section (:func:`difference_section`), the
        first :data:`SHOWN_DIFFERENCES`, and the path of a file (in ``folder``, default the
        temporary folder) listing every one."""
        lines = [f"note: {note}" for note in self.notes]
        if len(self.differences) <= SHOWN_DIFFERENCES:
            return lines + self.differences
        counts = Counter(difference_section(line) for line in self.differences)
        lines.append(
            f"{len(self.differences)} differences: "
            + ", ".join(f"{n} in {section}" for section, n in counts.items())
        )
        lines += self.differences[:SHOWN_DIFFERENCES]
        rest = len(self.differences) - SHOWN_DIFFERENCES
        try:
            fd, name = tempfile.mkstemp(prefix="ccreport-verify-", suffix=".txt", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write("\n".join(self.differences) + "\n")
        except OSError as error:
            lines.append(
                f"... and {rest} more (the list could not be written: {error.strerror or error})"
            )
        else:
            lines.append(f"... and {rest} more; every difference is listed in {name}")
        return lines


def difference_section(line: str) -> str:
    """Where a difference line belongs: ``results.json datasets.sonar`` (a dataset's values),
    ``results.json priors`` (another top-level key), ``file figures/`` (files of a folder of the
    report), ``file index.html``, ``input``."""
    kind, _, rest = line.partition(" ")
    if kind == "results.json":
        head = re.split(r"[.\[:]", rest, maxsplit=1)[0]
        if head == "datasets":
            name = re.match(r"datasets\.([^.\[:]+)", rest)
            return f"results.json datasets.{name[1]}" if name else "results.json datasets"
        return f"results.json {head}"
    if kind == "file":
        name = rest.split(":", 1)[0]
        return f"file {name.split('/', 1)[0]}/" if "/" in name else f"file {name}"
    return kind


class UnusableReport(UserInputError):
    """REPORT cannot be verified (missing, malformed, tampered): one problem, one line, exit 2."""


def _unusable(report: Path, expected: str, field: str = "REPORT") -> UnusableReport:
    return UnusableReport(Problem(display_path(report), field, expected))


def _shown_text(value) -> str:
    """A tampered value as a message shows it: short, on one line."""
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value) -> str:
    for kind, name in (
        (bool, "a boolean"),
        (str, "a string"),
        (int, "an integer"),
        (float, "a number"),
        (list, "an array"),
        (dict, "an object"),
    ):
        if isinstance(value, kind):
            return f"{name} {_shown_text(value)}" if kind in (bool, str, int, float) else name
    return "null"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _depth(value) -> int:
    """How deeply a JSON value nests (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is not None:
            deepest = max(deepest, level + 1)
            stack.extend(
                (child, level + 1) for child in children if isinstance(child, (dict, list))
            )
    return deepest


def _decode_results(data: bytes, where: Path) -> dict:
    """results.json's bytes as a JSON object (UTF-8, at most nesting Python can read)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _unusable(
            where,
            f"expected UTF-8 text, got byte {data[error.start]:#04x} at offset {error.start}",
            RESULTS,
        ) from None
    try:
        return json.loads(text)
    except RecursionError:
        raise _unusable(
            where, "expected a ccreport results.json, got JSON nested too deeply to read", RESULTS
        ) from None
    except ValueError as error:  # JSONDecodeError, and an integer of more than 4,300 digits
        raise _unusable(
            where,
            f"expected a ccreport results.json, got invalid JSON ({str(error)[:80]})",
            RESULTS,
        ) from None


def load_results(text: bytes | str, report: Path) -> dict:
    """results.json parsed and every field verify uses validated (module doc); one
    UserInputError naming the report, the file and the field otherwise."""
    data = _decode_results(text.encode("utf-8") if isinstance(text, str) else text, report)
    if _depth(data) > MAX_DEPTH:
        raise _unusable(
            report,
            f"expected a ccreport results.json, got JSON nested deeper than {MAX_DEPTH} levels",
            RESULTS,
        )

    def bad(field: str, expected: str, got=None) -> UserInputError:
        return _unusable(report, f"expected {expected}, got {_kind(got)}", f"{RESULTS} {field}")

    if (
        not isinstance(data, dict)
        or not isinstance(data.get("generator"), str)
        or not data["generator"].startswith("ccreport")
    ):
        raise _unusable(
            report,
            "expected a ccreport results.json (its generator is not ccreport)",
            f"{RESULTS} generator",
        )
    provenance = data.get("provenance")
    if not isinstance(provenance, dict) or "files" not in provenance:
        raise _unusable(
            report,
            "expected a results.json with provenance (written by a ccreport with `verify`); "
            "rebuild the report first",
            f"{RESULTS} provenance",
        )
    files = provenance["files"]
    if not isinstance(files, list):
        raise bad("provenance.files", "an array of recorded inputs", files)
    seen = set()
    for i, entry in enumerate(files):
        where = f"provenance.files[{i}]"
        if not isinstance(entry, dict):
            raise bad(where, "an object with path, sha256, size and role", entry)
        for key in ("path", "sha256", "role"):
            if not isinstance(entry.get(key), str):
                raise bad(
                    f"{where}.{key}",
                    "a string" if key in entry else "a string (the key is missing)",
                    entry.get(key),
                )
        if not SHA256.fullmatch(entry["sha256"]):
            raise bad(f"{where}.sha256", "64 lower-case hexadecimal digits", entry["sha256"])
        size = entry.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise bad(f"{where}.size", "an integer >= 0 (bytes)", size)
        _safe_relative(entry["path"], report, f"{RESULTS} {where}.path")
        if entry["path"] in seen:
            raise bad(f"{where}.path", "each input recorded once", entry["path"])
        seen.add(entry["path"])
    manifests = sum(entry["role"] == "manifest" for entry in files)
    if manifests != 1:
        raise _unusable(
            report,
            f"expected the project's {MANIFEST_NAME} recorded once (role manifest), got "
            f"{manifests}",
            f"{RESULTS} provenance.files",
        )
    if provenance.get("date_source") not in SOURCES:
        raise bad(
            "provenance.date_source",
            "one of " + ", ".join(repr(s) for s in SOURCES),
            provenance.get("date_source"),
        )
    if parse_iso(provenance.get("date")) is None:
        raise bad(
            "provenance.date",
            "an ISO 8601 moment such as 2024-05-01T00:00:00Z",
            provenance.get("date"),
        )
    software = provenance.get("ccreport", {})
    if not isinstance(software, dict) or not all(
        isinstance(v, str) or v is None for v in software.values()
    ):
        raise bad(
            "provenance.ccreport", "an object of version, commit and tree (strings)", software
        )
    for entry in side_files(data):
        _safe_inside(entry["path"], report, f"{RESULTS} {entry['_where']}.path")
        if not isinstance(entry["sha256"], str) or not SHA256.fullmatch(entry["sha256"]):
            raise bad(
                f"{entry['_where']}.sha256", "64 lower-case hexadecimal digits", entry["sha256"]
            )
    return data


def recorded_date(results: dict) -> BuildDate:
    """The build date a validated results.json records (:func:`load_results`)."""
    provenance = results["provenance"]
    return BuildDate(parse_iso(provenance["date"]), provenance["date_source"])


# --- comparing results.json ----------------------------------------------------------------------


def _path(prefix: str, key) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else str(key)


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def compare_values(
    recorded, rebuilt, prefix: str = "", skip: tuple[str, ...] = ()
) -> tuple[list[str], int]:
    """Every difference between two JSON values, as ``path: recorded != rebuilt`` lines, and how
    many leaf values were compared. Numbers compare exactly (NaN equals NaN); ``skip``: paths left
    out."""
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
    if (
        isinstance(recorded, (int, float))
        and isinstance(rebuilt, (int, float))
        and not isinstance(recorded, bool)
    ):
        same = recorded == rebuilt or (
            isinstance(recorded, float)
            and isinstance(rebuilt, float)
            and math.isnan(recorded)
            and math.isnan(rebuilt)
        )
    return ([] if same else [f"{prefix}: {_shown(recorded)} != {_shown(rebuilt)}"]), 1


# --- the side files -------------------------------------------------------------------------------


def side_files(value, prefix: str = "") -> list[dict]:
    """Every side-file record of a results.json value: the ``*_full`` entries of thinned curves
    (``path``, ``rows``, ``sha256``; :mod:`ccreport.results.curves`), in document order, each as
    ``{path, sha256, _where}`` (``_where``: its path in results.json)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            where = _path(prefix, key)
            if (
                key.endswith("_full")
                and isinstance(item, dict)
                and "path" in item
                and "sha256" in item
            ):
                found.append({"path": item["path"], "sha256": item["sha256"], "_where": where})
            else:
                found += side_files(item, where)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, (dict, list)):
                found += side_files(item, _path(prefix, i))
    return found


def check_side_files(results: dict, report: Path, verification: Verification) -> None:
    """Each side file results.json names must be in the report folder with the recorded SHA-256
    (the rebuild's own hashes are compared with the recorded ones as results.json values)."""
    for entry in side_files(results):
        path = report / _safe_inside(entry["path"], report, f"{RESULTS} {entry['_where']}.path")
        if not path.is_file():
            verification.differences.append(
                f"file {entry['path']}: named in results.json, missing from the report"
            )
            continue
        digest = _file_sha256(path)
        if digest != entry["sha256"]:
            verification.differences.append(
                f"file {entry['path']}: sha256 {digest} != {entry['sha256']} recorded in "
                "results.json"
            )


# --- the inputs -----------------------------------------------------------------------------------


def _safe_relative(path, report: Path, field: str = "REPORT") -> PurePosixPath:
    """A recorded path: a string, relative, posix, ``..`` only as leading parts, no empty or odd
    parts, no control characters, each part at most 255 bytes."""
    if not isinstance(path, str):
        raise _unusable(
            report, f"expected a path relative to the manifest, got {_kind(path)}", field
        )
    pure = PurePosixPath(path)
    parts = pure.parts
    leading = 0
    while leading < len(parts) and parts[leading] == "..":
        leading += 1
    rest = parts[leading:]
    odd = any(
        p in ("", ".", "..")
        or "\\" in p
        or any(ord(c) < 32 for c in p)
        or len(p.encode("utf-8", "replace")) > 255
        for p in rest
    )
    if pure.is_absolute() or not rest or odd or path != pure.as_posix():
        raise _unusable(
            report, f"expected a path relative to the manifest, got {_shown_text(path)}", field
        )
    return pure


def _safe_inside(path, report: Path, field: str) -> PurePosixPath:
    """A side file's recorded path: relative to the report folder and inside it (no ``..``)."""
    pure = _safe_relative(path, report, field)
    if ".." in pure.parts:
        raise _unusable(
            report, f"expected a path inside the report folder, got {_shown_text(path)}", field
        )
    return pure


def check_inputs(files: list[dict], root: Path, verification: Verification) -> bool:
    """Compare each recorded input under ``root`` with its digest; False when one is missing."""
    complete = True
    for entry in files:
        path = root / PurePosixPath(entry["path"])  # validated by load_results
        try:
            regular = stat.S_ISREG(path.stat().st_mode)
        except (OSError, ValueError):  # missing, a symbolic-link loop, a name too long
            regular = False
        if not regular:
            verification.differences.append(
                f"input {entry['path']} ({entry.get('role')}): missing (recorded sha256 "
                f"{entry['sha256']})"
            )
            complete = False
            continue
        try:
            digest = _file_sha256(path)
        except OSError as error:
            raise UnusableReport(
                Problem(
                    display_path(path),
                    f"input {entry['path']}",
                    f"expected a readable file, got {error.strerror or error}",
                )
            ) from None
        if digest != entry["sha256"]:
            verification.differences.append(
                f"input {entry['path']} ({entry.get('role')}): sha256 {digest} != recorded "
                f"{entry['sha256']}; the file changed after the build"
            )
    return complete


@contextmanager
def _pdf_library_messages():
    """Collect what pypdf logs or warns (``EOF marker not found``...) instead of letting it print:
    yields the list of messages, to be said in ccreport's words."""
    said: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    logger = logging.getLogger("pypdf")
    handler, propagate = Collect(level=logging.DEBUG), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield said
        said += [str(w.message) for w in caught]
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def extract_pdf(report: Path, folder: Path) -> tuple[dict, Path, bytes]:
    """The attached results.json, the project root it was unpacked to, and the PDF's bytes.

    A PDF the library reads only with complaints (a truncated file, a broken cross-reference
    table) is refused: ccreport writes PDFs it reads cleanly, so a complaint means damage."""
    try:
        import pypdf
    except ImportError:  # pragma: no cover - pypdf is a dependency
        raise _unusable(report, "verifying a PDF needs pypdf (pip install pypdf)") from None
    data = report.read_bytes()
    with _pdf_library_messages() as said:
        try:
            attachments = {
                name: list(contents)
                for name, contents in pypdf.PdfReader(report).attachments.items()
            }
        except Exception as error:  # pypdf raises many kinds on a damaged file
            attachments, failure = None, f"{type(error).__name__}: {str(error)[:80]}"
    if attachments is None or said:
        detail = (
            "; ".join(dict.fromkeys(m.strip().replace("\n", " ")[:80] for m in said))
            if said
            else failure
        )
        raise _unusable(
            report,
            "expected an intact report.pdf written by ccreport, got a damaged PDF (the PDF "
            f"reader says: {detail})",
        )
    if RESULTS not in attachments:
        raise _unusable(
            report,
            "expected a report.pdf with results.json attached (a PDF written by ccreport build)",
        )
    for name, contents in attachments.items():
        if len(contents) != 1:
            raise _unusable(
                report,
                f"expected each attachment once, got {len(contents)} named {_shown_text(name)}",
            )
        if not isinstance(contents[0], bytes):
            raise _unusable(report, f"expected the attachment {_shown_text(name)} as bytes")
    results = load_results(attachments[RESULTS][0], report)
    paths = [PurePosixPath(f["path"]) for f in results["provenance"]["files"]]  # validated
    depth = max((sum(1 for p in path.parts if p == "..") for path in paths), default=0)
    root = folder.joinpath("project", *[f"up{i}" for i in range(depth)])
    root.mkdir(parents=True)
    for entry, path in zip(results["provenance"]["files"], paths):
        contents = attachments.get(entry["path"])
        if contents is None:
            continue  # reported as missing by check_inputs
        target = root / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(contents[0])
        except OSError as error:  # one recorded path a folder of another
            raise _unusable(
                report,
                "expected recorded paths that can all be files, got "
                f"{_shown_text(entry['path'])} ({error.strerror or error})",
                f"{RESULTS} provenance.files",
            ) from None
    return results, root, data


def _symbolic_links(report: Path) -> list[str]:
    """Every symbolic link in the report folder (ccreport writes none), without following any."""
    found = []
    for folder, names, files in os.walk(report, followlinks=False):
        for name in names + files:
            if os.path.islink(os.path.join(folder, name)):
                found.append(Path(folder, name).relative_to(report).as_posix())
    return sorted(found)


def _read_results_file(report: Path) -> bytes:
    path = report / RESULTS
    try:
        info = path.lstat()
    except OSError:
        raise _unusable(report, "expected a ccreport output folder holding results.json") from None
    if not stat.S_ISREG(info.st_mode):
        raise _unusable(report, "expected a regular file", RESULTS)
    if info.st_size > MAX_RESULTS_BYTES:
        raise _unusable(
            report,
            f"expected a results.json of at most {MAX_RESULTS_BYTES} bytes, got {info.st_size}",
            RESULTS,
        )
    try:
        return path.read_bytes()
    except OSError as error:
        raise _unusable(
            report, f"expected a readable file, got {error.strerror or error}", RESULTS
        ) from None


def _project_of_folder(report: Path, project: Path | None) -> Path:
    """The project of a report folder: ``--project``, else the manifest invocation.json names
    (validated: an object whose ``manifest`` is a relative path of a ``.toml`` file), else the
    folder's parent."""
    if project is not None:
        return Path(project)
    path = report / "invocation.json"
    if not os.path.lexists(path):
        return report.resolve().parent
    try:
        text = path.read_bytes()
    except OSError as error:
        raise _unusable(
            report, f"expected a readable file, got {error.strerror or error}", "invocation.json"
        ) from None
    try:
        invocation = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError):
        raise _unusable(
            report, "expected UTF-8 JSON (how the build was run)", "invocation.json"
        ) from None
    if not isinstance(invocation, dict) or "manifest" not in invocation:
        raise _unusable(
            report,
            "expected an object with manifest (the manifest's path relative to the folder)",
            "invocation.json manifest",
        )
    manifest = invocation["manifest"]
    _safe_relative(manifest, report, "invocation.json manifest")
    if not manifest.endswith(".toml"):
        raise _unusable(
            report,
            f"expected the path of a .toml manifest, got {_shown_text(manifest)}",
            "invocation.json manifest",
        )
    try:
        located = (report / manifest).resolve()
        if located.is_file():
            return located.parent
    except (OSError, RuntimeError):  # a symbolic-link loop
        pass
    return report.resolve().parent


# --- the whole check ------------------------------------------------------------------------------


def _software_notes(results: dict, verification: Verification) -> bool:
    """Notes on the recorded versus the installed software; True when they differ."""
    recorded = results["provenance"].get("ccreport", {})
    installed = ccreport_source()
    differs = any(recorded.get(k) != installed.get(k) for k in ("version", "commit", "tree"))
    if differs:
        verification.notes.append(
            f"the report was built by ccreport {recorded.get('version')} (commit "
            f"{recorded.get('commit') or 'unknown'}, {recorded.get('tree')}); this is ccreport "
            f"{installed.get('version')} (commit {installed.get('commit') or 'unknown'}, "
            f"{installed.get('tree')}): differences below may come from the software rather than "
            "the inputs"
        )
    elif recorded.get("tree") != "clean":
        verification.notes.append(
            f"ccreport's source tree was {recorded.get('tree')!r} when built: the commit alone "
            "does not pin the software"
        )
    platform_now = platform_record()
    if results["provenance"].get("platform") != platform_now:
        verification.notes.append(
            f"built on {results['provenance'].get('platform')}, verified on {platform_now}: "
            "bytes of figures and the PDF may differ with fonts and libraries"
        )
        differs = True
    return differs


def _compare_files(original: Path, rebuilt: Path, verification: Verification) -> None:
    def listing(folder: Path) -> set[str]:
        return {
            p.relative_to(folder).as_posix()
            for p in folder.rglob("*")
            if p.is_file() and p.name not in NOT_COMPARED
        }

    mine, theirs = listing(original), listing(rebuilt)
    for name in sorted(mine | theirs):
        if name not in theirs:
            verification.differences.append(f"file {name}: in the report, not in the rebuild")
        elif name not in mine:
            verification.differences.append(
                f"file {name}: missing from the report, made by the rebuild"
            )
        else:
            verification.compared_files += 1
            if (original / name).read_bytes() != (rebuilt / name).read_bytes():
                verification.differences.append(f"file {name}: differs from the rebuild")


def verify(report: str | Path, project: str | Path | None = None, workers: int = 1) -> Verification:
    """Check REPORT (an output folder or a report.pdf) against a rebuild from its inputs
    (module doc)."""
    from .build import build

    report = Path(report)
    verification = Verification()
    environment = os.environ.get(ENVIRONMENT)
    if environment is not None and environment.strip():
        try:
            parse_epoch(environment)  # read by matplotlib and WeasyPrint during the rebuild
        except UserInputError as error:
            raise UnusableReport(error.problems) from None
    try:
        info = report.lstat()
    except OSError:
        info = None
    if info is None or (stat.S_ISLNK(info.st_mode) and not report.exists()):
        raise _unusable(
            report,
            "expected a built output folder or a report.pdf, got nothing at that path (or a "
            "broken symbolic link)",
        )
    if report.is_dir():
        links = _symbolic_links(report)
        if links:
            raise _unusable(
                report,
                "expected a report folder of regular files (ccreport writes no symbolic links), "
                f"got {len(links)} symbolic link(s), first {_shown_text(links[0])}",
            )
    elif not report.is_file():
        raise _unusable(
            report,
            "expected a built output folder or a report.pdf, got something else (a named pipe, a "
            "device...)",
        )
    with tempfile.TemporaryDirectory(prefix="ccreport-verify-") as scratch:
        scratch = Path(scratch)
        if report.is_dir():
            results = load_results(_read_results_file(report), report)
            root = _project_of_folder(report, Path(project) if project is not None else None)
            pdf = (report / PDF).is_file()
            pdf_bytes = None
        else:
            results, root, pdf_bytes = extract_pdf(report, scratch)
            pdf = True
        software_differs = _software_notes(results, verification)
        if not check_inputs(results["provenance"]["files"], root, verification):
            verification.notes.append("an input is missing: the report was not rebuilt")
            return verification
        manifest = next(
            root / f["path"] for f in results["provenance"]["files"] if f.get("role") == "manifest"
        )
        out = scratch / "rebuild"
        try:
            build(
                manifest,
                out,
                workers=workers,
                pdf=pdf,
                cache_dir=None,
                date=recorded_date(results),
                command_line=["ccreport", "verify", str(report)],
            )
        except UnusableReport:
            raise
        except (
            UserInputError
        ) as error:  # inputs whose digests match but that do not build: one line
            first = str(error.problems[0]).replace(str(root) + os.sep, "")
            more = f" (and {len(error.problems) - 1} more)" if len(error.problems) > 1 else ""
            raise _unusable(
                report, f"expected recorded inputs that build, got: {first}{more}", "rebuild"
            ) from None
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
                verification.differences.append(
                    f"file {report.name}: differs from the rebuilt report.pdf"
                )
        if software_differs and verification.differences:
            verification.notes.append(
                "the software differs from the recorded one (above): compare the numbers, not "
                "the bytes"
            )
    return verification
