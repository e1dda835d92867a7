"""Many ROC hulls at once (ccreport.analysis.hulls); the PAV kernel is tested in test_pav.py."""

from __future__ import annotations

import numpy as np
import pytest

from ccreport.analysis.hulls import crisp_hulls, flat_hull_mask
from ccreport.analysis.roc import hull_of_monotone_path


def _path(rng, n):
    steps = rng.integers(0, 2, size=n).astype(
        bool
    )  # True: a positive (up), False: a negative (right)
    x = np.concatenate(([0], np.cumsum(~steps)))
    y = np.concatenate(([0], np.cumsum(steps)))
    return x, y


@pytest.mark.parametrize("seed", range(10))
def test_flat_hull_mask_never_pools_across_replicates(seed):
    """Several paths in one call: each keeps exactly the points on its own hull (in the sheared
    frame (x + y, y) the hull is a concave function), and keeps every vertex of its own hull."""
    rng = np.random.default_rng(seed)
    paths = [_path(rng, int(rng.integers(1, 40))) for _ in range(int(rng.integers(1, 6)))]
    x = np.concatenate([p[0] for p in paths])
    y = np.concatenate([p[1] for p in paths])
    rep = np.repeat(np.arange(len(paths)), [p[0].size for p in paths])
    first = np.concatenate(([0], np.cumsum([p[0].size for p in paths])[:-1]))
    keep = flat_hull_mask(x, y, rep, first)
    for r, (px, py) in enumerate(paths):
        mine = keep[rep == r]
        vertices = hull_of_monotone_path(px.astype(float), py.astype(float))
        assert np.all(mine[vertices])
        u, hu, hy = px + py, (px + py)[vertices], py[vertices]
        np.testing.assert_allclose(py[mine], np.interp(u[mine], hu, hy), atol=1e-12)


def test_crisp_hull_under_the_diagonal_moves_onto_it():
    """A crisp replicate no better than chance is placed at (N/2, P/2), on the diagonal."""
    h = crisp_hulls([2, 8], [6, 1], n_pos=10, n_neg=8, tp0=8, fp0=1)
    np.testing.assert_array_equal(h.indptr, [0, 3, 6])
    np.testing.assert_array_equal(h.x, [0, 4, 8, 0, 1, 8])
    np.testing.assert_array_equal(h.y, [0, 5, 10, 0, 8, 10])
    np.testing.assert_array_equal(h.original().x, [0, 1, 8, 0, 1, 8])
    np.testing.assert_array_equal(h.replicate_ids(), [0, 0, 0, 1, 1, 1])


def _optimal_vertices_by_query(h, grid, sw):
    """The reference: one binary search per (replicate, grid point), as optimal_vertices did
    first."""
    edges_per = np.diff(h.indptr) - 1
    edge_start = np.concatenate(([0], np.cumsum(edges_per)))
    keys = sw + 2.0 * np.repeat(np.arange(h.replicates), edges_per)
    queries = np.asarray(grid, float)[None, :] + 2.0 * np.arange(h.replicates)[:, None]
    return (
        h.indptr[:-1, None]
        + np.searchsorted(keys, queries, side="left")
        - edge_start[: h.replicates, None]
    )


