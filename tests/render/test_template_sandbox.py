"""The template sandbox's verdicts on attributes are remembered per class and attribute name:
what one value of a class was refused stays refused for every other, and a module stays refused
whatever was allowed before under the same name (render/site.py, TemplateSandbox)."""

from __future__ import annotations

import types

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from ccreport import paths
from ccreport.render import site


def environment():
    return site.make_environment(None, paths.theme_dir(paths.DEFAULT_THEME, None))


class Holder:
    def __init__(self, value):
        self.value = value


def test_a_refusal_follows_an_allowance_on_the_same_class():
    env = environment()
    assert env.from_string("{{ d.keys() | join(',') }}").render(d={"a": 1, "b": 2}) == "a,b"
    with pytest.raises(SecurityError):
        env.from_string("{{ d.clear() }}").render(d={"a": 1})
    assert env.from_string("{{ x.index(2) }}").render(x=[1, 2]) == "1"
    with pytest.raises(SecurityError):
        env.from_string("{{ x.append(3) }}").render(x=[1, 2])


def test_a_module_is_refused_where_another_value_of_the_name_was_allowed():
    env = environment()
    assert env.from_string("{{ h.value }}").render(h=Holder(3)) == "3"
    with pytest.raises(SecurityError):
        env.from_string("{{ h.value.system('true') }}").render(h=Holder(types.ModuleType("os")))


@pytest.mark.parametrize(
    "obj, attr",
    [
        ({}, "clear"),
        ({}, "keys"),
        ([], "append"),
        ("", "upper"),
        (set(), "add"),
        (Holder(1), "value"),
        (Holder(1), "_private"),
        (Holder, "mro"),
        (Holder.__init__, "__globals__"),
        (lambda: 0, "__code__"),
        ((i for i in ()), "gi_frame"),
    ],
)
def test_the_remembered_verdict_is_jinjas(obj, attr):
    env = environment()
    reference = ImmutableSandboxedEnvironment()
    value = getattr(obj, attr, None)
    expected = reference.is_safe_attribute(obj, attr, value)
    for _ in range(2):  # computed, then remembered
        assert env.is_safe_attribute(obj, attr, value) is expected
