"""ccreport.runtime.collector: the garbage collector's pause and freeze around the output stages
restore what they change, and a frozen object's garbage is collected once the block ends."""

import gc
import weakref

from ccreport.runtime.collector import collector_paused, long_lived_frozen


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


def test_a_process_that_ends_leaves_the_collector_paused_after_a_pause():
    """leave_garbage_to_exit (the ccreport command): a pause that ends does not enable the
    collector again; before the call, it does. In a subprocess: the switch is for good."""
    import subprocess
    import sys

    code = (
        "import gc\n"
        "from ccreport.runtime.collector import collector_paused, leave_garbage_to_exit\n"
        "with collector_paused():\n"
        "    pass\n"
        "before = gc.isenabled()\n"
        "leave_garbage_to_exit()\n"
        "with collector_paused():\n"
        "    assert not gc.isenabled()\n"
        "print(before, gc.isenabled())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_only_one_shot_commands_leave_garbage_to_the_exit():
    """``ccreport serve`` rebuilds for as long as it runs: its collector must resume after each
    build."""
    from ccreport.cli import COMMANDS, ONE_SHOT

    assert ONE_SHOT <= set(COMMANDS) and "serve" not in ONE_SHOT and "build" in ONE_SHOT


def test_a_build_in_process_leaves_the_collector_as_it_found_it(tmp_path):
    from site_fixtures import write_tiny_project

    from ccreport.commands.build import build

    project = write_tiny_project(tmp_path / "p")
    assert gc.isenabled()
    build(project, tmp_path / "out", pdf=False)
    assert gc.isenabled() and not gc.get_freeze_count()
