"""Import WeasyPrint without running a compiler to find its libraries.

WeasyPrint 70 (``weasyprint/text/ffi.py``) loads GObject, Pango, HarfBuzz, Fontconfig and PangoFT2
through cffi's ``dlopen``, trying several names per library, Windows' and bare names first
(``libgobject-2.0-0``, ``gobject-2.0``, ...), then the Linux soname (``libgobject-2.0.so.0``),
then macOS' and Windows' file names. cffi loads a name with a dot or slash directly; a name that
fails, or has neither, goes to ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p``
and then ``gcc`` and ``ld`` to link a test program. Per build that is 23 ``ldconfig``, 16 ``gcc``
and 16 ``ld`` processes (counted with ``strace -f -e trace=execve``), about 0.15 CPU s of a
0.5 s import.

:func:`import_weasyprint` imports it with ``find_library`` answering None, so the bare names fail at
once and each library is loaded by its soname, the same file ``find_library`` would have named. If
that import fails (a system whose libraries have other sonames), it is repeated as WeasyPrint does
it, with ``find_library`` restored; WeasyPrint's own message about missing libraries is printed
only then.
"""

from __future__ import annotations

import contextlib
import io
import sys


@contextlib.contextmanager
def _no_library_search():
    import ctypes.util

    search = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        yield
    finally:
        ctypes.util.find_library = search


def _forget_partial_import() -> None:
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        del sys.modules[name]


def import_weasyprint():
    """The ``weasyprint`` module, imported as the module docstring says."""
    module = sys.modules.get("weasyprint")
    if module is not None:
        return module
    if sys.platform.startswith("linux"):
        try:
            with _no_library_search(), contextlib.redirect_stdout(io.StringIO()):
                import weasyprint

            return weasyprint
        except OSError:
            _forget_partial_import()
    import weasyprint

    return weasyprint
