"""Social cards: the 1200 x 630 image a link to a talk shows when it is shared (Open
Graph's `og:image`, `twitter:card = summary_large_image`): the title, when (date, time
and zone), who speaks, and the event, over the talk's featured image, darkened for
contrast, or over the site's colour.

Text is drawn in the fonts of this machine that have its letters (fonts.py: the title's
script chooses the card's font, a character it lacks takes one that has it), shaped by
libraqm where Pillow has it: Arabic joined, Devanagari's conjuncts, Chinese and Japanese
letters in the forms of the card's language. A card runs the way its title does: when
most of the title's letters are of a right-to-left script (Arabic, Hebrew), every line
stands against the right margin, as it would on a page in that script. A line in one
font is laid out by libraqm whole; a line in several (a Latin word in an Arabic title)
in pieces of one font and one direction, put in the order the Unicode bidirectional
algorithm gives them (`_visual`).

A title wraps at spaces, or between any two characters in scripts written without
spaces (Chinese, Japanese), and a word wider than the card between two letters, on at
most three lines, in the largest size that fits (64 down to 40 pixels); what does not
fit ends in "…". A line holds a few hundred characters at most, so a text is cut to
LINE_CHARS characters a line before it is measured, and a line is shortened by halves:
a 30 KB title took four minutes one character at a time. A card takes about 6 ms of one
core, most of it FreeType drawing the text and the JPEG's encoding
(docs/performance.md).
"""

from __future__ import annotations

import functools
import io
import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from . import fonts
from .fonts import Face, FontBook
from .images import crop_box
from .social import SIZE, Card

MARGIN = 72
TITLE_SIZES = (64, 56, 48, 40)
SMALL = 34  # the event, the time, the speakers
TITLE_LINES = 3
# More characters than a line can show: 1056 pixels of the narrowest glyphs (a hair
# space, 0.1 em at 34 pixels) are some 310. A text cut here ends in "…" all the same.
LINE_CHARS = 1000
FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont
Piece = tuple[str, Face, bool]  # text, its face, and whether it runs right to left


def draw(card: Card, book: FontBook | None = None, background: Image.Image | None = None,
         focal_point: str = "") -> bytes:
    """The card as JPEG bytes: 2 ms to encode where PNG takes 15 to 40 (a site has a
    card per talk), at a size (40 KB) every site that shows link previews takes.
    `book`: the fonts to draw with (this machine's by default)."""
    book = book or fonts.book()
    if background is not None:
        box = crop_box(background.size, SIZE[0] / SIZE[1], focal_point, background)
        image = background.convert("RGB").crop(box).resize(SIZE, Image.Resampling.LANCZOS)
        image = Image.blend(image, Image.new("RGB", SIZE, (0, 0, 0)), 0.62)
    else:
        image = Image.new("RGB", SIZE, card.colour)
    pen = ImageDraw.Draw(image)
    width = SIZE[0] - 2 * MARGIN
    faces = dict(zip(("title", "event", "when", "speakers"), book.primaries(card.texts),
                     strict=True))
    right = is_rtl(card.title)
    x = SIZE[0] - MARGIN if right else MARGIN
    lines_of = _Lines(pen, book.face_for("A", faces["title"]) or book.pillow, x, right)
    y = MARGIN
    if card.event:
        voice = Voice.of(book, card.event, faces["event"], SMALL, card.language)
        y = lines_of.line(y, _fit(voice.clean(card.event), voice, width), voice,
                          (210, 220, 235)) + 28
    title = Voice.of(book, card.title, faces["title"], SMALL, card.language).clean(
        _cut(card.title, TITLE_LINES * LINE_CHARS))
    lines, voice, size = headline(book, title, faces["title"], card.language, width,
                                  TITLE_LINES)
    for text in lines:
        y = lines_of.line(y, text, voice, (255, 255, 255)) + size // 5
    bottom = SIZE[1] - MARGIN
    for text, face in reversed([(card.when, faces["when"]),
                                (card.speakers, faces["speakers"])]):
        if text:
            bottom -= 46
            voice = Voice.of(book, text, face, SMALL, card.language)
            lines_of.line(bottom, _fit(voice.clean(text), voice, width), voice,
                          (235, 240, 248))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


