"""Players, maps and widgets a talk's text embeds as HTML, made into what a site without
`unsafe_html` shows (it shows raw HTML as text, so an `<iframe>` would be a line of code).

- A YouTube (youtube-nocookie too) or Vimeo player becomes the talk's recording
  (`url_video`) when it has none, or is the one it has: the page plays it with the
  site's own player (`embed_videos = true`, which a new talkpages.toml then sets);
  another video becomes a link to it.
- A slide deck's player (Google Slides, Speaker Deck, SlideShare) becomes the talk's
  slides (`url_slides`) in the same way, shown in the page with `embed_slides = true`.
- A podcast or sound player (SoundCloud, Spotify and Anchor, Apple Podcasts, Podbean)
  and a map (Google Maps, OpenStreetMap) become a Markdown link to what they show,
  with the frame's `title` for its text when it has one. An OpenStreetMap frame gives
  the talk its `coordinates` too (its marker, else the middle of its box), when the
  talk has none; its "View Larger Map" line goes with it.
- An add-to-calendar widget (add-to-calendar-button, AddEvent: the element, its
  script and style sheet, a button or script that calls it) is left out: the site
  offers its own add-to-calendar links. widgetzones.py reads the time it states first.
- A wrapper that held nothing else (`<div class="video">…</div>`, `<p align="center">`,
  `<center>`) goes with what it held, and a line left empty with it.

Anything else stays as it is; the report lists it with raw HTML, advising
`--unsafe-html`. Code (fenced, indented, inline) is left alone. Each element is read
within MAX_TAG characters and its end tag looked for forward once per kind, so a body
of many unclosed tags costs time linear in its length.
"""

from __future__ import annotations

import functools
import html
import math
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from ...content.codespans import code_spans
from ...output.mathml import outside_code
from .convert import Adapted, Candidate

MAX_TAG = 4000
_START = re.compile(r"<(iframe|script|add-to-calendar-button|div|link|button)(?=[\s/>])"
                    r"([^<>]{0,4000})>", re.IGNORECASE)  # MAX_TAG
_ATTRIBUTE = re.compile(r"""([\w:.-]{1,60})(?:\s{0,20}=\s{0,20}(?:"([^"]*)"|'([^']*)'|"""
                        r"""([^\s"'=<>`]+)))?""")
_WRAPPER = re.compile(r"<(div|p|center|figure|span)(?=[\s>])[^<>]{0,2000}>\s*",
                      re.IGNORECASE)
_OSM_TRAILER = re.compile(r"\s{0,200}<br\s{0,5}/?>\s{0,200}<small>\s{0,200}<a\s[^<>]{0,2000}>"
                          r"[^<]{0,200}</a>\s{0,200}</small>", re.IGNORECASE)
_SPACE = re.compile(r"\s{1,200}")
_VIDEO_ID = re.compile(r"^[\w-]{6,20}$")
_SPOTIFY_ID = re.compile(r"^[A-Za-z0-9]{10,40}$")
_GENERIC_TITLES = {"youtube video player", "vimeo-player", "vimeo video player", "video",
                   "soundcloud", "spotify embed", "map", "google maps", "iframe",
                   "embedded content", "podbean player"}
_WIDGET_WORDS = ("atcb", "addevent", "add-to-calendar-button")


@dataclass(frozen=True)
class Target:
    """What a frame shows, as a link."""

    url: str
    label: str  # the link's text when the frame has no title
    video: str = ""  # a YouTube or Vimeo video's id: the talk's recording
    deck: str = ""  # a deck's id: the talk's slides
    coordinates: tuple[float, float] | None = None  # (latitude, longitude)


@dataclass
class Embeds:
    """The Adjuster: rewrites the body as said above, notes each talk for the report."""

    lines: list[tuple[Path, str]] = field(default_factory=list)  # for the report

    def __call__(self, candidate: Candidate, adapted: Adapted,
                 files: tuple[str, ...]) -> list[str]:
        said: list[bool] = []  # the body is rewritten twice (its text, its bytes): say once

        def rewrite(body: str) -> str:
            notes: list[str] = []
            rewritten = outside_code(body, lambda prose: _prose(prose, adapted.data, notes))
            if not said:
                said.append(True)
                self.lines += [(candidate.path, note) for note in notes]
            return rewritten

        adapted.rewrites.append(rewrite)
        return []


