"""The site's own images named in talkpages.toml: its `logo` and its `favicon`.

A path in the site folder, read as the rest of the site is (links.py): relative,
outside hidden folders, never through a link that leads out of the site, a plain file
of bounded size. Its format, its size in pixels and the digest of its bytes are read
here; the digest names the copies made of it, and is part of the config, so pages and
copies are made again when the file changes.

An SVG is published only when it is a passive picture, and its size is read from its
root element (`viewBox`, else `width` and `height` in pixels): svgfiles.svg_size. A
PNG, JPEG, WebP or ICO file is read through before it is published
(imagefiles.examine_bytes): a truncated file, or one whose header claims more pixels
than talkpages decodes, is an error at the setting.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .imagefiles import DAMAGED, MAX_PIXELS, bytes_digest, examine_bytes, recorded
from .links import inside_path, read
from .svgfiles import svg_size

MAX_BYTES = 8 * 1024 * 1024
FORMATS = {  # what each key takes: suffix -> format
    "logo": {".svg": "svg", ".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"},
    "favicon": {".svg": "svg", ".png": "png", ".ico": "ico"},
}


@dataclass(frozen=True)
class SiteImage:
    path: str  # as talkpages.toml names it: "images/logo.svg"
    format: str  # "svg", "png", "jpeg", "webp" or "ico"
    width: float  # in pixels (an SVG's may be fractional)
    height: float
    digest: str  # of the file's bytes
    # what Pillow warned of reading it (a damaged EXIF block…), for the config to report
    warnings: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def vector(self) -> bool:
        return self.format == "svg"


def site_image_path(value: Any) -> str:
    """The config's validator: a relative path with no step out of the folder."""
    if not isinstance(value, str):
        raise ValueError("expected the path of a file in the site folder, such as "
                         "\"images/logo.svg\"")
    name = value.strip()
    if not name:
        return ""  # none
    if "\x00" in name or not inside_path(name):
        raise ValueError(f"{name!r} is not a relative path inside the site (no \"..\", no "
                         "hidden folder)")
    return name


def site_image(site_dir: Path, name: str, key: str) -> tuple[SiteImage | None, str | None]:
    """The image `name` of the site for `key` ("logo" or "favicon"), or why not."""
    kinds = FORMATS[key]
    suffix = Path(name).suffix.lower()
    if suffix not in kinds:
        return None, f"{name!r} is not one of the formats it takes " \
                     f"({', '.join(sorted(set(kinds.values())))})"
    if "\x00" in name or not inside_path(name):  # the validator's rule, for any caller
        return None, f"{name!r} is not a relative path inside the site"
    file = site_dir.joinpath(*name.split("/"))
    try:
        if not file.exists() and not file.is_symlink():
            return None, f"there is no file {name!r} in the site folder"
        data, problem = read(file, site_dir, MAX_BYTES)
    except (OSError, ValueError) as exc:  # a name longer than the system takes
        return None, f"{name!r} cannot be looked for ({getattr(exc, 'strerror', None) or exc})"
    if data is None:
        assert problem is not None
        where = "" if problem.path == file else f" ({problem.path})"
        return None, f"{name!r}{where}: {problem.message}"
    said: tuple[str, ...] = ()
    if kinds[suffix] == "svg":
        size: tuple[float, float] | str = svg_size(data)
    else:
        size, said = _raster_size(data, kinds[suffix])
    if isinstance(size, str):
        return None, f"{name!r}: {size}"
    return SiteImage(name, kinds[suffix], size[0], size[1], bytes_digest(data), said), None


def _raster_size(data: bytes, expected: str,
                 ) -> tuple[tuple[int, int] | str, tuple[str, ...]]:
    """The size of a PNG, JPEG, WebP or ICO file read through (imagefiles.examine_bytes:
    a truncated file, a decompression bomb are errors), or why not; and what Pillow
    warned of."""
    from PIL import Image, UnidentifiedImageError  # only a site with such images pays

    try:
        with recorded(), Image.open(io.BytesIO(data)) as image:
            found = (image.format or "").lower()
    except Image.DecompressionBombError:
        found = expected  # its header read: examine_bytes says what is wrong
    except (*DAMAGED, UnidentifiedImageError):
        found = ""
    if found != expected:
        return f"the file is {found.upper() or 'not an image talkpages can read'}, not " \
               f"{expected.upper()} as its name says", ()
    examined = examine_bytes(data, "")
    if examined.problem or examined.facts is None:
        return examined.problem or "not an image talkpages can read", examined.warnings
    width, height = examined.facts.width, examined.facts.height
    if width * height > MAX_PIXELS:
        return f"the image is {width} x {height} pixels, too large a logo or icon", \
            examined.warnings
    return (width, height), examined.warnings