@dataclass(frozen=True)
class Voice:
    """How one text of a card is set: in a face and a size, a direction, a language."""
    book: FontBook
    face: Face
    size: int
    rtl: bool
    language: str | None

    @classmethod
    def of(cls, book: FontBook, text: str, face: Face, size: int, declared: str) -> Voice:
        return cls(book, face, size, is_rtl(text), _language(text, declared))

    def clean(self, text: str) -> str:
        """The text without what no font here can draw (fonts.py), spaces made one."""
        if not (text.isascii() and self.face.has_ascii):
            text = "".join(run for run, _ in self.book.runs(text, self.face))
        return " ".join(text.split())

    def pieces(self, text: str) -> list[Piece]:
        """The text in pieces of one face and one direction each, left to right."""
        runs = self.book.runs(text, self.face)
        if len(runs) == 1 or not _raqm():
            return [(run, face, self.rtl) for run, face in runs]
        return _visual(runs, self.rtl)

    def length(self, text: str) -> float:
        return sum(self._length(piece, face, rtl) for piece, face, rtl in self.pieces(text))

    def draw(self, pen: ImageDraw.ImageDraw, x: float, baseline: float, text: str,
             fill: tuple[int, int, int], right: bool) -> None:
        """Draw a line on `baseline` from `x`, or ending at `x` (`right`)."""
        pieces = [(piece, face, rtl, self._length(piece, face, rtl))
                  for piece, face, rtl in self.pieces(text)]
        if right:
            x -= sum(length for *_, length in pieces)
        for piece, face, rtl, length in pieces:
            font = _font(face, self.size)
            direction, language = self._layout(font, rtl)
            pen.text((x, baseline), piece, font=font, fill=fill, anchor="ls",
                     direction=direction, language=language)
            x += length

    def _length(self, piece: str, face: Face, rtl: bool) -> float:
        font = _font(face, self.size)
        direction, language = self._layout(font, rtl)
        return font.getlength(piece, direction=direction, language=language)

    def _layout(self, font: FontType, rtl: bool) -> tuple[str | None, str | None]:
        """Which way and in which language libraqm lays a piece out; the basic layout
        (Pillow's own font has no other) takes neither."""
        if getattr(font, "layout_engine", None) != ImageFont.Layout.RAQM:
            return None, None
        return "rtl" if rtl else "ltr", self.language


@dataclass(frozen=True)
class _Lines:
    """Where lines go: against the left margin or the right one, each a line of the
    card's Latin face below the last (one spacing for every script of a card)."""
    pen: ImageDraw.ImageDraw
    latin: Face
    x: int
    right: bool

    def line(self, y: int, text: str, voice: Voice, fill: tuple[int, int, int]) -> int:
        """Draw one line; the y of the next."""
        ascent, height = _metrics(self.latin, voice.size)
        voice.draw(self.pen, self.x, y + ascent, text, fill, self.right)
        return y + height + 8


@functools.lru_cache(maxsize=1)
def _raqm() -> bool:
    return fonts.layout() != "basic"


@functools.lru_cache(maxsize=64)
def _font(face: Face, size: int) -> FontType:
    """A face at a size, loaded once a process: from its file's path, which FreeType
    reads as it draws (a font given as bytes is copied whole for every size: 100 MB in
    every process for a CJK font in five sizes); "" is Pillow's own font."""
    if not face.path:
        return ImageFont.load_default(size)
    layout = ImageFont.Layout.RAQM if _raqm() else ImageFont.Layout.BASIC
    return ImageFont.truetype(face.path, size, layout_engine=layout)