@pytest.mark.parametrize("seed", range(6))
def test_optimal_vertices_counted_from_the_edges_are_the_per_query_search(seed):
    """Counting from the edges' side gives the same vertex as one binary search per grid point, to
    the index: on replicate hulls of tied and untied scores, on grids holding switching points
    exactly, and with switches out of order (the per-query fallback)."""
    from ccreport.analysis.bootstrap import cumulative, multinomial_counts, path_layout
    from ccreport.analysis.hull_costs import GRID, optimal_vertices, switches
    from ccreport.analysis.hulls import replicate_hulls

    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    y = rng.random(n) < 0.4
    s = rng.normal(size=n) + y
    if seed % 2:
        s = np.round(s, 1)  # ties: few distinct scores, collinear runs
    layout = path_layout(y, s)
    cp = cumulative(multinomial_counts(rng, layout.n_pos, 50))
    cn = cumulative(multinomial_counts(rng, layout.n_neg, 50))
    h = replicate_hulls(layout, cp, cn)
    sw = switches(h)
    grids = [
        GRID,
        np.unique(np.concatenate((GRID, sw[:40]))),
        np.array([0.0, 0.5, 1.0]),
        np.array([0.3]),
    ]
    for grid in grids:
        np.testing.assert_array_equal(
            optimal_vertices(h, grid, sw), _optimal_vertices_by_query(h, grid, sw)
        )
    shuffled = sw.copy()
    shuffled[: sw.size // 2] = shuffled[: sw.size // 2][::-1]  # out of order: the fallback
    np.testing.assert_array_equal(
        optimal_vertices(h, GRID, shuffled), _optimal_vertices_by_query(h, GRID, shuffled)
    )
    np.testing.assert_array_equal(
        optimal_vertices(h, GRID[::-1], sw), _optimal_vertices_by_query(h, GRID[::-1], sw)
    )


@pytest.mark.parametrize("seed", range(4))
def test_vertex_end_points_are_those_of_the_intervals(seed):
    """The distinct end points read from the vertices' lo alone are priors.end_points of (lo,
    hi)."""
    from ccreport.analysis.bootstrap import cumulative, multinomial_counts, path_layout
    from ccreport.analysis.hull_costs import vertex_end_points, vertex_intervals
    from ccreport.analysis.hulls import replicate_hulls
    from ccreport.analysis.priors import end_points

    rng = np.random.default_rng(seed)
    y = rng.random(150) < 0.3
    s = rng.normal(size=150) + y
    layout = path_layout(y, np.round(s, 1) if seed % 2 else s)
    h = replicate_hulls(
        layout,
        cumulative(multinomial_counts(rng, layout.n_pos, 40)),
        cumulative(multinomial_counts(rng, layout.n_neg, 40)),
    )
    lo, hi = vertex_intervals(h)
    want, got = end_points(lo, hi), vertex_end_points(h, lo)
    for a, b in ((want.x, got.x), (want.lo, got.lo), (want.hi, got.hi)):
        assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize(
    "rows, points, budget", [(0, 5, 10), (1, 5, 10), (7, 3, 10), (10, 5, 10), (5, 50, 10)]
)
def test_row_blocks_cover_the_rows_in_order_within_the_budget(rows, points, budget):
    """Slices tile range(rows) in order; each holds at most ``budget`` points, or one row when a
    row alone is larger; all but the last are full."""
    from ccreport.analysis.hulls import row_blocks

    blocks = row_blocks(rows, points, budget)
    covered = np.concatenate([np.arange(rows)[b] for b in blocks]) if blocks else np.zeros(0)
    np.testing.assert_array_equal(covered, np.arange(rows))
    sizes = [b.stop - b.start for b in blocks]
    per = max(1, budget // points)
    assert all(s == per for s in sizes[:-1]) and all(1 <= s <= per for s in sizes)


@pytest.mark.parametrize("seed, n, reps, rows", [(1, 60, 5000, 1), (2, 200, 3000, 5)])
def test_replicate_hulls_in_row_slices_are_one_pass(seed, n, reps, rows, monkeypatch):
    """replicate_hulls works ``ROW_BLOCK`` points of rows at a time; each slice passes its place
    (``row0``) to the PAV's offsets 2 (row0 + r), so slices of one or five rows among thousands
    select the very vertices of one pass (with every row0 at 0 both cases select others)."""
    from ccreport.analysis import hulls
    from ccreport.analysis.path_layout import cumulative, multinomial_counts, path_layout

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    layout = path_layout(y, np.round(rng.normal(size=n) + y, 1))
    cp = cumulative(multinomial_counts(rng, layout.n_pos, reps)[:, layout.pos_order])
    cn = cumulative(multinomial_counts(rng, layout.n_neg, reps)[:, layout.neg_order])
    monkeypatch.setattr(hulls, "ROW_BLOCK", 10**12)
    whole = hulls.replicate_hulls(layout, cp, cn)
    monkeypatch.setattr(hulls, "ROW_BLOCK", rows * layout.n_points)
    sliced = hulls.replicate_hulls(layout, cp, cn)
    for field in ("x", "y", "indptr", "x0", "y0"):
        assert getattr(sliced, field).tobytes() == getattr(whole, field).tobytes(), field
    assert sliced.row0 == whole.row0 == 0
