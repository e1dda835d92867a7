"""Per-process memos of pure functions of large arrays, keyed by the arrays' contents.

A build asks for the same O(n log n) work on the same arrays in several tasks (a classifier's ROC
points in its point analyses, each of its pairs, the hybrid and threshold choice; its instances
sorted by score in its selection task and in the dataset's out-of-fold hybrid). Tasks are pure
functions of their inputs and may run in any process, so they cannot pass such results to each
other; instead the function remembers its last results in this process, keyed by the SHA-256 of its
input arrays' bytes (with their dtypes and shapes): equal contents give the same result whichever
task asked first, so results depend neither on task order nor on the worker count. Hashing costs
about 0.005 CPU s per MB (0.05 s for 10^7 float64 scores); a memo keeps its newest entries while
their arrays total at most its byte budget (always the newest one), and makes them read-only, as
they are shared between callers.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Iterable

import numpy as np


def content_key(*arrays: np.ndarray) -> bytes:
    """SHA-256 of the arrays' dtypes, shapes and bytes, in order."""
    digest = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        digest.update(f"{a.dtype.str}{a.shape}".encode())
        digest.update(a.reshape(-1).view(np.uint8))
    return digest.digest()


MEMOS: list[ArrayMemo] = []  # every memo of the process, for :func:`clear`


def clear() -> None:
    """Empty every memo (a build does after its analyses, so the figures and the PDF run without
    them)."""
    for memo in MEMOS:
        memo.entries.clear()


class ArrayMemo:
    """Results of one function by content key, newest last, within ``budget`` bytes of arrays.

    ``arrays(result)`` lists a result's arrays (their ``nbytes`` count against the budget; each is
    made read-only when stored).
    """

    def __init__(self, budget: int, arrays: Callable[[object], Iterable[np.ndarray]]):
        self.budget = budget
        self.arrays = arrays
        self.entries: OrderedDict[bytes, object] = OrderedDict()
        MEMOS.append(self)

    def get(self, key: bytes, compute: Callable[[], object]):
        """The stored result for ``key``, else ``compute()``, stored."""
        found = self.entries.get(key)
        if found is None:
            found = compute()
            for a in self.arrays(found):
                a.flags.writeable = False
            self.entries[key] = found
            while len(self.entries) > 1 and self.size() > self.budget:
                self.entries.popitem(last=False)
        self.entries.move_to_end(key)
        return found

    def size(self) -> int:
        return sum(a.nbytes for r in self.entries.values() for a in self.arrays(r))