@functools.lru_cache(maxsize=16)
def _metrics(face: Face, size: int) -> tuple[int, int]:
    """The ascent of a face at a size, and the height of a line of it (of "Ag": a
    capital and a descender), measured once a process: the same for every card."""
    font = _font(face, size)
    top, bottom = font.getbbox("Ag")[1::2]
    ascent = font.getmetrics()[0] if isinstance(font, ImageFont.FreeTypeFont) else 0
    return ascent, round(bottom - top)


def is_rtl(text: str) -> bool:
    """Whether a text runs right to left: more of its letters are of a right-to-left
    script than of a left-to-right one (an Arabic title that starts with "Python")."""
    if text.isascii():
        return False
    kinds = [unicodedata.bidirectional(character) for character in text]
    return kinds.count("R") + kinds.count("AL") > kinds.count("L")


def _language(text: str, declared: str) -> str | None:
    """The language the text is shaped in: Japanese with kana, Korean with hangul,
    Chinese for Han letters alone in a text not said to be in one of the three; else
    the card's."""
    if not text.isascii():
        names = {script.name for script in map(fonts.script_of, text) if script}
        if "Kana" in names:
            return "ja"
        if "Hangul" in names:
            return "ko"
        if "Han" in names and declared.split("-")[0].lower() not in ("zh", "ja", "ko"):
            return "zh"
    return declared or None


def _bidi(character: str) -> str:
    """A character's kind for `_visual`: R(ight to left), L(eft to right), EN (a
    digit), M (a mark: its letter's), S (a separator in a number), or N (neutral)."""
    kind = unicodedata.bidirectional(character)
    return {"R": "R", "AL": "R", "L": "L", "EN": "EN", "AN": "EN", "NSM": "M", "ES": "S",
            "CS": "S", "ET": "S"}.get(kind, "N")


def _visual(runs: list[tuple[str, Face]], rtl: bool) -> list[Piece]:
    """Runs of one face each, in reading order, as pieces of one face and direction,
    left to right, by the bidirectional algorithm's rules for whole pieces: numbers
    after Latin letters are Latin (W7), a separator between digits is a digit (W4),
    what is neutral takes the direction around it, else the text's (N1, N2), levels
    (I1, I2) and the reversals of the levels (L2)."""
    texts: list[str] = []
    faces: list[Face] = []
    kinds: list[str] = []
    for text, face in runs:
        for character in text:
            kind = _bidi(character)
            if kind == "M":
                kind = kinds[-1] if kinds else "N"
            if faces and faces[-1] is face and kinds[-1] == kind:
                texts[-1] += character
            else:
                texts.append(character)
                faces.append(face)
                kinds.append(kind)
    last = "R" if rtl else "L"
    for n, kind in enumerate(kinds):
        if kind in ("L", "R"):
            last = kind
        elif kind == "EN" and last == "L":
            kinds[n] = "L"
    for n in range(1, len(kinds) - 1):
        if kinds[n] == "S" and kinds[n - 1] == kinds[n + 1] and kinds[n - 1] in ("EN", "L"):
            kinds[n] = kinds[n - 1]
    strong = ["R" if kind == "EN" else kind if kind in ("L", "R") else "" for kind in kinds]
    base = "R" if rtl else "L"
    for n, kind in enumerate(kinds):
        if kind in ("N", "S"):
            before = next((s for s in reversed(strong[:n]) if s), base)
            after = next((s for s in strong[n + 1:] if s), base)
            kinds[n] = before if before == after else base
    levels = [{"L": 2 if rtl else 0, "R": 1, "EN": 2}[kind] for kind in kinds]
    merged: list[tuple[str, Face, int]] = []
    for text, face, level in zip(texts, faces, levels, strict=True):
        if merged and merged[-1][1] is face and merged[-1][2] == level:
            merged[-1] = (merged[-1][0] + text, face, level)
        else:
            merged.append((text, face, level))
    order = list(range(len(merged)))
    for level in range(max(level for *_, level in merged), 0, -1):
        n = 0
        while n < len(order):
            end = n
            while end < len(order) and merged[order[end]][2] >= level:
                end += 1
            order[n:end] = reversed(order[n:end])
            n = end + 1 if end == n else end
    return [(merged[n][0], merged[n][1], merged[n][2] % 2 == 1) for n in order]


