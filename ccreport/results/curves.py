"""Curves in results.json bounded by what a figure can show, the full arrays in Parquet side files.

The ROC points of an empirical classifier (and the thresholds aligned with them) number one per
distinct score, up to ``n + 1``, so written whole, results.json grows with n (about 60 MB per
classifier per 10^6 instances). Every exact summary (hulls, envelopes, areas, intervals) is small
and stays whole; the other drawn curves are bounded where they are made (threshold-choice curves:
``analysis.piecewise.drawing_points``, 2001 points; hybrid, criterion and out-of-fold curves:
``results.selection.bounded_curve``, 1001; ROCIV: ``instance_cost_tasks.thinned``, about 2000 plus
the hull). A ROC curve is stored

* **whole**, as before, when it has at most :data:`MAX_POINTS` points (nothing changes);
* else **thinned**: the vertices the Ramer-Douglas-Peucker algorithm keeps at :data:`TOLERANCE`
  (Douglas & Peucker 1973), plus forced ones (the ROC hull's vertices), so that every dropped
  vertex lies within ``TOLERANCE`` (Euclidean, in ROC space) of the polyline through the kept
  ones. At 1e-4 of the unit square this is under a tenth of a pixel at 300 dpi in a 3-inch panel.
  The thresholds aligned with the points keep the same indices. The full arrays go to a Parquet
  file beside results.json (:func:`side_file`), named next to the curve with its row count and
  SHA-256 (:func:`thinning_record`); the figures draw the same thinned polyline (:func:`drawn`).

RDP is vectorised over segments: each round measures every undecided vertex's distance to the chord
of its current segment (one pass, O(n)), keeps the farthest vertex of each segment farther than the
tolerance and settles the others; the rounds are the depth of the RDP tree (about log2 of the kept
count for the curves here).

Thinning is memoised per array (the build serialises results.json, its undated twin and the figures'
key from the same arrays), and side files are written only while :func:`writing_into` names a
folder; otherwise their SHA-256 is computed by encoding into a hash, so results.json's text is the
same with and without a folder (``Results.to_json`` in a notebook gives the bytes ``ccreport build``
writes).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import weakref
from pathlib import Path

import numpy as np

MAX_POINTS = 5000  # a curve with at most this many points is stored whole
TOLERANCE = 1e-4  # thinned: every dropped vertex within this distance of the kept polyline
FOLDER = "curves"  # side files: FOLDER/<dataset>/<classifier>/<curve>.parquet
METHOD = "Ramer-Douglas-Peucker"

_folder: contextvars.ContextVar[Path | None] = contextvars.ContextVar(
    "ccreport_curve_folder", default=None
)
_memo: dict[tuple, tuple[list, object]] = {}  # see _remembered


def segment_distances(px, py, ax, ay, bx, by) -> np.ndarray:
    """Euclidean distance of each point (px, py) from the segment a-b (elementwise; a = b
    allowed)."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(
            length2 > 0,
            ((px - ax) * dx + (py - ay) * dy) / np.where(length2 > 0, length2, 1.0),
            0.0,
        )
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(px - ax - t * dx, py - ay - t * dy)


def rdp_keep(
    x: np.ndarray, y: np.ndarray, tolerance: float = TOLERANCE, forced: np.ndarray | None = None
) -> np.ndarray:
    """Indices (ascending) of the vertices Ramer-Douglas-Peucker keeps, vectorised (module doc).

    The first and last vertices, ``forced`` (a boolean mask) and every non-finite vertex with its
    neighbours are always kept, so a gap (NaN) in the curve stays a gap. Guarantee: each dropped
    vertex is within ``tolerance`` of the segment between the kept vertices around it.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n = x.size
    if n <= 2:
        return np.arange(n)
    keep = np.zeros(n, dtype=bool)
    keep[[0, -1]] = True
    if forced is not None:
        keep |= forced
    bad = ~(np.isfinite(x) & np.isfinite(y))
    if bad.any():
        keep |= bad | np.r_[bad[1:], False] | np.r_[False, bad[:-1]]
    undecided = np.flatnonzero(~keep)
    while undecided.size:
        kept = np.flatnonzero(keep)
        after = np.searchsorted(kept, undecided)  # the kept vertex after each undecided one
        a, b = kept[after - 1], kept[after]
        d = segment_distances(x[undecided], y[undecided], x[a], y[a], x[b], y[b])
        starts = np.flatnonzero(np.r_[True, after[1:] != after[:-1]])  # one group per segment
        group = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, undecided.size]))
        dmax = np.maximum.reduceat(d, starts)
        at_max = np.flatnonzero(d == dmax[group])
        first = at_max[
            np.r_[True, group[at_max[1:]] != group[at_max[:-1]]]
        ]  # first farthest per segment
        split = first[dmax[group[first]] > tolerance]
        if split.size == 0:
            break
        keep[undecided[split]] = True
        still = dmax[group] > tolerance  # segments that split go on; the others are settled
        still[split] = False
        undecided = undecided[still]
    return np.flatnonzero(keep)


class _HashSink:
    """A write-only file object feeding a SHA-256 (and optionally a real file)."""

    def __init__(self, target=None):
        self.hash = hashlib.sha256()
        self.target = target
        self.closed = False

    def write(self, data) -> int:
        self.hash.update(data)
        if self.target is not None:
            self.target.write(data)
        return memoryview(data).nbytes

    def flush(self):
        pass

    def close(self):
        self.closed = True

    def tell(self):  # pragma: no cover - pyarrow may ask
        raise OSError("not seekable")


def encode_parquet(columns: dict[str, np.ndarray], target=None) -> str:
    """Write ``columns`` as one Parquet table (float64, uncompressed dictionary off, snappy) into
    ``target`` (a binary file object; None: nowhere) and return the SHA-256 of the bytes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {name: pa.array(np.asarray(values, dtype=float)) for name, values in columns.items()}
    )
    sink = _HashSink(target)
    with pa.PythonFile(sink, mode="w") as stream:
        pq.write_table(
            table, stream, use_dictionary=False, compression="snappy", write_statistics=False
        )
    return sink.hash.hexdigest()


