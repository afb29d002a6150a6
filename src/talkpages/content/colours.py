"""A site's accent colour, and the shades of it that the pages can read on.

Links, buttons and the focus ring are drawn in the accent. Text in it must keep a
contrast of at least 4.5:1 (WCAG 2, AA) against what it stands on, and any colour may
be given: `yellow` on a white page is 1.07:1. So the pages use a shade of it:

- On the light scheme, the colour as given when it reaches 4.5:1 against every light
  surface of the theme (the page, the cards, white button text); else the lightest
  darker shade of the same hue and chroma that does.
- On the dark scheme, the same rule against the dark surfaces (and the dark button
  text), with a lighter shade: most colours chosen for a light page need one.

Shades are taken in OKLab (Björn Ottosson, 2020), whose lightness follows what eyes
see far better than HSL's: the shade keeps its hue and its chroma where sRGB can show
it, and only its lightness moves, by bisection, until the contrast is met. Contrast is
measured on the shade as written (`#rrggbb`), so what the page shows is what passed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .colournames import NAMED_COLOURS

RGB = tuple[int, int, int]
AA = 4.5  # WCAG 2 AA contrast for text of normal size
# The built-in theme's surfaces (assets/style.css): --bg and --card; and the text of
# buttons, drawn on the accent (--accent-fg).
LIGHT_SURFACES = ("#fdfdfc", "#f3f4f6")
DARK_SURFACES = ("#15171a", "#1f2227")
LIGHT_TEXT_ON_ACCENT, DARK_TEXT_ON_ACCENT = "#ffffff", "#0d1117"


def parse_colour(text: str) -> str | None:
    """`#rgb`, `#rrggbb` or a CSS colour name as `#rrggbb` (lower case), or None."""
    value = text.strip().lower()
    if value in NAMED_COLOURS:
        return NAMED_COLOURS[value]
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return "#" + "".join(digit * 2 for digit in value[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return value
    return None


def rgb(hex_colour: str) -> RGB:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def hex_of(colour: RGB) -> str:
    return "#" + "".join(f"{channel:02x}" for channel in colour)


def _linear(channel: float) -> float:
    """An sRGB channel (0 to 1) as light (WCAG 2's formula)."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _encoded(light: float) -> float:
    light = min(1.0, max(0.0, light))
    return light * 12.92 if light <= 0.0031308 else 1.055 * light ** (1 / 2.4) - 0.055


def luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance."""
    red, green, blue = (_linear(c / 255) for c in rgb(hex_colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 to 21."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _cbrt(value: float) -> float:
    return math.copysign(abs(value) ** (1 / 3), value)  # math.cbrt: Python 3.11


def _oklab(hex_colour: str) -> tuple[float, float, float]:
    red, green, blue = (_linear(c / 255) for c in rgb(hex_colour))
    long = _cbrt(0.4122214708 * red + 0.5363325363 * green + 0.0514459929 * blue)
    medium = _cbrt(0.2119034982 * red + 0.6806995451 * green + 0.1073969566 * blue)
    short = _cbrt(0.0883024619 * red + 0.2817188376 * green + 0.6299787005 * blue)
    return (0.2104542553 * long + 0.7936177850 * medium - 0.0040720468 * short,
            1.9779984951 * long - 2.4285922050 * medium + 0.4505937099 * short,
            0.0259040371 * long + 0.7827717662 * medium - 0.8086757660 * short)


def _from_oklab(lightness: float, a: float, b: float) -> str:
    """The sRGB colour of an OKLab one; outside sRGB, its chroma is reduced until it
    fits (bisection), so the hue stays."""
    def channels(scale: float) -> tuple[float, ...]:
        long = (lightness + 0.3963377774 * a * scale + 0.2158037573 * b * scale) ** 3
        medium = (lightness - 0.1055613458 * a * scale - 0.0638541728 * b * scale) ** 3
        short = (lightness - 0.0894841775 * a * scale - 1.2914855480 * b * scale) ** 3
        return (4.0767416621 * long - 3.3077115913 * medium + 0.2309699292 * short,
                -1.2684380046 * long + 2.6097574011 * medium - 0.3413193965 * short,
                -0.0041960863 * long - 0.7034186147 * medium + 1.7076959554 * short)

    found = channels(1.0)
    if not all(-1e-6 <= c <= 1 + 1e-6 for c in found):
        low, high = 0.0, 1.0
        for _ in range(24):
            middle = (low + high) / 2
            if all(-1e-6 <= c <= 1 + 1e-6 for c in channels(middle)):
                low = middle
            else:
                high = middle
        found = channels(low)
    return hex_of(tuple(round(_encoded(c) * 255) for c in found))  # type: ignore[arg-type]


def _worst(colour: str, surfaces: tuple[str, ...]) -> float:
    return min(contrast(colour, surface) for surface in surfaces)


def readable_shade(colour: str, surfaces: tuple[str, ...], darker: bool) -> str:
    """`colour` if it keeps AA contrast on every one of `surfaces`, else the shade of
    it nearest in OKLab lightness (darker or lighter) that does."""
    if _worst(colour, surfaces) >= AA:
        return colour
    lightness, a, b = _oklab(colour)
    near, far = lightness, (0.0 if darker else 1.0)  # `far` always passes: black, white
    for _ in range(32):
        middle = (near + far) / 2
        if _worst(_from_oklab(middle, a, b), surfaces) >= AA:
            far = middle
        else:
            near = middle
    shade = _from_oklab(far, a, b)
    step = -0.002 if darker else 0.002
    while _worst(shade, surfaces) < AA:  # rounding to #rrggbb lost a little
        far = min(1.0, max(0.0, far + step))
        shade = _from_oklab(far, a, b)
    return shade


@dataclass(frozen=True)
class AccentShades:
    """The shades of an accent colour the pages use, and the text drawn on each."""
    given: str
    light: str  # links and buttons on the light scheme
    dark: str  # on the dark scheme
    light_text: str = LIGHT_TEXT_ON_ACCENT
    dark_text: str = DARK_TEXT_ON_ACCENT

    @property
    def adjusted(self) -> bool:
        """Was the colour too light to be used as given on the light scheme?"""
        return self.light != self.given

    @property
    def given_contrast(self) -> float:
        """The contrast of the colour as given on the light scheme's worst surface."""
        return _worst(self.given, _LIGHT)


_LIGHT = LIGHT_SURFACES + (LIGHT_TEXT_ON_ACCENT,)
_DARK = DARK_SURFACES + (DARK_TEXT_ON_ACCENT,)


def accent_shades(colour: str) -> AccentShades:
    return AccentShades(colour, readable_shade(colour, _LIGHT, darker=True),
                        readable_shade(colour, _DARK, darker=False))


def card_colour(colour: str) -> RGB:
    """The background of a social card in the site's colour: white text on it keeps
    AA contrast (a card is seen on light and dark pages of other sites alike)."""
    return rgb(readable_shade(colour, (LIGHT_TEXT_ON_ACCENT, "#d2dceb"), darker=True))


def accent_css(shades: AccentShades) -> str:
    """The rules appended to the theme's style.css: the accent's custom properties on
    each scheme, as style.css sets them (automatic, or chosen with the toggle)."""
    light = f"--accent:{shades.light};--accent-fg:{shades.light_text}"
    dark = f"--accent:{shades.dark};--accent-fg:{shades.dark_text}"
    return (f"\n/* accent_color = \"{shades.given}\" (talkpages.toml): screens only, a page "
            "prints black on white */\n"
            f"@media screen{{:root{{{light}}}}}\n"
            "@media screen and (prefers-color-scheme: dark){:root:not([data-theme=light]){"
            f"{dark}}}}}\n"
            f"@media screen{{:root[data-theme=dark]{{{dark}}}}}\n")