def _wide(character: str) -> bool:
    """A character of a script written without spaces: a line may break before it."""
    return "\u2e80" <= character <= "\ua4cf" or "\uac00" <= character <= "\ud7a3" \
        or "\uf900" <= character <= "\ufaff" or "\uff00" <= character <= "\uffef"


def _tokens(text: str) -> list[str]:
    """Words with their following space, and wide characters one by one; a mark stays
    with the letter before it."""
    tokens: list[str] = []
    for character in text:
        if tokens and unicodedata.category(character)[0] == "M":
            tokens[-1] += character
        elif _wide(character) or not tokens or tokens[-1].endswith(" ") \
                or _wide(tokens[-1][0]):
            tokens.append(character)
        else:
            tokens[-1] += character
    return tokens


def headline(book: FontBook, text: str, face: Face, language: str, width: int,
             most: int) -> tuple[list[str], Voice, int]:
    """`text` in at most `most` lines of `width`, at the largest of TITLE_SIZES that
    holds it, else at the smallest with its last line cut to fit: the lines, the voice
    they are drawn in, and its size."""
    for size in TITLE_SIZES:
        voice = Voice.of(book, text, face, size, language)
        lines = _wrap(text, voice, width)
        if len(lines) <= most:
            return lines, voice, size
    rest = text
    for line in lines[:most - 1]:
        rest = rest[len(line):].lstrip()
    return lines[:most - 1] + [_fit(rest, voice, width)], voice, size


def _wrap(text: str, voice: Voice, width: int) -> list[str]:
    """The lines of a title, up to one more than a card shows: the title is cut."""
    lines: list[str] = []
    current = ""
    for token in _tokens(" ".join(text.split())):
        if current and voice.length((current + token).rstrip()) > width:
            lines += _break(current.rstrip(), voice, width)
            current = token.lstrip()
            if len(lines) > TITLE_LINES:
                return lines
        else:
            current += token
    return lines + _break(current.rstrip(), voice, width) if current.strip() else lines


def _break(line: str, voice: Voice, width: int) -> list[str]:
    """A line of one word wider than the card (Thai writes a phrase without spaces)
    as lines that fit, broken between letters, as many as a title shows and then the
    rest (to be cut); any other line as it is."""
    lines: list[str] = []
    while len(lines) < TITLE_LINES and len(line) > 1 and " " not in line \
            and voice.length(line[:LINE_CHARS]) > width:
        fits = max(_longest(line[:LINE_CHARS], voice, width, ""), 1)
        lines.append(line[:fits])
        line = line[fits:]
    return lines + [line]


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, and "…" if it had more."""
    return text if len(text) <= limit else text[:limit] + "…"


def _fit(text: str, voice: Voice, width: int) -> str:
    """The text, cut short with "…" if it is wider than `width`: the longest start of
    it that fits with "…" after it."""
    cut = len(text) > LINE_CHARS
    text = text[:LINE_CHARS]
    if not cut and voice.length(text) <= width:
        return text
    return text[:_longest(text, voice, width, "…")].rstrip() + "…"


def _longest(text: str, voice: Voice, width: int, after: str) -> int:
    """The length of the longest start of `text` that fits in `width` with `after`
    after it, found in a logarithmic number of measures, never ending before a mark."""
    fits, wide = 0, len(text) + 1  # fits: a length known to fit; wide: one too wide
    while wide - fits > 1:
        middle = (fits + wide) // 2
        if voice.length(text[:middle] + after) <= width:
            fits = middle
        else:
            wide = middle
    while 0 < fits < len(text) and unicodedata.category(text[fits])[0] == "M":
        fits -= 1
    return fits
