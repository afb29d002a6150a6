"""Markdown to HTML: CommonMark with GitHub's extensions, through cmarkgfm (C, fast).

Raw HTML in a talk body is shown as text, not dropped and not run, unless the site
sets `unsafe_html = true` (it then trusts every author of a talk file). cmarkgfm does
not let us rewrite its syntax tree, so the escaping happens on the source: every `<`
outside code becomes `&lt;`, which CommonMark turns back into a visible `<`. The
document is then rendered in cmark's safe mode all the same, which drops any raw HTML
the escaping might have missed and blanks `javascript:`, `vbscript:`, `file:` and
`data:` links: two independent layers, so one slip cannot let a script through. With
`unsafe_html`, GFM's tag filter is off too: it would show an `<iframe>` or a `<script>`
as text, and the site asked for them (the pages' CSP still decides what loads: see
`content_security_policy` in render.py).

GFM's autolinks run on, past a quote or an angle bracket, through what follows an
address written in HTML that is shown as text (`<iframe src="https://…"></iframe>`,
or the same written with `&lt;`): the link would lead to `https://…%22%3E&lt;/iframe`.
An autolinked address ends where a quote or an angle bracket starts, escaped or not
(`_end_autolinks`); the rest is text again, its character references read as
CommonMark reads them. A raw `"`, `<` or `>` is never part of a valid address
(RFC 3986 writes them `%22`, `%3C`, `%3E`), so no real link is cut.

Talk text holds no control characters (characters.py), but a character reference
does: cmark turns `&#7;` into the character itself, and `&#xFFFE;` into bytes that are
not UTF-8. What would not be XML in the HTML becomes U+FFFD, as HTML does for `&#0;`.
"""

from __future__ import annotations

import ctypes
import functools
import html as html_text
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
        html = _gfm(text, _UNSAFE, _EXTENSIONS_UNSAFE)
    else:
        if "<" in text:
            text = escape_raw_html(text)
        html = _gfm(text, _SAFE, _EXTENSIONS)
    if "<a href=" in html:
        html = _end_autolinks(html)
    return _xml_text(mathml.restore(html, formulas))


# A link as cmark writes it (no title), its text without tags: an autolink is one.
_ANCHOR = re.compile(r'<a href="([^"<>]*)">([^<]*)</a>')
# Where an address ends: a quote or an angle bracket, written or as a reference.
_ADDRESS_END = re.compile(r'["<>]|&(?:lt|gt|quot|#0*(?:34|60|62)|#x0*(?:22|3c|3e));',
                          re.IGNORECASE)
_TRAILING = ".,:;!?*_~"  # what GFM leaves out of the end of an autolink
# A character reference as CommonMark reads it: with its `;`, at most 32 letters.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});")


def _end_autolinks(html: str) -> str:
    """Each link whose text is its address, cut where a quote or an angle bracket of
    that address starts (the module's docstring). Linear: one pass over the links,
    one over the text of each."""
    return _ANCHOR.sub(_cut_autolink, html)


def _cut_autolink(anchor: re.Match[str]) -> str:
    href, shown = anchor[1], anchor[2]
    if "&" not in shown:  # a quote or a bracket of the text is written as a reference
        return anchor[0]
    address = html_text.unescape(shown)
    end = _ADDRESS_END.search(address)
    if end is None:
        return anchor[0]
    offsets = _href_offsets(href, address)
    if offsets is None:  # its text is not its address: the author's own link
        return anchor[0]
    kept = address[:end.start()].rstrip(_TRAILING)
    rest = _escape(_REFERENCE.sub(lambda r: html_text.unescape(r[0]), address[len(kept):]))
    if not kept.partition("://")[2 if "://" in kept else 0].strip("/"):  # no host left
        return _escape(kept) + rest
    return f'<a href="{href[:offsets[len(kept)]]}">{_escape(kept)}</a>{rest}'


def _href_offsets(href: str, address: str) -> list[int] | None:
    """Where each character of `address` starts in `href`, as cmark escapes an address
    (`&` as `&amp;`, `'` as `&#x27;`, what is not safe in an address as %XX of its
    UTF-8), after the scheme an autolink adds (`http://` to `www.`, `mailto:`); one
    more for the end. None if `href` is not `address` so escaped."""
    position = 0
    for scheme in ("http://", "mailto:"):
        if href.startswith(scheme) and not address.startswith(scheme):
            position = len(scheme)
            break
    offsets = []
    for char in address:
        offsets.append(position)
        if char == "&":
            token = "&amp;"
        elif char == "'":
            token = "&#x27;"
        elif href.startswith(char, position):
            token = char
        else:
            token = "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "replace"))
        if not href.startswith(token, position):
            return None
        position += len(token)
    offsets.append(position)
    return offsets if position == len(href) else None


def _escape(text: str) -> str:
    """Text as cmark writes it in HTML."""
    return html_text.escape(text, quote=False).replace('"', "&quot;")


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
_EXTENSIONS_UNSAFE = tuple(name for name in _EXTENSIONS if name != "tagfilter")


def _gfm(text: str, options: int, names: tuple[str, ...]) -> str:
    """cmarkgfm's github_flavored_markdown_to_html with the extensions `names`, without
    its memory leak.

    cmarkgfm (2025.10.22) frees neither the syntax tree nor the HTML string of each call:
    some 22 KB a talk, 650 MB for a 10,000-talk site. This is the same call sequence,
    with both freed; where the two functions cannot be found, cmarkgfm's own.
    """
    options |= Options.CMARK_OPT_GITHUB_PRE_LANG
    if _FREE is None:
        return str(cmarkgfm.markdown_to_html_with_extensions(
            text, options=options, extensions=list(names)))
    node_free, libc_free = _FREE
    lib, ffi = _cmark.lib, _cmark.ffi
    parser = lib.cmark_parser_new(options)
    try:
        for extension in _extensions(names):
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


@functools.lru_cache(maxsize=2)
def _extensions(names: tuple[str, ...]) -> tuple[object, ...]:
    """The GFM extensions, registered once: cmark keeps them for the process."""
    cmark.core_extensions_ensure_registered()
    return tuple(cmark.find_syntax_extension(name) for name in names)


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
