"""Figures of a cost-curve report: one module per idea, Results in, matplotlib Figure out.

* :mod:`.style` - the package style, sizes, each classifier's colour, dash and marker;
* :mod:`.cost_space` - :func:`cost_space`, :func:`classifier_focus`, :func:`each_highlighted`,
  :func:`small_multiples` (D&H 2006 sections 3-4, Fig. 8, 9b, 13b, 16);
* :mod:`.priors` - :func:`prior_densities`, :func:`cost_priors` (section 3.2);
* :mod:`.roc` - :func:`roc_space` (Fawcett 2006; D&H 2006 Fig. 4a, 13a);
* :mod:`.difference` - :func:`difference` (sections 4.3-4.4, Fig. 11b, 12b, 19-20);
* :mod:`.thresholds` - :func:`threshold_methods`, :func:`kendall_curves` (Hernández-Orallo, Flach &
  Ferri 2013, Figs. 3-5, 8-9);
* :mod:`.registry` - :class:`FigureSpec`: each module registers its figure kinds, with caption and
  alt text, beside its drawing functions; importing this package registers them all.

A new kind of figure is one module here (a draw function and its ``register(FigureSpec(...))``)
plus its import below.
"""

from ..results import classifier_names
from . import family as family_figures  # noqa: F401 (registers the parameter-based family figure)
from . import selection as selection_figures  # noqa: F401 (registers the issue-11 figures)
from .cost_space import classifier_focus, cost_space, each_highlighted, small_multiples
from .difference import difference, significance_color
from .instance_costs import side_by_side
from .priors import cost_priors, prior_densities
from .registry import FigureOptions, FigureSpec, Subject, register, specs
from .roc import roc_space
from .style import (
    COLUMN_WIDTH,
    DENSE_POINTS,
    FULL_WIDTH,
    STYLE_FILE,
    TRIVIAL_COLOUR,
    Style,
    classifier_styles,
    style,
    style_for,
    theme_style,
    width_inches,
)
from .threshold_choice import kendall_curves, threshold_methods

__all__ = [
    "COLUMN_WIDTH",
    "DENSE_POINTS",
    "FULL_WIDTH",
    "STYLE_FILE",
    "TRIVIAL_COLOUR",
    "FigureOptions",
    "FigureSpec",
    "Style",
    "Subject",
    "classifier_focus",
    "each_highlighted",
    "classifier_names",
    "classifier_styles",
    "cost_priors",
    "cost_space",
    "difference",
    "kendall_curves",
    "prior_densities",
    "register",
    "roc_space",
    "side_by_side",
    "significance_color",
    "small_multiples",
    "specs",
    "style",
    "style_for",
    "threshold_methods",
    "theme_style",
    "width_inches",
]
