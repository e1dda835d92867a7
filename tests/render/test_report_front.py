"""report.pdf's front (title page, contents, lists) laid out once with the chapters' page numbers
written in (ccreport.render.pdf.laid_out_report), checked on small WeasyPrint documents."""

from types import SimpleNamespace

import pytest
import weasyprint

from ccreport.render.pdf import FRONT_PAGES, anchor_pages, laid_out_report

ANCHORS = ["a", "b", "c", "d"]


def layout(html: str):
    return weasyprint.HTML(string=html).render()


def small_report(front_length: int, calls: list):
    """``html_of`` for a report whose front takes ``front_length`` pages (``None``: one more than
    it is given, never settling) and whose chapters put each anchor on its own page, two of them
    after a page of text; ``calls`` records each call's arguments."""

    def html_of(part, front_pages, page_numbers, total_pages):
        calls.append((part, front_pages, page_numbers, total_pages))
        style = "<style>@page { size: 100mm 60mm; } .p { break-after: page; }</style>"
        if part == "chapters":
            blanks = '<div class="p"></div>' * front_pages
            chapters = "".join(
                f'<section class="p" id="{a}">{a}</section>' + ("<p class=p>text</p>" * (i % 2))
                for i, a in enumerate(ANCHORS)
            )
            return f"<html><head>{style}</head><body>{blanks}{chapters}</body></html>"
        length = front_pages + 1 if front_length is None else front_length
        entries = "".join(f'<a href="#{a}">{a} {page_numbers.get(a, "")}</a>' for a in ANCHORS)
        pages = '<div class="p">front</div>' * (length - 1)
        return f"<html><head>{style}</head><body>{pages}<div>{entries}</div></body></html>"

    return html_of


def test_anchor_pages_first_page_of_each_anchor():
    pages = [
        SimpleNamespace(anchors={}),
        SimpleNamespace(anchors={"x": (0, 0), "y": (0, 5)}),
        SimpleNamespace(anchors={"y": (0, 0), "z": (1, 1)}),
    ]
    assert anchor_pages(pages) == {"x": 2, "y": 2, "z": 3}
    assert anchor_pages(pages, first=5) == {"x": 6, "y": 6, "z": 7}
    assert anchor_pages([]) == {}


@pytest.mark.parametrize("front_length", [FRONT_PAGES, 1, 3])
def test_front_numbers_are_the_pages_of_the_joined_report(front_length):
    calls = []
    pages, body = laid_out_report(layout, small_report(front_length, calls))
    # the numbers written into the last front are where each anchor is in the joined pages
    part, front_pages, numbers, total = calls[-1]
    assert part == "front" and front_pages == front_length
    joined = anchor_pages(pages)
    assert {a: joined[a] for a in ANCHORS} == numbers
    # anchors a..d: one page each, b and d with a page of text after them
    assert [numbers[a] for a in ANCHORS] == [front_length + k for k in (1, 2, 4, 5)]
    assert total == len(pages) == front_length + 6
    assert len(body.pages) == front_length + 6  # the chapters after as many empty pages
    # the front laid out once when it takes the usual pages, else the chapters once more
    layouts = [c[0] for c in calls]
    expected = 2 if front_length == FRONT_PAGES else 4
    assert layouts == ["chapters", "front"] * (expected // 2)


def test_a_front_that_never_settles_is_an_error():
    calls = []
    with pytest.raises(RuntimeError, match="did not settle"):
        laid_out_report(layout, small_report(None, calls), attempts=3)
    assert [c[1] for c in calls if c[0] == "chapters"] == [
        FRONT_PAGES,
        FRONT_PAGES + 1,
        FRONT_PAGES + 2,
    ]
