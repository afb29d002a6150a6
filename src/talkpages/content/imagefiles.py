"""The image files of a site as the loader sees them: their size in pixels (upright, as
the camera's orientation says) and a digest of their bytes, which names their resized
copies in the media cache (so a fresh clone, whose files all have new times, still
finds them there).

`measure` decodes only the header (Pillow opens lazily); the bytes are read once, for
the digest. A file that is not an image Pillow knows, or is larger than MAX_BYTES, has
no facts: its talk is built, and the image is published as it is.

`examine` reads an image through before it is published, as a browser would: every
frame decoded (a JPEG at an eighth of its size, which still reads all its data; a PNG
checked chunk by chunk too), so that a truncated file is an error at its path whatever
its format, where a lazy open would publish it and show readers half a picture. It
decodes no more than a budget of pixels: a header that claims 100,000 x 100,000 pixels
in a file of a few bytes (a decompression bomb) is an error, not gigabytes of memory.
What Pillow warns of on the way (a damaged EXIF block, an image near its size limit)
is caught and returned as warnings naming the file, never printed by Python's
`warnings` machinery.
"""

from __future__ import annotations

import hashlib
import io
import struct
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic

RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif")
SIDEWAYS = {5, 6, 7, 8}  # EXIF orientations of a picture stored turned by 90 degrees
MAX_BYTES = 64 * 1024 * 1024  # a camera's largest JPEG is a third of this
MAX_PIXELS = 40_000_000  # a frame decoded in full: a 7,700 x 5,200 photo
MAX_DECODED = 400_000_000  # every frame of an animation: a second or two of decoding
# read beyond MAX_PIXELS: a JPEG decoded at an eighth, a PNG's chunks checked undecoded
UNDECODED_BEYOND = ("JPEG", "MPO", "PNG")
# what Pillow raises for a file it knows but cannot read
DAMAGED = (OSError, ValueError, SyntaxError, EOFError, IndexError, struct.error)


@dataclass(frozen=True)
class ImageFile:
    path: str  # as the site names it: "featured.jpg" in a bundle, "speakers/ann.jpg"
    width: int  # in pixels, as shown
    height: int
    digest: str  # of the file's bytes


@dataclass(frozen=True)
class Examined:
    """What reading an image through found: its facts (None: not an image Pillow
    knows, or not even its header reads), why it may not be published (`problem`: a
    truncated or damaged file, too many pixels) and what Pillow warned of."""
    facts: ImageFile | None
    problem: str = ""
    warnings: tuple[str, ...] = ()

    def diagnostics(self, path: Path) -> list[Diagnostic]:
        """The problem and the warnings as diagnostics at the image file `path`."""
        found = [Diagnostic(path, self.problem, hint=HINT)] if self.problem else []
        return found + [Diagnostic(path, said, severity="warning") for said in self.warnings]


HINT = "open the image in an image editor and save it again (smaller, if it is too large)"


def measure(path: Path, name: str) -> ImageFile | None:
    """The facts of the image at `path` (called `name` in the site), from its header, or
    None. A file whose header reads but whose data is damaged still has facts: the copy
    made of it then fails with the reason, at the file."""
    if not path.name.lower().endswith(RASTER_SUFFIXES):
        return None
    from PIL import Image

    data = _read(path)
    if not isinstance(data, bytes):
        return None
    with recorded():
        try:
            with Image.open(io.BytesIO(data)) as image:
                return _facts(name, data, image.size, _turned(image))
        except (*DAMAGED, Image.DecompressionBombError):
            return None


def examine(path: Path, name: str) -> Examined:
    """The image at `path` (called `name` in the site) read through, as the module's
    docstring says; an Examined of no facts and no problem for a file that is not a
    raster image."""
    if not path.name.lower().endswith(RASTER_SUFFIXES):
        return Examined(None)
    data = _read(path)
    if isinstance(data, str):
        return Examined(None, data)
    if data is None:
        return Examined(None, f"the file is larger than the {MAX_BYTES // 2 ** 20} MiB "
                        "talkpages reads of an image")
    return examine_bytes(data, name)


def examine_bytes(data: bytes, name: str) -> Examined:
    """`examine` of an image's bytes, read already."""
    with recorded() as said:
        facts, problem = _read_through(data, name)
    return Examined(facts, problem, tuple(said))


