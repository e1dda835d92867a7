"""Names of the site's pages and anchors: file stems and ids from :mod:`ccreport.project.naming`
(injective, short)."""

from __future__ import annotations

from ..project import naming


def slug(text: str) -> str:
    """A file stem / id of a name, injective and short (:func:`ccreport.project.naming.stem`)."""
    return naming.stem(text)


def dataset_page_slug(name: str) -> str:
    return "dataset-" + naming.stem(name)


def dataset_link(name: str) -> str:
    """The relative link to a dataset's page."""
    return dataset_page_slug(name) + ".html"