def _memo_key(parts) -> tuple:
    return tuple(id(p) if isinstance(p, np.ndarray) else p for p in parts)


def _remembered(parts):
    """The memoised value for these arrays (and plain values), if they are still the same
    objects."""
    hit = _memo.get(_memo_key(parts))
    arrays = [p for p in parts if isinstance(p, np.ndarray)]
    if hit is not None and all(r() is a for r, a in zip(hit[0], arrays)):
        return hit[1]
    return None


def _remember(parts, value) -> None:
    """Memoise ``value`` for these arrays until one of them is garbage-collected."""
    key = _memo_key(parts)
    refs = [
        weakref.ref(p, lambda _r, key=key: _memo.pop(key, None))
        for p in parts
        if isinstance(p, np.ndarray)
    ]
    _memo[key] = (refs, value)


def keep_of(x, y, forced_x=None, forced_y=None, owner: tuple = ()) -> np.ndarray | None:
    """The stored vertices of the curve (x, y): None (all of them) up to MAX_POINTS, else the RDP
    indices with the vertices at (forced_x, forced_y) (a hull's) forced in. Memoised on ``owner``
    (the arrays the curve comes from; default x and y) while they live."""
    x, y = np.asarray(x), np.asarray(y)
    if x.size <= MAX_POINTS:
        return None
    parts = (*(owner or (x, y)), "keep", forced_x is not None)
    hit = _remembered(parts)
    if hit is not None:
        return hit
    forced = None
    if forced_x is not None:
        forced = np.isin(x, np.asarray(forced_x)) & np.isin(y, np.asarray(forced_y))
    keep = rdp_keep(x, y, TOLERANCE, forced)
    _remember(parts, keep)
    return keep


def drawn(x, y, forced_x=None, forced_y=None, owner: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) as a figure draws it: the vertices results.json stores (thinned beyond MAX_POINTS)."""
    x, y = np.asarray(x), np.asarray(y)
    keep = keep_of(x, y, forced_x, forced_y, owner)
    return (x, y) if keep is None else (x[keep], y[keep])


def stored(
    x,
    y,
    path: str,
    names: tuple[str, str],
    extra: dict | None = None,
    forced=(None, None),
    owner: tuple = (),
):
    """A curve as results.json stores it: ``(pairs, record, keep)`` - the ``[[x, y], ...]`` list
    (thinned beyond MAX_POINTS), the ``<key>_full`` record of the side file at ``path`` (None when
    stored whole) and the kept indices (None: all), for arrays aligned with the curve (``extra``:
    more columns of the side file, such as the ROC points' thresholds)."""
    x, y = np.asarray(x), np.asarray(y)
    keep = keep_of(x, y, *forced, owner=owner)
    if keep is None:
        return np.column_stack([x, y]).tolist(), None, None
    columns = {names[0]: x, names[1]: y, **(extra or {})}
    return (
        np.column_stack([x[keep], y[keep]]).tolist(),
        thinning_record(path, columns, keep, owner),
        keep,
    )


@contextlib.contextmanager
def writing_into(folder: Path | None):
    """While active, thinned curves' side files are written under ``folder`` (None: not written)."""
    token = _folder.set(None if folder is None else Path(folder))
    try:
        yield
    finally:
        _folder.reset(token)


def side_file(path: str, columns: dict[str, np.ndarray], owner: tuple = ()) -> str:
    """The SHA-256 of the Parquet file of ``columns``: written at ``path`` (relative to the output
    folder) when :func:`writing_into` names one, else only hashed (memoised per set of arrays)."""
    arrays = owner or tuple(columns.values())
    folder = _folder.get()
    cacheable = all(isinstance(a, np.ndarray) for a in arrays)
    if folder is not None:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as stream:
            digest = encode_parquet(columns, stream)
    else:
        hit = _remembered((*arrays, tuple(columns))) if cacheable else None
        if hit is not None:
            return hit
        digest = encode_parquet(columns)
    if cacheable:
        _remember((*arrays, tuple(columns)), digest)
    return digest


def thinning_record(
    path: str, columns: dict[str, np.ndarray], keep: np.ndarray, owner: tuple = ()
) -> dict:
    """The ``<key>_full`` entry beside a thinned curve (docs/results-schema.md, "Thinned
    curves")."""
    rows = int(next(iter(columns.values())).size)
    return {
        "thinned": True,
        "method": METHOD,
        "tolerance": TOLERANCE,
        "original_count": rows,
        "stored_count": int(keep.size),
        "path": path,
        "format": "parquet",
        "columns": list(columns),
        "rows": rows,
        "sha256": side_file(path, columns, owner),
    }
