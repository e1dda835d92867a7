"""Coverage of the report's 90% bands and intervals in simulation: the one place the report's texts
(the bands' ``target``, the methods page) take a measured figure from.

Measured by ``benchmarks/interval_matrix.py`` (1000 replicates a data set, 300 binormal data sets a
cell, seed 33; the whole table, with every cell's Monte-Carlo standard error
sqrt(p (1 - p) / N), in benchmarks/README.md, "Interval matrix"). When a method changes, re-run
the matrix and copy its figures here; nothing else in the package states them. Each figure is a
percentage; a pair is the (least, greatest) over the PC(+) points or cells named.

Cells: binormal scores (d' = 1) cut into K equally likely values, half positives (K = 1000 is the
continuous case); ``five rounded``: scores rounded to the five values -1..3 (n = 200); ``crisp``:
d' = 2 labelled positive at score >= 1; the dataset hybrid of three correlated scorers (n = 200,
p(+) = 0.3). Targets: (a) the true cost of the threshold the sample selected, what a band states
it covers; (b) the true optimal cost.
"""

from __future__ import annotations

SOURCE = "benchmarks/README.md, interval matrix"
DATASETS = 300  # data sets a cell
MC_SE = (1.2, 2.0)  # Monte-Carlo s.e. of a coverage between 95% and 85% over DATASETS data sets

# band at PC(+) = 0.1-0.9, continuous scores (K = 1000, n = 200): target (a), target (b)
CONTINUOUS_SELECTED = (90.3, 94.0)
CONTINUOUS_OPTIMAL = (88.7, 95.0)
# crisp classifiers, band (a) at PC(+) = 0.1-0.9
CRISP_SELECTED = (89.3, 97.7)
# 2 or 5 distinct scores (K = 2, 5 at n = 200-1000, five rounded values), band (a), PC(+) = 0.1-0.9
FEW_SELECTED = (88.3, 100.0)
# five rounded values at n = 200, band (a) at PC(+) = 0.1-0.9, at 0.05, and percentiles at 0.05
FIVE_ROUNDED_SELECTED = (88.3, 99.0)
FIVE_ROUNDED_AT_005 = 100.0
FIVE_ROUNDED_AT_005_PERCENTILE = 62.3
# expected-cost interval (uniform prior) against the population's best expected cost, every
# scoring cell (2 to 1000 distinct scores, n = 200-1000), and its largest tail
EXPECTED_POPULATION = (91.3, 95.3)
EXPECTED_TAIL = 6.3

# where the sample selects a trivial classifier its cost is known exactly: share of data sets
# doing so at PC(+) = 0.1 and 0.9 with two values (n = 200, 500) and five equally likely values
TRIVIAL_TWO = 100.0
TRIVIAL_FIVE = (93.0, 100.0)
# band (a) over the data sets selecting a classifier, two or five values at n = 200, 0.1-0.9
SELECTED_FEW_N200 = (89.5, 95.2)

# two values at n = 200, PC(+) = 0.3 and 0.7: all data sets and share selecting a trivial classifier
TWO_N200_ALL = (97.3, 97.3)
TWO_N200_TRIVIAL = (56.7, 60.0)
# two values at n = 500, PC(+) = 0.3 and 0.7: all data sets, share selecting a trivial
# classifier, coverage over the others
TWO_N500_ALL = (94.0, 94.3)
TWO_N500_TRIVIAL = (62.0, 68.3)
TWO_N500_SELECTED = (82.1, 84.2)

# five rounded values at PC(+) = 0.1: coverage over the data sets selecting a line, their number,
# how many of them selected a line with no false positive (its FPR counted 0), the coverage over the
# others and their number; the selected line's true FPR, and the upper bounds of a rate counted 0
# of ~100 negatives at one-sided 95%: Jeffreys' (Brown, Cai & DasGupta 2001) and Clopper-Pearson's
FIVE_AT_01_SELECTED = 98.4
FIVE_AT_01_PICKED = 186
FIVE_AT_01_FP0 = 165
FIVE_AT_01_OTHERS = 90.5
FIVE_AT_01_TRUE_FPR = 0.62
FIVE_AT_01_JEFFREYS = 1.9
FIVE_AT_01_EXACT = 2.9

# the dataset hybrid: band at PC(+) = 0.1-0.9, the largest share of truth above it, and the
# expected-cost interval (uniform prior) with its share above; calibrated and not
HYBRID_CALIBRATED = (86.7, 90.3)
HYBRID_CALIBRATED_ABOVE = 10.0
HYBRID_EXPECTED = (88.3, 9.3)
HYBRID_UNCALIBRATED = (83.7, 90.0)
HYBRID_UNCALIBRATED_ABOVE = 11.7
HYBRID_UNCALIBRATED_EXPECTED = (85.7, 12.0)


def pct(x: float) -> str:
    """A measured percentage as printed: one decimal, "100" for 100."""
    return "100" if x >= 100.0 else f"{x:.1f}"


def span(pair: tuple[float, float], dash: str = "-") -> str:
    """A (least, greatest) pair as "a-b%" (one figure when they are equal)."""
    lo, hi = pair
    return f"{pct(lo)}%" if lo == hi else f"{pct(lo)}{dash}{pct(hi)}%"
