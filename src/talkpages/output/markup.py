"""Markdown to HTML: CommonMark with GitHub's extensions, through cmarkgfm (C, fast).

Raw HTML in a talk body is shown as text, not dropped and not run, unless the site
sets `unsafe_html = true` (it then trusts every author of a talk file). cmarkgfm does
not let us rewrite its syntax tree, so the escaping happens on the source: every `<`
outside code becomes `&lt;`, which CommonMark turns back into a visible `<`. The
document is then rendered in cmark's safe mode all the same, which drops any raw HTML
the escaping might have missed and blanks `javascript:`, `vbscript:`, `file:` and
`data:` links: two independent layers, so one slip cannot let a script through.

Talk text holds no control characters (characters.py), but a character reference
does: cmark turns `&#7;` into the character itself, and `&#xFFFE;` into bytes that are
not UTF-8. What would not be XML in the HTML becomes U+FFFD, as HTML does for `&#0;`.
"""

from __future__ import annotations

import ctypes
import functools
import re
from collections.abc import Callable

import cmarkgfm
from cmarkgfm import _cmark, cmark
from cmarkgfm.cmark import Options

from ..content.characters import FORBIDDEN
from ..content.codespans import code_spans
from . import mathml

_SAFE = Options.CMARK_OPT_VALIDATE_UTF8 | Options.CMARK_OPT_FOOTNOTES
_UNSAFE = _SAFE | Options.CMARK_OPT_UNSAFE
# Autolinks, which like inline code (codespans.py) are where `<` must stay as it is.
# Linear: an attempt stops at the next `<`, where the next one starts.
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^\s<>]*>|<[\w.+-]+@[\w.-]+>")


def to_html(text: str, *, unsafe: bool = False, math: bool = False,
            inline: bool = False) -> str:
    """`math`: LaTeX between `$…$`, `$$…$$` becomes MathML (see mathml.py). `inline`:
    one paragraph is given without its `<p>` (a caption, inside `<figcaption>`).

    Remembers its last results: a talk's page, its feed entry and its descriptions
    ask for the same abstract several times, however they name the options."""
    html = _to_html(text, unsafe, math)
    if inline and html.startswith("<p>") and html.endswith("</p>\n") \
            and html.count("<p>") == 1:
        return html[3:-5]
    return html


@functools.lru_cache(maxsize=1024)
def _to_html(text: str, unsafe: bool, math: bool) -> str:
    if not text.strip():
        return ""
    formulas = None
    if math:
        text, formulas = mathml.extract(text)
    if unsafe:
        html = _gfm(text, _UNSAFE)
    else:
        if "<" in text:
            text = escape_raw_html(text)
        html = _gfm(text, _SAFE)
    return _xml_text(mathml.restore(html, formulas))


# The ASCII characters FORBIDDEN lets through. A text of those alone needs no search,
# and much of a site's HTML is one (English without typographic quotes): the search
# costs nearly half of what cmark's parse of a talk's body does, the check below a
# tenth of the search.
_ASCII_KEPT = bytes(code for code in range(128) if not FORBIDDEN.match(chr(code)))


def _xml_text(html: str) -> str:
    """`html` with each character that would not be XML as U+FFFD."""
    if html.isascii() and not html.encode("ascii").translate(None, _ASCII_KEPT):
        return html
    return FORBIDDEN.sub("\ufffd", html)


def _free_functions() -> tuple[Callable[[int], None], Callable[[int], None]] | None:
    """cmark_node_free and free() from the very library cmarkgfm loaded, or None."""
    try:
        library = ctypes.CDLL(_cmark.__file__)
        node_free = library.cmark_node_free
        libc_free = ctypes.CDLL(None).free
    except (OSError, AttributeError):
        return None
    for function in (node_free, libc_free):
        function.argtypes, function.restype = [ctypes.c_void_p], None
    return node_free, libc_free


_FREE = _free_functions()
_EXTENSIONS = ("table", "autolink", "tagfilter", "strikethrough", "tasklist")


