"""Images made for the screen: the bytes of the resized copies pictures.py names, so
that a phone downloads a few hundred KB where the original is a 3 MB photo (Pillow).

- A JPEG is decoded at the smallest scale (1/2, 1/4, 1/8) still larger than the copy
  (`draft`): a 480-pixel copy of a 4,000-pixel photo decodes a sixteenth of it.
- A crop to another aspect ratio keeps what `focal_point` names, as Hugo Academic reads
  it: Center, TopLeft, Top, TopRight, Left, Right, BottomLeft, Bottom, BottomRight, or
  Smart (the window with the most detail, found on a small grey copy).
- The camera's orientation (EXIF) is applied, and no metadata is copied: a photo's
  GPS position and camera serial number are not published.
- The same bytes in give the same bytes out (no dates, no random state), so a build
  is reproducible and a cached image stays valid.
- An image of more than MAX_PIXELS pixels (a decompression bomb in a cloned site), one
  that is not an image, or one truncated or damaged, is refused with why: ImageError,
  which the caller words with the file's path. Pillow is never let to accept a cut
  file (LOAD_TRUNCATED_IMAGES), and its warnings are caught rather than printed: the
  loader reads each image through before it is published and reports them there, at
  the file (imagefiles.examine).
"""

from __future__ import annotations

import io

from PIL import Image, ImageFilter, ImageOps, ImageStat, UnidentifiedImageError

from ..content.imagefiles import DAMAGED, MAX_PIXELS, recorded
from .pictures import Variant

QUALITY = {"webp": 78, "jpeg": 80}
FOCAL_POINTS = {  # where the kept window sits, as fractions of the room left (x, y)
    "center": (0.5, 0.5), "topleft": (0.0, 0.0), "top": (0.5, 0.0),
    "topright": (1.0, 0.0), "left": (0.0, 0.5), "right": (1.0, 0.5),
    "bottomleft": (0.0, 1.0), "bottom": (0.5, 1.0), "bottomright": (1.0, 1.0)}


class ImageError(Exception):
    """An image that cannot be published resized, and why."""


def resize(data: bytes, variant: Variant, aspect: float | None = None,
           focal_point: str = "") -> bytes:
    """The bytes of one copy of the image `data`, or ImageError."""
    return render(open_image(data, variant, aspect), variant, aspect, focal_point)


def open_image(data: bytes, least: Variant | None = None,
               aspect: float | None = None) -> Image.Image:
    """The image of `data`, upright (EXIF orientation applied), in RGB(A), or
    ImageError; a JPEG decoded no larger than `least` (cut to `aspect`) needs."""
    with recorded():  # what Pillow warns of, the loader said at the file (examine)
        try:
            opened = Image.open(io.BytesIO(data))
            if opened.width * opened.height > MAX_PIXELS:
                raise ImageError(f"the image is {opened.width} x {opened.height} pixels, more "
                                 f"than the {MAX_PIXELS // 1_000_000} million talkpages resizes")
            if least is not None and opened.format == "JPEG":
                opened.draft("RGB", _decoded_size(opened, least, aspect))
            opened.load()
            image: Image.Image = ImageOps.exif_transpose(opened)
            if image.mode not in ("RGB", "RGBA"):
                image = image.convert("RGBA" if "A" in image.getbands() or
                                      "transparency" in image.info else "RGB")
        except ImageError:
            raise
        except Image.DecompressionBombError as exc:
            raise ImageError(f"the image is too large to read, perhaps a decompression bomb "
                             f"({exc})") from None
        except (*DAMAGED, UnidentifiedImageError) as exc:
            raise ImageError(f"the image cannot be read ({exc})") from None
    return image


def _decoded_size(image: Image.Image, least: Variant,
                  aspect: float | None) -> tuple[int, int]:
    """The size, as stored (before turning upright), an image must keep so that its cut
    to `aspect` is still as large as the copy `least`."""
    turned = image.getexif().get(0x0112) in (5, 6, 7, 8)
    width, height = (image.height, image.width) if turned else image.size
    if aspect is not None:
        left, top, right, bottom = crop_box((width, height), aspect)
        scale = max(least.width / (right - left), least.height / (bottom - top))
    else:
        scale = max(least.width / width, least.height / height)
    wanted = (max(1, int(width * scale) + 1), max(1, int(height * scale) + 1))
    return (wanted[1], wanted[0]) if turned else wanted


