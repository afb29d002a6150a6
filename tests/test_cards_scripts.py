"""Social cards in every script (cards.py, fonts.py): each title drawn with a font that
has its letters, right-to-left titles against the right margin, a warning naming the
package to install when no font here has them, and another font another card key.

Tests that draw with a script's font skip where it is not installed (Debian:
fonts-noto-core, fonts-noto-cjk); the rest run anywhere, on folders of fonts made
here from Pillow's own font."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from talkpages.output import cards, fonts
from talkpages.output.cards import MARGIN, Card, draw
from talkpages.output.fonts import Face, FontBook

from conftest import MakeSite, RunCli, require_tool, talk

NOW = "2026-11-21T00:00:00Z"
TITLES = {  # a title in each script, and the script that chooses its font
    "Japanese": ("再現可能なビルドの実践ガイド", "Kana"),
    "Chinese": ("可复现构建的实践指南", "Han"),
    "Arabic": ("مقدمة إلى البرمجة للمبتدئين", "Arabic"),
    "Hebrew": ("בניות הניתנות לשחזור", "Hebrew"),
    "Russian": ("Воспроизводимые сборки", "Cyrillic"),
}
ABSENT = "\U000f0000"  # a private character: no font has it, each draws its box


def script(name: str) -> fonts.Script:
    return next(s for s in fonts.SCRIPTS if s.name == name)


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def glyph(font: cards.FontType, character: str) -> bytes:
    image = Image.new("L", (120, 120))
    ImageDraw.Draw(image).text((10, 10), character, font=font, fill=255)
    return image.tobytes()


def ink(image: Image.Image, colour: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """Where the text of a card drawn over `colour` is, not the noise of JPEG."""
    blank = Image.new("RGB", image.size, colour)
    box = ImageChops.difference(image, blank).convert("L").point(
        lambda v: 255 * (v > 60)).getbbox()
    assert box is not None
    return box


def pillow_font() -> bytes:
    """Pillow's own font (Aileron): a real font file on any machine that has Pillow."""
    source = ImageFont.load_default(10).path  # type: ignore[union-attr]
    assert isinstance(source, io.BytesIO)
    return source.getvalue()


