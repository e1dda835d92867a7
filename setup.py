"""The wheel's packages, found rather than listed: every package under ccreport/ (setuptools'
``find_packages``) plus templates/ and themes/, which ``package-dir`` in pyproject.toml maps to
ccreport.templates and ccreport.themes. Everything else about the build is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["ccreport", "ccreport.*"]),
        "ccreport.templates",
        "ccreport.themes",
    ]
)
