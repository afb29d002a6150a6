"""An address GFM autolinks ends where a quote or an angle bracket starts, escaped or
not: an iframe shown as text is no broken link; with `unsafe_html` an iframe is let
through (no tag filter)."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import pytest

from talkpages.output.markup import to_html

# As Hugo Academic pages carry them: an embed written out, and one escaped by hand.
IFRAME = ('<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" '
          'title="YouTube video player" frameborder="0" allowfullscreen></iframe>')
ESCAPED = '&lt;iframe src="https://example.org/x"&gt;&lt;/iframe&gt;'


def links(html: str) -> list[str]:
    root = ET.fromstring(f"<div>{html}</div>")
    return [a.get("href", "") for a in root.iter("a")]


def text_of(html: str) -> str:
    return "".join(ET.fromstring(f"<div>{html}</div>").itertext())


def test_escaped_iframe_is_not_autolinked_into_a_broken_address() -> None:
    """Regression: the link ran on to `https://example.org/x%22&amp;gt;&amp;lt;/iframe`."""
    html = to_html(ESCAPED)
    assert links(html) == ["https://example.org/x"]
    assert text_of(html).strip() == '<iframe src="https://example.org/x"></iframe>'


def test_raw_iframe_shown_as_text_links_its_address_only() -> None:
    html = to_html(IFRAME)
    assert links(html) == ["https://www.youtube.com/embed/dQw4w9WgXcQ"]
    assert "%22" not in html and "%3E" not in html
    assert text_of(html).strip() == IFRAME


@pytest.mark.parametrize(("text", "href", "shown"), [
    ('see https://example.org/a?b="c" now', "https://example.org/a?b=",
     'see https://example.org/a?b="c" now'),
    ("www.example.org/x<y", "http://www.example.org/x", "www.example.org/x<y"),
    ("https://example.org/x.&quot;y", "https://example.org/x", 'https://example.org/x."y'),
    ("https://example.org/x&#34;&copy;&ltz", "https://example.org/x",
     'https://example.org/x"©&ltz'),
    ('https://example.org/é"x', "https://example.org/%C3%A9", 'https://example.org/é"x'),
])
def test_autolink_ends_at_a_quote_or_bracket(text: str, href: str, shown: str) -> None:
    html = to_html(text)
    assert links(html) == [href]
    assert text_of(html).strip() == shown


@pytest.mark.parametrize("text", [
    "https://example.org/search?q=%22talk%22",  # a quote written as an address writes it
    "https://en.wikipedia.org/wiki/Ohm's_law",
    "https://example.org/a?b=1&c=2",
    "[the slides](https://example.org/x)",
])
def test_addresses_without_a_quote_or_bracket_keep_their_links(text: str) -> None:
    assert to_html(text) == to_html(text, unsafe=True)
    assert len(links(to_html(text))) == 1


def test_a_cut_that_leaves_no_host_leaves_no_link() -> None:
    html = to_html('https://"x"')
    assert links(html) == [] and text_of(html).strip() == 'https://"x"'


def test_unsafe_html_lets_an_iframe_and_a_script_through() -> None:
    """GFM's tag filter showed them as text even with `unsafe_html = true`."""
    html = to_html(IFRAME + '\n\n<script src="https://cdn.example.org/w.js"></script>\n',
                   unsafe=True)
    assert '<iframe width="560"' in html and "&lt;iframe" not in html
    assert '<script src="https://cdn.example.org/w.js"></script>' in html


def test_safe_html_still_filters_what_escaping_missed() -> None:
    html = to_html(IFRAME)
    assert "<iframe" not in html


def test_many_quoted_addresses_are_cut_in_linear_time() -> None:
    text = 'https://example.org/x"&lt; ' * 20_000
    started = time.perf_counter()
    html = to_html(text)
    assert time.perf_counter() - started < 3
    assert html.count('<a href="https://example.org/x">') == 20_000


def test_one_long_address_with_references_is_cut_in_time() -> None:
    text = "https://example.org/" + "a&amp;" * 50_000 + '"'
    started = time.perf_counter()
    html = to_html(text)
    assert time.perf_counter() - started < 3
    assert len(links(html)) == 1
