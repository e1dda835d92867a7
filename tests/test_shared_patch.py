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
