"""A site rich in pictures, in Chromium: camera-sized featured photos and speakers'
photos reach a phone as copies sized for it, and every talk page shares a 1200 x 630
card. Screenshots at 390 and 1280 px, light and dark, go to tests/artifacts/.

Skipped with the reason when Chromium or Playwright is missing (browser.py).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageFilter

from talkpages.content.loader import LoadOptions

from browser import keep_screenshot, serve
from conftest import NOW, build, talk

PHONE_BUDGET = 250_000  # bytes of images a talk page may cost a phone (390 px, DPR 2)


def camera_photo(width: int, height: int, seed: int) -> bytes:
    """A JPEG as a camera makes it: several megabytes of fine detail."""
    noise = Image.effect_noise((width, height), 40 + seed).filter(ImageFilter.GaussianBlur(1))
    ramp = Image.linear_gradient("L").resize((width, height))
    image = Image.merge("RGB", (noise, ramp, noise.point(lambda v: 255 - v)))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95)
    return out.getvalue()


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("rich")
    files: dict[str, str | bytes] = {
        "talkpages.toml": 'title = "Rich Talks"\nbase_url = "https://example.org/"\n',
        "speakers.toml": '["Ann Lee"]\nphoto = "speakers/ann.jpg"\naffiliation = "Lab"\n'
                         '["Bo Chen"]\nbio = "No photo: initials."\n',
        "speakers/ann.jpg": camera_photo(1800, 2400, 1),
    }
    for n, (date, zone) in enumerate([("2027-01-14T18:00:00", "America/New_York"),
                                      ("2027-02-03T09:30:00", "Asia/Tokyo"),
                                      ("2019-05-22T14:50:00", "Europe/Madrid"),
                                      ("2018-11-13T11:00:00", "Asia/Shanghai")]):
        files[f"talks/t{n}/index.md"] = talk(
            f"Talk {n} with a photo", date,
            f'timezone = "{zone}"\nauthors = ["Ann Lee", "Bo Chen"]\nevent = "Meetup {n}"\n'
            '[image]\ncaption = "The room"\nfocal_point = "Smart"')
        files[f"talks/t{n}/featured.jpg"] = camera_photo(4000, 3000, n)
    for name, content in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert (site / "talks/t0/featured.jpg").stat().st_size > 2_000_000
    out = site / "public"
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    with serve(out, "/") as url:
        yield url


def image_bytes(browser: Any, url: str, width: int, scale: int, shot: Path | None = None,
                ) -> dict[str, int]:
    """The images the page at `url` fetches, scrolled to its end, and their sizes."""
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  device_scale_factor=scale)
    page = context.new_page()
    fetched: dict[str, int] = {}

    def taken(response: Any) -> None:
        if response.request.resource_type == "image":
            fetched[response.url.rsplit("/", 2)[-2] + "/" + response.url.rsplit("/", 1)[-1]] \
                = len(response.body())

    page.on("response", taken)
    page.goto(url)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_load_state("networkidle")
    if shot is not None:
        page.screenshot(path=str(shot), full_page=True)
    context.close()
    return fetched


def test_a_phone_gets_copies_for_its_screen_within_the_budget(browser: Any, rich: str) -> None:
    fetched = image_bytes(browser, rich + "t0/", 390, 2)
    assert "t0/featured-960.webp" in fetched, fetched  # 390 x 2 = 780 pixels wide
    assert "ann-lee/photo-256.webp" in fetched, fetched  # the speaker's card: 5rem x 2
    assert not [name for name in fetched if name.endswith("featured.jpg")]
    assert sum(fetched.values()) <= PHONE_BUDGET, fetched
    listed = image_bytes(browser, rich, 390, 2)
    assert {"t0/featured-320x213.webp", "t3/featured-320x213.webp"} <= set(listed), listed


def test_every_talk_page_shares_a_card_of_1200_by_630(browser: Any, rich: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    for n in range(4):
        page.goto(f"{rich}t{n}/")
        url = page.locator('meta[property="og:image"]').get_attribute("content")
        assert url == f"https://example.org/t{n}/card.jpg"
        data = page.request.get(f"{rich}t{n}/card.jpg").body()
        with Image.open(io.BytesIO(data)) as card:
            assert card.size == (1200, 630) and card.format == "JPEG"
    context.close()


def test_screenshots_of_the_rich_site(browser: Any, rich: str) -> None:
    for width in (390, 1280):
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": width, "height": 900},
                                          color_scheme=scheme)
            page = context.new_page()
            for name, path in (("rich-index", ""), ("rich-talk", "t0/"),
                               ("rich-speakers", "speakers/")):
                page.goto(rich + path)
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                assert page.evaluate("document.documentElement.scrollWidth") <= width, name
                keep_screenshot(page, f"{name}-{width}-{scheme}")
            context.close()
