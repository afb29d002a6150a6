"""LaTeX to MathML at build time: delimiters, code left alone, nothing unsafe through,
formulas in text only (in an attribute, their source)."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from html.parser import HTMLParser

import pytest

from talkpages.output import mathml
from talkpages.output.markup import to_html


def test_inline_and_display_math_become_mathml() -> None:
    html = to_html("Energy $E=mc^2$ and\n\n$$\\frac{a}{b}$$\n", math=True)
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in html
    assert "<msup><mi>c</mi><mn>2</mn></msup>" in html and "<mfrac>" in html
    assert "$" not in html


@pytest.mark.parametrize("source", ["\\(x_1\\)", "\\[x_1\\]"])
def test_mathjax_bracket_delimiters(source: str) -> None:
    assert "<msub><mi>x</mi><mn>1</mn></msub>" in to_html(source, math=True)


def test_underscores_and_backslashes_in_math_are_not_markdown() -> None:
    html = to_html("$a_i + b_i$ and $x \\\\ y$", math=True)
    assert "<em>" not in html
    assert "<msub><mi>a</mi><mi>i</mi></msub>" in html


def test_money_and_code_are_not_math() -> None:
    html = to_html("It costs $5 and $10.\n\n`$x$` and\n\n```\n$y$\n```\n\n    $z$\n",
                   math=True)
    assert "<math" not in html
    assert "$5 and $10" in html and "<code>$x$</code>" in html
    assert "$y$" in html and "$z$" in html


def test_math_is_left_alone_unless_the_talk_asks() -> None:
    assert "<math" not in to_html("$x^2$")
    assert "$x^2$" in to_html("$x^2$")


def test_markup_inside_text_is_never_passed_through() -> None:
    html = to_html("$\\text{<script>alert(1)</script>}$ and $\\text{<b>x</b>}$", math=True)
    assert "<script>" not in html and "<b>" not in html
    assert '<code class="math-error">' in html and "&lt;script&gt;" in html


def test_every_element_and_attribute_is_mathml() -> None:
    for latex in ["\\sqrt[3]{x}", "\\begin{matrix}a & b \\\\ c & d\\end{matrix}",
                  "\\mathbb{R}", "\\overline{x}", "\\left( \\frac{1}{2} \\right)"]:
        markup = mathml.to_mathml(latex, display=True)
        root = ET.fromstring(markup)
        assert root.tag == mathml.MATHML + "math", latex
        for node in root.iter():
            assert node.tag[len(mathml.MATHML):] in mathml.ELEMENTS
            assert set(node.attrib) <= mathml.ATTRIBUTES


def test_raw_html_around_math_is_still_escaped() -> None:
    html = to_html("<img src=x onerror=alert(1)> and $a<b$", math=True)
    assert "<img" not in html and "&lt;img" in html
    assert "<mo>&#x0003C;</mo>" in html


def test_a_placeholder_written_by_an_author_stays_text() -> None:
    html = to_html("TPMATHPLACEHOLDER7X and $x$", math=True)
    assert "TPMATHPLACEHOLDER7X" in html and "<math" in html


class Tags(HTMLParser):
    """The tags of a piece of HTML with their attributes, as a browser reads them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))

    def attributes(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.found if name == tag]


def test_formula_in_image_alt_text_or_link_title_becomes_its_source() -> None:
    html = to_html('![area $\\pi r^2$ "q"](disc.png "the $\\frac{a}{b}$ title") and '
                   '[link $x$](https://a.org/ "title \\(y<z\\)") and $w$', math=True)
    tags = Tags(html)
    assert tags.attributes("img") == [{"src": "disc.png", "alt": 'area $\\pi r^2$ "q"',
                                       "title": "the $\\frac{a}{b}$ title"}]
    assert tags.attributes("a") == [{"href": "https://a.org/", "title": "title \\(y<z\\)"}]
    assert html.count("<math") == 2  # `$x$` in the link's text and `$w$`
    assert [name for name, _ in tags.found].count("math") == 2


def test_formula_in_a_link_address_becomes_its_source_percent_encoded() -> None:
    tags = Tags(to_html("[a](https://a.org/$x y$) <https://b.org/$z$>", math=True))
    assert [attrs["href"] for attrs in tags.attributes("a")] == [
        "https://a.org/$x%20y$", "https://b.org/$z$"]


def test_formula_in_a_link_address_cannot_make_a_scheme() -> None:
    for text in ("[x](javascript$$:$$alert(1))", "[x](javascript\\(:\\)alert(1))"):
        href = Tags(to_html(text, math=True)).attributes("a")[0]["href"]
        assert href is not None and ":" not in href, href


