"""A real browser for the tests: Debian's Chromium (``/usr/bin/chromium``, installed by
install.sh) driven by Playwright for Python (the ``dev`` extra), never a downloaded browser.

``browser`` is module-scoped (one Chromium for a module's browser tests); a test opens its own page
with ``browser.new_page(viewport=...)`` and closes it. Without Chromium or Playwright the tests
that use it are skipped with the reason.

Test modules import the fixture (``from tests.browser import browser``). Playwright's sync API
allows one running instance per thread and, while it runs, the thread counts as inside an asyncio
loop, so a synchronous Dask client in a later test would refuse to start: the Chromium is stopped
when the module that started it ends (any fixture alive at the same time shares it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]


_SHARED: dict = {}  # "playwright", "browser" and "users": the one running Chromium


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (module scope), closed when the module's tests end."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    executable = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if executable is None:
        pytest.skip("no Chromium at /usr/bin/chromium (install.sh installs it)")
    if not _SHARED:
        playwright = sync_api.sync_playwright().start()
        try:
            chromium = playwright.chromium.launch(
                executable_path=str(executable), args=CHROMIUM_ARGS, headless=True
            )
        except BaseException:
            playwright.stop()
            raise
        _SHARED.update(playwright=playwright, browser=chromium, users=0)
    _SHARED["users"] += 1
    try:
        yield _SHARED["browser"]
    finally:
        _SHARED["users"] -= 1
        if _SHARED["users"] == 0:
            _SHARED["browser"].close()
            _SHARED["playwright"].stop()
            _SHARED.clear()
