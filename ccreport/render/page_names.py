"""Names of the site's pages and anchors: one slug rule for ids and page file stems."""

from __future__ import annotations

import re


def slug(text: str) -> str:
    """A readable id/file stem: letters, digits, '-', '_' and '.' kept, anything else '-'."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-") or "x"


def dataset_page_slug(name: str) -> str:
    return "dataset-" + slug(name)



def dataset_link(name: str) -> str:
    """The relative link to a dataset's page."""
    return dataset_page_slug(name) + ".html"