def crop_box(size: tuple[int, int], aspect: float, focal_point: str = "",
             image: Image.Image | None = None) -> tuple[int, int, int, int]:
    """The window of an image of `size` with aspect `aspect` (width / height) that
    `focal_point` keeps; Smart looks at `image` (else the centre is kept)."""
    width, height = size
    crop_w, crop_h = min(width, round(height * aspect)), min(height, round(width / aspect))
    room_x, room_y = width - crop_w, height - crop_h
    point = focal_point.replace("_", "").replace("-", "").lower()
    if point == "smart" and image is not None and (room_x or room_y):
        left, top = _busiest(image, crop_w, crop_h)
    else:
        fx, fy = FOCAL_POINTS.get(point, (0.5, 0.5))
        left, top = round(room_x * fx), round(room_y * fy)
    return left, top, left + crop_w, top + crop_h


def _busiest(image: Image.Image, crop_w: int, crop_h: int) -> tuple[int, int]:
    """The top left corner of the window of this size with the most edges in it: a
    face or a slide rather than a wall or the sky. Looked for on a copy 64 pixels on its
    long side, at 9 positions along the free direction."""
    scale = 64 / max(image.size)
    small = image.convert("L").resize((max(1, round(image.width * scale)),
                                       max(1, round(image.height * scale))))
    edges = small.filter(ImageFilter.FIND_EDGES)  # its frame is all edge: not counted
    edges = ImageOps.expand(edges.crop((1, 1, edges.width - 1, edges.height - 1)), 1, 0)
    room_x, room_y = image.width - crop_w, image.height - crop_h
    best, corner = -1, (room_x // 2, room_y // 2)
    for step in range(9):
        left, top = round(room_x * step / 8), round(room_y * step / 8)
        box = (round(left * scale), round(top * scale), max(round((left + crop_w) * scale),
               round(left * scale) + 1), max(round((top + crop_h) * scale), round(top * scale) + 1))
        score = ImageStat.Stat(edges.crop(box)).sum[0]
        if score > best:
            best, corner = score, (left, top)
    return corner


def render(image: Image.Image, variant: Variant, aspect: float | None = None,
           focal_point: str = "") -> bytes:
    """The bytes of one variant of an image opened by open_image, or ImageError."""
    with recorded():
        try:
            return _encode(image, variant, aspect, focal_point)
        except DAMAGED as exc:  # an encoder's limit (pictures.variants keeps within them)
            raise ImageError(f"cannot make a {variant.width} x {variant.height} "
                             f"{variant.format.upper()} copy ({exc})") from None


def _encode(image: Image.Image, variant: Variant, aspect: float | None,
            focal_point: str) -> bytes:
    if aspect is not None:
        image = image.crop(crop_box(image.size, aspect, focal_point, image))
    if image.size != (variant.width, variant.height):
        image = image.resize((variant.width, variant.height), Image.Resampling.LANCZOS,
                             reducing_gap=3.0)
    if variant.format == "jpeg" and image.mode == "RGBA":  # no transparency in JPEG
        backdrop = Image.new("RGB", image.size, (255, 255, 255))
        backdrop.paste(image, mask=image.getchannel("A"))
        image = backdrop
    out = io.BytesIO()
    if variant.format == "png":  # a logo or an icon: flat colours, sharp edges
        image.save(out, "PNG", optimize=True)
    elif variant.format == "ico":
        image.save(out, "ICO", sizes=[(16, 16), (variant.width, variant.height)])
    elif variant.format == "webp":
        image.save(out, "WEBP", quality=QUALITY["webp"], method=4, exact=False)
    else:
        image.save(out, "JPEG", quality=QUALITY["jpeg"], optimize=True, progressive=True,
                   subsampling="4:2:0")
    return out.getvalue()
