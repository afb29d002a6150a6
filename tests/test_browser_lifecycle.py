"""A talk page's primary action follows the talk's life in the browser, with the clock
and without a rebuild: Register, Add to calendar, Join, "Recording coming", the
recording; the list row says "Live now · Join" while the talk is live. Without
JavaScript the page and the row stay as built, right for the time of the build.

Two talks on 10 March 2099, 17:00–18:00 in Berlin (16:00–17:00 UTC): a free meetup
with a registration that closes at noon the day before, a meeting, a stream and a
recording announced; and a streamed talk whose recording is known already.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from talkpages.content.loader import LoadOptions
from test_browser_schedule import at

from browser import serve
from conftest import MakeSite, build, talk

REGISTER = "https://tickets.example.org/meetup"
JOIN = "https://meet.example.org/abc-defg-hij"
STREAM = "https://stream.example.org/live"
VIDEO = "https://video.example.org/watch/1"
TIMES = 'date_end = 2099-03-10T18:00:00\ntimezone = "Europe/Berlin"\n'
MEETUP = talk("Meetup", "2099-03-10T17:00:00", TIMES + f'''
    registration_url = "{REGISTER}"
    registration_closes = 2099-03-09T12:00:00
    price = "free"
    join_url = "{JOIN}"
    livestream_url = "{STREAM}"
    recording = "coming"
''')
STREAMED = talk("Streamed", "2099-03-10T17:00:00", TIMES + f'''
    livestream_url = "{STREAM}"
    url_video = "{VIDEO}"
''')
MINUTE = 60 * 1000


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def site_built_at(make_site: MakeSite, out: Path, now: datetime) -> Path:
    site = make_site({"talks/meetup.md": MEETUP, "talks/streamed.md": STREAMED,
                      "talkpages.toml": 'base_url = "https://example.org/"\n'})
    result = build(site, out, LoadOptions(now=now))
    assert result.ok, [d.format() for d in result.diagnostics]
    return out


@pytest.fixture(scope="module")
def early(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built on 1 March 2099, while registration is open."""
    root = tmp_path_factory.mktemp("lifecycle")

    def make(files: dict[str, str]) -> Path:
        for name, text in files.items():
            (root / "site" / name).parent.mkdir(parents=True, exist_ok=True)
            (root / "site" / name).write_text(text, encoding="utf-8")
        return root / "site"

    out = site_built_at(make, root / "out", utc("2099-03-01T00:00:00"))
    with serve(out, "/") as url:
        yield url


def primary(page: Any) -> tuple[str, str | None]:
    """The text and href of the page's one filled button; ("", None) when it has none."""
    from playwright.sync_api import expect

    filled = page.locator(".actions a.button:not(.outline):visible")
    count = filled.count()
    assert count <= 1, filled.all_inner_texts()
    if count == 0:
        return "", None
    expect(filled).to_be_visible()
    return filled.inner_text().strip(), filled.get_attribute("href")


def test_a_talk_walks_register_calendar_join_and_recording_coming(browser: Any,
                                                                    early: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-03-05T10:00:00"))
    page.goto(early + "meetup/")
    assert primary(page) == ("Register", REGISTER)
    expect(page.locator(".register .price")).to_have_text("Free")
    # registration closes at noon in Berlin, 11:00 UTC, the day before
    page.clock.fast_forward(utc("2099-03-09T11:00:30").timestamp() * 1000
                            - utc("2099-03-05T10:00:00").timestamp() * 1000)
    expect(page.locator(".register")).to_be_hidden()
    text, href = primary(page)
    assert text == "Add to calendar (.ics)" and href == "meetup.ics"
    # 15 minutes before the start: Join, with the stream beside it
    page.clock.fast_forward(utc("2099-03-10T15:45:00").timestamp() * 1000
                            - utc("2099-03-09T11:00:30").timestamp() * 1000)
    expect(page.locator(".live-links")).to_be_visible()
    assert primary(page) == ("Join", JOIN)
    assert page.get_by_role("link", name="Watch live").get_attribute("href") == STREAM
    expect(page.locator(".add-to-calendar a.button").first).to_have_class("button outline")
    page.clock.fast_forward(75 * MINUTE + 30 * 1000)  # 17:00:30 UTC: over
    expect(page.locator(".live-links")).to_be_hidden()
    expect(page.locator(".add-to-calendar")).to_be_hidden()
    expect(page.locator(".recording-coming")).to_have_text("Recording coming")
    assert primary(page) == ("", None)
    assert page.errors == []
    page.context.close()


def test_the_recording_leads_once_the_talk_is_over(browser: Any, early: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-03-10T16:30:00"))
    page.goto(early + "streamed/")
    assert primary(page) == ("Watch live", STREAM)
    expect(page.get_by_role("link", name="Video")).to_have_class("button outline")
    page.clock.fast_forward(31 * MINUTE)
    assert primary(page) == ("Video", VIDEO)
    expect(page.locator(".recording-coming")).to_have_count(0)
    assert page.errors == []
    page.context.close()


def test_the_list_says_live_now_and_join(browser: Any, early: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-03-10T15:44:00"))
    page.goto(early)
    meetup = page.locator(".talk-item").filter(has=page.get_by_role("link", name="Meetup",
                                                                    exact=True))
    expect(meetup.locator(".live")).to_have_count(0)
    page.clock.fast_forward(MINUTE)  # 15:45: a quarter of an hour before the start
    expect(meetup.locator("a.live")).to_have_text("Live now · Join")
    assert meetup.locator("a.live").get_attribute("href") == JOIN
    streamed = page.locator(".talk-item").filter(has=page.get_by_role("link", name="Streamed",
                                                                      exact=True))
    assert streamed.locator("a.live").get_attribute("href") == STREAM
    page.clock.fast_forward(76 * MINUTE)  # 17:01: over, in the past talks
    expect(page.locator(".live")).to_have_count(0)
    assert page.errors == []
    page.context.close()


def test_without_javascript_the_build_time_stage_stands(browser: Any, make_site: MakeSite,
                                                        tmp_path: Path) -> None:
    """Built at 16:00 UTC, while the talks are live: Join and "Live now · Join", and
    they stay so on a page read later without JavaScript."""
    from playwright.sync_api import expect

    out = site_built_at(make_site, tmp_path / "out", utc("2099-03-10T16:00:00"))
    with serve(out, "/") as url:
        page = at(browser, utc("2099-03-12T00:00:00"), java_script_enabled=False)
        page.goto(url + "meetup/")
        assert primary(page) == ("Join", JOIN)
        expect(page.locator(".register")).to_be_hidden()
        page.goto(url)
        expect(page.locator("a.live")).to_have_text(["Live now · Join"] * 2)
        page.context.close()
