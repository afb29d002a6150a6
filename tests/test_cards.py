"""Social cards (cards.py): the size the web wants, the text legible and kept inside,
any script drawn where the system has a font for it."""

from __future__ import annotations

import io
import time

from PIL import Image, ImageChops, ImageDraw

from talkpages.output import cards, fonts
from talkpages.output.cards import Card, draw

from conftest import require_tool

CARD = Card("Reproducible builds for research software", "Thu 14 Jan 2027 · 18:00 EST",
            "Ann Lee, Bo Chen", "RSE Meetup")


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_a_card_is_1200_by_630_and_the_same_every_time() -> None:
    first = draw(CARD)
    image = opened(first)
    assert image.size == (1200, 630) and image.format == "JPEG"
    assert first == draw(CARD)


def test_over_a_photo_it_is_darkened() -> None:
    photo = Image.new("RGB", (2000, 1500), (250, 250, 250))
    image = opened(draw(CARD, background=photo))
    assert image.size == (1200, 630)
    assert max(image.getpixel((1190, 320))) < 120  # dark enough under white text


def test_a_long_title_stays_on_three_lines_inside_the_margins() -> None:
    long = Card(" ".join(["Extraordinarily"] * 40), "", "", "")
    image = opened(draw(long))
    blank = Image.new("RGB", image.size, long.colour)
    drawn = ImageChops.difference(image, blank).convert("L").point(lambda v: 255 * (v > 60))
    box = drawn.getbbox()  # where the text is, not the noise of JPEG
    assert box is not None
    left, top, right, bottom = box
    assert left >= cards.MARGIN - 2 and right <= 1200 - cards.MARGIN + 2 and bottom < 630
    voice = _voice(long.title, 40)
    lines = cards._wrap(long.title, voice, 1200 - 2 * cards.MARGIN)
    assert len(lines) > cards.TITLE_LINES  # so it was cut, with "…"


def test_words_wrap_at_spaces_and_wide_scripts_between_characters() -> None:
    assert cards._tokens("Hello big world") == ["Hello ", "big ", "world"]
    assert cards._tokens("日本語のタイトル") == list("日本語のタイトル")
    assert cards._tokens("Rust で書く") == ["Rust ", "で", "書", "く"]


def _glyph(font: object, character: str) -> bytes:
    image = Image.new("L", (80, 80))
    ImageDraw.Draw(image).text((4, 4), character, font=font, fill=255)  # type: ignore[arg-type]
    return image.tobytes()


def _voice(text: str, size: int) -> cards.Voice:
    book = fonts.book()
    return cards.Voice.of(book, text, book.primary(text), size, "")


def test_a_cjk_title_is_drawn_with_a_font_that_has_it() -> None:
    loaded = cards._font(fonts.book().primary("日本語"), 64)
    # distinct characters get distinct shapes: not one "missing glyph" box for all
    covered = len({_glyph(loaded, c) for c in "日本語会議"}) == 5
    require_tool(covered, "no font with CJK glyphs (Debian: fonts-noto-cjk)")
    image = opened(draw(Card("日本語のタイトル：再現可能なビルド", "", "", "")))
    blank = Image.new("RGB", image.size, Card("", "", "", "").colour)
    assert ImageChops.difference(image, blank).getbbox() is not None
    assert image.size == (1200, 630)


def test_a_title_of_30_kb_is_cut_in_a_few_measures() -> None:
    # shortened one character at a time, measuring all of it each time, such a title
    # took four minutes; every line of the card is bounded the same way
    words = Card(" ".join(["Extraordinarily"] * 2000), "Thu " * 4000, "Ann " * 4000,
                 "Meetup " * 4000)
    start = time.perf_counter()
    for card in (words, Card("x" * 30_000, "", "", "")):
        assert opened(draw(card)).size == (1200, 630)
    assert time.perf_counter() - start < 2
    small = _voice("Thu", 34)
    line = cards._fit("Thu " * 4000, small, 1056)
    assert line.endswith("…") and small.length(line) <= 1056
    assert small.length(line[:-1] + "Thu…") > 1056  # the longest that fits
    assert cards._fit("Thu 14 Jan", small, 1056) == "Thu 14 Jan"
