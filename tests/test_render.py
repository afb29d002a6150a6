"""Rendering: pages, index order, escaping, theme overrides, template errors."""

from __future__ import annotations

import re

from conftest import MakeSite, outputs, render_site, talk


def test_talk_page_shows_everything_escaped(make_site: MakeSite) -> None:
    site = make_site({"talks/t/index.md": talk("<script>alert(1)</script> & co", "2019-05-20", """
        date_end = 2019-05-23
        authors = ["Ada", "Grace"]
        location = "Barcelona"
        event = "Conf"
        event_url = "https://conf.example.org/"
        tags = ["x"]
        url_slides = "slides.pdf"
        url_code = "https://github.com/x/y"
        links = [{name = "Notes", url = "https://n.example.org/"}]
        [image]
        caption = "Stage"
        alt_text = "A person on a stage"
    """, body="Body with <em>html</em> and `<code>`."),
        "talks/t/featured.jpg": b"jpg", "talks/t/slides.pdf": b"pdf"})
    result = render_site(site)
    assert result.ok
    page = outputs(result)["t/index.html"].decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert "Mon, May 20\u2009–\u2009Thu, May 23, 2019" in page
    assert '<a href="https://conf.example.org/">Conf</a>' in page
    assert "<dt>Speakers</dt>" in page
    assert '<a href="../speakers/ada/">Ada</a>, <a href="../speakers/grace/">Grace</a>' in page
    for href, name in (("slides.pdf", "Slides"), ("https://github.com/x/y", "Code"),
                       ("https://n.example.org/", "Notes")):
        assert re.search(f'href="{re.escape(href)}">(<svg class="icon"[^>]*>.*?</svg>)?{name}<',
                         page), name
    assert '<img src="featured.jpg" alt="A person on a stage">' in page
    assert "<figcaption>Stage</figcaption>" in page
    assert "&lt;em&gt;html&lt;/em&gt;" in page and "<code>&lt;code&gt;</code>" in page
    assert {"t/featured.jpg", "t/slides.pdf"} <= {o.path for o in result.outputs}


def test_unsafe_html_lets_raw_html_through(make_site: MakeSite) -> None:
    site = make_site({"talks/t.md": talk(body="<em>html</em>"),
                      "talkpages.toml": "unsafe_html = true\n"})
    assert "<p><em>html</em></p>" in outputs(render_site(site))["t/index.html"].decode()


def test_index_orders_upcoming_soonest_first_and_past_newest_first(make_site: MakeSite) -> None:
    site = make_site({f"talks/{name}.md": talk(name.title(), when) for name, when in [
        ("old", "2018-01-01"), ("older", "2017-01-01"), ("soon", "2027-01-01"),
        ("later", "2028-01-01"), ("recent", "2026-11-01")]})
    index = outputs(render_site(site))["index.html"].decode()
    order = [index.index(f'href="./{name}/"') for name in
             ("soon", "later", "recent", "old", "older")]
    assert order == sorted(order)
    upcoming, past = index.split('id="past"')
    assert "./soon/" in upcoming and "./recent/" in past


def test_a_talk_under_way_is_still_upcoming(make_site: MakeSite) -> None:
    site = make_site({"talks/now.md": talk("Now", "2026-11-20T23:30:00Z",
                                           "date_end = 2026-11-21T01:00:00Z")})
    index = outputs(render_site(site))["index.html"].decode()
    assert index.index("./now/") < index.index('id="past"')


def test_previous_and_next_links(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", "2019-01-01"), "talks/b.md": talk("B", "2019-02-01"),
                      "talks/c.md": talk("C", "2019-03-01")})
    pages = outputs(render_site(site))
    middle = pages["b/index.html"].decode()
    assert 'rel="prev" href="../a/"' in middle and 'rel="next" href="../c/"' in middle
    assert 'rel="prev"' not in pages["a/index.html"].decode()


def test_site_layouts_and_assets_override_the_theme_file_by_file(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A"),
                      "layouts/talk.html": "custom {{ talk.title }} {{ talk.params.venue_room }}",
                      "assets/style.css": "body{}", "assets/extra.js": "1"})
    (site / "talks/a.md").write_text(talk("A", extra='venue_room = "B2"'))
    result = render_site(site)
    files = {o.path: o for o in result.outputs}
    assert files["a/index.html"].data == b"custom A B2"
    style = next(path for path in files if path.startswith("assets/style."))
    assert files[style].source == site / "assets/style.css"
    assert style == "assets/style.7c98040a54.css"  # sha256(b"body{}"), first 10 digits
    assert any(path.startswith("assets/extra.") and path.endswith(".js") for path in files)
    assert b"<!DOCTYPE html>" in files["index.html"].data  # built-in index still used


def test_a_template_error_names_the_template_file_and_line(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A"),
                      "layouts/talk.html": "line one\n{{ talk.nope.deeper }}\n"})
    result = render_site(site)
    assert not result.ok
    text = result.diagnostics[0].format()
    assert "layouts/talk.html:2" in text and "talks/a.md" in text


def test_a_template_syntax_error_names_the_file_and_line(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A"), "layouts/talk.html": "ok\n{% if %}\n"})
    result = render_site(site)
    assert not result.ok
    assert "layouts/talk.html:2" in result.diagnostics[0].format()


def test_sitemap_and_robots(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A"),
                      "talkpages.toml": 'base_url = "https://e.org/talks"\n'})
    files = outputs(render_site(site))
    assert b"<loc>https://e.org/talks/a/</loc>" in files["sitemap.xml"]
    assert b"Sitemap: https://e.org/talks/sitemap.xml" in files["robots.txt"]
    assert b'href="/talks/"' in files["404.html"]
