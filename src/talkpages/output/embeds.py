"""Players for a talk's recording and slides, loaded only when the visitor asks.

A page makes no request to a third party before a click. Third-party players are off
by default: `embed_videos = true` offers to play YouTube and Vimeo recordings in the
page (from youtube-nocookie.com, or with Vimeo's `dnt=1`), `embed_slides = true` to
show Speaker Deck, SlideShare and Google Slides decks. A PDF of slides in the talk's
own folder is the site's own file: it is offered on every site. Without JavaScript the
plain links remain.

Speaker Deck and SlideShare name a deck's player by an id their pages do not show
(only their "Embed" dialogs do, and a build asks no server): a link to such a player
(`https://speakerdeck.com/player/<id>`, `…/slideshow/embed_code/key/<key>`) is shown
in the page; a link to a deck's page stays a link.

On a site with `unsafe_html`, a talk's page lets through the frames and scripts its own
text loads from https hosts (`talk_origins`): why per page, and what stays blocked, is
in content/embedcheck.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, quote, urlsplit

from ..content.embedcheck import elements, origin
from ..content.model import Link, Talk
from . import markup

_ID = re.compile(r"^[\w-]{6,20}$")
_DECK = re.compile(r"^[0-9a-f]{32}$")
_KEY = re.compile(r"^[\w-]{6,40}$")
_GOOGLE = re.compile(r"^[\w-]{20,100}$")
_HASH = re.compile(r"^[0-9a-f]{6,20}$")
SLIDE_LINKS = ("slides", "pdf")
VIDEO_HOSTS = " https://www.youtube-nocookie.com https://player.vimeo.com"
SLIDE_HOSTS = " https://speakerdeck.com https://www.slideshare.net https://docs.google.com"


@dataclass(frozen=True)
class Embed:
    provider: str  # "YouTube", "Vimeo", "Speaker Deck", …; "" for the site's own PDF
    src: str  # what is loaded on click: a player's address, or the PDF's path
    url: str  # the link it stands for
    kind: str = "frame"  # "frame" (a player) or "pdf" (the site's own file, in a frame)


def first_link(talk: Talk, kind: str) -> Link | None:
    """The talk's first link of `kind` ("video", "slides", …), or None."""
    return next((link for link in talk.links if link.kind == kind), None)


def recording(talk: Talk) -> Link | None:
    """The talk's recording: its first video link."""
    return first_link(talk, "video")


def video_embed(talk: Talk, enabled: bool) -> Embed | None:
    found = recording(talk)
    return embed_for(found.url) if enabled and found is not None else None


def slides_embed(talk: Talk, enabled: bool) -> Embed | None:
    """The slides to show in the page: a PDF of the talk's folder, else (when `enabled`)
    a deck on Speaker Deck, SlideShare or Google Slides."""
    links = [link for link in talk.links if link.kind in SLIDE_LINKS]
    for link in links:
        name = link.url.strip()
        if name.lower().endswith(".pdf") and name in talk.bundle_files:
            address = quote(name, safe="/")  # a file's name may hold "#", "?" or "%"
            return Embed("", address, address, "pdf")
    if enabled:
        for link in links:
            found = deck_for(link.url)
            if found is not None:
                return found
    return None


def _parts(url: str) -> tuple[str, list[str], str] | None:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    host = (parts.hostname or "").lower().removeprefix("www.").removeprefix("m.")
    return host, [p for p in parts.path.split("/") if p], parts.query


def embed_for(url: str) -> Embed | None:
    found = _parts(url)
    if found is None:
        return None
    host, path, query = found
    if host in ("youtube.com", "youtube-nocookie.com"):
        video = parse_qs(query).get("v", [""])[0]
        if not video and len(path) >= 2 and path[0] in ("embed", "live", "shorts", "v"):
            video = path[1]
        return _youtube(video, url)
    if host == "youtu.be" and path:
        return _youtube(path[0], url)
    if host in ("vimeo.com", "player.vimeo.com"):
        numbers = [p for p in path if p.isdigit()]
        if numbers:  # an unlisted video's player needs its hash: vimeo.com/<id>/<hash>
            after = path[path.index(numbers[0]) + 1:]
            unlisted = parse_qs(query).get("h", [""])[0] or (after[0] if after else "")
            hashed = f"&h={unlisted}" if _HASH.match(unlisted) else ""
            return Embed("Vimeo", f"https://player.vimeo.com/video/{numbers[0]}?dnt=1&autoplay=1"
                         f"{hashed}", url)
    return None


def deck_for(url: str) -> Embed | None:
    """The player of a deck's link, when its address names one."""
    found = _parts(url)
    if found is None:
        return None
    host, path, _ = found
    if host == "speakerdeck.com" and len(path) == 2 and path[0] == "player" \
            and _DECK.match(path[1]):
        return Embed("Speaker Deck", f"https://speakerdeck.com/player/{path[1]}", url)
    if host == "slideshare.net" and path[:3] == ["slideshow", "embed_code", "key"] \
            and len(path) == 4 and _KEY.match(path[3]):
        return Embed("SlideShare",
                     f"https://www.slideshare.net/slideshow/embed_code/key/{path[3]}", url)
    if host == "docs.google.com" and path[:2] == ["presentation", "d"] and len(path) >= 3:
        published = path[2] == "e" and len(path) >= 4
        deck = path[3] if published else path[2]
        if _GOOGLE.match(deck):
            return Embed("Google Slides", "https://docs.google.com/presentation/d/"
                         f"{'e/' if published else ''}{deck}/embed?start=false", url)
    return None


def _youtube(video: str, url: str) -> Embed | None:
    if not _ID.match(video):
        return None
    return Embed("YouTube", f"https://www.youtube-nocookie.com/embed/{video}?autoplay=1", url)


def talk_origins(talk: Talk) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The https origins the frames and the scripts of a talk's texts load from, as a
    site with `unsafe_html` shows them (the HTML its page shows, remembered by
    markup.py for the page), each sorted: what its page's CSP adds."""
    frames: set[str] = set()
    scripts: set[str] = set()
    texts = ((talk.abstract, talk.math), (talk.summary, talk.math), (talk.body, talk.math),
             (talk.image.caption if talk.image is not None else "", False))
    for text, math in texts:
        if "<" not in text:
            continue
        for _, kind, src in elements(markup.to_html(text, unsafe=True, math=math)):
            found = origin(src)
            if found:
                (scripts if kind == "script" else frames).add(found)
    return tuple(sorted(frames)), tuple(sorted(scripts))
