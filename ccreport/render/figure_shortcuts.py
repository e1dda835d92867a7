"""Cheaper exact equivalents of pieces of matplotlib bookkeeping run thousands of times a figure.

Not memoisation (:mod:`ccreport.render.figure_caches`): each shortcut computes what matplotlib
computes, the same values into the same objects, along a shorter path; anything outside the cases
it knows takes matplotlib's own path. Each is a context manager, entered for a ``write_figures``
call; if the private names they rely on are missing (another matplotlib), they patch nothing.
Measurements: benchmarks/README.md, "Session 15 (figure stage)".

* :func:`quick_marker_copies` - ``Line2D.update_from`` (every tick created copies the first tick's
  lines, every legend handle its line) makes ``MarkerStyle(other_marker)``, whose state is
  ``copy.deepcopy`` of the other marker's ``__dict__``: a generic walk of some 50 ``deepcopy``
  calls per marker. :func:`copy_marker_state` makes the same copy for the values a marker holds
  (see there) and leaves anything else to ``copy.deepcopy``.
* :func:`direct_bbox_unions` - ``Bbox.union`` (2,644 calls for the example, five boxes each: every
  tight bounding box of the layout and of each legend) takes the minimum of a list of per-box
  minima, four times, each through numpy's Python wrappers; here one array of all corners, reduced
  once (see there for why the numbers are the same).
* :func:`direct_pdf_numbers` - the PDF backend writes every number of a figure's content through
  ``pdfRepr`` (about 200,000 calls for the example), which first asks each float whether it has a
  ``pdfRepr`` method; here a ``float``, ``numpy.float64`` or ``int`` goes straight to the
  formatting ``pdfRepr`` applies to it.
"""

from __future__ import annotations

import contextlib
import copy
import enum
import math
import types

_ATOMIC = (type(None), bool, int, float, str)  # deepcopy returns these objects themselves


_ENUM_DEEPCOPY = getattr(enum.Enum, "__deepcopy__", None)  # from CPython 3.11.6 (3.11.0-3.11.5: none)


def deepcopy_keeps_member(kind: type, enum_deepcopy=_ENUM_DEEPCOPY) -> bool:
    """Whether ``copy.deepcopy`` returns a member of the class ``kind`` as it is.

    ``copy.deepcopy`` uses a class's ``__deepcopy__`` first: ``Enum``'s returns ``self``. Where
    ``Enum`` has none (``enum_deepcopy`` None: CPython before 3.11.6) it reduces the member, and
    ``Enum.__reduce_ex__``'s ``(cls, (value,))`` looks the same member up again. Any other copier
    or reduction of the class's own: not kept. Read with ``getattr``: an Enum class answers a
    missing attribute with AttributeError, through its metaclass."""
    if not issubclass(kind, enum.Enum):
        return False
    own = getattr(kind, "__deepcopy__", None)
    if own is not None and own is not _ENUM_DEEPCOPY:
        return False  # a copier of the class's own
    if enum_deepcopy is not None:
        return True
    return kind.__reduce_ex__ is enum.Enum.__reduce_ex__


class _Unusual(Exception):
    """A value :func:`copy_marker_state` does not copy itself: ``copy.deepcopy`` copies the state."""


