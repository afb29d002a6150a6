"""The accent colour: CSS colours read, WCAG 2 contrast, and the shades the pages use."""

from __future__ import annotations

import pytest

from talkpages.content.colournames import NAMED_COLOURS
from talkpages.content.colours import (
    AA,
    DARK_SURFACES,
    LIGHT_SURFACES,
    _oklab,
    accent_css,
    accent_shades,
    card_colour,
    contrast,
    hex_of,
    luminance,
    parse_colour,
)


@pytest.mark.parametrize(("first", "second", "ratio"), [
    ("#000000", "#ffffff", 21.0),
    ("#ffffff", "#ffffff", 1.0),
    ("#767676", "#ffffff", 4.54),  # the lightest grey that passes AA on white
    ("#777777", "#ffffff", 4.48),  # one step lighter fails
    ("#0000ff", "#ffffff", 8.59),
    ("#ff0000", "#ffffff", 4.00),
    ("#ffff00", "#ffffff", 1.07),
    ("#808080", "#ffffff", 3.95),
])
def test_contrast_of_known_pairs(first, second, ratio):
    assert contrast(first, second) == pytest.approx(ratio, abs=0.01)
    assert contrast(second, first) == contrast(first, second)


def test_luminance_ends():
    assert luminance("#000000") == 0
    assert luminance("#ffffff") == pytest.approx(1)


@pytest.mark.parametrize(("text", "colour"), [
    ("steelblue", "#4682b4"), ("SteelBlue", "#4682b4"), (" rebeccapurple ", "#663399"),
    ("#ABC", "#aabbcc"), ("#0b5cad", "#0b5cad"), ("#0B5CAD", "#0b5cad"),
    ("grey", "#808080"), ("gray", "#808080"),
])
def test_colours_are_read_as_css_reads_them(text, colour):
    assert parse_colour(text) == colour


@pytest.mark.parametrize("text", ["#abcd", "#12345g", "blu", "rgb(1,2,3)", "", "#", "transparent"])
def test_what_is_not_a_colour(text):
    assert parse_colour(text) is None


def test_the_table_has_the_148_names_of_css():
    assert len(NAMED_COLOURS) == 148
    assert all(parse_colour(value) == value for value in NAMED_COLOURS.values())


def test_a_colour_that_passes_is_used_as_it_is():
    shades = accent_shades("#0b5cad")
    assert shades.light == "#0b5cad" and not shades.adjusted


@pytest.mark.parametrize("name", sorted(NAMED_COLOURS))
def test_every_shade_reads_on_its_scheme(name):
    shades = accent_shades(NAMED_COLOURS[name])
    for surface in (*LIGHT_SURFACES, shades.light_text):
        assert contrast(shades.light, surface) >= AA, (name, shades.light, surface)
    for surface in (*DARK_SURFACES, shades.dark_text):
        assert contrast(shades.dark, surface) >= AA, (name, shades.dark, surface)


@pytest.mark.parametrize("name", ["yellow", "gold", "hotpink", "lime", "orange", "skyblue"])
def test_a_light_colour_is_darkened_keeping_its_hue_and_said(name):
    given = NAMED_COLOURS[name]
    shades = accent_shades(given)
    assert shades.adjusted and shades.given_contrast < AA
    assert luminance(shades.light) < luminance(given)
    assert _hue(shades.light) == pytest.approx(_hue(given), abs=0.2)  # radians
    assert shades.dark == given  # light enough for the dark scheme as it is


def test_a_dark_colour_is_lightened_for_the_dark_scheme_only():
    shades = accent_shades("#000080")  # navy
    assert not shades.adjusted and shades.light == "#000080"
    assert luminance(shades.dark) > luminance("#000080")
    assert _hue(shades.dark) == pytest.approx(_hue("#000080"), abs=0.2)


def test_the_shade_is_the_nearest_that_passes():
    shades = accent_shades("#ffff00")
    lighter = hex_of(tuple(min(255, c + 6) for c in bytes.fromhex(shades.light[1:])))
    assert min(contrast(lighter, s) for s in (*LIGHT_SURFACES, "#ffffff")) < AA


def test_cards_in_the_site_colour_keep_white_text_readable():
    for colour in NAMED_COLOURS.values():
        assert contrast(hex_of(card_colour(colour)), "#d2dceb") >= AA


def test_the_css_sets_the_shades_on_each_scheme():
    css = accent_css(accent_shades("#ffff00"))
    assert "@media screen{:root{--accent:#747300;--accent-fg:#ffffff}}" in css
    assert "@media screen and (prefers-color-scheme: dark){:root:not([data-theme=light]){" \
           "--accent:#ffff00;--accent-fg:#0d1117}}" in css
    assert "@media screen{:root[data-theme=dark]{--accent:#ffff00;--accent-fg:#0d1117}}" in css
    assert css.count("{") == css.count("}") and "<" not in css


def _hue(colour: str) -> float:
    import math

    _, a, b = _oklab(colour)
    return math.atan2(b, a)
