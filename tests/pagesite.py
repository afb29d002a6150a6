"""A fixture site that uses every feature of the pages: several index pages, speakers.toml
(a photo, and initials for those without one),
math, video embeds, a cancelled talk, online and hybrid talks, a featured image, CJK
and accented tags, all-day and multi-day talks, a site served from a sub-path.

Built by the HTML validity, structured data and browser tests alike.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from talkpages.content.loader import LoadOptions

from conftest import NOW, build, talk

BASE_URL = "https://example.org/talks/"
PREFIX = "/talks/"  # the sub-path the browser tests serve it from


def png(width: int, height: int, rgb: tuple[int, int, int] = (11, 92, 173)) -> bytes:
    """A valid PNG of one colour, written by hand (no imaging library needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                             0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


FILES: dict[str, str | bytes] = {
    "talkpages.toml": f'''
title = "Pages & Co · Talks"
description = "A fixture site for the pages."
base_url = "{BASE_URL}"
timezone = "Europe/Berlin"
author = "Fixture Author"
paginate = 3
embed_videos = true
''',
    "speakers.toml": '''
[admin]
name = "Ada Lovelace"
bio = "Writes *programs* for engines."
affiliation = "Analytical Engines Ltd"
pronouns = "she/her"
photo = "speakers/ada.png"
url = "https://ada.example.org/"
links = [{ name = "Mastodon", url = "https://social.example.org/@ada" }]

["Grace Hopper"]
bio = "Compilers."
''',
    "talks/madrid/index.md": talk("Batch scheduling in Madrid", "2019-05-22T14:50:00", '''
        date_end = 2019-05-22T15:25:00
        timezone = "Europe/Madrid"
        authors = ["admin", "Grace Hopper"]
        event = "KubeCon Europe"
        event_url = "https://events.example.org/kubecon"
        location = "Madrid, Spain"
        abstract = "Queues, *fairness* and gangs."
        tags = ["Kubernetes", "Batch Scheduling"]
        url_slides = "slides.pdf"
        url_video = "https://vimeo.com/76979871"
        coordinates = { latitude = 40.4531, longitude = -3.6883 }
        [address]
        street = "Av. de Portugal"
        city = "Madrid"
        postcode = "28011"
        country = "Spain"
        [image]
        caption = "The stage in Madrid"
        alt_text = "A blue stage"
    ''', body="## Notes\n\nSee the slides."),
    "talks/madrid/featured.png": png(64, 36),
    "speakers/ada.png": png(200, 240, (120, 60, 30)),
    "talks/madrid/slides.pdf": b"%PDF-1.4\n",
    "talks/math.md": talk("Math without a CDN", "2019-03-01T10:00:00", '''
        timezone = "Europe/London"
        authors = ["admin"]
        math = true
        location = "London, UK"
        tags = ["Math", "Café"]
    ''', body="Euler: $e^{i\\pi} + 1 = 0$ and\n\n$$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$\n\n"
              "Prices stay prices: $5 and $10. Code stays code: `$x$`."),
    "talks/online.md": talk("An online talk from New York", "2099-06-01T12:00:00", '''
        timezone = "America/New_York"
        authors = ["Grace Hopper"]
        event = "Remote Conf"
        event_url = "https://remote.example.org/"
        location = "Online"
        tags = ["Kubernetes"]
        url_video = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    '''),
    "talks/hybrid.md": talk("A hybrid meetup", "2099-07-01T18:30:00", '''
        timezone = "Asia/Tokyo"
        authors = ["Grace Hopper", "Linus"]
        event = "Tokyo Meetup"
        location = "Tokyo, Japan & online"
        tags = ["云原生"]
        url_video = "https://vimeo.com/76979871"
    '''),
    "talks/cancelled.md": talk("A cancelled talk", "2099-08-01T09:00:00", '''
        timezone = "Europe/Paris"
        status = "cancelled"
        authors = ["Linus"]
        location = "Paris, France"
        tags = ["Kubernetes"]
    '''),
    "talks/summit.md": talk("A three-day summit", "2018-10-01", '''
        date_end = 2018-10-03
        authors = ["admin"]
        event = "Summit"
        location = "Berlin, Germany"
    '''),
    "talks/escape.md": talk('Quotes \\" and </script> & <b>tags</b>',
                            "2017-01-15T09:00:00+09:00", '''
        authors = ["Linus"]
        location = "Shanghai, China"
        abstract = "An abstract with </script><script>alert(1)</script>"
        tags = ["C++"]
    '''),
}


def build_pages_site(site: Path, out: Path) -> Path:
    """Write the fixture site to `site`, build it into `out`; returns `out`."""
    for name, content in FILES.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    return out
