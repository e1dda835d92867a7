"""The dataset page's sections that only show figures (the registered kinds naming them)."""

from __future__ import annotations

from .base import Section

FIGURES = Section("figures", "Cost curves and ROC curves", "Cost and ROC curves")
FOCUS = Section("focus", "Each classifier highlighted", "Each classifier highlighted")
DIFFERENCES = Section("differences", "Difference curves", "Difference curves")
