"""embed/upcoming.html in another site's frame, in Chromium: the snippet of the docs
(docs/pages.md) fits the frame to the list's height, on load and when a talk leaves
the list (site.js, on the reader's clock); the list makes no request outside the site,
and its links leave the frame.

The pages fixture site (tests/pagesite.py) has three talks to come: online from New York
(1 Jun 2099), a hybrid meetup in Tokyo (1 Jul 2099) and a cancelled one in Paris (1 Aug 2099).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser import serve
from conftest import ROOT
from pagesite import PREFIX

DOC_ORIGIN = "https://talks.example.org"


def snippet(site_url: str) -> str:
    """The copy-paste snippet of the docs, for the site at `site_url`."""
    page = (ROOT / "docs" / "pages.md").read_text(encoding="utf-8")
    section = page.split("## Embed the upcoming talks on another site", 1)[1]
    code = re.search(r"```html\n(.*?)```", section, re.S)
    assert code is not None
    parts = urlsplit(site_url)
    return (code[1].replace(f"{DOC_ORIGIN}/embed/upcoming.html",
                            f"{site_url}embed/upcoming.html")
            .replace(DOC_ORIGIN, f"{parts.scheme}://{parts.netloc}"))


@pytest.fixture(scope="module")
def urls(fixture_out: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The site, and a page of another origin (another port) that frames its list."""
    parent = tmp_path_factory.mktemp("parent")
    with serve(fixture_out, PREFIX) as site:
        (parent / "index.html").write_text(
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>Department</title>"
            "</head><body style='margin:0'><h1>Our department</h1>\n" + snippet(site)
            + "\n<p id=after>After the frame</p></body></html>", encoding="utf-8")
        (parent / "404.html").write_text("missing")
        with serve(parent) as other:
            yield site, other


def open_parent(browser: Any, urls: tuple[str, str], when: datetime,
                **options: Any) -> tuple[Any, list[str]]:
    context = browser.new_context(timezone_id="Europe/Berlin", locale="en-GB", **options)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.clock.install(time=when)
    page.goto(urls[1])
    return page, requests


def frame_of(page: Any) -> Any:
    return next(frame for frame in page.frames if frame.url.endswith("embed/upcoming.html"))


def heights(page: Any) -> tuple[float, float]:
    """The frame's height on the parent page, and its content's height."""
    frame = frame_of(page)
    outer = page.locator("#talks-frame").evaluate("f => f.getBoundingClientRect().height")
    inner = frame.evaluate("() => document.documentElement.getBoundingClientRect().height")
    return outer, inner


def settled(page: Any) -> tuple[float, float]:
    """The heights once the frame has its content's (or after 5 s)."""
    for _ in range(50):
        outer, inner = heights(page)
        if abs(outer - inner) <= 1:
            break
        page.wait_for_timeout(100)
    return heights(page)


def test_the_frame_takes_the_list_s_height(browser: Any, urls: tuple[str, str]) -> None:
    page, requests = open_parent(browser, urls, datetime(2026, 11, 21, tzinfo=timezone.utc))
    frame = frame_of(page)
    frame.wait_for_load_state("load")
    assert frame.locator(".talk-item").count() == 3
    outer, inner = settled(page)
    assert abs(outer - inner) <= 1
    assert inner > 150  # three rows, not the frame's own 24rem
    assert outer != pytest.approx(24 * 16)
    # nothing outside the two origins, and the list asks only its own site
    site_origin = urls[0].split(PREFIX)[0]
    parent_origin = urls[1].rstrip("/")
    assert {urlsplit(url)._replace(path="", query="", fragment="").geturl()
            for url in requests} == {site_origin, parent_origin}
    framed = [url for url in requests if not url.startswith(urls[1])]
    assert framed and all(url.startswith(urls[0]) for url in framed)
    assert frame.locator("base").get_attribute("target") == "_top"
    page.context.close()


def test_a_talk_that_ends_leaves_and_the_frame_shrinks(browser: Any,
                                                       urls: tuple[str, str]) -> None:
    page, _ = open_parent(browser, urls, datetime(2099, 6, 1, 16, 30, tzinfo=timezone.utc))
    frame = frame_of(page)
    frame.wait_for_load_state("load")
    assert frame.locator(".talk-item").count() == 3
    assert frame.locator(".talk-item .live").count() == 1  # the online talk is under way
    before, _ = settled(page)
    page.clock.run_for(60 * 60 * 1000)  # an hour on: the online talk is over
    frame.locator(".talk-item").nth(2).wait_for(state="detached")
    assert frame.locator(".talk-item").count() == 2
    assert frame.locator(".past").count() == 0  # it leaves; no past list in a frame
    after, inner = settled(page)
    assert abs(after - inner) <= 1
    assert after < before
    page.context.close()


def test_a_message_from_another_origin_is_ignored(browser: Any, urls: tuple[str, str]) -> None:
    page, _ = open_parent(browser, urls, datetime(2026, 11, 21, tzinfo=timezone.utc))
    frame_of(page).wait_for_load_state("load")
    outer, _ = settled(page)
    page.evaluate("window.postMessage({talkpages: 'height', height: 3}, '*')")
    page.wait_for_timeout(200)
    assert heights(page)[0] == outer
    page.context.close()