@pytest.fixture
def font_dirs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Make the build look for fonts in these folders only."""
    def use(*folders: Path) -> None:
        monkeypatch.setattr(fonts, "FONT_DIRS", tuple(str(f) for f in folders))
        fonts.book.cache_clear()

    yield use
    fonts.book.cache_clear()


@pytest.mark.parametrize("language", TITLES)
def test_a_title_is_drawn_with_a_font_that_has_its_letters(language: str) -> None:
    title, name = TITLES[language]
    book = fonts.book()
    installed = book.of_script[script(name)]
    require_tool(bool(installed), f"no font for {name} letters (Debian: "
                                  f"{script(name).package})")
    face = book.primary(title)
    assert face is installed[0]  # the script's first font this machine has
    for text, used in book.runs(title, face):  # and Pillow draws no letter as a box
        font = cards._font(used, 64)
        box = glyph(font, ABSENT)
        assert all(glyph(font, c) != box for c in set(text) - {" "}), (language, used)
    card = Card(title, "", "", "")
    assert ink(opened(draw(card)), card.colour)


def test_a_japanese_card_is_drawn_in_the_japanese_font_throughout() -> None:
    # its date and event too: the Latin letters of the CJK font, not another font's
    book = fonts.book()
    require_tool(bool(book.of_script[script("Kana")]), "no CJK font (Debian: fonts-noto-cjk)")
    texts = ("再現可能なビルド", "PyCon JP", "Thu 14 Jan 2027 · 18:00 JST", "山田 太郎")
    assert len(set(book.primaries(texts))) == 1
    assert book.key(texts) == book.primaries(texts)[0].stamp


def test_an_arabic_title_stands_against_the_right_margin() -> None:
    require_tool(bool(fonts.book().of_script[script("Arabic")]),
                 "no Arabic font (Debian: fonts-noto-core)")
    card = Card("مقدمة إلى البرمجة", "", "الخميس 14 يناير 2027", "")
    left, _, right, _ = ink(opened(draw(card)), card.colour)
    assert abs(right - (1200 - MARGIN)) <= 6 and left > 400
    latin = Card("Reproducible builds", "", "", "")
    left, _, right, _ = ink(opened(draw(latin)), latin.colour)
    assert abs(left - MARGIN) <= 6 and right < 900


def test_a_text_runs_the_way_most_of_its_letters_do() -> None:
    assert cards.is_rtl("مقدمة إلى البرمجة")
    assert cards.is_rtl("Python للمبتدئين")  # mostly Arabic: right to left
    assert not cards.is_rtl("Reproducible builds (بناء)")
    assert not cards.is_rtl("再現可能なビルド") and not cards.is_rtl("")


def test_pieces_in_several_fonts_are_put_in_the_bidirectional_order() -> None:
    arabic, latin = Face("/fonts/NotoSansArabic-Regular.ttf"), Face("/fonts/NotoSans.ttf")
    # an Arabic text with "Python 3" in it: the Latin words left of the Arabic, in order
    pieces = cards._visual([("مقدمة إلى ", arabic), ("Python", latin), (" 3", arabic)],
                           rtl=True)
    assert [(text, rtl) for text, _, rtl in pieces] == [
        ("Python", False), (" 3", False), ("مقدمة إلى ", True)]
    # a Latin text with an Arabic word: in its place, drawn right to left
    pieces = cards._visual([("Intro to ", latin), ("العربية", arabic), (" today", latin)],
                           rtl=False)
    assert [(text, rtl) for text, _, rtl in pieces] == [
        ("Intro to ", False), ("العربية", True), (" today", False)]
    # a number after it reads with it, as the Unicode algorithm has it
    pieces = cards._visual([("Intro to ", latin), ("العربية 2", arabic)], rtl=False)
    assert [(text, rtl) for text, _, rtl in pieces] == [
        ("Intro to ", False), ("2", False), ("العربية ", True)]
    # brackets between Arabic words are the Arabic text's (drawn mirrored)
    pieces = cards._visual([("كتاب ", arabic), ("(", latin), ("جديد", arabic),
                            (")", latin)], rtl=True)
    assert [(text, rtl) for text, _, rtl in pieces] == [
        (")", True), ("جديد", True), ("(", True), ("كتاب ", True)]


def test_the_table_of_characters_agrees_with_what_pillow_draws(tmp_path: Path) -> None:
    # the cmap reader against Pillow's own font, whatever fonts the machine has
    (tmp_path / "DejaVuSans.ttf").write_bytes(pillow_font())
    face = FontBook([str(tmp_path)]).of_script[script("Latin")][0]
    font = ImageFont.truetype(face.path, 40)
    box = glyph(font, ABSENT)
    for character in "aZ09…·’éΩЖ中ب":
        assert face.covers(character) == (glyph(font, character) != box), character


def test_a_font_that_is_not_one_has_nothing(tmp_path: Path) -> None:
    (tmp_path / "DejaVuSans.ttf").write_bytes(b"ttcf" + b"\xff" * 40)
    (tmp_path / "NotoSans-Regular.ttf").write_bytes(b"")
    book = FontBook([str(tmp_path)])
    assert not any(face.covers("a") for face in book.of_script[script("Latin")])
    assert book.primary("Hello") is book.pillow  # Pillow's own, as with no font at all


def test_no_font_for_the_letters_names_the_package(tmp_path: Path) -> None:
    book = FontBook([str(tmp_path)])  # no font at all: Pillow's own, ASCII and a little
    assert book.missing(["Hello, world…"]) == []
    assert [(s.name, s.package) for s in book.missing(["再現可能な", "", "", ""])] == [
        ("Han", "fonts-noto-cjk"), ("Kana", "fonts-noto-cjk")]
    assert {s.name for s in book.missing(["مقدمة", "שלום", "🎉"])} == {"Arabic", "Hebrew"}
    assert book.runs("🎉 Launch", book.pillow) == [(" Launch", book.pillow)]  # left out
    assert opened(draw(Card("再現可能なビルド", "", "", ""), book)).size == (1200, 630)


def site_in(make_site: MakeSite, *titles: str) -> Path:
    return make_site({
        **{f"talks/t{n}.md": talk(title, f"2030-01-0{n + 1}T10:00:00")
           for n, title in enumerate(titles)},
        "talkpages.toml": 'title = "Seminar"\n'})


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_card_no_font_here_can_draw_is_a_warning_naming_the_package(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        font_dirs: Callable[..., None], command: str) -> None:
    font_dirs(tmp_path / "no fonts")
    site = site_in(make_site, "再現可能なビルド", "مقدمة إلى البرمجة", "Plain English")
    code, _, err = run_cli(command, "-s", str(site), "--now", NOW)
    assert code == 0, err
    lines = [line for line in err.splitlines() if "social card" in line]
    assert len(lines) == 2, err  # once a talk, for the two that need a font
    assert any("t0.md: warning:" in line and "Han and Kana" in line
               and "apt-get install fonts-noto-cjk" in line for line in lines), err
    assert any("t1.md: warning:" in line and "Arabic" in line
               and "apt-get install fonts-noto-core" in line for line in lines), err
    code, _, err = run_cli("check", "--strict", "-s", str(site), "--now", NOW)
    assert code == 1  # a warning: --strict fails on it


def test_without_libraqm_a_build_says_so_once(
        make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "layout", lambda: "basic")
    monkeypatch.setattr(cards, "_raqm", lambda: False)
    site = site_in(make_site, "مقدمة إلى البرمجة", "בניות הניתנות לשחזור", "再現可能")
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW)
    assert code == 0, err
    lines = [line for line in err.splitlines() if "without libraqm" in line]
    assert len(lines) == 1 and "Arabic and Hebrew characters" in lines[0], err
    card = Card("مقدمة إلى البرمجة", "", "", "")  # drawn all the same, unshaped
    assert opened(draw(card)).size == (1200, 630)


def test_the_card_key_changes_with_the_font(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        font_dirs: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TALKPAGES_WORKERS", "1")
    drawn: list[str] = []
    real = cards.draw

    def counting(card: Card, *args: object) -> bytes:
        drawn.append(card.title)
        return real(card, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cards, "draw", counting)
    site = site_in(make_site, "Reproducible builds")
    folder = tmp_path / "fonts"
    folder.mkdir()
    font = folder / "DejaVuSans.ttf"
    for step in ("no font", "a font", "the same font", "the font updated"):
        if step == "a font":
            font.write_bytes(pillow_font())
        if step == "the font updated":
            os.utime(font, ns=(font.stat().st_atime_ns, font.stat().st_mtime_ns + 10**9))
        font_dirs(folder)
        drawn.clear()
        code, _, err = run_cli("check", "-s", str(site), "--now", NOW)
        assert code == 0, err
        assert ("Reproducible builds" in drawn) == (step != "the same font"), step
