"""Cheaper exact equivalents of matplotlib bookkeeping (ccreport.render.figure_shortcuts): the same state, the same bytes."""

from __future__ import annotations

import contextlib
import copy
import enum
import io
import types

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.transforms import Affine2D

from ccreport import figures as F
from ccreport.render import figure_shortcuts as S
from ccreport.render.figure_files import NO_LAYOUT_ENGINE, SAVE_METADATA, lay_out_once, notdef_at_code_zero

ATOMIC = (type(None), bool, int, float, str)


def _same(a, b, src, seen=None) -> bool:
    """Whether ``a`` and ``b`` are copies of ``src`` alike: the same types, values and array layouts,
    the same objects shared with ``src`` and among themselves, the same atoms (``is``)."""
    seen = {} if seen is None else seen
    if type(a) is not type(b):
        return False
    if isinstance(a, ATOMIC) or isinstance(a, enum.Enum):
        return a is b
    if (a is src) != (b is src):
        return False
    if id(a) in seen or id(b) in seen:
        return seen.get(id(a)) is b and seen.get(id(b)) is a
    seen[id(a)], seen[id(b)] = b, a
    if isinstance(a, np.ndarray):
        return (
            a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and a.flags.writeable == b.flags.writeable and np.array_equal(a, b, equal_nan=True)
        )
    if isinstance(a, (tuple, list)):
        inner = src if isinstance(src, (tuple, list)) and len(src) == len(a) else [None] * len(a)
        return len(a) == len(b) and all(_same(x, y, z, seen) for x, y, z in zip(a, b, inner))
    if isinstance(a, dict):
        inner = src if isinstance(src, dict) else {}
        return list(a) == list(b) and all(_same(a[k], b[k], inner.get(k), seen) for k in a)
    if isinstance(a, types.MethodType):
        return a.__func__ is b.__func__ and _same(a.__self__, b.__self__, getattr(src, "__self__", None), seen)
    if hasattr(a, "__dict__"):
        return _same(vars(a), vars(b), vars(src) if hasattr(src, "__dict__") else None, seen)
    return False


def _markers() -> list[MarkerStyle]:
    """Every named marker, mathtext, a path and vertices, a (sides, style, angle) tuple, each with
    fill styles, a transform, cap and join styles; then copies of copies, and markers drawn."""
    kinds = [*MarkerStyle.markers, "$\\alpha$", Path([[0, 0], [1, 0], [0, 1]]), np.array([[0, 0], [1, 1], [1, 0]]), (5, 1, 30)]
    out = []
    for kind in kinds:
        out.append(MarkerStyle(kind))
        out.append(MarkerStyle(kind, fillstyle="left", transform=Affine2D().rotate(0.3), capstyle="round", joinstyle="bevel"))
        out.append(MarkerStyle(kind, fillstyle="none"))
    out += [MarkerStyle(m) for m in out] + [MarkerStyle(MarkerStyle(m)) for m in out[:40]]
    fig = Figure()
    ax = fig.subplots()
    for i, m in enumerate(out[:30]):
        ax.plot([0, 1], [i, i + 1], marker=m)
    fig.savefig(io.BytesIO(), format="svg")
    return out + [line._marker for line in ax.lines] + [tick.tick1line._marker for tick in ax.xaxis.get_major_ticks()]


