"""WeasyPrint imported without ``ctypes.util.find_library``'s compiler runs (ccreport.render.weasyprint_import)."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the library search is Linux's")

COUNT_PROCESSES = (
    "import subprocess, sys",
    "started = []",
    "popen_init = subprocess.Popen.__init__",
    "def counting(self, args, *a, **k):",
    "    started.append(args)",
    "    return popen_init(self, args, *a, **k)",
    "subprocess.Popen.__init__ = counting",
)


def _run(*lines: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True)


def test_plain_import_runs_the_library_search():
    """What the module works around: WeasyPrint's own import starts ldconfig/gcc processes."""
    out = _run(*COUNT_PROCESSES, "import weasyprint", "print(len(started) > 0)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"


def test_import_starts_no_process_and_loads_the_same_libraries():
    out = _run(
        *COUNT_PROCESSES,
        "from ccreport.render.weasyprint_import import import_weasyprint",
        "weasyprint = import_weasyprint()",
        "from weasyprint.text import ffi",
        "print(len(started), ffi.pango.pango_version() > 0, ffi.harfbuzz is not None)",
        "html = weasyprint.HTML(string='<p>ccreport</p>').write_pdf()",
        "print(html.startswith(b'%PDF'))",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "True", "True", "True"]


def test_falls_back_to_weasyprint_own_search_silently():
    """A system whose libraries have other file names: the sonames fail, the second import finds them."""
    out = _run(
        "import cffi.api",
        "load = cffi.api._load_backend_lib",
        "def no_sonames(backend, name, flags):",
        "    if isinstance(name, str) and '.so.' in name:",
        "        raise OSError('no such file: ' + name)",
        "    return load(backend, name, flags)",
        "cffi.api._load_backend_lib = no_sonames",
        "from ccreport.render.weasyprint_import import import_weasyprint",
        "weasyprint = import_weasyprint()",
        "import ctypes.util",
        "print(weasyprint.HTML(string='<p>x</p>').write_pdf().startswith(b'%PDF'), ctypes.util.find_library('c') is not None)",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True True"  # nothing of WeasyPrint's failure message, find_library restored


def test_a_second_call_returns_the_loaded_module():
    from ccreport.render.weasyprint_import import import_weasyprint

    assert import_weasyprint() is import_weasyprint()
