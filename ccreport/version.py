"""The version of ccreport (a leaf module: anything may import it, it imports nothing)."""

__version__ = "0.1.0"
