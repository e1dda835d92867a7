"""results.json's three digests from one serialisation (``results_json_digests``) against the three
serialisations they replace: the written text, its undated twin and the figures' text."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from site_fixtures import write_tiny_project

from ccreport.commands.build import build, figures_key, undated
from ccreport.results import ResultsDigests, results_json_digests, results_to_json


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _built(tmp_path):
    root = write_tiny_project(
        tmp_path / "p", n=120, settings='bootstrap = 500\ncalibration = "off"'
    )
    return build(root, tmp_path / "site", pdf=False), tmp_path / "site" / "results.json"


def test_the_three_digests_are_those_of_the_three_texts(tmp_path):
    results, written = _built(tmp_path)
    assert results.provenance is not None and results.provenance.date and results.inputs
    digests = results_json_digests(results)
    assert (
        digests.text == _sha(results_to_json(results)) == _sha(written.read_text(encoding="utf-8"))
    )
    assert digests.undated == _sha(results_to_json(undated(results))) != digests.text
    drawn = dataclasses.replace(results, provenance=None, inputs=())
    assert digests.drawn == _sha(results_to_json(drawn)) == figures_key(results)


def test_writing_and_hashing_give_the_same_digests_and_the_file_is_the_one_string_form(tmp_path):
    results, _ = _built(tmp_path)
    target = tmp_path / "again" / "results.json"
    target.parent.mkdir()
    assert results_json_digests(results, target) == results_json_digests(results)
    assert target.read_text(encoding="utf-8") == results_to_json(results)
    json.loads(target.read_text(encoding="utf-8"))


def test_without_provenance_the_undated_text_is_the_text(tmp_path):
    results, _ = _built(tmp_path)
    bare = dataclasses.replace(results, provenance=None)
    assert results_json_digests(bare) == ResultsDigests(
        _sha(results_to_json(bare)),
        _sha(results_to_json(bare)),
        _sha(results_to_json(dataclasses.replace(bare, inputs=()))),
    )


def test_line_breaks_and_non_ascii_inside_strings_do_not_move_the_indentation(tmp_path):
    results, _ = _built(tmp_path)
    title = 'Kosten\nkurven: \u00e9t\u00e9 \u2212 "quoted"\n'
    odd = dataclasses.replace(results, title=title)
    assert results_json_digests(odd).text == _sha(results_to_json(odd))
    assert json.loads(results_to_json(odd))["title"] == title
