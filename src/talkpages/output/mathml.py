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
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import quote

from ..content.codespans import code_spans

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
# Where a formula may begin. Display math is tried first at a `$`, so `$$` is never read
# as two empty inline formulas; each opening then closes at the first closing delimiter
# after at least one character (see `_formulas`).
_OPENING = re.compile(r"\$|\\[\[(]")
_CLOSING = {"$$": "$$", "\\[": "\\]", "\\(": "\\)"}
# `$…$` on one line, not `$5 and $10`. Linear: an attempt ends at the next `$`.
_INLINE = re.compile(r"(?<![\\$\w])\$(?=\S)([^$\n]*?[^\s\\$])\$(?![\d$])")
_FENCE = re.compile(r"^\s*(?:(?:[-+*]|\d{1,9}[.)])\s+)*(`{3,}|~{3,})")
# Lines as CommonMark ends them: U+2028 and the like, which `splitlines` also breaks
# at, are text to cmark.
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
_INDENTED = re.compile(r"^(?: {4}|\t)")
# A tag of cmark's HTML, or one written by the author where `unsafe_html` lets it through:
# `<!--…-->`, or `<` and a letter, `/`, `!` or `?` up to the first `>` outside quotes.
_TAG_OPENING = re.compile(r"<[A-Za-z/!?]")
_TAG_MARK = re.compile(r"[\"'>]")
# A name with its value, or a name alone: taken whole either way, so a long name with no
# value is not tried again from each of its characters.
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:(\s*=\s*)("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
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

    def replace(source: str, latex: str, display: bool) -> str:
        if source not in numbers:
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
        if value is None or formulas.marker not in value:
            return attribute.group(0)
        value = placeholder.sub(as_source(name.lower() in _URL_ATTRIBUTES), value)
        if value[0] not in "\"'":  # unquoted: a source with a space would end it
            value = f'"{value}"'
        return name + equals + value

    pieces = []
    last = 0
    for start, end in _tags(html):
        pieces.append(placeholder.sub(put_back, html[last:start]))
        inside = html[start:end]
        if formulas.marker in inside:
            inside = placeholder.sub(as_source(False), _ATTRIBUTE.sub(in_attribute, inside))
        pieces.append(inside)
        last = end
    pieces.append(placeholder.sub(put_back, html[last:]))
    return "".join(pieces)


def _tags(html: str) -> Iterator[tuple[int, int]]:
    """The (start, end) of each tag of `html`, in order. Each `<` costs little more
    than a lookup, however far its tag would run: a comment that never closes is looked
    for once, and where the scan for a `>` outside quotes meets a quote another scan
    met before, it takes that scan's answer."""
    marks = [m.start() for m in _TAG_MARK.finditer(html)]
    answers: dict[int, int] = {}  # a quote's index in `marks` -> its tag's end, or -1
    comments = True  # whether a `-->` may still follow
    position = 0
    while opening := _TAG_OPENING.search(html, position):
        start = end = opening.start()
        if comments and html.startswith("<!--", start):
            close = html.find("-->", start + 4)
            comments = close >= 0
            end = close + 3 if comments else -1
        if end <= start:
            end = _tag_end(html, marks, bisect_left(marks, start + 2), answers)
        if end < 0:
            position = start + 1
            continue
        yield start, end
        position = end


def _tag_end(html: str, marks: list[int], index: int, answers: dict[int, int]) -> int:
    """Where the tag ends whose rest starts at marks[index]: after the first `>` that
    is not between quotes, or -1 where a quote never closes or no `>` follows."""
    quotes = []
    end = -1
    while index < len(marks):
        at = marks[index]
        if html[at] == ">":
            end = at + 1
            break
        if index in answers:
            end = answers[index]
            break
        quotes.append(index)
        close = html.find(html[at], at + 1)
        if close < 0:
            break
        index = bisect_left(marks, close + 1)
    for seen in quotes:
        answers[seen] = end
    return end


def _outside_spans(prose: str, replace: Callable[[str, str, bool], str]) -> str:
    pieces = []
    last = 0
    for start, end in code_spans(prose):
        pieces.append(_replace_formulas(prose[last:start], replace))
        pieces.append(prose[start:end])
        last = end
    pieces.append(_replace_formulas(prose[last:], replace))
    return "".join(pieces)


def _replace_formulas(text: str, replace: Callable[[str, str, bool], str]) -> str:
    pieces = []
    last = 0
    for start, end, latex, display in _formulas(text):
        pieces += [text[last:start], replace(text[start:end], latex, display)]
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _formulas(text: str) -> Iterator[tuple[int, int, str, bool]]:
    """(start, end, LaTeX, display) of each formula, in order: `$$…$$`, `\\[…\\]` and
    `\\(…\\)` hold at least one character, any, and close at the first closing
    delimiter after it (a `$$` not after a backslash); `$…$` is `_INLINE`. A closing
    delimiter found nowhere after one opening is not looked for again."""
    unclosed: set[str] = set()
    position = 0
    while opening := _OPENING.search(text, position):
        start = opening.start()
        kind = text[start:start + 2]
        closing = _CLOSING.get(kind)
        if closing is not None and not (kind == "$$" and text[start - 1:start] == "\\"):
            close = -1 if closing in unclosed else text.find(closing, start + 3)
            while closing == "$$" and close > 0 and text[close - 1] == "\\":
                close = text.find(closing, close + 1)
            if close >= 0:
                yield start, close + 2, text[start + 2:close], kind != "\\("
                position = close + 2
                continue
            unclosed.add(closing)
        inline = _INLINE.match(text, start) if kind[0] == "$" else None
        if inline is not None:
            yield start, inline.end(), inline.group(1), False
            position = inline.end()
            continue
        position = start + 1


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

    for line in _LINE.findall(text):
        blank = not line.strip()
        if fence is not None:
            out.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
        elif opening := _fence(line):
            flush()
            fence = opening
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


def _fence(line: str) -> str | None:
    """The backticks or tildes that open a code fence on `line`, or None. After
    backticks, the rest of the line (the info string) holds no backtick: "```x`" is
    text, and may hold code spans."""
    match = _FENCE.match(line)
    if match is None or (match.group(1)[0] == "`" and "`" in line[match.end():]):
        return None
    return match.group(1)
