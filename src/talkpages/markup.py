"""Markdown to HTML: CommonMark with GitHub's extensions, through cmarkgfm (C, fast).

Raw HTML in a talk body is shown as text, not dropped and not run, unless the site
sets `unsafe_html = true` (it then trusts every author of a talk file). cmarkgfm does
not let us rewrite its syntax tree, so the escaping happens on the source: every `<`
outside code becomes `&lt;`, which CommonMark turns back into a visible `<`. The
document is then rendered in cmark's safe mode all the same, which drops any raw HTML
the escaping might have missed and blanks `javascript:`, `vbscript:`, `file:` and
`data:` links: two independent layers, so one slip cannot let a script through.
"""

from __future__ import annotations

import re

import cmarkgfm
from cmarkgfm.cmark import Options

from . import mathml

_SAFE = Options.CMARK_OPT_VALIDATE_UTF8 | Options.CMARK_OPT_FOOTNOTES
_UNSAFE = _SAFE | Options.CMARK_OPT_UNSAFE
_FENCE = re.compile(r"^\s*(?:(?:[-+*]|\d{1,9}[.)])\s+)*(`{3,}|~{3,})")
_INDENTED = re.compile(r"^(?: {4}|\t)")
# Inline code (within one paragraph, not opened by an escaped backtick) and autolinks:
# the places where `<` must stay as it is.
_KEEP = re.compile(r"(?<!\\)(`+)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)"
                   r"|<(?:https?|mailto):[^\s<>]*>|<[\w.+-]+@[\w.-]+>", re.DOTALL)


def to_html(text: str, *, unsafe: bool = False, math: bool = False) -> str:
    """`math`: LaTeX between `$…$`, `$$…$$` becomes MathML (see mathml.py)."""
    if not text.strip():
        return ""
    formulas: list[str] = []
    if math:
        text, formulas = mathml.extract(text)
    if unsafe:
        html = cmarkgfm.github_flavored_markdown_to_html(text, options=_UNSAFE)
    else:
        if "<" in text:
            text = escape_raw_html(text)
        html = cmarkgfm.github_flavored_markdown_to_html(text, options=_SAFE)
    return mathml.restore(str(html), formulas)


def escape_raw_html(text: str) -> str:
    """`<` outside code becomes `&lt;`. Fenced code, at any indentation (fences inside
    list items), and indented code after a blank line are left alone; where a list's
    indented paragraph is taken for code, safe mode drops its HTML rather than run it."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    previous_blank = True
    in_indented = False
    for line in text.splitlines(keepends=True):
        blank = not line.strip()
        match = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
        elif match:
            out.append(_escape_prose("".join(prose)))
            prose = []
            fence = match.group(1)
            out.append(line)
        elif not blank and _INDENTED.match(line) and (previous_blank or in_indented):
            out.append(_escape_prose("".join(prose)))
            prose = []
            in_indented = True
            out.append(line)
        else:
            in_indented = in_indented and blank
            prose.append(line)
        previous_blank = blank
    out.append(_escape_prose("".join(prose)))
    return "".join(out)


def _escape_prose(text: str) -> str:
    if "<" not in text:
        return text
    pieces = []
    last = 0
    for match in _KEEP.finditer(text):
        pieces.append(text[last:match.start()].replace("<", "&lt;"))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(text[last:].replace("<", "&lt;"))
    return "".join(pieces)
