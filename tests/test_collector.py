"""ccreport.collector: the garbage collector's pause and freeze around the output stages restore
what they change, and a frozen object's garbage is collected once the block ends."""

import gc
import weakref

from ccreport.collector import collector_paused, long_lived_frozen


def test_collector_paused_nests_and_restores():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


class _Node:
    pass


def _cycle():
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_long_lived_frozen_freezes_for_the_block_and_its_garbage_is_collected_after():
    assert gc.get_freeze_count() == 0
    gc.disable()
    try:
        held = _cycle()  # garbage already, but not collected before the freeze
        with long_lived_frozen():
            gc.enable()
            assert gc.get_freeze_count() > 0
            gc.collect()
            assert held() is not None  # frozen: full collections do not reach it
    finally:
        gc.enable()
    gc.collect()
    assert held() is None
    with long_lived_frozen():
        made = _cycle()
        gc.collect()
        assert made() is None  # what the block makes is collected as usual
    assert gc.get_freeze_count() == 0


def test_long_lived_frozen_leaves_a_callers_freeze_alone():
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with long_lived_frozen():
            assert gc.get_freeze_count() == before
        assert gc.get_freeze_count() == before  # not thawed
    finally:
        gc.unfreeze()