def _prose(prose: str, data: dict[str, Any], notes: list[str]) -> str:
    if "<" not in prose:
        return prose
    spans = list(code_spans(prose))
    starts = [start for start, _ in spans]
    ends = _EndTags(prose)
    out: list[str] = []
    position = 0
    for match in _START.finditer(prose):
        if match.start() < position or _in_code(match.start(), spans, starts):
            continue
        found = _element(match, ends)
        if found is None:
            continue
        end, replacement, note = found(data)
        start, end = _unwrapped(prose, position, match.start(), end)
        if not replacement:  # a line left empty goes with it
            start, end = _whole_lines(prose, position, start, end)
        out += [prose[position:start], replacement]
        position = end
        notes.append(note)
    return "".join(out) + prose[position:] if out else prose


_BLANK_LINE = re.compile(r"[ \t]{0,100}\r?\n")
_LINE_END = re.compile(r"[ \t]{0,100}(?:\r?\n|\Z)")


def _whole_lines(prose: str, position: int, start: int, end: int) -> tuple[int, int]:
    """`start`, `end` widened over their lines when nothing else stands on them (and
    the line began after `position`, where the last replacement ended)."""
    newline = prose.rfind("\n", position, start)
    line_start = newline + 1 if newline >= 0 else (
        position if position == 0 or prose[position - 1] == "\n" else -1)
    after = _LINE_END.match(prose, end)
    if line_start < 0 or after is None or prose[line_start:start].strip():
        return start, end
    return line_start, _blank_after(prose, line_start, after.end())


def _blank_after(prose: str, line_start: int, line_end: int) -> int:
    """`line_end`, past the blank line after it when one stands before `line_start` too
    (lines taken out of a paragraph of their own leave one blank line, not two)."""
    before = prose[prose.rfind("\n", 0, line_start - 1) + 1:line_start] if line_start else ""
    blank = _BLANK_LINE.match(prose, line_end)
    return blank.end() if blank is not None and not before.strip() else line_end


