"""Video embeds for YouTube and Vimeo links, when a site turns them on.

Off by default (`embed_videos = false`): a page then makes no request to a third
party. On, the page still makes none until the visitor asks: it shows a button, and
only a click puts the player in the page, from youtube-nocookie.com or with Vimeo's
`dnt=1`. Without JavaScript the plain link to the video remains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from ..content.model import Talk

_ID = re.compile(r"^[\w-]{6,20}$")


@dataclass(frozen=True)
class Embed:
    provider: str  # "YouTube" or "Vimeo"
    src: str  # the player's address, loaded on click
    url: str  # the video's page


def video_embed(talk: Talk, enabled: bool) -> Embed | None:
    if not enabled:
        return None
    for link in talk.links:
        if link.kind == "video":
            return embed_for(link.url)
    return None


def embed_for(url: str) -> Embed | None:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower().removeprefix("www.").removeprefix("m.")
    path = [p for p in parts.path.split("/") if p]
    if host in ("youtube.com", "youtube-nocookie.com"):
        video = parse_qs(parts.query).get("v", [""])[0]
        if not video and len(path) >= 2 and path[0] in ("embed", "live", "shorts", "v"):
            video = path[1]
        return _youtube(video, url)
    if host == "youtu.be" and path:
        return _youtube(path[0], url)
    if host in ("vimeo.com", "player.vimeo.com"):
        numbers = [p for p in path if p.isdigit()]
        if numbers:
            return Embed("Vimeo", f"https://player.vimeo.com/video/{numbers[0]}?dnt=1&autoplay=1",
                         url)
    return None


def _youtube(video: str, url: str) -> Embed | None:
    if not _ID.match(video):
        return None
    return Embed("YouTube", f"https://www.youtube-nocookie.com/embed/{video}?autoplay=1", url)
