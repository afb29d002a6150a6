"""A talk page's share row in Chromium (share.js `setUpShare`):

- "Copy link" puts the page's canonical address on the clipboard and says so in the
  polite live region; nothing is requested from any other host, before or after;
- Mastodon asks for the visitor's server, keeps it, and opens its own /share page;
- without JavaScript the buttons that need it are hidden and the plain links stay.

Skipped with the reason when Chromium or Playwright is missing (browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from talkpages.content.loader import LoadOptions

from browser import serve
from conftest import NOW, build, talk

CANONICAL = "https://example.org/talks/soon/"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("shared")
    (site / "talks").mkdir()
    (site / "talkpages.toml").write_text('title = "Lab"\nbase_url = "https://example.org/talks/"\n')
    (site / "talks" / "soon.md").write_text(talk("Soon & later", "2027-01-14T18:00:00"))
    out = site / "public"
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    with serve(out, "/talks/") as url:
        yield url


def test_copy_link_puts_the_canonical_address_on_the_clipboard_and_says_so(
        browser: Any, shared: str) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if urlsplit(r.url).hostname != "127.0.0.1" else None)
    page.goto(shared + "soon/")
    button = page.get_by_role("button", name="Copy link")
    assert button.is_visible()
    status = page.locator(".share .share-status")
    assert status.get_attribute("role") == "status" and status.inner_text() == ""
    button.click()
    page.wait_for_function("document.querySelector('.share-status').textContent !== ''")
    assert status.inner_text() == "Link copied"
    assert page.evaluate("navigator.clipboard.readText()") == CANONICAL
    for name in ("Bluesky", "LinkedIn"):
        assert page.get_by_role("link", name=f"Share on {name}").is_visible()
    assert outside == []
    context.close()


def test_mastodon_asks_for_the_server_keeps_it_and_opens_its_share_page(
        browser: Any, shared: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    opened: list[str] = []
    # the post's page is not loaded: the test only sees where it would go
    context.route("https://**", lambda route: (opened.append(route.request.url),
                                                route.abort()))
    page.goto(shared + "soon/")
    toggle = page.get_by_role("button", name="Mastodon", exact=True)
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.get_by_label("Your Mastodon server").is_visible()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    server = page.get_by_label("Your Mastodon server")
    server.fill("nonsense")
    page.get_by_role("button", name="Share on Mastodon").click()
    assert "mastodon.social" in page.locator(".share-status").inner_text()
    assert opened == []
    server.fill("@me@Fosstodon.org")
    with context.expect_event("request", lambda r: r.url.startswith("https://")) as sent:
        page.get_by_role("button", name="Share on Mastodon").click()
    assert sent.value.url == ("https://fosstodon.org/share?text=Soon%20%26%20later%20"
                      "https%3A%2F%2Fexample.org%2Ftalks%2Fsoon%2F")
    assert page.evaluate("localStorage.getItem('talkpages-mastodon')") == "fosstodon.org"
    page.reload()
    assert page.get_by_label("Your Mastodon server").input_value() == "fosstodon.org"
    context.close()


def test_without_javascript_only_the_plain_links_show(browser: Any, shared: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(shared + "soon/")
    assert not page.get_by_role("button", name="Copy link").is_visible()
    assert not page.get_by_role("button", name="Mastodon", exact=True).is_visible()
    assert page.get_by_role("link", name="Share by e-mail").is_visible()
    assert page.get_by_role("link", name="Share on Bluesky").is_visible()
    context.close()
