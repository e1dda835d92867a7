"""A scoring classifier's instances sorted once (:class:`PathLayout`), and the stratified resampling
primitives every bootstrap of :mod:`ccreport.analysis.bootstrap` shares.

Fawcett 2006, *An introduction to ROC analysis*, Algorithm 1: sorting the instances by decreasing
score and walking the distinct-score boundaries gives every ROC point; a bootstrap replicate's ROC
path is then the cumulative sum of its per-instance counts in that presorted order (Drummond &
Holte 2006 section 5.2 resample instances within each class). :func:`path_layout` sorts once per
classifier (memoised per process by content); :func:`multinomial_counts` draws one chunk of
replicates' counts, :func:`chunk_sizes` fixes the chunks from the data alone, and
:func:`cumulative` turns counts into path coordinates. :func:`draw_positions` draws a class's
resampled instances as positions (block by block in a large class), which are counted by
:func:`count_positions` (per position) and :func:`gather_counts` (per entry of a table, such as a
classifier's merged score groups), without arrays as large as the draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .memo import ArrayMemo, content_key
from .roc import hull_of_monotone_path

CHUNK_ELEMENTS = 4_000_000  # replicates x instances per chunk: about 150 MB of working arrays


# --- the layout of one scoring classifier: sorted once -------------------------------------------


@dataclass(frozen=True, eq=False)
class PathLayout:
    """A scoring classifier's instances sorted by decreasing score, grouped by distinct score.

    Path point k (k = 0..G, G distinct scores) is reached after the first k score groups;
    ``pos_at[k]`` and ``neg_at[k]`` are the numbers of positives/negatives (in class-rank order)
    before it, so a replicate's path point is ``(CN[neg_at[k]], CP[pos_at[k]])`` for its cumulative
    class counts. ``pos_order``/``neg_order`` give, for each class rank, the index of the instance
    within its class (positions in ``labels[labels]`` / ``labels[~labels]``), for paired resampling.
    """

    pos_at: np.ndarray
    neg_at: np.ndarray
    pos_order: np.ndarray
    neg_order: np.ndarray
    n_pos: int
    n_neg: int
    hull: np.ndarray  # point indices of the sample's own ROC convex hull vertices
    # a grouped layout (:func:`ccreport.analysis.replicate_groups.group_layout`): path point
    # k is the end of group k of merged score groups; ``pos_at``/``neg_at`` are then columns of the
    # replicates' cumulative *group* counts (0..G), ``pos_count``/``neg_count`` the sample's class
    # counts before each point, ``pos_group``/``neg_group`` the group of each instance (by position
    # within its class), ``points`` the fine layout's path point at each group end, ``fine`` the
    # fine layout itself; ``pos_order``/``neg_order`` are None. All None for a fine layout.
    pos_count: np.ndarray | None = None
    neg_count: np.ndarray | None = None
    pos_group: np.ndarray | None = None
    neg_group: np.ndarray | None = None
    points: np.ndarray | None = None
    fine: PathLayout | None = None

    @property
    def n_points(self) -> int:
        return self.pos_at.size

    @property
    def grouped(self) -> bool:
        """Whether this is a grouped layout (replicate counts per merged score group)."""
        return self.points is not None

    @property
    def pos_sample(self) -> np.ndarray:
        """The sample's positives before each path point (``pos_at`` for a fine layout)."""
        return self.pos_at if self.pos_count is None else self.pos_count

    @property
    def neg_sample(self) -> np.ndarray:
        """The sample's negatives before each path point (``neg_at`` for a fine layout)."""
        return self.neg_at if self.neg_count is None else self.neg_count


LAYOUT_MEMO_BYTES = 512 * 2**20  # layouts kept per process (about 24 bytes per instance each)
_LAYOUTS = ArrayMemo(
    LAYOUT_MEMO_BYTES, lambda lay: (lay.pos_at, lay.neg_at, lay.pos_order, lay.neg_order, lay.hull)
)