def _state_copier():
    """The function copying a marker's state, or None if matplotlib's classes are not as expected."""
    try:
        import numpy as np
        from matplotlib.markers import MarkerStyle
        from matplotlib.path import Path
        from matplotlib.transforms import Affine2D, IdentityTransform
    except ImportError:
        return None
    # MarkerStyle reduced as object reduces (state: its __dict__ itself, None if empty), no __setstate__
    plain_state = (
        MarkerStyle.__reduce_ex__ is object.__reduce_ex__ and MarkerStyle.__getstate__ is object.__getstate__
        and not hasattr(MarkerStyle, "__setstate__") and not hasattr(MarkerStyle, "__deepcopy__")
    )
    enums: set = set()  # Enum classes whose members deepcopy returns as they are (Enum.__deepcopy__)
    transforms = (Affine2D, IdentityTransform)

    def value(v, memo):
        kind = type(v)
        if kind in _ATOMIC or kind in enums:
            return v
        if deepcopy_keeps_member(kind):
            enums.add(kind)  # JoinStyle, CapStyle
            return v
        held = memo.get(id(v))
        if held is not None:
            return held
        if kind is np.ndarray and not v.dtype.hasobject:
            y = memo[id(v)] = v.copy(order="K")  # ndarray.__deepcopy__: a copy in the same memory order
        elif kind is Path:  # Path.__deepcopy__: its attributes deep-copied, not read-only
            y = memo[id(v)] = Path.__new__(Path)
            for k, item in vars(v).items():
                setattr(y, k, value(item, memo))
            y._readonly = False
        elif kind in transforms:
            # reduced as (copyreg.__newobj__, (cls,), __getstate__()): a new object whose state is the
            # deep copy of {**__dict__, "_parents": {}} (no parents here), set by __setstate__, which
            # makes _parents a new empty dict again
            if v._parents:
                raise _Unusual
            y = memo[id(v)] = kind.__new__(kind)
            state = {k: ({} if k == "_parents" else value(item, memo)) for k, item in vars(v).items()}
            y.__dict__ = state
            y._parents = {}
        else:
            raise _Unusual
        return y

    def copy_marker_state(marker) -> dict:
        """``copy.deepcopy(marker.__dict__)``, the same objects with the same sharing.

        Values copied here: None, booleans, numbers and strings, members of enums (``JoinStyle``,
        ``CapStyle``) not overriding ``Enum.__deepcopy__`` (all kept as they are, as deepcopy keeps them); numeric numpy arrays (``copy(order="K")``,
        what ``ndarray.__deepcopy__`` makes); ``Path`` (``Path.__deepcopy__``); ``Affine2D`` and
        ``IdentityTransform`` without parents (reduced and rebuilt, as deepcopy does); the bound
        ``_marker_function`` of a ``MarkerStyle``. deepcopy copies that method's ``__self__`` too:
        a new object of its class whose ``__dict__`` is updated with the state (deep-copied) its
        ``__getstate__`` returns. For the marker itself that state is the dict being copied, found in
        the memo, so the new object gets the entries copied so far (none: ``_marker_function`` comes
        first); for an object with an empty ``__dict__`` (such a copy's) the state is None and the
        new object stays empty. Anything else: ``copy.deepcopy``. Objects met twice are copied once.
        """
        source = marker.__dict__
        try:
            memo: dict = {}
            y: dict = {}
            for k, v in source.items():
                if type(k) is not str:
                    raise _Unusual
                if type(v) is types.MethodType:
                    owner = v.__self__
                    if type(owner) is not MarkerStyle or id(owner) in memo or not plain_state:
                        raise _Unusual
                    twin = memo[id(owner)] = MarkerStyle.__new__(MarkerStyle)
                    if owner is marker:
                        twin.__dict__.update(y)
                    elif vars(owner):
                        raise _Unusual
                    y[k] = types.MethodType(v.__func__, twin)
                else:
                    y[k] = value(v, memo)
            return y
        except _Unusual:
            return copy.deepcopy(source)

    return copy_marker_state


copy_marker_state = _state_copier()


@contextlib.contextmanager
def quick_marker_copies():
    """``MarkerStyle(other)`` takes its state from :func:`copy_marker_state` instead of
    ``copy.deepcopy`` (see the module docstring); any other marker argument, and a subclass of
    ``MarkerStyle``, takes matplotlib's own ``_set_marker``."""
    try:
        from matplotlib.markers import MarkerStyle

        original = MarkerStyle._set_marker
    except (ImportError, AttributeError):
        yield
        return
    if copy_marker_state is None:
        yield
        return

    def _set_marker(self, marker):
        if type(marker) is MarkerStyle:  # matplotlib: self.__dict__ = copy.deepcopy(marker.__dict__)
            self.__dict__ = copy_marker_state(marker)
            return
        original(self, marker)

    MarkerStyle._set_marker = _set_marker
    try:
        yield
    finally:
        MarkerStyle._set_marker = original


