"""ccreport.render.shared_patch: a patch applied by the first user and undone by the last."""

import threading

import pytest

from ccreport.render.shared_patch import SharedPatch


def test_nested_users_apply_once_and_the_last_undoes():
    events = []
    patch = SharedPatch()

    def apply():
        events.append("apply")
        return lambda: events.append("undo")

    with patch.applied(apply):
        with patch.applied(apply):
            assert events == ["apply"]
        assert events == ["apply"]
    assert events == ["apply", "undo"]
    with patch.applied(apply):  # applied again by the next first user
        pass
    assert events == ["apply", "undo", "apply", "undo"]


def test_an_error_inside_still_undoes():
    undone = []
    patch = SharedPatch()
    with pytest.raises(KeyError), patch.applied(lambda: lambda: undone.append(True)):
        raise KeyError("x")
    assert undone == [True]


def test_concurrent_users_share_one_application():
    applied, undone = [], []
    patch = SharedPatch()
    inside = threading.Barrier(4)

    def user():
        with patch.applied(lambda: (applied.append(1), lambda: undone.append(1))[1]):
            inside.wait(timeout=10)  # all four inside at once

    threads = [threading.Thread(target=user) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert applied == [1] and undone == [1]


class _Base:
    def method(self):
        return "base"


class _Own(_Base):
    def method(self):
        return "own"


class _Inherits(_Base):
    pass


def test_attribute_set_puts_back_what_the_owner_itself_held():
    """A class's own attribute comes back as it was; an inherited one is deleted again (copying the
    base's in would shadow a later change of the base); a module attribute comes back too; nested
    users set it once and the last restores; ``when`` false patches nothing."""
    import types

    patch = SharedPatch()
    replacement = lambda self: "patched"  # noqa: E731
    own = _Own.__dict__["method"]
    with patch.attribute_set(_Own, "method", replacement):
        with patch.attribute_set(_Own, "method", lambda self: "inner"):  # not applied: already patched
            assert _Own().method() == "patched"
        assert _Own().method() == "patched"
    assert _Own.__dict__["method"] is own and _Own().method() == "own"

    with patch.attribute_set(_Inherits, "method", replacement):
        assert _Inherits().method() == "patched"
    assert "method" not in _Inherits.__dict__ and _Inherits().method() == "base"

    module = types.ModuleType("m")
    module.value = None
    with patch.attribute_set(module, "value", 3):
        assert module.value == 3
    assert module.value is None

    with patch.attribute_set(_Own, "method", replacement, when=lambda: False):
        assert _Own().method() == "own"
    assert _Own.__dict__["method"] is own


def test_attribute_set_restores_after_an_error():
    patch = SharedPatch()
    with pytest.raises(RuntimeError):
        with patch.attribute_set(_Own, "method", lambda self: "patched"):
            raise RuntimeError
    assert _Own().method() == "own"
