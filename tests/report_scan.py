"""Read a built report as a reader does: every number shown with an interval, on every HTML page and
in report.pdf's text, with what it is a number of (issue 32: one quantity, one interval).

An *occurrence* is a number followed by a bracketed interval ``V [L, U]``, with at most a few words
between them (``0.1179, 90% interval [0.1033, 0.1535]``; a parenthesised aside such as ``* (adjusted
p <= 0.1)`` is skipped; no other number, bracket or open parenthesis in between). It is keyed by the
dataset it is about (the dataset page, else the last dataset name read before it: the PDF's running
header ``Dataset: sonar``, the index's table rows and headings), the classifier names of its row or
sentence (the last run of classifier names read before it: ``logreg``, ``logreg naive_bayes``) and
the number as printed. Two occurrences with one key and two intervals are one quantity shown with
two intervals, unless the HTML shows both in one table row (two columns of one row are two
quantities by construction: knn's rate-driven and skull areas may print alike).

Also :func:`outline_entries`: report.pdf's outline, each entry with its page and its top.
"""

from __future__ import annotations

import html.parser
import re
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

NUMBER = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+\.\d+"
INTERVAL = re.compile(rf"\[\s*({NUMBER}),\s+({NUMBER})\s*\]")
LAST_NUMBER = re.compile(rf"(?<![\w.,\[])({NUMBER})(?![\d,]*\])")
PARENTHESES = re.compile(r"\([^()]*\)")
MAX_GAP = 40


@dataclass(frozen=True)
class Occurrence:
    source: str  # page file name or "report.pdf p. N"
    dataset: str | None
    entity: tuple[str, ...]
    qualifier: tuple[str, ...]  # prior names read after the entity, before the number
    value: str
    interval: tuple[str, str]
    row: tuple | None = None  # (page, table id, row index) for a table cell of an HTML page
    position: int = field(default=0, compare=False)  # where the interval starts in its block

    @property
    def key(self) -> tuple:
        return (self.dataset, self.entity, self.value)


class PageBlocks(html.parser.HTMLParser):
    """An HTML page as blocks of text: each table row (with its table, row index and the offsets at
    which its cells start), paragraph, list item and heading; ``headers``: table id -> the texts of
    its first row's cells."""

    BLOCKS = {"p", "li", "tr", "h1", "h2", "h3", "h4", "caption", "figcaption", "div", "section"}
    SKIP = {"script", "style", "svg"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, tuple | None, list[int]]] = []
        self.headers: dict[str, list[str]] = {}
        self._text: list[str] = []
        self._cells: list[str] = []
        self._skip = 0
        self._table: str | None = None
        self._row = -1
        self._in_row = False

    def _flush(self):
        if self._in_row:
            return  # a row is one block: its cells are kept apart in _cells
        text = " ".join("".join(self._text).split())
        if text:
            self.blocks.append((text, None, []))
        self._text = []

    def _end_cell(self):
        if self._in_row and self._text:
            self._cells[-1] += "".join(self._text)
        self._text = []

    def _end_row(self):
        if not self._in_row:
            return
        self._end_cell()
        cells = [" ".join(c.split()) for c in self._cells]
        if self._row == 0:
            self.headers[self._table] = cells
        offsets, text = [], ""
        for c in cells:
            offsets.append(len(text))
            text += c + " "
        if text.strip():
            self.blocks.append((text.rstrip(), (self._table, self._row), offsets))
        self._in_row, self._cells = False, []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self._skip += 1
        if tag == "table":
            self._flush()
            self._table = dict(attrs).get("id") or f"table@{self.getpos()}"
            self._row = -1
        elif tag == "tr" and self._table is not None:
            self._end_row()
            self._flush()
            self._row += 1
            self._in_row, self._cells = True, []
        elif tag in ("td", "th") and self._in_row:
            self._end_cell()
            self._cells.append("")
        elif tag in self.BLOCKS or tag == "br":
            self._flush()

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        if tag in ("td", "th"):
            self._end_cell()
        elif tag in ("tr", "table"):
            self._end_row()
            self._flush()
        elif tag in self.BLOCKS:
            self._flush()
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        if not self._skip:
            if self._in_row and not self._cells:
                self._cells.append("")
            self._text.append(data)


# words of a column header that name what its numbers are, beside the prior names ("optimal" is not
# one: the optimal area on the PC(+) axis is the expected cost under the uniform prior)
METHOD_WORDS = re.compile(
    r"(?i)\b(score-driven|rate-driven|kendall|skull|fold|plain|iv|hybrid|difference|area)\b"
)