def test_marker_state_copies_are_deepcopies(monkeypatch):
    markers = _markers()
    calls = []
    real = copy.deepcopy
    monkeypatch.setattr(S.copy, "deepcopy", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    quick = [S.copy_marker_state(m) for m in markers]
    monkeypatch.undo()
    states = {id(m.__dict__) for m in markers}
    fallbacks = sum(id(c) in states for c in calls)
    assert fallbacks < len(markers) / 10  # the copier's own path, but for a few
    for m, q in zip(markers, quick):
        assert _same(q, copy.deepcopy(m.__dict__), m.__dict__), m.get_marker()


def test_a_wrong_marker_copy_is_told_apart():
    m = MarkerStyle("o")
    right = copy.deepcopy(m.__dict__)
    assert _same(S.copy_marker_state(m), right, m.__dict__)
    shared = S.copy_marker_state(m)
    shared["_path"] = m._path  # the source's path itself, not a copy
    assert not _same(shared, right, m.__dict__)
    bound = S.copy_marker_state(m)
    bound["_marker_function"] = m._marker_function  # bound to the source marker
    assert not _same(bound, right, m.__dict__)
    readonly = S.copy_marker_state(MarkerStyle(3))
    readonly["_path"]._readonly = True
    assert not _same(readonly, copy.deepcopy(MarkerStyle(3).__dict__), None)


def test_quick_marker_copies_make_the_same_markers():
    sources = _markers()
    with S.quick_marker_copies():
        quick = [MarkerStyle(m) for m in sources]
    for m, q in zip(sources, quick):
        assert _same(vars(q), vars(MarkerStyle(m)), vars(m))


def _figure(i: int) -> Figure:
    """Figures with many ticks, markers, a legend of marker handles, twin and shared axes."""
    fig = Figure(figsize=(3.5 + i, 2.4))
    axes = fig.subplots(1 + i % 2, 1, sharex=True, squeeze=False)[:, 0]
    for k, ax in enumerate(axes):
        ax.plot(np.linspace(0, 1, 7), np.linspace(-0.2, 0.4 + k, 7), marker="osv^"[i % 4], label=f"c {k}", markevery=2)
        ax.scatter([0.2, 0.5], [0.1, 0.3], marker="x", label="points")
        ax.set_xticks(np.linspace(0, 1, 6 + i))
        ax.tick_params(direction="inout", length=5)
        ax.legend()
    axes[0].twinx().plot([0, 1], [3, 1], "k--", marker="D")
    lay_out_once(fig)
    return fig


def _files(*patches) -> list[bytes]:
    out = []
    with F.style(), notdef_at_code_zero(), contextlib.ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch)
        for i in range(3):
            fig = _figure(i)
            for fmt in ("svg", "pdf"):
                buf = io.BytesIO()
                with matplotlib.rc_context(NO_LAYOUT_ENGINE):
                    fig.savefig(buf, format=fmt, metadata=SAVE_METADATA[fmt])
                out.append(buf.getvalue())
    return out


def test_the_shortcuts_write_the_same_bytes():
    assert _files(S.quick_marker_copies(), S.direct_bbox_unions(), S.direct_pdf_numbers()) == _files()


def _boxes(rng, n: int) -> list:
    """n boxes, corners in any order, among them zeros of both signs, ties, infinities, NaN, and
    TransformedBboxes."""
    from matplotlib.transforms import Bbox, TransformedBbox

    pool = np.array([0.0, -0.0, 1.5, -2.25, 3.0, np.inf, -np.inf, np.nan, 1e-300])
    out = []
    for _ in range(n):
        points = rng.choice(pool, size=(2, 2)) if rng.random() < 0.5 else rng.normal(size=(2, 2)) * 100
        box = Bbox(points)
        out.append(TransformedBbox(box, Affine2D().scale(2.0, -1.0)) if rng.random() < 0.3 else box)
    return out


def _unions(patch) -> list[bytes]:
    from matplotlib.transforms import Bbox

    rng = np.random.default_rng(7)
    with patch:
        return [Bbox.union(_boxes(rng, int(rng.integers(1, 12)))).get_points().tobytes() for _ in range(2000)]


def test_direct_bbox_unions_give_the_same_bits():
    assert _unions(S.direct_bbox_unions()) == _unions(contextlib.nullcontext())


