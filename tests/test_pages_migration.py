"""Pages of sites moved from Hugo: what the old site meant shows the same here
(featured images kept for lists only, links in captions, the zone said once)."""

from __future__ import annotations

from conftest import MakeSite, outputs, render_site, talk

JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16


def test_a_caption_keeps_its_links_and_preview_only_keeps_the_image_off_the_page(
        make_site: MakeSite) -> None:
    site = make_site({
        "talks/shown/index.md": talk("Shown", extra='[image]\ncaption = "Photo by '
                                     '[Ana](https://example.org/ana)"'),
        "talks/shown/featured.jpg": JPEG,
        "talks/lists/index.md": talk("Lists", extra="[image]\npreview_only = true"),
        "talks/lists/featured.jpg": JPEG,
    })
    pages = outputs(render_site(site))
    shown = pages["shown/index.html"].decode()
    assert '<figcaption><p>Photo by <a href="https://example.org/ana">Ana</a></p>' in shown
    lists = pages["lists/index.html"].decode()
    assert '<figure class="featured">' not in lists
    assert 'property="og:image"' in lists  # still the talk's picture for link previews


def test_a_utc_talk_says_utc_once(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", "2019-05-22T10:00:00Z")})
    page = outputs(render_site(site))["a/index.html"].decode()
    assert "10:00–11:00 UTC" in page and "(UTC" not in page
