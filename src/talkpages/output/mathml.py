"""LaTeX math in talk text, turned into MathML at build time: no CDN, no script.

Hugo Academic loads MathJax from a CDN for `math = true` (hundreds of KB and a third
party on every page view). Browsers now render MathML themselves (Chromium 109+,
Firefox, Safari), so talkpages converts the LaTeX when it builds the site, with the
pure-Python latex2mathml, and the page carries nothing but the markup.

The delimiters are MathJax's defaults that Academic uses: `$…$` and `\\(…\\)` inline,
`$$…$$` and `\\[…\\]` displayed. Math is cut out of the Markdown before cmark sees it
(so `_` and `\\` inside it are not read as emphasis or escapes) and put back after, in
place of a placeholder word. Code spans and fenced or indented code are left alone.

Formulas belong in text. A placeholder that cmark put inside a tag (an image's alt
text, a link's title or address) gets the formula's LaTeX source, escaped for the
attribute: MathML there would end the attribute at its first quote. The placeholder
word holds a digest of the whole text, so no text can spell the placeholders of its
own formulas, not even with character references that cmark decodes.

latex2mathml passes `\\text{…}` through as it is, markup included, so its output is
parsed and every element and attribute checked against MathML's own; anything else,
or LaTeX it cannot read, is shown as the LaTeX source in a `<code>`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import quote

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

_PLACEHOLDER = "TPMATH"
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
# A tag of cmark's HTML, or one written by the author where `unsafe_html` lets it through.
_TAG = re.compile(r"<!--.*?-->|<[A-Za-z/!?](?:\"[^\"]*\"|'[^']*'|[^'\">])*>", re.DOTALL)
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+)""")
_URL_ATTRIBUTES = frozenset({"href", "src"})


@dataclass(frozen=True)
class Formulas:
    """What `extract` cut out of a text: each formula's MathML and its source as
    written, delimiters included, and the word that stands for them in the text."""

    marker: str
    mathml: tuple[str, ...]
    sources: tuple[str, ...]


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


def extract(text: str) -> tuple[str, Formulas | None]:
    """The text with each formula replaced by a placeholder word, and the formulas.
    Code (spans, fences, indented blocks) is not looked into."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text, None
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=10)
    marker = f"{_PLACEHOLDER}{digest.hexdigest()}N"
    mathml: list[str] = []
    numbers: dict[str, int] = {}  # by source: the label of a reference and its use agree

    def replace(match: re.Match[str]) -> str:
        source = match.group(0)
        if source not in numbers:
            display = match.group("d1") is not None or match.group("d2") is not None
            latex = next(g for g in match.group("d1", "d2", "i1", "i2") if g is not None)
            mathml.append(to_mathml(latex, display))
            numbers[source] = len(numbers)
        return f"{marker}{numbers[source]}X"

    text = outside_code(text, lambda prose: _outside_spans(prose, replace))
    return text, Formulas(marker, tuple(mathml), tuple(numbers)) if mathml else None


def restore(html: str, formulas: Formulas | None) -> str:
    """`html` with each placeholder replaced: by MathML in text, by the formula's
    source in a tag."""
    if formulas is None:
        return html
    placeholder = re.compile(re.escape(formulas.marker) + r"(\d+)X")

    def put_back(match: re.Match[str]) -> str:
        return formulas.mathml[int(match.group(1))]

    def as_source(url: bool) -> Callable[[re.Match[str]], str]:
        def source(match: re.Match[str]) -> str:
            text = formulas.sources[int(match.group(1))]
            # in an address, no `:` either: a formula never makes the part before it a scheme
            return escape(quote(text, safe="!#$&'()*+,-./;=?@_~") if url else text)
        return source

    def in_attribute(attribute: re.Match[str]) -> str:
        name, equals, value = attribute.groups()
        if formulas.marker not in value:
            return attribute.group(0)
        value = placeholder.sub(as_source(name.lower() in _URL_ATTRIBUTES), value)
        if value[0] not in "\"'":  # unquoted: a source with a space would end it
            value = f'"{value}"'
        return name + equals + value

    pieces = []
    last = 0
    for tag in _TAG.finditer(html):
        pieces.append(placeholder.sub(put_back, html[last:tag.start()]))
        inside = tag.group(0)
        if formulas.marker in inside:
            inside = placeholder.sub(as_source(False), _ATTRIBUTE.sub(in_attribute, inside))
        pieces.append(inside)
        last = tag.end()
    pieces.append(placeholder.sub(put_back, html[last:]))
    return "".join(pieces)


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
