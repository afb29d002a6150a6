"""The site's logo and favicon (`logo`, `favicon` in talkpages.toml) as published, and
what the pages say of them. No pixels here: images.py makes the copies' bytes.

- The logo stands in the header before the site's title, LOGO_HEIGHT CSS pixels high.
  An SVG is published as it is, once content/svgfiles.py found it passive (no script,
  no event handler, nothing loaded from elsewhere: opened by itself, at an address of
  the site, it could otherwise act on the site's origin); any other image as PNG
  copies of that height and twice it (for screens of two device pixels a CSS pixel),
  never taller than the original. Its names carry the digest of the file's
  bytes, so a browser may keep them for a year and a new logo is a new address.
- A favicon in PNG or ICO is published as `favicon.ico` (32 x 32, cut square from the
  centre; the address browsers ask for unprompted) and `apple-touch-icon.png` (180 x
  180, what phones put on a home screen). An SVG one is published as `favicon.svg`,
  and there is then no `favicon.ico`: drawing an SVG needs a renderer talkpages does
  not have, and the built-in icon would stand for the site where the SVG is not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from ..content.config import Config
from ..content.siteimages import SiteImage
from .pictures import Copy, Picture, Variant

LOGO_HEIGHT = 40  # CSS pixels: the header's line (assets/style.css, .site-logo)
FAVICON, TOUCH_ICON = 32, 180


@dataclass(frozen=True)
class Logo:
    """What the header's <img> says: `src` and `srcset` from the site root (a template
    puts `root` before them), and the size it is shown at."""
    src: str
    width: int
    height: int
    dense: str = ""  # the copy for two device pixels a CSS pixel, if there is one

    def srcset(self, root: str) -> str:
        return f"{root}{self.src} 1x, {root}{self.dense} 2x" if self.dense else ""


@dataclass(frozen=True)
class Icon:
    """A <link> of the site's icons: `rel`, `href` from the site root, `type`, `sizes`."""
    rel: str
    href: str
    type: str
    sizes: str = ""


BUILT_IN_ICONS = (Icon("icon", "favicon.svg", "image/svg+xml"),
                  Icon("icon", "favicon.ico", "image/x-icon", "32x32"))


def _tag(image: SiteImage) -> str:
    return image.digest[:10]


def logo_file(config: Config) -> str | None:
    """Where an SVG logo is published (as it is), or None."""
    image = config.logo
    return f"assets/logo.{_tag(image)}.svg" if image is not None and image.vector else None


def logo_picture(config: Config) -> Picture | None:
    """The copies of a raster logo, or None."""
    image = config.logo
    if image is None or image.vector:
        return None
    heights = sorted({min(LOGO_HEIGHT, int(image.height)),
                      min(2 * LOGO_HEIGHT, int(image.height))})
    copies = tuple(Copy(f"assets/logo-{h}.{_tag(image)}.png",
                        Variant(max(1, round(image.width * h / image.height)), h, "png"))
                   for h in heights)
    return Picture(image.path, image.digest, None, "", copies)


def logo(config: Config) -> Logo | None:
    """The header's logo, or None."""
    image = config.logo
    if image is None:
        return None
    svg = logo_file(config)
    if svg is not None:
        return Logo(quote(svg), max(1, round(LOGO_HEIGHT * image.width / image.height)),
                    LOGO_HEIGHT)
    picture = logo_picture(config)
    assert picture is not None
    first, last = picture.copies[0], picture.copies[-1]
    return Logo(quote(first.path), first.variant.width, first.variant.height,
                quote(last.path) if last is not first else "")


def favicon_file(config: Config) -> str | None:
    """Where an SVG favicon is published (as it is), or None."""
    image = config.favicon
    return "favicon.svg" if image is not None and image.vector else None


def favicon_picture(config: Config) -> Picture | None:
    """The icons made of a raster favicon, or None."""
    image = config.favicon
    if image is None or image.vector:
        return None
    return Picture(image.path, image.digest, 1.0, "center", (
        Copy("favicon.ico", Variant(FAVICON, FAVICON, "ico")),
        Copy("apple-touch-icon.png", Variant(TOUCH_ICON, TOUCH_ICON, "png"))))


def icons(config: Config) -> tuple[Icon, ...]:
    """The <link>s of the site's icons: its own, or the built-in theme's."""
    if config.favicon is None:
        return BUILT_IN_ICONS
    if config.favicon.vector:
        return (Icon("icon", "favicon.svg", "image/svg+xml"),)
    return (Icon("icon", "favicon.ico", "image/x-icon", f"{FAVICON}x{FAVICON}"),
            Icon("apple-touch-icon", "apple-touch-icon.png", "image/png",
                 f"{TOUCH_ICON}x{TOUCH_ICON}"))
