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
    assert '<figcaption>Photo by <a href="https://example.org/ana">Ana</a></figcaption>' in shown
    lists = pages["lists/index.html"].decode()
    assert '<figure class="featured">' not in lists
    assert 'property="og:image"' in lists  # still the talk's picture for link previews


def test_a_utc_talk_says_utc_once(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", "2019-05-22T10:00:00Z")})
    page = outputs(render_site(site))["a/index.html"].decode()
    assert "10:00\u2009–\u200911:00\u202fAM UTC" in page and "(UTC" not in page


def test_aliases_make_pages_that_send_visitors_on(make_site: MakeSite) -> None:
    site = make_site({
        "talkpages.toml": 'base_url = "https://example.org/talks/"\nlanguage = "ru"\n',
        "talks/joker-2019.md": talk("Joker <2019>", extra='aliases = ["/event/2019/joker/", '
                                    '"/old.html", "/tags/", "../up/", "https://x.org/a"]'),
        "talks/other.md": talk("Other", extra='aliases = "/joker-2019/"'),
    })
    result = render_site(site)
    pages = outputs(result)
    page = pages["event/2019/joker/index.html"].decode()
    assert '<html lang="ru">' in page
    assert '<meta http-equiv="refresh" content="0; url=../../../joker-2019/">' in page
    assert '<link rel="canonical" href="https://example.org/talks/joker-2019/">' in page
    assert "<title>Joker &lt;2019&gt;</title>" in page
    assert 'content="0; url=joker-2019/"' in pages["old.html"].decode()
    assert "refresh" not in pages["tags/index.html"].decode()  # the list keeps its place
    assert "refresh" not in pages["joker-2019/index.html"].decode()  # the talk too
    assert "event/2019/joker/" not in pages["sitemap.xml"].decode()
    warnings = [d.message for d in result.diagnostics if d.severity == "warning"]
    assert sum("is not a path of the site" in w for w in warnings) == 2