def _names(classifiers: list[str]) -> re.Pattern:
    alternatives = "|".join(re.escape(n) for n in sorted(classifiers, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def _decimals(number: str) -> int:
    return len(number.split(".")[1]) if "." in number else 0


def occurrences_in(
    text: str,
    source: str,
    datasets: list[str],
    classifiers: list[str],
    priors: list[str],
    dataset: str | None = None,
    row: tuple | None = None,
    state: dict | None = None,
) -> list[Occurrence]:
    """The ``V [L, U]`` occurrences of one block of text (see the module docstring).

    ``state`` carries the last dataset and classifier names read across blocks (a PDF page's rows
    follow one another in one text stream)."""
    state = {} if state is None else state
    names = (_names(classifiers), _names(priors) if priors else None)
    dataset_names = _names(datasets) if datasets else None
    out = []
    position = 0
    for m in INTERVAL.finditer(text):
        before = text[position : m.start()]
        position = m.end()
        # a parenthesised aside ("* (adjusted p <= 0.1)") is blanked, keeping positions
        found = list(LAST_NUMBER.finditer(PARENTHESES.sub(lambda p: " " * len(p.group(0)), before)))
        # what was read up to here: dataset names and classifier names
        upto = before if not found else before[: found[-1].start()]
        _read(upto, state, names, dataset_names)
        if not found:
            continue
        value = found[-1]
        gap = PARENTHESES.sub(" ", before[value.end() :])
        if (
            len(gap) > MAX_GAP
            or re.search(r"[\[\]()]", gap)
            or LAST_NUMBER.search(gap.replace("%", ""))
            # an empty cell (a dash) between them: the number ends one row, the interval is in the
            # next (a long table's rows follow one another in a PDF page's text)
            or "\u2014" in gap
        ):
            _read(before[found[-1].start() :], state, names, dataset_names)
            continue
        if re.search(r"\d", re.sub(r"\d+(?:\.\d+)?%", "", gap)):
            _read(before[found[-1].start() :], state, names, dataset_names)
            continue
        if not _decimals(value.group(1)) == _decimals(m.group(1)) == _decimals(m.group(2)):
            _read(before[found[-1].start() :], state, names, dataset_names)
            continue  # a threshold beside its PC(+) range, not a number and its interval
        out.append(
            Occurrence(
                source,
                dataset or state.get("dataset"),
                tuple(state.get("entity", ())),
                tuple(state.get("qualifier", ())),
                value.group(1).replace(",", ""),
                (m.group(1), m.group(2)),
                row,
                m.start(),
            )
        )
        _read(before[value.end() :], state, names, dataset_names)
    _read(text[position:], state, names, dataset_names)
    return out


def _read(text: str, state: dict, names: tuple, dataset_names: re.Pattern | None) -> None:
    """Update the last dataset, the last run of classifier names and the prior names read since with
    ``text``."""
    if dataset_names is not None:
        for d in dataset_names.finditer(text):
            state["dataset"] = d.group(0)
    classifier_names, prior_names = names
    run: list[str] = []
    last_end = None
    for n in classifier_names.finditer(text):
        between = text[last_end : n.start()] if last_end is not None else ""
        if last_end is not None and re.fullmatch(r"[\s,|\u2014\-vs]*", between) is None:
            run = []
        run.append(n.group(0))
        last_end = n.end()
    if run and not (state.get("in_row") and state.get("entity")):
        # a table row is about the classifiers it names first (a later cell may name the cheaper
        # one); prose about the last ones named, under the priors named since
        state["entity"] = tuple(dict.fromkeys(run))
        if not state.get("in_row"):
            state["qualifier"] = ()
    if prior_names is not None:
        after = text[last_end or 0 :] if run and not state.get("in_row") else text
        for p in prior_names.finditer(after):
            state["qualifier"] = tuple(dict.fromkeys((*state.get("qualifier", ()), p.group(0))))


def html_occurrences(
    site: Path, datasets: list[str], classifiers: list[str], priors: list[str]
) -> list[Occurrence]:
    out = []
    prior_names = _names(priors) if priors else None
    for page in sorted(site.glob("*.html")):
        parser = PageBlocks()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        dataset = next((d for d in datasets if page.name == f"dataset-{d}.html"), None)
        state: dict = {}
        for text, where, offsets in parser.blocks:
            row = None if where is None else (page.name, *where)
            if row is not None:
                state.pop("entity", None)  # a table row names its own classifiers and priors
                state.pop("qualifier", None)
            state["in_row"] = row is not None
            found = occurrences_in(
                text, page.name, datasets, classifiers, priors, dataset, row, state
            )
            for o in found:
                column = []
                if row is not None and where[1] > 0:
                    # the column of the interval: its header's priors and method words qualify the
                    # number
                    k = max(i for i, start in enumerate(offsets) if start <= o.position)
                    headers = parser.headers.get(where[0], [])
                    header = headers[k] if k < len(headers) else ""
                    column = (
                        [p.group(0) for p in prior_names.finditer(header)] if prior_names else []
                    )
                    column += [w.lower() for w in METHOD_WORDS.findall(header)]
                out.append(replace(o, qualifier=tuple(dict.fromkeys((*o.qualifier, *column)))))
    return out


def pdf_occurrences(
    pdf: Path,
    datasets: list[str],
    classifiers: list[str],
    priors: list[str],
    html: list[Occurrence] = (),
) -> list[Occurrence]:
    """The occurrences of report.pdf's text (``pdftotext -raw``: table cells in reading order, no
    rows).

    The PDF is the site's pages in print, but its text has no table rows: an occurrence whose
    dataset, number and interval an HTML occurrence has takes that one's classifiers and priors."""
    known = {}
    for o in html:
        known.setdefault((o.dataset, o.value, o.interval), o)
    raw = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    out = []
    state: dict = {}
    for number, page in enumerate(raw.split("\f"), 1):
        header = re.search(r"Dataset: (\S+)", page)
        dataset = header.group(1) if header and header.group(1) in datasets else None
        text = " ".join(page.split())
        for o in occurrences_in(
            text, f"report.pdf p. {number}", datasets, classifiers, priors, dataset, None, state
        ):
            same = known.get((o.dataset, o.value, o.interval))
            out.append(
                o
                if same is None
                else replace(o, entity=same.entity, qualifier=same.qualifier, row=same.row)
            )
    return out


def conflicts(occurrences: list[Occurrence]) -> list[list[Occurrence]]:
    """Groups of occurrences of one key with two or more intervals, less those the HTML shows in one
    row."""
    by_key: dict[tuple, list[Occurrence]] = defaultdict(list)
    for o in occurrences:
        by_key[o.key].append(o)
    out = []
    for group in by_key.values():
        clash = [
            (a, b)
            for i, a in enumerate(group)
            for b in group[i + 1 :]
            if a.interval != b.interval
            and not (a.qualifier and b.qualifier and a.qualifier != b.qualifier)  # under two priors
            and not (a.row is not None and a.row == b.row)
        ]  # two columns of one table row
        if clash:
            out.append(
                sorted({o for pair in clash for o in pair}, key=lambda o: (o.interval, o.source))
            )
    return out


def describe(group: list[Occurrence]) -> str:
    o = group[0]
    shown = sorted({(x.interval, x.source) for x in group})
    return (
        f"{o.dataset} {' '.join(o.entity) or '-'} {' '.join(o.qualifier)} {o.value}: "
        + "; ".join(f"[{a}, {b}] in {src}" for (a, b), src in shown[:6])
    )


# --- marks ----------------------------------------------------------------------------------------


@dataclass
class MarkedCell:
    """A table cell carrying a mark (``best-mark`` span: \u2605 or *), with its table's header and
    its row."""

    page: str
    table: str
    header: str
    row: list[str]
    mark: str


class _Marks(html.parser.HTMLParser):
    """The marked cells of one page's tables."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.found: list[MarkedCell] = []
        self._table = None
        self._headers: list[str] = []
        self._row: list[str] | None = None
        self._marks: list[tuple[int, str]] = []
        self._cell: list[str] | None = None
        self._in_mark = False
        self._mark_text: list[str] = []
        self._rows = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table, self._headers, self._rows = attrs.get("id") or self.getpos(), [], 0
        elif tag == "figure" and attrs.get("id", "").startswith("table-"):
            self._figure = attrs["id"]
        elif tag == "tr":
            self._row, self._marks = [], []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "span" and "best-mark" in (attrs.get("class") or "") and self._cell is not None:
            self._in_mark, self._mark_text = True, []

    def handle_endtag(self, tag):
        if tag == "span" and self._in_mark:
            self._in_mark = False
            self._marks.append((len(self._row), "".join(self._mark_text).strip()))
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._rows == 0:
                self._headers = self._row
            else:
                for k, mark in self._marks:
                    self.found.append(
                        MarkedCell(
                            self.page,
                            getattr(self, "_figure", str(self._table)),
                            self._headers[k] if k < len(self._headers) else "",
                            self._row,
                            mark,
                        )
                    )
            self._rows += 1
            self._row = None

    def handle_data(self, data):
        if self._in_mark:
            self._mark_text.append(data)
        elif self._cell is not None:
            self._cell.append(data)


def marked_cells(site: Path) -> list[MarkedCell]:
    out = []
    for page in sorted(site.glob("*.html")):
        parser = _Marks(page.name)
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        out += parser.found
    return out


def unjustified_marks(site: Path, results: dict) -> list[str]:
    """Every marked cell checked against the family-wise result it claims (the reading guide's
    definitions): a \u2605 beside classifier c's cost under prior p says c's cost is the lowest,
    below the best trivial classifier's, and its paired difference from every runner-up has a
    step-down adjusted p-value (``p_holm``) at most 1 - confidence; a * beside A - B under p says
    that difference's ``p_holm`` is at most 1 - confidence. A mark whose quantity has no such
    adjusted test (an instance-cost column) is unjustified. Returns what is wrong, one line per
    cell."""
    level = float(results["settings"]["confidence"])
    alpha = 1.0 - level
    priors = list(results["priors"])
    problems = []
    for cell in marked_cells(site):
        where = f"{cell.page} {cell.table} [{cell.header}] {' | '.join(cell.row)[:80]}"
        dataset = next((d for d in results["datasets"] if cell.page == f"dataset-{d}.html"), None)
        if dataset is None:  # the index's table: a dataset column
            dataset = next((x for x in cell.row if x in results["datasets"]), None)
        d = results["datasets"].get(dataset)
        if d is None:
            problems.append(f"{where}: no dataset")
            continue
        names = list(d["classifiers"])
        prior = next((p for p in priors if p in cell.header.split()), None) or next(
            (x for x in cell.row if x in priors), None
        )
        instance = bool(re.search(r"\biv\b|total cost", cell.header))
        if cell.mark == "*":
            a, b = cell.row[0], cell.row[1]
            m = d["comparisons"].get(f"{a} vs {b}") or d["comparisons"].get(f"{b} vs {a}")
            iv = (
                None
                if m is None or prior is None
                else (m.get("expected_cost_difference_interval") or {}).get(prior)
            )
            if instance or iv is None or iv.get("p_holm") is None or iv["p_holm"] > alpha + 1e-12:
                problems.append(f"{where}: * without an adjusted p <= {alpha:g}")
            continue
        name = (
            cell.row[0]
            if cell.row[0] in names
            else next((n for n in names if n == cell.header), None)
        )
        if name is None or prior is None or instance:
            problems.append(
                f"{where}: \u2605 on a quantity without an adjusted test (classifier {name}, "
                f"prior {prior})"
            )
            continue
        costs = {
            n: c["expected_cost"].get(prior)
            for n, c in d["classifiers"].items()
            if c["expected_cost"].get(prior) is not None
        }
        best = costs[name]
        if any(v < best * (1 - 1e-9) for v in costs.values()):
            problems.append(f"{where}: \u2605 on {name}, not the lowest")
            continue
        others = sorted(v for n, v in costs.items() if n != name)
        runners = [
            n
            for n, v in costs.items()
            if n != name and others and abs(v - others[0]) <= 1e-9 * abs(v)
        ]
        for r in runners:
            m = d["comparisons"].get(f"{name} vs {r}") or d["comparisons"].get(f"{r} vs {name}")
            iv = (
                None if m is None else (m.get("expected_cost_difference_interval") or {}).get(prior)
            )
            if iv is None or iv.get("p_holm") is None or iv["p_holm"] > alpha + 1e-12:
                problems.append(
                    f"{where}: \u2605 on {name} but against {r} p_adj = "
                    f"{None if iv is None else iv.get('p_holm')}"
                )
    return problems


def outline_entries(reader, entries=None, level=0):
    """(level, title, page index, top in points from the page's top) of every outline entry;
    level 0 is the title page's heading or a chapter, 1 a section (the decision summary, the
    contents and the lists are sections of the title page)."""
    for entry in reader.outline if entries is None else entries:
        if isinstance(entry, list):
            yield from outline_entries(reader, entry, level + 1)
            continue
        page = reader.get_destination_page_number(entry)
        height = float(reader.pages[page].mediabox.height)
        top = height - float(entry.top) if entry.top is not None else 0.0
        yield level, str(entry.title), page, top