@contextlib.contextmanager
def direct_bbox_unions():
    """``Bbox.union(bboxes)`` from one array of the boxes' corner points.

    matplotlib returns ``Bbox([[x0, y0], [x1, y1]])`` with ``x0 = np.min([b.xmin for b in
    bboxes])``, ``b.xmin = np.min(b.get_points()[:, 0])`` and so on: each edge is one of the
    corners' coordinates, the least (greatest) of them. Here the corners of all boxes are stacked
    and reduced at once: the same least and greatest values, as floats equal in value are the same
    float, except for zeros (0.0 and -0.0 compare equal, and which one a minimum picks depends on
    the order it meets them) and NaN (any NaN propagates, which one is not said). So if any edge
    comes out zero or NaN, or a box is not a plain ``Bbox`` or ``TransformedBbox`` (whose ``xmin``
    ... are BboxBase's and whose ``get_points`` returns 2 x 2 floats, the same each call), or the
    corners are not float64, matplotlib's own ``union`` runs.
    """
    try:
        import numpy as np
        from matplotlib.transforms import Bbox, BboxBase, TransformedBbox

        original = BboxBase.__dict__["union"]
        plain = tuple(
            kind for kind in (Bbox, TransformedBbox)
            if all(getattr(kind, edge) is getattr(BboxBase, edge) for edge in ("xmin", "xmax", "ymin", "ymax"))
        )
        if not isinstance(original, staticmethod):
            raise AttributeError("union")
    except (ImportError, AttributeError, KeyError):
        yield
        return
    union = original.__func__

    def direct_union(bboxes):
        try:
            if len(bboxes) and all(type(b) in plain for b in bboxes):
                corners = np.array([b.get_points() for b in bboxes])
                if corners.dtype == np.float64 and corners.shape == (len(bboxes), 2, 2):
                    (x0, y0), (x1, y1) = corners.min(axis=(0, 1)).tolist(), corners.max(axis=(0, 1)).tolist()
                    if 0 != x0 == x0 and 0 != x1 == x1 and 0 != y0 == y0 and 0 != y1 == y1:
                        return Bbox([[x0, y0], [x1, y1]])
        except TypeError:  # not a sequence: matplotlib's own error
            pass
        return union(bboxes)

    BboxBase.union = staticmethod(direct_union)
    try:
        yield
    finally:
        BboxBase.union = original


@contextlib.contextmanager
def direct_pdf_numbers():
    """``backend_pdf.pdfRepr`` with a first branch for the exact types ``float``, ``numpy.float64``
    and ``int``, none of which has a ``pdfRepr`` method: a finite float is written as matplotlib
    writes it (``b"%.10f"``, trailing zeros and point stripped), an int as ``b"%d"``. A non-finite
    float (matplotlib raises), a bool and anything else take matplotlib's ``pdfRepr``. The backend
    calls it by its module-global name, from ``PdfFile.output`` and from ``pdfRepr`` itself."""
    try:
        import numpy as np
        from matplotlib.backends import backend_pdf

        original = backend_pdf.pdfRepr
    except (ImportError, AttributeError):
        yield
        return
    floats = (float, np.float64)
    isfinite = math.isfinite

    def pdfRepr(obj):
        kind = type(obj)
        if kind in floats:
            if isfinite(obj):
                return (b"%.10f" % obj).rstrip(b"0").rstrip(b".")
        elif kind is int:
            return b"%d" % obj
        return original(obj)

    backend_pdf.pdfRepr = pdfRepr
    try:
        yield
    finally:
        backend_pdf.pdfRepr = original
