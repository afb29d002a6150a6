"""Social cards: the 1200 x 630 image a link to a talk shows when it is shared (Open
Graph's `og:image`, `twitter:card = summary_large_image`): the title, when (date, time
and zone), who speaks, and the event, over the talk's featured image, darkened for
contrast, or over the site's colour.

Text is drawn with the font it is given (a font file's path: the theme finds one,
see theme.system_font); without one, Pillow's own font, which has Latin letters only. A title
wraps at spaces, or between any two characters in scripts written without spaces
(Chinese, Japanese), on at most three lines, in the largest size that fits (64 down to
40 pixels); what does not fit ends in "…". A line holds a few hundred characters at
most, so a text is cut to LINE_CHARS characters a line before it is measured, and a
line is shortened by halves: a 30 KB title took four minutes one character at a time.
A card takes about 6 ms of one core, most of
it FreeType drawing the text and the JPEG's encoding (the README's Performance).
"""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw, ImageFont

from .images import crop_box
from .social import SIZE, Card

MARGIN = 72
TITLE_SIZES = (64, 56, 48, 40)
TITLE_LINES = 3
# More characters than a line can show: 1056 pixels of the narrowest glyphs (a hair
# space, 0.1 em at 34 pixels) are some 310. A text cut here ends in "…" all the same.
LINE_CHARS = 1000
FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont


def draw(card: Card, font: str | None = None, background: Image.Image | None = None,
         focal_point: str = "") -> bytes:
    """The card as JPEG bytes: 2 ms to encode where PNG takes 15 to 40 (a site has a
    card per talk), at a size (40 KB) every site that shows link previews takes."""
    if background is not None:
        box = crop_box(background.size, SIZE[0] / SIZE[1], focal_point, background)
        image = background.convert("RGB").crop(box).resize(SIZE, Image.Resampling.LANCZOS)
        image = Image.blend(image, Image.new("RGB", SIZE, (0, 0, 0)), 0.62)
    else:
        image = Image.new("RGB", SIZE, card.colour)
    pen = ImageDraw.Draw(image)
    width = SIZE[0] - 2 * MARGIN
    small = _font(font, 34)
    y = MARGIN
    if card.event:
        y = _line(pen, MARGIN, y, _fit(pen, card.event, small, width), small, (210, 220, 235))
        y += 28
    title = _cut(card.title, TITLE_LINES * LINE_CHARS)
    for size in TITLE_SIZES:
        title_font = _font(font, size)
        lines = _wrap(pen, title, title_font, width)
        if len(lines) <= TITLE_LINES:
            break
    if len(lines) > TITLE_LINES:
        lines = lines[:TITLE_LINES - 1] + [_fit(pen, " ".join(lines[TITLE_LINES - 1:]),
                                                title_font, width)]
    for text in lines:
        y = _line(pen, MARGIN, y, text, title_font, (255, 255, 255)) + size // 5
    bottom = SIZE[1] - MARGIN
    for text in reversed([t for t in (card.when, card.speakers) if t]):
        bottom -= 46
        _line(pen, MARGIN, bottom, _fit(pen, text, small, width), small, (235, 240, 248))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


@functools.lru_cache(maxsize=16)
def _font(font: str | None, size: int) -> FontType:
    """The font at `font` (a path) at a size, loaded once a process."""
    if font is not None:
        return ImageFont.truetype(font, size)
    return ImageFont.load_default(size)


def _line(pen: ImageDraw.ImageDraw, x: int, y: int, text: str, font: FontType,
          fill: tuple[int, int, int]) -> int:
    """Draw one line; the y of the next."""
    pen.text((x, y), text, font=font, fill=fill)
    return y + _line_height(font) + 8


@functools.lru_cache(maxsize=16)
def _line_height(font: FontType) -> int:
    """The height of a line of the font (of "Ag": a capital and a descender), measured
    once a process: the same for every line of every card."""
    top, bottom = font.getbbox("Ag")[1::2]
    return round(bottom - top)


def _wide(character: str) -> bool:
    """A character of a script written without spaces: a line may break before it."""
    return "\u2e80" <= character <= "\ua4cf" or "\uac00" <= character <= "\ud7a3" \
        or "\uf900" <= character <= "\ufaff" or "\uff00" <= character <= "\uffef"


def _tokens(text: str) -> list[str]:
    """Words with their following space, and wide characters one by one."""
    tokens: list[str] = []
    for character in text:
        if _wide(character) or not tokens or tokens[-1].endswith(" ") or _wide(tokens[-1][-1]):
            tokens.append(character)
        else:
            tokens[-1] += character
    return tokens


def _wrap(pen: ImageDraw.ImageDraw, text: str, font: FontType, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in _tokens(" ".join(text.split())):
        if current and pen.textlength((current + token).rstrip(), font=font) > width:
            lines.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    return lines + [current.rstrip()] if current.strip() else lines


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, and "…" if it had more."""
    return text if len(text) <= limit else text[:limit] + "…"


def _fit(pen: ImageDraw.ImageDraw, text: str, font: FontType, width: int) -> str:
    """The text, cut short with "…" if it is wider than `width`: the longest start of
    it that fits with "…" after it, found in a logarithmic number of measures."""
    cut = len(text) > LINE_CHARS
    text = text[:LINE_CHARS]
    if not cut and pen.textlength(text, font=font) <= width:
        return text
    fits, wide = 0, len(text) + 1  # fits: a length known to fit; wide: one too wide
    while wide - fits > 1:
        middle = (fits + wide) // 2
        if pen.textlength(text[:middle] + "…", font=font) <= width:
            fits = middle
        else:
            wide = middle
    return text[:fits].rstrip() + "…"
