"""LaTeX math in talk text, turned into MathML at build time: no CDN, no script.

Hugo Academic loads MathJax from a CDN for `math = true` (hundreds of KB and a third
party on every page view). Browsers now render MathML themselves (Chromium 109+,
Firefox, Safari), so talkpages converts the LaTeX when it builds the site, with the
pure-Python latex2mathml, and the page carries nothing but the markup.

The delimiters are MathJax's defaults that Academic uses: `$…$` and `\\(…\\)` inline,
`$$…$$` and `\\[…\\]` displayed. Math is cut out of the Markdown before cmark sees it
(so `_` and `\\` inside it are not read as emphasis or escapes) and put back after, in
place of a placeholder word. Code spans and fenced or indented code are left alone.

latex2mathml passes `\\text{…}` through as it is, markup included, so its output is
parsed and every element and attribute checked against MathML's own; anything else,
or LaTeX it cannot read, is shown as the LaTeX source in a `<code>`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

MATHML = "{http://www.w3.org/1998/Math/MathML}"
ELEMENTS = frozenset("""
math mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot munder mover
munderover mtable mtr mtd mlabeledtr mstyle mpadded mphantom menclose merror semantics
annotation mmultiscripts mprescripts none maligngroup malignmark
""".split())
ATTRIBUTES = frozenset("""
display displaystyle mathvariant mathsize mathcolor mathbackground stretchy fence
separator lspace rspace symmetric largeop movablelimits accent accentunder form minsize
maxsize width height depth linethickness columnalign columnspacing columnlines rowalign
rowspacing rowlines frame framespacing equalrows equalcolumns rowspan columnspan notation
scriptlevel voffset xmlns encoding
""".split())

_PLACEHOLDER = "TPMATHPLACEHOLDER"
# Display math first, so `$$` is never read as two empty inline spans.
_MATH = re.compile(
    r"(?<!\\)\$\$(?P<d1>.+?)(?<!\\)\$\$"
    r"|\\\[(?P<d2>.+?)\\\]"
    r"|\\\((?P<i2>.+?)\\\)"
    r"|(?<![\\$\w])\$(?=\S)(?P<i1>[^$\n]*?[^\s\\$])\$(?![\d$])",
    re.DOTALL)
_CODE_SPAN = re.compile(r"(?<!\\)(`+)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_FENCE = re.compile(r"^\s*(?:(?:[-+*]|\d{1,9}[.)])\s+)*(`{3,}|~{3,})")
_INDENTED = re.compile(r"^(?: {4}|\t)")


def to_mathml(latex: str, display: bool) -> str:
    """One formula as MathML, or its source in a <code> when it cannot be converted."""
    try:
        import xml.etree.ElementTree as ET  # imported for math only, like latex2mathml

        from latex2mathml.converter import convert

        markup = convert(latex.strip(), display="block" if display else "inline")
        if _allowed(ET.fromstring(markup)):
            return markup
    except Exception:  # latex2mathml raises many kinds on bad input; show the source
        pass
    delimiter = "$$" if display else "$"
    return f'<code class="math-error">{escape(delimiter + latex + delimiter)}</code>'


def _allowed(element: ET.Element) -> bool:
    for node in element.iter():
        if not node.tag.startswith(MATHML) or node.tag[len(MATHML):] not in ELEMENTS:
            return False
        if any(name not in ATTRIBUTES for name in node.attrib):
            return False
    return True


def extract(text: str) -> tuple[str, list[str]]:
    """The text with each formula replaced by a placeholder word, and the formulas'
    MathML in order. Code (spans, fences, indented blocks) is not looked into."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text, []
    found: list[str] = []

    def replace(match: re.Match[str]) -> str:
        display = match.group("d1") is not None or match.group("d2") is not None
        latex = next(g for g in match.group("d1", "d2", "i1", "i2") if g is not None)
        found.append(to_mathml(latex, display))
        return f"{_PLACEHOLDER}{len(found) - 1}X"

    return outside_code(text, lambda prose: _outside_spans(prose, replace)), found


def restore(html: str, formulas: list[str]) -> str:
    if not formulas:
        return html
    def put_back(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return formulas[number] if number < len(formulas) else match.group(0)

    return re.sub(rf"{_PLACEHOLDER}(\d+)X", put_back, html)


def _outside_spans(prose: str, replace: Callable[[re.Match[str]], str]) -> str:
    pieces = []
    last = 0
    for span in _CODE_SPAN.finditer(prose):
        pieces.append(_MATH.sub(replace, prose[last:span.start()]))
        pieces.append(span.group(0))
        last = span.end()
    pieces.append(_MATH.sub(replace, prose[last:]))
    return "".join(pieces)


def outside_code(text: str, transform: Callable[[str], str]) -> str:
    """Apply `transform` to the runs of lines that are not fenced or indented code."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    previous_blank = True
    in_indented = False

    def flush() -> None:
        out.append(transform("".join(prose)))
        prose.clear()

    for line in text.splitlines(keepends=True):
        blank = not line.strip()
        match = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
        elif match:
            flush()
            fence = match.group(1)
            out.append(line)
        elif not blank and _INDENTED.match(line) and (previous_blank or in_indented):
            flush()
            in_indented = True
            out.append(line)
        else:
            in_indented = in_indented and blank
            prose.append(line)
        previous_blank = blank
    flush()
    return "".join(out)
