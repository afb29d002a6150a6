"""A talk page's share row (output/share.py, talk.html, share.js): plain links made at
build time, their addresses percent-encoded whole; the buttons that need the script
hidden without it; no row with `share = false`. The browser's side is
tests/test_browser_share.py."""

from __future__ import annotations

import html
import re
from urllib.parse import quote, quote_plus

from hypothesis import given, settings
from hypothesis import strategies as st

from talkpages.output.percent import form_encoded, percent_encoded
from talkpages.output.share import share_row

from conftest import MakeSite, outputs, render_site, talk


def hrefs(page: str) -> dict[str, str]:
    row = page.split('<section class="share"', 1)[1].split("</section>", 1)[0]
    return {label: html.unescape(href) for href, label in
            re.findall(r'<a class="button outline" href="([^"]+)" aria-label="([^"]+)"', row)}


def test_the_share_links_carry_the_title_and_address_encoded(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'title = "Lab"\nbase_url = "https://example.org/talks/"\n',
                      "talks/rust.md": talk("Rust & C++: a #talk?", "2027-01-14T18:00:00",
                                            'slug = "rust-c"')})
    page = outputs(render_site(site))["rust-c/index.html"].decode()
    address = "https%3A%2F%2Fexample.org%2Ftalks%2Frust-c%2F"
    title = "Rust%20%26%20C%2B%2B%3A%20a%20%23talk%3F"
    assert hrefs(page) == {
        "Share on Bluesky": f"https://bsky.app/intent/compose?text={title}%20{address}",
        "Share on LinkedIn": f"https://www.linkedin.com/sharing/share-offsite/?url={address}",
        "Share by e-mail": f"mailto:?subject={title}&body={address}"}
    row = page.split('<section class="share"', 1)[1].split("</section>", 1)[0]
    assert 'data-title="Rust &amp; C++: a #talk?"' in page
    # what needs share.js is hidden until it runs
    for name in ("copy", "native", "mastodon"):
        assert f'<li data-share="{name}" hidden>' in row
    assert '<form class="share-mastodon" id="share-mastodon" hidden>' in row
    assert '<p class="share-status" role="status"></p>' in row
    for icon in ("copy", "share", "mastodon", "bluesky", "linkedin", "mail"):
        assert f'href="#i-{icon}"' in row and f'<symbol id="i-{icon}"' in page


def test_a_non_ascii_title_is_encoded_as_utf_8() -> None:
    row = share_row("Über 東京", "https://example.org/ü/")
    assert row.bluesky.endswith("text=%C3%9Cber%20%E6%9D%B1%E4%BA%AC%20https%3A%2F%2F"
                                "example.org%2F%C3%BC%2F")
    assert row.email == ("mailto:?subject=%C3%9Cber%20%E6%9D%B1%E4%BA%AC"
                         "&body=https%3A%2F%2Fexample.org%2F%C3%BC%2F")


def test_the_row_says_its_texts_in_the_sites_language(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'language = "de"\n',
                      "talks/a.md": talk("A", "2027-01-14T18:00:00")})
    row = outputs(render_site(site))["a/index.html"].decode().split(
        '<section class="share"', 1)[1].split("</section>", 1)[0]
    for german in ("Diesen Vortrag teilen", "Link kopieren", "Teilen…", "Auf Bluesky teilen",
                   "Per E-Mail teilen", "Ihr Mastodon-Server", "Auf Mastodon teilen"):
        assert german in row, german
    assert "Share" not in row


def test_share_false_leaves_the_row_out(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": "share = false\n",
                      "talks/a.md": talk("A", "2027-01-14T18:00:00")})
    page = outputs(render_site(site))["a/index.html"].decode()
    assert 'class="share"' not in page and "bsky.app" not in page
    (site / "talkpages.toml").write_text('share = "no"\n')
    assert [d.format() for d in render_site(site).diagnostics if d.is_error] == [
        f"{site / 'talkpages.toml'}:1: error: config value 'share': expected true or false, "
        "got a string"]


@settings(max_examples=300)
@given(st.text())
def test_percent_encoding_writes_what_urllib_writes(value: str) -> None:
    """output/percent.py's tables against the standard library's loop, on any text
    (surrogates aside: neither can encode them)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert percent_encoded(value) == quote(value, safe="")
    assert form_encoded(value) == quote_plus(value, safe="")
