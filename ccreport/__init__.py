"""ccreport: cost-curve analysis reports for binary classifiers.

The public API mirrors what ``ccreport build`` does, for notebook users::

    from ccreport import roc_points, lower_envelope, operating_range, expected_cost, build
"""

__version__ = "0.1.0"
