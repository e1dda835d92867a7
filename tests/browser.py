"""A real browser for the tests: Debian's Chromium (``/usr/bin/chromium``, installed by
install.sh) driven by Playwright for Python (the ``dev`` extra), never a downloaded browser.

``browser`` is session-scoped (one Chromium for every browser test); a test opens its own page
with ``browser.new_page(viewport=...)`` and closes it. Without Chromium or Playwright the tests
that use it are skipped with the reason.
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


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium (session scope), closed at the end of the session."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    executable = CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")
    if executable is None:
        pytest.skip("no Chromium at /usr/bin/chromium (install.sh installs it)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(executable), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
