"""The social cards of a speaker's page and of a tag's (social.GroupCard): 1200 x 630,
the site's name, the speaker's name or the tag, the affiliation or the number of
talks, and a speaker's photo cut round beside them.

Drawn as a talk's card is (cards.py): the same margins and sizes, the same fonts for
each script, the same lines, and the same way right to left: a card whose name is
mostly Arabic or Hebrew stands against the right margin, its photo on the right
(first in reading order, as on the left of any other). The
photo is a circle because a face is what people recognise a speaker by, and a circle
keeps the corners of a portrait's background (a wall, a badge's edge) off the card;
it is cut square around its top, as the speaker's page shows it (pictures.face).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from . import fonts
from .cards import MARGIN, SMALL, Voice, _fit, _Lines, _metrics, headline, is_rtl
from .fonts import Face, FontBook
from .images import crop_box
from .social import SIZE, GroupCard

PHOTO = 330  # the photo's diameter, in pixels
GAP = 56  # between the photo and the text
NAME_LINES = 2
SMOOTH = 4  # the circle's mask is drawn this many times larger, then made smaller


def draw(card: GroupCard, book: FontBook | None = None,
         photo: Image.Image | None = None) -> bytes:
    """The card as JPEG bytes (as cards.draw, for the same reasons). `photo`: the
    speaker's, as opened (images.open_image); None draws the text across the card."""
    book = book or fonts.book()
    image = Image.new("RGB", SIZE, card.colour)
    pen = ImageDraw.Draw(image)
    right = is_rtl(card.name)
    width = SIZE[0] - 2 * MARGIN
    x = SIZE[0] - MARGIN if right else MARGIN
    if photo is not None:  # first in reading order: on the left, or on the right
        left = SIZE[0] - MARGIN - PHOTO if right else MARGIN
        square, mask = _round(photo)
        image.paste(square, (left, (SIZE[1] - PHOTO) // 2), mask)
        width -= PHOTO + GAP
        x += -(PHOTO + GAP) if right else PHOTO + GAP
    faces = dict(zip(("name", "line", "site"), book.primaries(card.texts), strict=True))
    lines_of = _Lines(pen, book.face_for("A", faces["name"]) or book.pillow, x, right)
    y = MARGIN
    if card.site:
        voice = Voice.of(book, card.site, faces["site"], SMALL, card.language)
        y = lines_of.line(y, _fit(voice.clean(card.site), voice, width), voice,
                          (210, 220, 235)) + 40
    name = Voice.of(book, card.name, faces["name"], SMALL, card.language).clean(card.name)
    lines, voice, size = headline(book, name, faces["name"], card.language, width, NAME_LINES)
    # the name and the line below it, in the middle of the card, beside the photo's
    # middle (the site's name stays at the top, as a talk's event does)
    y = max(y, (SIZE[1] - _height(lines_of.latin, len(lines), size, bool(card.line))) // 2)
    for text in lines:
        y = lines_of.line(y, text, voice, (255, 255, 255)) + size // 5
    if card.line:
        voice = Voice.of(book, card.line, faces["line"], SMALL, card.language)
        lines_of.line(y + 12, _fit(voice.clean(card.line), voice, width), voice,
                      (235, 240, 248))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def _height(latin: Face, lines: int, size: int, line: bool) -> int:
    """How tall the name (`lines` lines at `size`) and the line below it stand, as
    `draw` sets them: each line its metrics' height and spacing."""
    height = lines * (_metrics(latin, size)[1] + 8 + size // 5)
    return height + (12 + _metrics(latin, SMALL)[1] if line else 0)


def _round(photo: Image.Image) -> tuple[Image.Image, Image.Image]:
    """The photo cut square around its top and made PHOTO wide, and the mask that
    shows a circle of it, its edge smoothed."""
    box = crop_box(photo.size, 1.0, "top")
    square = photo.convert("RGB").crop(box).resize((PHOTO, PHOTO), Image.Resampling.LANCZOS)
    mask = Image.new("L", (PHOTO * SMOOTH, PHOTO * SMOOTH), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, PHOTO * SMOOTH - 1, PHOTO * SMOOTH - 1), fill=255)
    return square, mask.resize((PHOTO, PHOTO), Image.Resampling.LANCZOS)
