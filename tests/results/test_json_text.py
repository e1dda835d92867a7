"""The fast indented JSON writer against ``json.dumps(indent=1, ensure_ascii=False)``, byte for
byte."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ccreport.results.json_text import dumps, write_json

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(inner, max_size=6).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=5),
    ),
    max_leaves=40,
)


numbers = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False)
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(numbers, max_size=3), numbers), max_size=6))
def test_equal_to_the_standard_library_on_lists_of_rows(value):
    assert dumps(value) == reference(value)


def reference(value) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False, allow_nan=False)


@settings(max_examples=600, deadline=None)
@given(values)
def test_equal_to_the_standard_library_on_any_json_value(value):
    assert dumps(value) == reference(value)


@pytest.mark.parametrize(
    "value",
    [
        [],
        {},
        [[]],
        {"a": {}},
        [1.0, -0.0, 5e-324, 1e300, 0.1, 2**64, True, False, None],
        [
            "a, b",
            "c\n",
            '\u2212\u00e9"\\',
        ],  # ", " and line breaks inside strings are not separators
        {"k\n": [1, [2, 3], {"x": (4.5, None)}]},
        [[1, 2], [3]],  # rows: the one-call path
        [(0.5, 1.5), [2.5, None], [True]],
        [[1], []],  # an empty row: element by element
        [[[1]]],
        [[1, 2], 3],
        [[None], None],
        [3, [1]],
        [[1, "a, b"], [2]],
        [[1, {"x": 2}]],
    ],
)
def test_edge_cases(value):
    assert dumps(value) == reference(value)


def test_chunks_concatenate_to_the_text():
    value = {"a": [1, 2, {"b": "c"}], "d": [[0.5, 1.5], [2.5, 3.5]]}
    chunks = []
    write_json(value, chunks.append)
    assert len(chunks) > 1 and "".join(chunks) == reference(value)


@pytest.mark.parametrize("bad", [float("nan"), [1.0, float("inf")], {"x": -math.inf}])
def test_non_finite_floats_are_refused_like_json(bad):
    with pytest.raises(ValueError):
        reference(bad)
    with pytest.raises(ValueError):
        dumps(bad)


@pytest.mark.parametrize("bad", [object(), {"x": {1, 2}}, {1: "non-string key"}])
def test_other_values_are_refused(bad):
    with pytest.raises(TypeError):
        dumps(bad)
