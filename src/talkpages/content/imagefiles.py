"""The image files of a talk's folder, as the loader sees them: their size in pixels
(read from the file's header, upright as the camera's orientation says), and their
stamps, so that a talk read before is read again when its featured image changes.

Only the header is read (Pillow opens lazily): a 3 MB photo costs a few kilobytes of
reading here. A file that is not an image Pillow knows, or is damaged, has no size: its
talk is built, and the image is published as it is.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ..stamps import Stamp, stamp

RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif")
SIDEWAYS = {5, 6, 7, 8}  # EXIF orientations of a picture stored turned by 90 degrees


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) of the image at `path` as it is shown, or None."""
    if not path.name.lower().endswith(RASTER_SUFFIXES):
        return None
    from PIL import Image, UnidentifiedImageError  # only a site with images pays for it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a huge image: refused where it is resized
            with Image.open(path) as image:
                width, height = image.size
                turned = image.getexif().get(0x0112) in SIDEWAYS
    except (OSError, ValueError, SyntaxError, UnidentifiedImageError,
            Image.DecompressionBombError):
        return None
    return (height, width) if turned else (width, height)


def image_stamps(folder: Path, files: tuple[str, ...]) -> tuple[tuple[str, Stamp | None], ...]:
    """The stamps of the image files among a bundle's `files`."""
    return tuple((name, stamp(folder / name)) for name in files
                 if name.lower().endswith(RASTER_SUFFIXES))