def check_images(folder: Path, files: tuple[str, ...]) -> list[Diagnostic]:
    """Every raster image among a bundle's `files` read through (`examine`): what is
    wrong with each, at its path."""
    found: list[Diagnostic] = []
    for name in files:
        if name.lower().endswith(RASTER_SUFFIXES):
            path = folder / name
            found += examine(path, name).diagnostics(path)
    return found


@contextmanager
def recorded() -> Iterator[list[str]]:
    """Pillow's warnings while the block runs, worded, instead of printed to stderr by
    Python; and Pillow never told to accept a truncated file as whole."""
    from PIL import ImageFile as PillowFile

    PillowFile.LOAD_TRUNCATED_IMAGES = False  # whatever set it: a cut file is an error
    said: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield said
        finally:
            said += dict.fromkeys(_worded(w.message) for w in caught
                                  if "cannot identify" not in str(w.message))


def _worded(message: Warning | str) -> str:
    text = " ".join(str(message).split())
    if type(message).__name__ == "DecompressionBombWarning":
        return f"the image is very large, and could be a decompression bomb ({text})"
    return f"Pillow reading the image: {text}"


def _read(path: Path) -> bytes | str | None:
    """The file's bytes; None when it is larger than MAX_BYTES; else why it cannot be
    read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:
        return f"cannot read the file ({getattr(exc, 'strerror', None) or exc})"
    return None if len(data) > MAX_BYTES else data


def _facts(name: str, data: bytes, size: tuple[int, int], turned: bool) -> ImageFile:
    width, height = size
    return ImageFile(name, *((height, width) if turned else (width, height)),
                     bytes_digest(data))


def _turned(image: Any) -> bool:
    """Is the image stored turned by 90 degrees (EXIF)? A PNG's EXIF block may follow
    its pixels, which are then decoded to find it: not beyond MAX_PIXELS."""
    if image.format == "PNG" and "exif" not in image.info and \
            image.width * image.height > MAX_PIXELS:
        return False
    try:
        return image.getexif().get(0x0112) in SIDEWAYS
    except DAMAGED:
        return False


def _read_through(data: bytes, name: str) -> tuple[ImageFile | None, str]:
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        return None, ""
    except Image.DecompressionBombError as exc:
        return None, f"the image is too large to read, perhaps a decompression bomb ({exc})"
    except DAMAGED as exc:
        return None, f"the image cannot be read ({exc})"
    with image:
        size, problem = image.size, ""
        try:
            frames = 1 if image.format in ("JPEG", "MPO") else getattr(image, "n_frames", 1)
            problem = _budget(size, frames, image.format or "")
            if not problem:
                image = _decode(image, data, frames)
        except DAMAGED as exc:
            problem = f"the image is truncated or damaged ({exc})"
        if problem:  # its header, read again: the decoder's state is unknown
            image = Image.open(io.BytesIO(data))
        return _facts(name, data, size, _turned(image)), problem


def _budget(size: tuple[int, int], frames: int, format: str) -> str:
    """Why an image of this size is not decoded, or ""."""
    width, height = size
    if width * height > MAX_PIXELS and format not in UNDECODED_BEYOND:
        return (f"the image is {width} x {height} pixels, more than the "
                f"{MAX_PIXELS // 1_000_000} million talkpages reads")
    if width * height * frames > MAX_DECODED:
        return (f"the animation has {frames} frames of {width} x {height} pixels, more "
                f"than the {MAX_DECODED // 1_000_000} million pixels talkpages reads")
    return ""


def _decode(image: Any, data: bytes, frames: int) -> Any:
    """Every frame of `image` decoded (a JPEG at its smallest scale; a PNG's chunks
    checked first, and its pixels decoded only within MAX_PIXELS): the image, or an
    exception."""
    from PIL import Image

    if image.format in ("JPEG", "MPO"):
        image.draft("RGB", (max(1, image.width // 8), max(1, image.height // 8)))
    elif image.format == "PNG":
        image.verify()  # every chunk there and whole: a truncated file fails here
        image = Image.open(io.BytesIO(data))
        if image.width * image.height > MAX_PIXELS:
            return image
    for frame in range(frames):
        image.seek(frame)
        image.load()
    return image


def bytes_digest(data: bytes) -> str:
    """The digest of an image file's bytes, which names its copies."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()
