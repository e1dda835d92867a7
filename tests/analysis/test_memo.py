"""Per-process memos keyed by array contents (ccreport.analysis.memo) and their two users."""

import numpy as np
import pytest

from ccreport.analysis import memo
from ccreport.analysis.memo import ArrayMemo, content_key
from ccreport.analysis.selection.out_of_fold import fold_index, sorted_by_score


def test_content_key_sees_bytes_dtype_and_shape():
    a = np.arange(6, dtype=np.int64)
    assert content_key(a) == content_key(a.copy())
    assert content_key(a) != content_key(a.astype(np.int32))
    assert content_key(a) != content_key(a.reshape(2, 3))
    assert content_key(a, a) != content_key(a)
    b = a.copy()
    b[3] = 7
    assert content_key(a) != content_key(b)


def test_budget_keeps_the_newest_and_clear_empties_every_memo():
    calls = []
    m = ArrayMemo(budget=2 * 800, arrays=lambda r: [r])

    def make(k):
        calls.append(k)
        return np.full(100, float(k))  # 800 bytes

    for k in (1, 2, 3):
        m.get(bytes([k]), lambda k=k: make(k))
    assert list(m.entries) == [bytes([2]), bytes([3])] and calls == [1, 2, 3]
    assert m.get(bytes([2]), lambda: make(9))[0] == 2.0 and calls == [1, 2, 3]  # a hit, now newest
    with pytest.raises(ValueError):
        m.entries[bytes([2])][0] = 0.0  # stored results are read-only
    huge = ArrayMemo(budget=10, arrays=lambda r: [r])
    huge.get(b"x", lambda: np.zeros(100))
    assert len(huge.entries) == 1  # over budget alone: still kept
    memo.clear()
    assert not m.entries and not huge.entries


def test_sorted_by_score_sorts_descending_and_is_shared():
    rng = np.random.default_rng(5)
    y, s = rng.random(300) < 0.5, np.round(rng.normal(size=300), 1)
    _, fold = fold_index(rng.integers(0, 4, 300))
    s_sorted, y_sorted, f_sorted = sorted_by_score(y, s, fold)
    assert np.all(np.diff(s_sorted) <= 0)
    for value in np.unique(s):  # the same instances within each tied run
        assert sorted(zip(y_sorted[s_sorted == value], f_sorted[s_sorted == value])) == sorted(
            zip(y[s == value], fold[s == value])
        )
    assert sorted_by_score(y.copy(), s.copy(), fold.copy())[0] is s_sorted
    assert sorted_by_score(y, s)[2] is None
