"""The tables of the provenance page: input files with digests, settings, software versions."""

from __future__ import annotations

from ...results import Results
from .. import tables as tb


def inputs_table(results: Results) -> tb.Table:
    t = tb.Table(
        "provenance-inputs",
        "Input files, relative to the project folder, with their SHA-256 digests.",
        ["File", "Role", "SHA-256"],
        compact=True,
    )
    for f in results.inputs:
        t.rows.append([tb.text(f.path), tb.text(f.role), tb.text(f.sha256, mono=True)])
    return t


def versions_table(results: Results) -> tb.Table:
    t = tb.Table("provenance-versions", "Software versions used for this build.", ["Software", "Version"])
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
