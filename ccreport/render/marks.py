"""The marks a table cell carries beside its value, shared by the HTML/CSV tables
(:mod:`ccreport.render.tables`) and their LaTeX form (:mod:`ccreport.render.latex`)."""

SIGNIFICANT_MARK = "*"  # beside a bold difference whose interval excludes 0