def test_a_bbox_union_taking_any_zero_or_nan_is_told_apart(monkeypatch):
    """Without the zero and NaN check, the stacked minimum picks another zero or NaN than matplotlib's."""
    from matplotlib.transforms import Bbox

    def unguarded(bboxes):
        corners = np.array([b.get_points() for b in bboxes])
        return Bbox([corners.min(axis=(0, 1)), corners.max(axis=(0, 1))])

    plain = _unions(contextlib.nullcontext())
    monkeypatch.setattr(Bbox, "union", staticmethod(unguarded))
    assert _unions(contextlib.nullcontext()) != plain


def _reprs(rng) -> list:
    """pdfRepr of numbers of every kind it meets (and some it refuses), in lists and dicts too."""
    from matplotlib.backends import backend_pdf

    values = [0.0, -0.0, 1e-11, -5e-11, 1e15, 2.5, -1 / 3, 7, -12, 2**70, True, False, np.float64(-0.125),
              np.float32(0.1), np.int64(3), None, "ab(c)", b"x\\y", float("inf"), float("nan"), np.float64("-inf")]
    values += list(rng.normal(size=300) * 10.0 ** rng.integers(-12, 12, size=300))
    values += [float(v) for v in rng.normal(size=300)] + [[1.5, 2, [3.25]], {"Key": 0.5, "N": -2}]
    out = []
    for v in values:
        try:
            out.append(backend_pdf.pdfRepr(v))
        except Exception as e:  # the same error, the same message
            out.append((type(e), str(e)))
    return out


def test_direct_pdf_numbers_write_what_pdfrepr_writes():
    with S.direct_pdf_numbers():
        quick = _reprs(np.random.default_rng(3))
    assert quick == _reprs(np.random.default_rng(3))


def test_a_pdf_number_written_otherwise_is_told_apart(monkeypatch):
    from matplotlib.backends import backend_pdf

    plain = _reprs(np.random.default_rng(3))
    original = backend_pdf.pdfRepr
    monkeypatch.setattr(backend_pdf, "pdfRepr", lambda obj: (b"%.10g" % obj) if type(obj) is float else original(obj))
    assert _reprs(np.random.default_rng(3)) != plain


class _Reduced(enum.Enum):
    """An Enum reducing itself another way: deepcopy would not hand back the member as it is."""

    A = 1

    def __reduce_ex__(self, protocol):
        return (str, ("copied",))


class _Copied(enum.Enum):
    """An Enum with a ``__deepcopy__`` of its own."""

    A = 1

    def __deepcopy__(self, memo):
        return "copied"


def test_enum_members_kept_as_deepcopy_keeps_them_on_every_python_3_11():
    """``Enum.__deepcopy__`` exists from CPython 3.11.6 only (Debian 12's 3.11.2 has none, and read
    on an Enum class its absence raises through the metaclass): with and without it, JoinStyle and
    CapStyle members are kept as they are, exactly when ``copy.deepcopy`` returns them themselves,
    and classes copying themselves otherwise are not."""
    from matplotlib.backend_bases import CapStyle, JoinStyle

    for kind in (JoinStyle, CapStyle):
        member = next(iter(kind))
        assert copy.deepcopy(member) is member
        assert S.deepcopy_keeps_member(kind)
        assert S.deepcopy_keeps_member(kind, enum_deepcopy=None)  # as on CPython 3.11.0-3.11.5
    assert not S.deepcopy_keeps_member(_Copied) and not S.deepcopy_keeps_member(_Copied, enum_deepcopy=None)
    assert copy.deepcopy(_Copied.A) is not _Copied.A
    # reducing itself another way: kept only where Enum.__deepcopy__ is there to take precedence
    assert S.deepcopy_keeps_member(_Reduced) is (copy.deepcopy(_Reduced.A) is _Reduced.A)
    assert not S.deepcopy_keeps_member(_Reduced, enum_deepcopy=None)
    assert not S.deepcopy_keeps_member(int) and not S.deepcopy_keeps_member(str, enum_deepcopy=None)
