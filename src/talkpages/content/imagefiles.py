"""The image files of a site as the loader sees them: their size in pixels (upright, as
the camera's orientation says) and a digest of their bytes, which names their resized
copies in the build's cache (so a fresh clone, whose files all have new times, still
finds them there); and their stamps, so that a talk read before is read again when its
featured image changes.

Only the header is decoded (Pillow opens lazily); the bytes are read once, for the
digest. A file that is not an image Pillow knows, is damaged, or is larger than
MAX_BYTES has no facts: its talk is built, and the image is published as it is.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass
from pathlib import Path

from ..stamps import Stamp, stamp

RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif")
SIDEWAYS = {5, 6, 7, 8}  # EXIF orientations of a picture stored turned by 90 degrees
MAX_BYTES = 64 * 1024 * 1024  # a camera's largest JPEG is a third of this


@dataclass(frozen=True)
class ImageFile:
    path: str  # as the site names it: "featured.jpg" in a bundle, "speakers/ann.jpg"
    width: int  # in pixels, as shown
    height: int
    digest: str  # of the file's bytes


def measure(path: Path, name: str) -> ImageFile | None:
    """The facts of the image at `path` (called `name` in the site), or None."""
    if not path.name.lower().endswith(RASTER_SUFFIXES):
        return None
    from PIL import Image, UnidentifiedImageError  # only a site with images pays for it

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a huge image: refused where it is resized
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                turned = image.getexif().get(0x0112) in SIDEWAYS
    except (OSError, ValueError, SyntaxError, UnidentifiedImageError,
            Image.DecompressionBombError):
        return None
    if turned:
        width, height = height, width
    return ImageFile(name, width, height, bytes_digest(data))


def bytes_digest(data: bytes) -> str:
    """The digest of an image file's bytes, which names its copies."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def image_stamps(folder: Path, files: tuple[str, ...]) -> tuple[tuple[str, Stamp | None], ...]:
    """The stamps of the image files among a bundle's `files`."""
    return tuple((name, stamp(folder / name)) for name in files
                 if name.lower().endswith(RASTER_SUFFIXES))
