"""A patch of a library that nested or concurrent users share: the first to enter applies it, the
last to leave undoes it.

The PDF stage's patches of WeasyPrint and pydyf (:mod:`ccreport.render.pdf_writing`,
:mod:`ccreport.render.pdf_layout`) change classes and modules, which every thread of the process
sees. Two reports rendered at once (a notebook, the tests) must not undo each other's patch, nor
patch what is already patched: :class:`SharedPatch` counts its users under a lock.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable


class SharedPatch:
    """One patch, counted: ``with patch.applied(apply): ...``, ``apply()`` patching and returning
    the function that undoes it; called by the first user only, the undo by the last."""

    def __init__(self):
        self._lock = threading.Lock()
        self._users = 0
        self._undo: Callable[[], None] | None = None

    @contextmanager
    def applied(self, apply: Callable[[], Callable[[], None]]):
        with self._lock:
            if self._users == 0:
                self._undo = apply()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    undo, self._undo = self._undo, None
                    undo()

    @contextmanager
    def attribute_set(self, owner, name: str, value, when: Callable[[], bool] = lambda: True):
        """``owner.name`` is ``value`` while any user is inside (:meth:`applied`): the first user sets
        it, if ``when()`` holds then, and the last puts back what ``owner`` itself held (for a class,
        its own entry: an inherited attribute is deleted again, not copied in)."""

        def apply():
            if not when():
                return lambda: None
            before = vars(owner).get(name, _ABSENT)
            setattr(owner, name, value)

            def undo():
                if before is _ABSENT:
                    delattr(owner, name)
                else:
                    setattr(owner, name, before)

            return undo

        with self.applied(apply):
            yield


_ABSENT = object()
