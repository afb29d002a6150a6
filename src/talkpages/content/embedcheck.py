"""Frames and scripts written in a talk's text: what loads, what is blocked, and why.

A site without `unsafe_html` shows raw HTML as text, so an `<iframe>` of the old site
is a line of code on the page, not a player. A site with it lets the HTML through,
and then the pages' Content-Security-Policy (`content_security_policy` in
output/render.py) decides what of it loads.

The policy is made per talk page: a talk's page lets through the https origins of the
frames and the scripts its own text loads (`<iframe src>`, `<script src>`), and no
other page does. The other way, one policy for the whole site naming every host any
talk embeds, is simpler and costs nothing more to build, but a script slipped into one
talk file could then load from any host another talk trusts, and a page would permit
far more than it shows. The price of the tighter way: HTML that shows a talk's text on
another page (a site's own list template printing whole bodies, a speaker's bio
in speakers.toml) gets the base policy there, and its frames stay blocked.

The policy never allows inline script (`'unsafe-inline'`): a `<script>` without `src`,
and `onclick=…` handlers, do not run even with `unsafe_html`. Addresses that are not
https (`http:`, `data:`, `javascript:`) are not let through either: an https page
would not load the first, and the others are how an injected payload runs.

`talkpages check` says so (`embed_warnings`), at the element's line: an iframe or a
script shown as text on a site without `unsafe_html` (with the way to keep a video,
`url_video`), and, with it, an inline script or handler that will not run and a frame
or a script from an address the policy blocks; and any raw HTML element a site without
`unsafe_html` shows as text (`escaped_html`, `raw_html`: the importers name them too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic
from .codespans import code_spans
from .frontmatter import FrontMatter
from .model import Site, Talk

# An element that loads something: `<iframe …>`, `<script …>` (their start tags).
_ELEMENT = re.compile(r"<(iframe|frame|script)(?=[\s/>])([^<>]*)>", re.IGNORECASE)
_SRC = re.compile(r"""\ssrc\s{0,20}=\s{0,20}(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""",
                  re.IGNORECASE)
_HANDLER = re.compile(r"<[A-Za-z][\w-]{0,40}\s[^<>]*?\bon[a-z]{3,30}\s{0,20}=")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HOST = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}\.)*[a-z0-9-]{1,63}$")
VIDEO_HOSTS = ("youtube.com", "youtube-nocookie.com", "youtu.be", "vimeo.com")


@dataclass(frozen=True)
class Embedded:
    """A frame or a script of a text."""

    kind: str  # "frame" or "script"
    src: str  # its address as written; "" for an inline script
    line: int  # of the text, from 0


def embedded(text: str) -> list[Embedded]:
    """The frames and scripts of Markdown `text`, outside code, in order."""
    if "<" not in text:
        return []
    text = _code_blanked(text)
    found, line, counted = [], 0, 0
    for start, kind, src in elements(text):
        line += text.count("\n", counted, start)  # lines counted once, in order
        counted = start
        found.append(Embedded(kind, src, line))
    return found


def elements(html: str) -> list[tuple[int, str, str]]:
    """Where each frame and script of `html` starts, its kind ("frame", "script") and
    its `src` as written ("" without one)."""
    found = []
    for match in _ELEMENT.finditer(html):
        source = _SRC.search(match[2])
        src = next((v for v in source.groups() if v is not None), "") if source else ""
        found.append((match.start(), "script" if match[1].lower() == "script" else "frame",
                      src.strip()))
    return found


def origin(src: str) -> str | None:
    """What a page's CSP must allow for `src` to load: its https origin
    (`https://www.youtube.com`), "" for an address of the site itself (a relative
    one), None for one the policy never allows (not https, or no host it can name)."""
    src = src.strip()
    if not src:
        return None
    try:
        parts = urlsplit(src)
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme and not parts.netloc:
        return ""
    if parts.scheme.lower() not in ("", "https") or not parts.hostname:
        return None
    try:
        host = parts.hostname.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    if not _HOST.match(host):
        return None
    return f"https://{host}" + (f":{port}" if port is not None and port != 443 else "")


def embed_warnings(site: Site, talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    """The frames and scripts of a talk's texts that its page will not load."""
    warnings = []
    unsafe = site.config.unsafe_html
    for key, text in (("abstract", talk.abstract), ("summary", talk.summary),
                      (None, talk.body)):
        if "<" not in text:
            continue
        where = f"`{key}`" if key else "the body"
        for item in embedded(text):
            line = (fm.line_of(key) if key else fm.body_line + item.line) or 1
            said = _said(item, where, unsafe)
            if said is not None:
                warnings.append(Diagnostic(talk.source, said[0], line, 1,
                                           severity="warning", hint=said[1]))
        if unsafe:
            handler = _HANDLER.search(_code_blanked(text))
            if handler is not None and not any(not i.src and i.kind == "script"
                                               for i in embedded(text)):
                line = (fm.line_of(key) if key else
                        fm.body_line + text.count("\n", 0, handler.start())) or 1
                warnings.append(Diagnostic(
                    talk.source, f"{where} has an inline event handler (on…=); inline "
                    "scripts do not run: the pages' CSP allows none", line, 1,
                    severity="warning", hint=_INLINE_HINT))
    return warnings


_INLINE_HINT = ("put the script in a file of the talk's folder and load it with "
                "`<script src=\"….js\">`, or from its https address")


def _said(item: Embedded, where: str, unsafe: bool) -> tuple[str, str] | None:
    """The warning for one frame or script, and its hint; None when it loads."""
    tag = "<iframe>" if item.kind == "frame" else "<script>"
    host = _host_of(item.src)
    named = f"{tag} of {host}" if host else (f"inline {tag}" if not item.src else tag)
    named = ("an " if named.startswith(("<i", "i")) else "a ") + named
    if not unsafe:
        action = "played" if item.kind == "frame" else "run"
        if item.kind == "frame" and host.removeprefix("www.").removeprefix("player.") \
                in VIDEO_HOSTS:
            hint = ("make it the talk's recording: `url_video = \"…\"` with the video's "
                    "address, which the page plays with `embed_videos = true` in "
                    "talkpages.toml")
        else:
            hint = ("write it as a Markdown link, or set `unsafe_html = true` in "
                    "talkpages.toml if you trust every author of a talk file")
        return f"{where} has {named}, shown as text, not {action}: the site does " \
               "not set `unsafe_html`", hint
    if not item.src:
        return (f"{where} has an inline <script>; inline scripts do not run: the pages' "
                "CSP allows none"), _INLINE_HINT
    if origin(item.src) is None:
        scheme = item.src.split(":", 1)[0].lower() if ":" in item.src else ""
        why = ("browsers load no http frame or script into an https page, and the "
               "pages' CSP lets none through") if scheme == "http" else (
               "the pages' CSP lets through https addresses and the site's own files "
               "only")
        article = "an" if item.kind == "frame" else "a"
        return f"{where} has {article} {tag} of {item.src[:80]}, which will be blocked: " \
            f"{why}", \
            "use its https address" if scheme == "http" else \
            "load it from an https address or from a file of the talk's folder"
    return None


def _host_of(src: str) -> str:
    try:
        return (urlsplit(src.strip()).hostname or "").lower()
    except ValueError:
        return ""


def _code_blanked(text: str) -> str:
    """`text` with its fenced code blocks and code spans blanked (newlines kept), so
    that an `<iframe>` shown as code is not taken for one."""
    lines = text.split("\n")
    fence = ""
    for index, line in enumerate(lines):
        if fence:
            indent = len(line) - len(line.lstrip(" "))
            if indent <= 3 and line[indent:].rstrip(" \t\r") == fence:
                fence = ""
            lines[index] = ""
        elif (opener := _FENCE.match(line)) and index < len(lines) - 1:
            fence, lines[index] = opener.group(1), ""
    text = "\n".join(lines)
    if "`" not in text:
        return text
    pieces, last = [], 0
    for start, end in code_spans(text):
        pieces += [text[last:start], "\n" * text.count("\n", start, end)]
        last = end
    return "".join(pieces) + text[last:]


# Raw HTML ------------------------------------------------------------------------------

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")  # at the start of a line
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])(?:\s[^<>]*)?/?>|<!--")


