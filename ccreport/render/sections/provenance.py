"""The tables of the provenance page: input files with digests, settings, software versions."""

from __future__ import annotations

from ...results import Results
from .. import tables as tb


def inputs_table(results: Results) -> tb.Table:
    """Every file that shaped the report (``results.provenance.files``: inputs, template overrides,
    the project's theme) with size and SHA-256; the inputs alone for results without provenance."""
    if results.provenance is None:
        t = tb.Table(
            "provenance-inputs",
            "Input files, relative to the project folder, with their SHA-256 digests.",
            ["File", "Role", "SHA-256"],
            compact=True,
        )
        for f in results.inputs:
            t.rows.append([tb.text(f.path), tb.text(f.role), tb.text(f.sha256, mono=True)])
        return t
    t = tb.Table(
        "provenance-inputs",
        "Files the report was made from, relative to the manifest's folder, with size and "
        "SHA-256 digest; each is attached to report.pdf.",
        ["File", "Role", "Bytes", "SHA-256"],
        compact=True,
    )
    for f in results.provenance.files:
        t.rows.append(
            [tb.text(f.path), tb.text(f.role), tb.text(f.size), tb.text(f.sha256, mono=True)]
        )
    return t


def build_table(results: Results) -> tb.Table:
    """The build: date and its source, the ccreport that made it (commit, tree), Python, OS."""
    t = tb.Table(
        "provenance-build",
        "The build: its date, the ccreport that made it and where it ran.",
        ["Item", "Value"],
    )
    p = results.provenance
    if p is None:
        return t
    rows = [
        ("build date", p.date),
        ("date from", p.date_source),
        ("ccreport version", p.ccreport.get("version")),
        ("ccreport commit", p.ccreport.get("commit") or "unknown"),
        ("ccreport source tree", p.ccreport.get("tree")),
        ("Python", f"{p.platform.get('python')} ({p.platform.get('implementation')})"),
        ("operating system", p.platform.get("os")),
    ]
    for name, value in rows:
        t.rows.append([tb.text(name), tb.text(value, mono=name == "ccreport commit")])
    return t


def versions_table(results: Results) -> tb.Table:
    t = tb.Table(
        "provenance-versions", "Software versions used for this build.", ["Software", "Version"]
    )
    t.rows.append([tb.text("ccreport"), tb.text(results.generator.split(" ", 1)[-1])])
    for name, version in results.versions.items():
        t.rows.append([tb.text(name), tb.text(version)])
    return t


def settings_table(results: Results) -> tb.Table:
    t = tb.Table("provenance-settings", "Settings of the analyses.", ["Setting", "Value"])
    t.rows.append([tb.text("seed"), tb.text(results.seed)])
    for key, value in results.settings.to_dict().items():
        t.rows.append([tb.text(key), tb.text(value)])
    t.rows.append([tb.text("results.json schema"), tb.text(results.schema_version)])
    return t
