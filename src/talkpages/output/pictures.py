"""What an image is published as: resized copies (images.py makes their bytes), and
what a page's <picture> says of them. No pixels here: pages are rendered without
Pillow, from the sizes the loader measured.

- A talk's featured image: FEATURED_WIDTHS, as it is framed (the talk page's column is
  42rem wide: 672 CSS pixels, 1344 device pixels on a phone held sideways).
- Its thumbnail in lists: THUMBNAIL_WIDTHS, cut to 3:2 where `focal_point` says.
- A speaker's photo: FACE_WIDTHS, cut square from the top (a portrait keeps the head).
- Each width in WebP and in JPEG for the few browsers without WebP; never wider than
  the original (an image narrower than the smallest width is published at its own),
  nor taller than WebP allows (a narrower copy then: `variants`).

Files are named after the original and their size (`featured-960.webp`,
`featured-320x213.jpg`), next to where the original would be; a speaker's photo goes
to the speaker's folder (`speakers/ann-lee/photo-256.webp`). The original is published
only when the talk links it (`published_files`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import quote

from ..content.imagefiles import ImageFile
from ..content.model import Talk

FEATURED_WIDTHS = (480, 960, 1440)
THUMBNAIL_WIDTHS = (160, 320)
FACE_WIDTHS = (128, 256, 512)
FORMATS = ("webp", "jpeg")
MAX_SIDE = 16_383  # pixels: the widest and tallest image WebP holds
SUFFIX = {"webp": "webp", "jpeg": "jpg"}
RESIZED = (".jpg", ".jpeg", ".png", ".webp")  # an animated GIF, an AVIF: published as is


@dataclass(frozen=True)
class Variant:
    width: int
    height: int
    format: str  # "webp" or "jpeg"


@dataclass(frozen=True)
class Copy:
    path: str  # from the site root
    variant: Variant


@dataclass(frozen=True)
class Picture:
    """An image as resized copies: the original's path from the site root and digest,
    how it is cut (`aspect`: width / height; None: as it is) and the copies."""
    source: str
    digest: str
    aspect: float | None
    focal_point: str
    copies: tuple[Copy, ...]

    @property
    def largest(self) -> Copy:
        """The widest JPEG: the `src` of browsers that know no srcset, and link previews."""
        return [c for c in self.copies if c.variant.format == "jpeg"][-1]

    def srcset(self, format: str, base: str) -> str:
        """`a-480.webp 480w, a-960.webp 960w` with each path after `base`."""
        return ", ".join(f"{base}{quote(c.path)} {c.variant.width}w" for c in self.copies
                         if c.variant.format == format)


@dataclass(frozen=True)
class SharedImage:
    """The one image that stands for a talk where a page cannot choose a size: link
    previews (Open Graph), JSON-LD and talks.json. `href`: from the site root, quoted;
    width and height 0 when not known."""
    href: str
    width: int
    height: int


def shared(talk: Talk) -> SharedImage | None:
    """The largest JPEG copy of a talk's featured image, or the original when it is
    published as it is."""
    image = talk.image
    if image is None or not image.file:
        return None
    picture = featured(talk)
    if picture is None:
        return SharedImage(quote(talk.url + image.file), image.width, image.height)
    largest = picture.largest
    return SharedImage(quote(largest.path), largest.variant.width, largest.variant.height)


def featured(talk: Talk) -> Picture | None:
    """The copies of a talk's featured image, or None (no image, or one published as it
    is: not a format that is resized, or not read by the loader)."""
    image = talk.image
    if image is None or not image.file or not resizable(image.file, image.digest):
        return None
    return _picture(talk.url, image.file, (image.width, image.height), image.digest,
                    FEATURED_WIDTHS, None, image.focal_point, "-{w}")


def thumbnail(talk: Talk) -> Picture | None:
    image = talk.image
    if image is None or not image.file or not resizable(image.file, image.digest):
        return None
    return _picture(talk.url, image.file, (image.width, image.height), image.digest,
                    THUMBNAIL_WIDTHS, 3 / 2, image.focal_point, "-{w}x{h}")


def face(photo: ImageFile, folder: str) -> Picture:
    """A speaker's photo, cut square, published in the speaker's `folder`."""
    return _picture(folder, "photo", (photo.width, photo.height), photo.digest, FACE_WIDTHS,
                    1.0, "top", "-{w}", source=photo.path)


def resizable(name: str, digest: str) -> bool:
    return bool(digest) and name.lower().endswith(RESIZED)


def published_files(talk: Talk) -> tuple[str, ...]:
    """The files of a talk's folder that are published as they are: all but a featured
    image that is resized, unless the talk links it (its body or a link names it)."""
    file = talk.image.file if talk.image is not None else None
    if file is None or featured(talk) is None or _linked(talk, file):
        return talk.bundle_files
    return tuple(name for name in talk.bundle_files if name != file)


def _linked(talk: Talk, name: str) -> bool:
    """Does the talk link the file `name` of its folder (`](featured.jpg)`, `src=`…)?"""
    pattern = re.compile(r"(?<![\w./-])(?:\./)?" + re.escape(name) + r"(?![\w.-])")
    return bool(pattern.search(talk.body)) or any(
        link.url.removeprefix("./") == name for link in talk.links)


def _picture(folder: str, file: str, size: tuple[int, int], digest: str,
             widths: tuple[int, ...], aspect: float | None, focal_point: str,
             naming: str, source: str = "") -> Picture:
    stem = posixpath.splitext(file)[0]
    copies = tuple(Copy(f"{folder}{stem}{naming.format(w=v.width, h=v.height)}."
                        f"{SUFFIX[v.format]}", v) for v in variants(size, aspect, widths))
    return Picture(source or f"{folder}{file}", digest, aspect, focal_point, copies)


def variants(size: tuple[int, int], aspect: float | None = None,
             widths: tuple[int, ...] = FEATURED_WIDTHS) -> list[Variant]:
    """What an image of `size` is published as: each width up to its own (or its own
    when it is narrower than all), in each format; `aspect`: width / height wanted.

    No copy is taller (or wider) than MAX_SIDE, the most WebP can hold: a copy of a
    very tall image (a 1080 x 20000 screenshot of a whole web page) is made narrower
    instead, so that it fits whole. Not cut: the reader is shown all the author put in
    the picture, as Hugo shows an image it does not resize. Not refused: one odd image
    does not stop a site's build, and the page looks as it would with a smaller one.
    The JPEG beside it has the same size, so each width's two formats stay a pair."""
    width, height = size
    ratio = aspect or width / height
    fitting = sorted({w for w in widths if w <= width} or {width})
    if aspect is not None:  # a crop can be no wider than the window that fits
        window = min(width, round(height * aspect))
        fitting = sorted({min(w, window) for w in fitting})
    widest = min(MAX_SIDE, max(1, int(MAX_SIDE * ratio)))  # its height then fits too
    fitting = sorted({min(w, widest) for w in fitting})
    return [Variant(w, min(MAX_SIDE, max(1, round(w / ratio))), fmt)
            for w in fitting for fmt in FORMATS]