def raw_html(text: str) -> tuple[list[str], int]:
    """The HTML elements written in Markdown `text`, outside code (`<iframe>`,
    `<!-- -->`), each once, in order: what a site without unsafe_html shows as text;
    and the line of the first, counted from 0."""
    if "<" not in text:
        return [], 0
    text = _without_fences(text)
    pieces = []
    last = 0
    for start, end in code_spans(text):
        pieces += [text[last:start], "\n" * text.count("\n", start, end)]
        last = end
    text = "".join(pieces) + text[last:]
    found: dict[str, None] = {}  # in order, each once
    first = 0
    for match in _TAG.finditer(text):
        name = f"<{match.group(2).lower()}>" if match.group(2) else "<!-- -->"
        if not found:
            first = text.count("\n", 0, match.start())
        found[name] = None
    return list(found), first


def _without_fences(text: str) -> str:
    """`text` with the lines of its fenced code blocks emptied: from a line of three or
    more backticks or tildes (indented by up to three spaces, with a line after it) to
    a line of the same fence alone, or to the end."""
    out = []
    fence = ""
    position = 0
    while position < len(text):
        newline = text.find("\n", position)
        end = len(text) if newline < 0 else newline
        line = text[position:end]
        if fence:
            indent = len(line) - len(line.lstrip(" "))
            if indent <= 3 and line[indent:].rstrip(" \t") == fence:
                fence = ""
            line = ""
        elif newline >= 0 and (opener := _FENCE.match(line)):
            fence, line = opener.group(1), ""
        out.append(line)
        position = end + 1
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def escaped_html(talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    warnings = []
    for key, text in (("abstract", talk.abstract), ("summary", talk.summary),
                      (None, talk.body)):
        tags, first = raw_html(text)
        if not tags:
            continue
        where = f"`{key}`" if key else "the body"
        line = (fm.line_of(key) if key else fm.body_line + first) or 1
        listed = ", ".join(tags[:4]) + (", …" if len(tags) > 4 else "")
        warnings.append(Diagnostic(
            talk.source, f"{where} has raw HTML ({listed}), which the site shows as text",
            line, 1, severity="warning",
            hint="write it as Markdown, or set `unsafe_html = true` in talkpages.toml if "
                 "you trust every author of a talk file"))
    return warnings
