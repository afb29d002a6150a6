"""A site made its own (accent_color, logo, favicon) in Chromium, and the theme toggle:

- the header's button turns the dark theme on, and a reload keeps it (localStorage,
  applied by the boot script before the first paint); turned back to what the system
  says, the choice is forgotten;
- without a choice, the system's `prefers-color-scheme: dark` still gives the dark theme;
- with `accent_color = "yellow"`, far too light for a white page, axe-core finds no
  contrast problem on the light, dark and chosen-dark pages (the shades are adjusted);
- screenshots at 390 and 1280 px, light and dark, with the accent and a logo.

Skipped with the reason when Chromium, Playwright or axe-core is missing (browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

from talkpages.content.loader import LoadOptions

from browser import AXE, AXE_TAGS, keep_screenshot, require_axe, serve
from conftest import NOW, build, talk

LIGHT_BG, DARK_BG = "rgb(253, 253, 252)", "rgb(21, 23, 26)"
BG = "getComputedStyle(document.body).backgroundColor"


def logo_png() -> bytes:
    import io

    image = Image.new("RGBA", (360, 120), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    pen.ellipse((4, 4, 116, 116), fill=(196, 160, 0, 255))
    pen.rectangle((140, 30, 350, 90), fill=(60, 60, 60, 255))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def themed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("themed")
    files: dict[str, bytes] = {
        "talkpages.toml": b'title = "Yellow Talks"\nbase_url = "https://example.org/"\n'
                          b'accent_color = "yellow"\nlogo = "brand/logo.png"\n'
                          b'favicon = "brand/icon.svg"\n',
        "brand/logo.png": logo_png(),
        "brand/icon.svg": b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
                          b'<circle cx="8" cy="8" r="7" fill="#c4a000"/></svg>',
        "talks/up.md": talk("Coming soon", "2027-01-14T18:00:00",
                            'timezone = "Europe/Madrid"\nauthors = ["Ann Lee"]\n'
                            'tags = ["kubernetes"]\nurl_slides = "https://example.org/s"').encode(),
        "talks/past.md": talk("An old talk", "2019-05-22T14:50:00",
                              'authors = ["Ann Lee"]\ntags = ["scheduling"]').encode(),
    }
    for name, data in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    out = site / "public"
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    with serve(out) as url:
        yield url


def test_the_toggle_keeps_the_dark_theme_across_a_reload(browser: Any, themed: str) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    page.goto(themed)
    toggle = page.get_by_role("button", name="Theme: light")
    assert toggle.is_visible()
    assert page.evaluate(BG) == LIGHT_BG
    toggle.click()
    assert page.get_by_role("button", name="Theme: dark").is_visible()
    assert page.evaluate(BG) == DARK_BG
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate(BG) == DARK_BG
    assert page.locator("button.theme-toggle").inner_text() == "Theme: dark"
    page.goto(themed + "up/")  # every page of the site
    assert page.evaluate(BG) == DARK_BG
    page.get_by_role("button", name="Theme: dark").click()  # back to the system's: forgotten
    assert page.evaluate("localStorage.getItem('talkpages-theme')") is None
    page.reload()
    assert page.evaluate(BG) == LIGHT_BG
    context.close()


def test_without_a_choice_the_system_dark_scheme_is_followed(browser: Any, themed: str) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(themed)
    assert page.evaluate("localStorage.getItem('talkpages-theme')") is None
    assert page.evaluate(BG) == DARK_BG
    toggle = page.get_by_role("button", name="Theme: dark")  # the system's, before a click
    toggle.click()  # light on a dark system: kept
    page.reload()
    assert page.evaluate(BG) == LIGHT_BG
    assert page.locator("button.theme-toggle").inner_text() == "Theme: light"
    context.close()


def test_without_javascript_the_toggle_is_hidden_and_the_system_followed(
        browser: Any, themed: str) -> None:
    context = browser.new_context(color_scheme="dark", java_script_enabled=False)
    page = context.new_page()
    page.goto(themed)
    assert not page.locator("button.theme-toggle").is_visible()
    assert page.evaluate(BG) == DARK_BG
    context.close()


def test_a_page_prints_black_on_white_whatever_the_theme(browser: Any, themed: str) -> None:
    context = browser.new_context(color_scheme="dark")
    context.add_init_script("localStorage.setItem('talkpages-theme', 'dark')")
    page = context.new_page()
    page.goto(themed + "up/")
    assert page.evaluate(BG) == DARK_BG
    page.emulate_media(media="print")
    assert page.evaluate(BG) == "rgb(255, 255, 255)"
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"
    assert page.evaluate("getComputedStyle(document.querySelector('main a')).color") \
        == "rgb(0, 0, 0)"
    context.close()


@pytest.mark.parametrize(("scheme", "chosen"), [("light", None), ("dark", None),
                                                 ("light", "dark")])
def test_a_yellow_accent_passes_axe_on_every_scheme(browser: Any, themed: str, scheme: str,
                                                    chosen: str | None) -> None:
    require_axe()
    context = browser.new_context(color_scheme=scheme, bypass_csp=True)
    if chosen:
        context.add_init_script(f"localStorage.setItem('talkpages-theme', '{chosen}')")
    context.add_init_script(path=str(AXE))  # compiled once for the five pages
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    for path in ("", "up/", "past/", "tags/", "speakers/ann-lee/"):
        page.goto(themed + path)
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: "
                               "tags}, resultTypes: ['violations']})", AXE_TAGS)
        found = [f"{v['id']}: {[n['target'] for n in v['nodes'][:3]]}"
                 for v in result["violations"]]
        assert not found, (path, found)
        link = page.evaluate("getComputedStyle(document.querySelector('main a')).color")
        assert link != "rgb(255, 255, 0)" or (chosen or scheme) == "dark", link
    assert errors == []
    context.close()


def test_the_logo_and_icons_load_at_their_size(browser: Any, themed: str) -> None:
    context = browser.new_context(device_scale_factor=2)
    page = context.new_page()
    page.goto(themed)
    page.wait_for_load_state("networkidle")
    logo = page.locator("img.site-logo")
    assert logo.get_attribute("alt") == ""  # the title beside it names the link
    size = logo.evaluate("i => [i.getBoundingClientRect().height, i.currentSrc]")
    assert size[0] == 40 and "logo-80." in size[1]  # the copy for two device pixels
    icon = page.locator('link[rel="icon"]')
    assert icon.count() == 1 and icon.get_attribute("href") == "./favicon.svg"
    assert page.request.get(themed + "favicon.svg").status == 200
    context.close()


def test_screenshots_with_an_accent_and_a_logo(browser: Any, themed: str) -> None:
    for width in (390, 1280):
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": width, "height": 900},
                                          color_scheme=scheme, device_scale_factor=1)
            page = context.new_page()
            for name, path in (("themed-index", ""), ("themed-talk", "up/")):
                page.goto(themed + path)
                assert page.evaluate("document.documentElement.scrollWidth") <= width, name
                keep_screenshot(page, f"{name}-{width}-{scheme}")
            context.close()
