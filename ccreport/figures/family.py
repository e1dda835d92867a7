"""A declared parameter-based family in cost and ROC space (D&H 2000 s. 2.3, Fig. 18;
D&H 2006 Fig. 21).

:func:`families` draws, per ``kind = "parameter_based"`` criterion of a dataset, one row of two
panels. Cost space: every member's cost line thin and grey, the family's switching hybrid bold
(each member on its PC(+) interval, switching at midpoints of the training conditions; the curve
jumps there), the lower envelope of the members and the trivial classifiers dashed, and the area
between them shaded (the excess). ROC space: the members' points labelled by name and training
PC(+), their convex hull dashed. Greyscale throughout.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..results import DatasetResult, FamilyResult
from .registry import FigureSpec, register
from .style import (
    NEC_LABEL,
    PC_LABEL,
    SMALL_FONT,
    frame_small_roc_panel,
    hybrid_pieces,
    new_figure,
    segments,
    style,
    width_inches,
)

GREY = "#9a9a9a"
SHADE = "#dcdcdc"
BLACK = "#111111"


def declared(d: DatasetResult) -> dict[str, FamilyResult]:
    """The dataset's evaluated families (not-applicable ones left out)."""
    if d.hybrid is None:
        return {}
    return {k: v for k, v in d.hybrid.families.items() if isinstance(v, FamilyResult)}


def families(d: DatasetResult, width="full") -> Figure:
    """One row per family: cost space (hybrid bold over the members' lines) and ROC space."""
    found = declared(d)
    with style():
        fig = new_figure(width_inches(width), 3.2 * len(found))
        axes = np.atleast_2d(fig.subplots(len(found), 2))
        for (name, fam), (cost_ax, roc_ax) in zip(found.items(), axes):
            sel = fam.selection
            cv, env = sel.curve, sel.envelope
            a, b = np.asarray(cv.start, dtype=float), np.asarray(cv.end, dtype=float)
            segments(
                cost_ax,
                np.zeros(a.size),
                a,
                np.ones(a.size),
                b,
                color=GREY,
                linewidth=0.7,
                zorder=1,
            )
            grid = np.unique(np.concatenate((np.linspace(0, 1, 401), env.pc, cv.low, cv.high)))
            cost_ax.fill_between(
                grid,
                np.interp(grid, env.pc, env.nec),
                cv(grid),
                color=SHADE,
                linewidth=0,
                zorder=0,
                step=None,
                label=f"excess {sel.excess:.4f}",
            )
            hybrid_pieces(cost_ax, cv, color=BLACK, linewidth=2.0)
            for m in cv.low[1:]:
                cost_ax.axvline(m, color=BLACK, linewidth=0.5, linestyle=(0, (1, 2)), zorder=2)
            cost_ax.plot(
                env.pc,
                env.nec,
                color=BLACK,
                linewidth=0.9,
                linestyle=(0, (4, 2)),
                zorder=2,
                label=f"lower envelope (area {env.area:.4f})",
            )
            cost_ax.plot(
                [], [], color=BLACK, linewidth=2.0, label=f"family hybrid (area {sel.area:.4f})"
            )
            cost_ax.plot([], [], color=GREY, linewidth=0.7, label="members' cost lines")
            top = min(1.0, max(0.1, float(np.max(cv(grid))) * 1.35))
            cost_ax.set_xlim(0, 1)
            cost_ax.set_ylim(0, top)
            cost_ax.set_xlabel(PC_LABEL)
            cost_ax.set_ylabel(NEC_LABEL)
            cost_ax.set_title(f"{name}: parameter-based family, cost space", fontsize=7)
            cost_ax.legend(loc="upper right", frameon=False, fontsize=SMALL_FONT)
            tau = dict(fam.members)
            roc_ax.plot(
                env.hull_fpr,
                env.hull_tpr,
                color=BLACK,
                linewidth=0.9,
                linestyle=(0, (4, 2)),
                label="ROC hull (members, trivial)",
            )
            f, t = cv.start, 1.0 - cv.end
            roc_ax.plot(
                f, t, marker="o", markersize=3, color=BLACK, linestyle="none", label="members"
            )
            for x, y, member in zip(f, t, cv.member):
                roc_ax.annotate(
                    f"{member} (\u03c4 {tau[member]:.3g})",
                    (x, y),
                    xytext=(4, -3),
                    textcoords="offset points",
                    fontsize=SMALL_FONT,
                    va="top",
                )
            frame_small_roc_panel(roc_ax)
    return fig


register(
    FigureSpec(
        kind="family",
        scope="dataset",
        key="{dataset}/family",
        stem="{dataset_slug}/family",
        draw=lambda s: families(s.dataset),
        caption=lambda s: (
            f"Parameter-based selection on {s.dataset.name} (D&H 2000 s. 2.3, Fig. 18 style): "
            "each declared family's member with the nearest training condition is used, "
            "switching at the midpoints (dotted verticals). Bold: the family's hybrid cost "
            "curve, which jumps at a switch; grey: every member's cost line; dashed: the lower "
            "envelope of the members and the trivial classifiers; shaded: the excess between "
            "them. Nothing is chosen on the labels, so the bold curve is an unbiased estimate. "
            "Right: the members in ROC space with their training PC(+) (\u03c4)."
        ),
        alt=lambda s: (
            f"Cost-space and ROC-space panels of the parameter-based families on {s.dataset.name}."
        ),
        section="selection",
        order=75,
        width="full",
        wanted=lambda s, o: bool(declared(s.dataset)),
    )
)
