"""LaTeX to MathML at build time: delimiters, code left alone, nothing unsafe through."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from talkpages import mathml
from talkpages.markup import to_html


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