def _gfm(text: str, options: int) -> str:
    """cmarkgfm's github_flavored_markdown_to_html, without its memory leak.

    cmarkgfm (2025.10.22) frees neither the syntax tree nor the HTML string of each call:
    some 22 KB a talk, 650 MB for a 10,000-talk site. This is the same call sequence,
    with both freed; where the two functions cannot be found, cmarkgfm's own.
    """
    if _FREE is None:
        return str(cmarkgfm.github_flavored_markdown_to_html(text, options=options))
    node_free, libc_free = _FREE
    lib, ffi = _cmark.lib, _cmark.ffi
    options |= Options.CMARK_OPT_GITHUB_PRE_LANG
    parser = lib.cmark_parser_new(options)
    try:
        for extension in _extensions():
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        data = text.encode("utf-8")
        lib.cmark_parser_feed(parser, data, len(data))
        root = lib.cmark_parser_finish(parser)
        try:
            raw = lib.cmark_render_html(root, options, lib.cmark_parser_get_syntax_extensions(
                parser))
            try:
                return str(ffi.string(raw).decode("utf-8", "replace"))
            finally:
                libc_free(int(ffi.cast("uintptr_t", raw)))
        finally:
            node_free(int(ffi.cast("uintptr_t", root)))
    finally:
        lib.cmark_parser_free(parser)


@functools.lru_cache(maxsize=1)
def _extensions() -> tuple[object, ...]:
    """The GFM extensions, registered once: cmark keeps them for the process."""
    cmark.core_extensions_ensure_registered()
    return tuple(cmark.find_syntax_extension(name) for name in _EXTENSIONS)


def escape_raw_html(text: str) -> str:
    """`<` outside code becomes `&lt;`. Fenced code, at any indentation (fences inside
    list items), and indented code after a blank line are left alone; where a list's
    indented paragraph is taken for code, safe mode drops its HTML rather than run it."""
    return mathml.outside_code(text, _escape_prose)


def _escape_prose(text: str) -> str:
    if "<" not in text:
        return text
    pieces = []
    last = 0
    for start, end in code_spans(text, _AUTOLINK):
        pieces += [_escape_less_than(text[last:start]), text[start:end]]
        last = end
    pieces.append(_escape_less_than(text[last:]))
    return "".join(pieces)


def _escape_less_than(prose: str) -> str:
    """Each `<` as `&lt;`, but one a backslash escapes already (`\\<`, shown as `<`):
    there `&lt;` would be shown as written."""
    parts = prose.split("<")
    for i, part in enumerate(parts[:-1]):
        escaped = (len(part) - len(part.rstrip("\\"))) % 2
        parts[i] = part + ("<" if escaped else "&lt;")
    return "".join(parts)


_TAG = re.compile(r"<(/?)([a-z][a-z0-9]*)[^<>]*>")  # cmark's: `<`, `>` are escaped inside
_BLOCK_TAG = re.compile(r"</?(?:p|br|hr|li|ul|ol|h[1-6]|blockquote|pre|div|table|tr|td|th|"
                        r"section|figure|figcaption)\b[^<>]*>")
_LINK = re.compile(r'<a href="([^"<>]*)"[^<>]*>((?:[^<]|<(?!/a>))*)</a>')  # cmark's links


def plain_text(text: str, paragraphs: bool = False) -> str:
    """Markdown as the words a reader sees, on one line: `Image credit: **Unsplash**`
    -> `Image credit: Unsplash` (for an alt text, which holds no markup). Raw HTML of the
    text is shown as text there, as on a page of a site without `unsafe_html`.
    `paragraphs`: each paragraph, heading or item on a line of its own (a calendar
    event's description, which clients show as plain text)."""
    import html

    made = to_html(text)
    if paragraphs and "<a " in made:  # a link keeps its address: "the slides (https://…)"
        made = _LINK.sub(lambda a: a[2] if _TAG.sub("", a[2]) == a[1]
                         else f"{a[2]} ({a[1]})", made)
    rendered = html.unescape(_TAG.sub("", _BLOCK_TAG.sub("\n" if paragraphs else " ", made)))
    if not paragraphs:
        return " ".join(rendered.split())
    lines = (" ".join(line.split()) for line in rendered.split("\n"))
    return "\n".join(line for line in lines if line)