def path_layout(labels, scores) -> PathLayout:
    """Sort once and record the class ranks at every distinct-score boundary (Fawcett 2006, Alg. 1).

    A function of the two arrays' contents only, so it is memoised in this process by their SHA-256
    (:mod:`ccreport.analysis.memo`): a dataset's uncertainty, pairs and threshold-choice tasks each
    lay out every classifier, about 3 CPU s per classifier at n = 10^7; the layout's arrays are
    read-only, as they may be shared.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    if s.shape != y.shape or y.ndim != 1:
        raise ValueError("labels and scores must be one-dimensional arrays of the same length")
    n_pos = int(np.count_nonzero(y))
    if n_pos == 0 or n_pos == y.size:
        raise ValueError("resampling needs both classes")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    return _LAYOUTS.get(content_key(y, s), lambda: _sorted_layout(y, s, n_pos))


def _sorted_layout(y: np.ndarray, s: np.ndarray, n_pos: int) -> PathLayout:
    """:func:`path_layout` of checked arrays."""
    order = np.argsort(-s, kind="stable")
    ys = y[order]
    ends = np.append(np.flatnonzero(np.diff(s[order])), y.size - 1)
    tp = np.cumsum(ys, dtype=np.int64)
    pos_at = np.concatenate(([0], tp[ends]))
    neg_at = np.concatenate(([0], ends + 1 - tp[ends]))
    within_class = np.empty(y.size, dtype=np.int64)
    within_class[y] = np.arange(n_pos)
    within_class[~y] = np.arange(y.size - n_pos)
    return PathLayout(
        pos_at=pos_at,
        neg_at=neg_at,
        pos_order=within_class[order[ys]],
        neg_order=within_class[order[~ys]],
        n_pos=n_pos,
        n_neg=y.size - n_pos,
        hull=hull_of_monotone_path(neg_at.astype(float), pos_at.astype(float)),
    )


# --- drawing stratified resamples -----------------------------------------------------------------


def chunk_sizes(replicates: int, n: int, elements: int = CHUNK_ELEMENTS) -> list[int]:
    """Replicates per chunk: a deterministic function of (replicates, n) only, never of workers."""
    per = max(1, min(replicates, elements // max(n, 1)))
    sizes = [per] * (replicates // per)
    if replicates % per:
        sizes.append(replicates % per)
    return sizes


# A class of more than BLOCKED_DRAW_ABOVE instances is drawn DRAW_BLOCK instances at a time
# (draw_positions): the draws of a block are counted and gathered within a few hundred KB, which
# stay in the processor's cache, where positions spread over the whole class miss it at every draw
BLOCKED_DRAW_ABOVE = 1 << 20
DRAW_BLOCK = 1 << 16


def draw_positions(
    rng: np.random.Generator,
    size: int,
    replicates: int,
    block: int | None = None,
    above: int | None = None,
) -> np.ndarray:
    """Positions (replicates, size), int32, of ``size`` instances drawn uniformly with replacement:
    each row is a resample of the class (D&H 2006 section 5.2), its counts
    Multinomial(size, uniform).

    Up to ``above`` instances (default ``BLOCKED_DRAW_ABOVE``): ``rng.integers(0, size)`` for every
    position, at once. Above, a row is drawn block by block (``block`` instances, default
    ``DRAW_BLOCK``), the same law in two stages: how many of the row's ``size`` draws fall in each
    block is Multinomial(size, block lengths / size), and given that, the draws within a block are
    uniform on it. A row's positions then come block after block (their order is immaterial: every
    consumer counts them), so counting them (:func:`count_positions`) or gathering a table entry for
    each (:func:`gather_counts`) works in one block's few hundred KB at a time instead of missing
    the processor's cache at every draw. Measured at 7 x 10^6 instances a row (CPU ns per instance,
    drawing included): :func:`multinomial_counts` 14.1 -> 8.3; the draw and two classifiers' group
    counts 14.7 -> 10.9 (benchmarks/README.md, "Blocked draws"). Another stream than the plain draw
    of the same size, so results above the threshold differ from before within Monte-Carlo error.
    """
    block = DRAW_BLOCK if block is None else block
    if size <= (BLOCKED_DRAW_ABOVE if above is None else above):
        return rng.integers(0, size, size=(replicates, size), dtype=np.int32)
    starts = np.arange(0, size, block)
    lengths = np.minimum(block, size - starts)
    shares = lengths / size
    blocks = list(zip(starts.tolist(), lengths.tolist()))
    out = np.empty((replicates, size), dtype=np.int32)
    for row in out:  # replicates of a chunk, then blocks of a row: not a loop over instances
        ends = np.cumsum(rng.multinomial(size, shares)).tolist()
        begin = 0
        for (start, length), end in zip(blocks, ends):
            np.add(
                rng.integers(0, length, size=end - begin, dtype=np.int32), start, out=row[begin:end]
            )
            begin = end
    return out


def multinomial_counts(rng: np.random.Generator, size: int, replicates: int) -> np.ndarray:
    """Counts of each of ``size`` items in ``replicates`` uniform resamples of ``size`` with
    replacement.

    Returns int64 of shape (replicates, size): each row is Multinomial(size, uniform). Drawn as
    positions (:func:`draw_positions`) and counted (:func:`count_positions`): up to
    ``BLOCKED_DRAW_ABOVE`` items for the whole chunk at once, each row offset by its start; above,
    row by row (a chunk is then a replicate or two), block by block as drawn.
    """
    if size <= 0:
        return np.zeros((replicates, 0), dtype=np.int64)
    if size > BLOCKED_DRAW_ABOVE:
        counts = np.empty((replicates, size), dtype=np.int64)
        for row, positions in zip(counts, draw_positions(rng, size, replicates)):
            count_positions(positions, size, out=row)
        return counts
    dtype = np.int32 if replicates * size < 2**31 else np.int64
    idx = rng.integers(0, size, size=(replicates, size), dtype=dtype)
    idx += (np.arange(replicates, dtype=dtype) * dtype(size))[:, None]
    return count_positions(idx, replicates * size).reshape(replicates, size)


def count_positions(
    positions: np.ndarray, length: int, out: np.ndarray | None = None
) -> np.ndarray:
    """``np.bincount(positions.ravel(), minlength=length)`` for positions in ``[0, length)``, the
    same int64 counts, added into zeros with ``np.add.at``: bincount first copies int32 positions
    to a new intp array as large as theirs, while ``add.at`` (numpy >= 1.25's indexed fast path)
    reads them as they are. Measured per drawn position (CPU ns, one process): 8.2 -> 5.9 at
    4000 x 300, 11.4 -> 7.9 at 40 x 10^5, 17.4 -> 13.5 at 1 x 7 x 10^6 (benchmarks/README.md,
    "Counting drawn instances"). ``out``: an int64 array of ``length`` to count into
    (zeroed here)."""
    if out is None:
        out = np.zeros(length, dtype=np.int64)
    else:
        out[...] = 0
    np.add.at(out, positions.ravel(), 1)
    return out


# drawn positions gathered and counted at once by gather_counts: their working arrays (a few MB)
# stay in the processor's cache and the heap, where a whole row of 10^7 draws made ~80 MB of new
# pages each
COUNT_SLICE = 1 << 20


def gather_counts(
    drawn: np.ndarray, table: np.ndarray, length: int, slice_size: int = COUNT_SLICE
) -> np.ndarray:
    """Per row of ``drawn`` (r, size) positions into ``table``: ``np.bincount(table[row],
    minlength=length)``, as int64 (r, length), the same integers.

    A row longer than ``slice_size`` is read in slices: each slice's table entries are gathered
    into one reused buffer of the table's dtype (``np.take(..., mode="clip")``: the positions are
    valid, and "raise" would copy through a second buffer) and counted, and the slices' counts
    added. Measured at 7 x 10^6 draws a row into an int16 table of 4096 groups: 11.5 -> 5.6 CPU ns
    per draw (benchmarks/README.md, "Counting drawn instances").
    """
    r, size = drawn.shape
    out = np.zeros((r, length), dtype=np.int64)
    step = max(1, min(size, slice_size))
    buffer = np.empty(step, dtype=table.dtype)
    for i, row in enumerate(
        drawn
    ):  # rows of a chunk, and slices of a row: not a loop over instances
        for start in range(0, size, step):
            part = row[start : start + step]
            out[i] += np.bincount(
                np.take(table, part, out=buffer[: part.size], mode="clip"), minlength=length
            )
    return out


def cumulative(counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Cumulative counts with a leading zero column: ``out[:, k]`` = sum of the first k counts."""
    r, m = counts.shape
    if out is None or out.shape != (r, m + 1):
        out = np.empty((r, m + 1), dtype=np.int64)
    out[:, 0] = 0
    np.cumsum(counts, axis=1, out=out[:, 1:])
    return out