def _in_code(position: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    index = bisect_right(starts, position) - 1
    return index >= 0 and spans[index][0] <= position < spans[index][1]


class _EndTags:
    """The next `</name>` after a position, for positions that only grow: each kind is
    looked for forward from where the last search of it started, at most once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, tuple[int, int, int]] = {}  # name -> from, start, end

    def after(self, name: str, position: int) -> tuple[int, int] | None:
        known = self.found.get(name)
        if known is None or position < known[0] or (known[1] >= 0 and position > known[1]):
            match = _end_tag(name).search(self.text, position)
            known = (position, *(match.span() if match else (-1, -1)))
            self.found[name] = known
        return (known[1], known[2]) if known[1] >= 0 else None


@functools.lru_cache(maxsize=16)
def _end_tag(name: str) -> re.Pattern[str]:
    return re.compile(rf"</{name}\s{{0,20}}>", re.IGNORECASE)


Replace = Callable[[dict[str, Any]], tuple[int, str, str]]  # -> end, replacement, note


def _element(match: re.Match[str], ends: _EndTags) -> Replace | None:
    """What to do with the element that starts at `match`, or None to leave it."""
    name = match[1].lower()
    attributes = _attributes(match[2])
    closed = ends.after(name, match.end()) if name != "link" else None
    if name == "iframe" and closed is not None \
            and match.string.find("<", match.end(), closed[0]) >= 0:
        closed = None  # not closed: that end is another's
    end = closed[1] if closed is not None else match.end()
    inner = match.string[match.end():min(closed[0], match.end() + MAX_TAG)] \
        if closed is not None and name == "script" else ""  # an inline script's start
    if name == "iframe":
        src = attributes.get("src") or attributes.get("data-src") or ""
        target = frame_target(src)
        if target is None:
            return None
        title = " ".join(attributes.get("title", "").split())
        if target.coordinates is not None:  # OpenStreetMap's "View Larger Map" line
            trailer = _OSM_TRAILER.match(match.string, end)
            end = trailer.end() if trailer is not None else end
        return lambda data: (end, *_frame(target, title, data))
    widget = _widget(name, attributes, inner)
    if widget is None:
        return None
    return lambda data: (end, "", f"{widget} left out: the site offers its own "
                         "add-to-calendar links")


def _attributes(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(text):
        value = next((v for v in match.groups()[1:] if v is not None), "")
        found.setdefault(match[1].lower(), html.unescape(value).strip())
    return found


def _widget(name: str, attributes: dict[str, str], inner: str) -> str | None:
    """The add-to-calendar widget an element is part of, named, or None."""
    if name == "add-to-calendar-button":
        return "an add-to-calendar-button widget"
    said = " ".join(attributes.values()).lower()
    classes = attributes.get("class", "").lower().split()
    if name == "div" and ("addeventatc" in classes or "atcb" in classes):
        return "an AddEvent widget" if "addeventatc" in classes else \
            "an add-to-calendar-button widget"
    if name == "script" and ("src" in attributes and any(w in said for w in _WIDGET_WORDS)
                             or "src" not in attributes and any(
                                 w in inner.lower() for w in ("atcb_action", "addeventatc"))):
        return "the script of an add-to-calendar widget"
    if name == "link" and any(w in attributes.get("href", "").lower() for w in _WIDGET_WORDS):
        return "the style sheet of an add-to-calendar widget"
    if name == "button" and any(w in said for w in _WIDGET_WORDS):
        return "the button of an add-to-calendar widget"
    return None


def _frame(target: Target, title: str, data: dict[str, Any]) -> tuple[str, str]:
    """The replacement of a frame, and the note of it; `data` gets what it gives."""
    host = urlsplit(target.url).hostname or ""
    if target.video or target.deck:
        field_name = "url_video" if target.video else "url_slides"
        key = next((k for k in data if k.lower() == field_name), field_name)
        current = data.get(key)
        if current in (None, ""):
            data[key] = target.url
            return "", f"the <iframe> of {host} -> {field_name}"
        if isinstance(current, str) and (target.video or target.deck) in current:
            what = "recording" if target.video else "slides"
            return "", f"the <iframe> of {host}, the {what} it has -> {field_name}"
    text = title if title and title.lower() not in _GENERIC_TITLES else target.label
    text = text.removeprefix("Spotify Embed: ")
    note = f"the <iframe> of {host} -> a link to {target.url}"
    if target.coordinates is not None and not any(k.lower() == "coordinates" for k in data):
        latitude, longitude = target.coordinates
        data["coordinates"] = {"latitude": latitude, "longitude": longitude}
        note += f", and coordinates = {{latitude = {latitude}, longitude = {longitude}}}"
    return f"[{_link_text(text)}]({_destination(target.url)})", note


def _link_text(text: str) -> str:
    return re.sub(r"([\\\[\]`*_<>])", r"\\\1", text)


def _destination(url: str) -> str:
    return quote(url, safe="/:?#[]@!$&'*+,;=%~-._")  # what would end a link is encoded


def frame_target(src: str) -> Target | None:
    """What a frame of `src` shows, when talkpages knows the player or map."""
    try:
        parts = urlsplit(html.unescape(src.strip()))
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https", ""):
        return None
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = [p for p in parts.path.split("/") if p]
    query = parse_qs(parts.query)
    one = {key: values[0] for key, values in query.items()}
    for read in _READERS:
        found = read(host, path, one, parts.query)
        if found is not None:
            return found
    return None


def _youtube(host: str, path: list[str], one: dict[str, str], _: str) -> Target | None:
    if host not in ("youtube.com", "youtube-nocookie.com") or path[:1] != ["embed"] \
            or len(path) < 2:
        return None
    if path[1] == "videoseries" and one.get("list"):
        return Target(f"https://www.youtube.com/playlist?list={quote(one['list'])}", "Videos")
    if not _VIDEO_ID.match(path[1]):
        return None
    return Target(f"https://www.youtube.com/watch?v={path[1]}", "Video", video=path[1])


def _vimeo(host: str, path: list[str], one: dict[str, str], _: str) -> Target | None:
    if host != "player.vimeo.com" or path[:1] != ["video"] or len(path) < 2 \
            or not path[1].isdigit():
        return None
    private = one.get("h", "")
    suffix = f"/{private}" if re.fullmatch(r"[0-9a-f]{6,20}", private) else ""
    return Target(f"https://vimeo.com/{path[1]}{suffix}", "Video", video=path[1])


def _sound(host: str, path: list[str], one: dict[str, str], raw: str) -> Target | None:
    if host == "w.soundcloud.com" and path[:1] == ["player"]:
        track = unquote(one.get("url", ""))
        page = urlsplit(track) if track.startswith(("http://", "https://")) else None
        if page is not None and (page.hostname or "").removeprefix("www.") == "soundcloud.com":
            return Target(track, "Listen on SoundCloud")
        return Target(f"https://w.soundcloud.com/player/?{raw}", "Listen on SoundCloud")
    if host == "open.spotify.com" and len(path) >= 3 and path[0] in ("embed", "embed-podcast") \
            and path[1] in ("episode", "show", "track", "album", "playlist") \
            and _SPOTIFY_ID.match(path[2]):
        return Target(f"https://open.spotify.com/{path[1]}/{path[2]}", "Listen on Spotify")
    if host in ("anchor.fm", "podcasters.spotify.com") and "embed" in path:
        rest = [p for p in path if p != "embed"]
        return Target(f"https://{host}/{'/'.join(quote(p) for p in rest)}", "Listen to it")
    if host == "embed.podcasts.apple.com" and path:
        episode = f"?i={quote(one['i'])}" if one.get("i") else ""
        return Target(f"https://podcasts.apple.com/{'/'.join(quote(p) for p in path)}{episode}",
                      "Listen on Apple Podcasts")
    if host == "podbean.com" and path[:1] in (["player-v2"], ["media"]):
        if path[0] == "player-v2" and one.get("i"):
            return Target(f"https://www.podbean.com/player-v2/?i={quote(one['i'])}",
                          "Listen on Podbean")
        if path[:2] == ["media", "player"] and len(path) >= 3:
            return Target(f"https://www.podbean.com/media/player/{quote(path[2])}",
                          "Listen on Podbean")
    return None


def _google_map(host: str, path: list[str], one: dict[str, str], raw: str) -> Target | None:
    if host not in ("google.com", "maps.google.com") or path[:1] != ["maps"]:
        return None
    search = "https://www.google.com/maps/search/?api=1&query="
    if path[1:2] == ["embed"] and one.get("q"):  # the Embed API's: its key is not carried
        return Target(search + quote(one["q"]), "Map")
    if path[1:2] == ["embed"] and one.get("pb"):
        centre = re.search(r"!2d(-?\d{1,3}(?:\.\d{1,15})?)!3d(-?\d{1,2}(?:\.\d{1,15})?)",
                           one["pb"])
        if centre is not None:
            return Target(search + f"{centre[2]}%2C{centre[1]}", "Map")
        return Target(f"https://www.google.com/maps/embed?pb={quote(one['pb'], safe='!:')}",
                      "Map")
    if one.get("output") == "embed" and one.get("q"):
        return Target(search + quote(one["q"]), "Map")
    return None


def _osm(host: str, path: list[str], one: dict[str, str], _: str) -> Target | None:
    if host != "openstreetmap.org" or path != ["export", "embed.html"]:
        return None
    try:
        west, south, east, north = (float(v) for v in one.get("bbox", "").split(","))
    except ValueError:
        return None
    if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90):
        return None
    latitude, longitude = (south + north) / 2, (west + east) / 2
    marker = one.get("marker", "").split(",")
    try:
        if len(marker) == 2:
            latitude, longitude = float(marker[0]), float(marker[1])
    except ValueError:
        pass
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        return None
    latitude, longitude = round(latitude, 6), round(longitude, 6)
    zoom = min(19, max(1, round(math.log2(600 / max(east - west, 1e-6)))))
    return Target(f"https://www.openstreetmap.org/?mlat={latitude}&mlon={longitude}"
                  f"#map={zoom}/{latitude}/{longitude}", "Map",
                  coordinates=(latitude, longitude))


def _deck(host: str, path: list[str], one: dict[str, str], _: str) -> Target | None:
    if host == "docs.google.com" and path[:2] == ["presentation", "d"] and len(path) >= 3:
        published = path[2] == "e" and len(path) >= 4
        deck = path[3] if published else path[2]
        if re.fullmatch(r"[\w-]{20,100}", deck):
            return Target(f"https://docs.google.com/presentation/d/"
                          f"{'e/' + deck + '/pub' if published else deck + '/edit'}",
                          "Slides", deck=deck)
    if host == "speakerdeck.com" and len(path) == 2 and path[0] == "player" \
            and re.fullmatch(r"[0-9a-f]{32}", path[1]):
        return Target(f"https://speakerdeck.com/player/{path[1]}", "Slides", deck=path[1])
    if host == "slideshare.net" and path[:3] == ["slideshow", "embed_code", "key"] \
            and len(path) == 4 and re.fullmatch(r"[\w-]{6,40}", path[3]):
        return Target(f"https://www.slideshare.net/slideshow/embed_code/key/{path[3]}",
                      "Slides", deck=path[3])
    return None


_READERS = (_youtube, _vimeo, _deck, _sound, _google_map, _osm)


def _unwrapped(prose: str, position: int, start: int, end: int) -> tuple[int, int]:
    """`start`, `end` widened over wrappers that hold nothing else (three at most), that
    start after `position`, where the last replacement ended."""
    for _ in range(3):
        opening = prose.rfind("<", position, start)
        wrapper = _WRAPPER.fullmatch(prose, opening, start) if opening >= 0 else None
        if wrapper is None:
            break
        closing = _SPACE.match(prose, end)
        closing = _end_tag(wrapper[1].lower()).match(prose, closing.end() if closing else end)
        if closing is None:
            break
        start, end = opening, closing.end()
    return start, end