def test_formula_in_an_unquoted_attribute_of_raw_html_is_quoted() -> None:
    html = to_html("<img alt=$a b$ src=x.png> and <!-- $c$ -->", math=True, unsafe=True)
    assert Tags(html).attributes("img") == [{"alt": "$a b$", "src": "x.png"}]
    assert "<!-- $c$ -->" in html


def test_placeholder_spelled_by_an_author_is_never_replaced() -> None:
    html = to_html("TPMATHPLACEHOLDER0X and $x$", math=True)
    assert "TPMATHPLACEHOLDER0X and <math" in html
    marker = mathml.extract("$x$")[1].marker  # type: ignore[union-attr]
    for spelled in (f"{marker}0X", f"{marker[:-1]}&#78;0X"):
        html = to_html(f"{spelled} and $x$", math=True)
        assert html.count("<math") == 1 and f"{marker}0X and <math" in html


def test_references_and_footnotes_with_a_formula_in_their_label_still_match() -> None:
    html = to_html("[ref $a$] and [^$b$]\n\n[ref $a$]: https://a.org/\n\n[^$b$]: Note.",
                   math=True)
    assert Tags(html).attributes("a")[0]["href"] == "https://a.org/"
    assert 'id="fn-$b$"' in html and "Note." in html


# --- time linear in the text, whatever it holds ------------------------------------------

def within(seconds: float, make: Callable[[], object]) -> object:
    started = time.perf_counter()
    result = make()
    assert time.perf_counter() - started < seconds
    return result


@pytest.mark.parametrize("text", [
    "`" * 10_000, "`" * 2_000 + "a" * 5_000, "\\[" * 10_000, "\\(" * 10_000,
    "$$a" + "\\$$" * 10_000, " ".join("`" * (1 + i % 7) for i in range(10_000))])
def test_backtick_runs_and_unclosed_delimiters_are_read_at_once(text: str) -> None:
    # a run of 1,000 backticks took 7 s; 10,000 `\[` that never close, 4.6 s
    html = within(2, lambda: to_html(f"$x$ {text}", math=True))
    assert isinstance(html, str) and html.count("<math") == 1


@pytest.mark.parametrize("text", ["<!--" * 10_000, "<a " * 10_000, '<a "' * 10_000,
                                  "<a \"' <b " * 10_000])
def test_unclosed_comments_and_tags_of_raw_html_are_read_at_once(text: str) -> None:
    # 10,000 unclosed `<!--` took 23 s, 10,000 `<a ` 9 s
    html = within(2, lambda: to_html(f"$x$ {text}", math=True, unsafe=True))
    assert isinstance(html, str) and "<math" in html


def test_formulas_close_at_the_first_closing_delimiter_as_before() -> None:
    html = to_html("Sum \\[a\nb\\] then \\(c\\)\\) and $$d\\$$e$$ and \\$5 and $f$1 $g$",
                   math=True)
    assert html.count('display="block"') == 2 and html.count('display="inline"') == 2
    assert "<mi>a</mi><mi>b</mi>" in html and "$5 and $f$1" in html
    assert "<mi>c</mi></mrow></math>) and" in html


def test_code_spans_are_read_as_commonmark_does() -> None:
    html = to_html("`` $a$ `` and \\`$b$` and ``` $c$ `` $d$", math=True)
    assert "<code>$a$</code>" in html and "<code>$b$</code>" not in html
    assert html.count("<math") == 3


def test_backticks_followed_by_a_backtick_are_no_fence() -> None:
    html = to_html("```x`\n<script>alert(1)</script> and $y$\n", math=True)
    assert "&lt;script&gt;" in html and "<math" in html and "<pre" not in html
    html = to_html("```` a` ````\n<b>x</b>\n~~~ `ok`\n$z$\n~~~\n", math=True)
    assert "<code>a`</code>" in html and "&lt;b&gt;" in html and "$z$" in html


def test_a_line_separator_does_not_start_a_line_before_a_fence() -> None:
    html = to_html("x\u2028```\n<b>bold</b> $y$\n", math=True)
    assert "&lt;b&gt;bold" in html and "<math" in html


def test_long_attribute_name_without_a_value_beside_a_formula_is_read_at_once() -> None:
    # 20,000 letters took 7.7 s: each was tried again as the start of a name
    html = within(2, lambda: to_html(f"<img {'a' * 20_000} alt=$x$ b c=d>", math=True,
                                     unsafe=True))
    assert isinstance(html, str) and 'alt="$x$" b c=d>' in html
