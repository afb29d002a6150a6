"""site.js keeps the pages true to the clock between builds, in Chromium with
Playwright's clock: an upcoming row shows its time and the visitor's, a talk under way
says "Happening now", a talk that is over moves to Past without a rebuild, the Next talk
card counts down and moves on; the subscribe menu opens at its address, its links are
right for each app, and the copy button copies.

The pages fixture site (tests/pagesite.py), built at 21 Nov 2026, has three talks to come:
online from New York (1 Jun 2099, 12:00–13:00 EDT, 16:00–17:00 UTC), a hybrid meetup in
Tokyo (1 Jul 2099, 18:30 JST) and a cancelled one in Paris (1 Aug 2099).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from talkpages.content.loader import LoadOptions

from browser import serve
from conftest import NOW, MakeSite, build, talk
from pagesite import PREFIX

ONLINE = "An online talk from New York"
HYBRID = "A hybrid meetup"


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def fixture(fixture_out: Path) -> Iterator[str]:
    with serve(fixture_out, PREFIX) as url:
        yield url


def at(browser: Any, when: datetime, zone: str = "Europe/Berlin", **options: Any) -> Any:
    """A page whose clock reads `when`, for a visitor in `zone`."""
    context = browser.new_context(timezone_id=zone, locale="en-GB", **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # what the page's scripts threw
    page.clock.install(time=when)
    return page


def row(page: Any, title: str) -> Any:
    return page.locator(".talk-item").filter(has=page.get_by_role("link", name=title,
                                                                  exact=True))


def test_an_upcoming_row_shows_its_time_and_the_visitors(browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-05-24T10:00:00"))
    page.goto(fixture)
    online = row(page, ONLINE)
    # the fixture site is in English ("en"): CLDR's US style, in the build and in Intl
    expect(online.locator(".talk-date")).to_have_text("Mon, Jun 1, 2099 · 12:00\u202fPM EDT")
    expect(online.locator(".local-time")).to_have_text("Your time: Mon, Jun 1, 6:00 PM GMT+2")
    expect(page.locator(".next-talk .relative")).to_have_text("in 8 days")
    expect(page.locator(".next-talk")).to_contain_text(ONLINE)
    expect(page.locator(".live")).to_have_count(0)
    assert page.errors == []
    page.context.close()
    # a visitor in the event's own zone is told nothing more
    page = at(browser, utc("2099-05-24T10:00:00"), "America/New_York")
    page.goto(fixture)
    expect(row(page, ONLINE).locator(".talk-date")).to_have_text(
        "Mon, Jun 1, 2099 · 12:00\u202fPM EDT")
    expect(row(page, ONLINE).locator(".local-time")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize(("when", "soon"), [
    ("2099-05-31T08:00:00", "tomorrow"),  # 10:00 in Berlin, the talk at 18:00 the next day
    ("2099-06-01T09:00:00", "in 7 hours"),
    ("2099-06-01T15:35:00", "in 25 minutes"),
])
def test_the_next_talk_card_says_how_soon(browser: Any, fixture: str, when: str,
                                          soon: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc(when))
    page.goto(fixture)
    expect(page.locator(".next-talk .relative")).to_have_text(soon)
    page.context.close()


def test_happening_now_shows_during_a_talk_and_only_then(browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-06-01T15:59:00"))
    page.goto(fixture)
    online = row(page, ONLINE)
    expect(online.locator(".live")).to_have_count(0)
    page.clock.fast_forward("01:00")  # 16:00 UTC: the talk begins
    expect(online.locator(".live")).to_have_text("Happening now")
    # the card's heading says it, in place of "Next talk" (not "Next talk happening now")
    expect(page.locator(".next-talk h2")).to_have_text("Happening now")
    expect(page.locator(".next-talk .relative")).to_be_hidden()
    expect(row(page, HYBRID).locator(".live")).to_have_count(0)
    assert online.locator("xpath=ancestor::section").get_attribute("class") == "upcoming"
    page.clock.fast_forward("01:00:00")  # over: the card moves on to the next talk
    expect(page.locator(".next-talk h2")).to_have_text(re.compile(r"^Next talk in "))
    assert page.errors == []
    page.context.close()


def test_a_talk_moves_to_past_after_its_end_without_a_rebuild(browser: Any,
                                                              fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-06-01T16:30:00"))
    page.goto(fixture)
    upcoming, past = page.locator("section.upcoming"), page.locator("section.past")
    expect(upcoming.get_by_role("link", name=ONLINE, exact=True)).to_have_count(1)
    expect(past.locator(".empty")).to_have_text("No past talks.")
    page.clock.fast_forward("31:00")  # 17:01 UTC: over
    expect(upcoming.get_by_role("link", name=ONLINE, exact=True)).to_have_count(0)
    moved = past.locator(".talk-item")
    expect(moved).to_have_count(1)
    expect(moved.locator(".talk-title")).to_have_text(ONLINE)
    expect(moved.locator(".talk-date")).to_have_text("Jun 1, 2099")  # compact, as past rows
    expect(moved.locator(".live, .local-time")).to_have_count(0)
    expect(past.locator("h3")).to_have_text("2099")
    assert past.locator("h3 a").get_attribute("href") == "./years/2099/"
    expect(past.locator(".empty")).to_have_count(0)
    # the card moves on to the next talk that is not cancelled
    card = page.locator(".next-talk")
    expect(card.locator(".next-title")).to_have_text(HYBRID)
    assert card.locator(".next-title").get_attribute("href") == "./hybrid/"
    expect(card.locator(".next-date")).to_have_text(
        "Wed, Jul 1, 2099 · 6:30\u202fPM Tokyo (GMT+09:00)")
    expect(card.locator(".relative")).to_have_text("in 30 days")
    expect(card.locator(".badge")).to_have_count(0)
    # every talk over: the card goes, Upcoming says so
    page.clock.fast_forward(62 * 24 * 3600 * 1000)  # 62 days later
    expect(card).to_be_hidden()
    expect(upcoming.locator(".empty")).to_have_text("No upcoming talks yet.")
    expect(past.locator(".talk-title")).to_have_text(
        ["A cancelled talk", HYBRID, ONLINE])  # newest first
    assert page.errors == []
    page.context.close()


def test_tag_speaker_and_talk_pages_follow_the_clock_too(browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    for path in ("tags/kubernetes/", "speakers/grace-hopper/", "years/2099/"):
        page = at(browser, utc("2099-06-01T16:59:00"))
        page.goto(fixture + path)
        expect(page.locator("section.upcoming").get_by_role(
            "link", name=ONLINE, exact=True)).to_have_count(1)
        page.clock.fast_forward("02:00")
        expect(page.locator("section.past .talk-item").first.locator(".talk-title")
               ).to_have_text(ONLINE)
        if path.startswith("years/"):  # its own year: a heading, not a link
            expect(page.locator("section.past h3")).to_have_text("2099")
            expect(page.locator("section.past h3 a")).to_have_count(0)
        page.context.close()
    # a page with no past talks yet gets its Past section
    page = at(browser, utc("2099-07-01T10:29:00"))
    page.goto(fixture + "tags/%E4%BA%91%E5%8E%9F%E7%94%9F/")
    expect(page.locator("section.past")).to_have_count(0)
    page.clock.fast_forward("02:00")
    past = page.locator("section.past")
    expect(past.get_by_role("heading", level=2)).to_have_text("Past talks")
    expect(past.locator(".talk-title")).to_have_text([HYBRID])
    assert past.locator("h3 a").get_attribute("href") == "../../years/2099/"
    assert page.locator("h2#past").get_attribute("id") == "past"
    page.context.close()
    page = at(browser, utc("2099-06-01T16:59:00"))
    page.goto(fixture + "online/")
    offer = page.locator(".add-to-calendar")
    expect(offer).to_be_visible()
    page.clock.fast_forward("02:00")
    expect(offer).to_be_hidden()
    page.context.close()


def test_without_javascript_the_build_time_split_stands(browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-09-01T00:00:00"), java_script_enabled=False)
    page.goto(fixture)
    expect(page.locator("section.upcoming .talk-item")).to_have_count(3)
    expect(page.locator(".next-talk .next-title")).to_have_text(ONLINE)
    expect(page.locator(".next-talk .relative")).to_be_hidden()
    expect(page.locator(".copy-button")).to_be_hidden()
    expect(page.locator("#feed-address")).to_have_value("https://example.org/talks/calendar.ics")
    page.context.close()


def test_the_subscribe_menu_opens_at_its_address_and_links_each_app(
        browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-05-24T10:00:00"))
    page.goto(fixture + "online/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Calendar").click()
    menu = page.locator("details#subscribe")
    expect(menu).to_have_attribute("open", "")
    expect(page).to_have_url(fixture + "#subscribe")
    https = "https://example.org/talks/calendar.ics"
    webcal = "webcal://example.org/talks/calendar.ics"
    hrefs = {name: menu.get_by_role("link", name=name, exact=True).get_attribute("href")
             for name in ("Apple Calendar, Outlook on the desktop", "Google Calendar",
                          "Outlook.com", "Microsoft 365", "Download the .ics file")}
    assert hrefs["Apple Calendar, Outlook on the desktop"] == webcal
    google = urlsplit(hrefs["Google Calendar"])
    assert f"{google.scheme}://{google.netloc}{google.path}" == \
        "https://calendar.google.com/calendar/render"
    assert parse_qs(google.query, strict_parsing=True) == {"cid": [webcal]}
    for name, host in (("Outlook.com", "outlook.live.com"),
                       ("Microsoft 365", "outlook.office.com")):
        link = urlsplit(hrefs[name])
        assert f"{link.scheme}://{link.netloc}{link.path}" == \
            f"https://{host}/calendar/0/addfromweb"
        assert parse_qs(link.query, strict_parsing=True) == {
            "url": [https], "name": ["Pages & Co · Talks"]}
    assert hrefs["Download the .ics file"] == "./calendar.ics"
    assert page.request.get(fixture + "calendar.ics").status == 200
    page.context.close()


def test_a_tag_menu_encodes_its_feed_address_twice_over(browser: Any, fixture: str) -> None:
    """tags/云原生/calendar.ics: percent-encoded in its address, and that address encoded
    again as a value of Google's and Outlook's links."""
    from playwright.sync_api import expect

    page = at(browser, utc("2099-05-24T10:00:00"))
    page.goto(fixture + "tags/%E4%BA%91%E5%8E%9F%E7%94%9F/")
    page.locator("details#subscribe summary").click()
    menu = page.locator("details#subscribe")
    https = "https://example.org/talks/tags/%E4%BA%91%E5%8E%9F%E7%94%9F/calendar.ics"
    google = menu.get_by_role("link", name="Google Calendar").get_attribute("href")
    assert parse_qs(urlsplit(google).query) == {"cid": ["webcal" + https[5:]]}
    outlook = menu.get_by_role("link", name="Outlook.com").get_attribute("href")
    assert parse_qs(urlsplit(outlook).query) == {"url": [https],
                                                 "name": ["Pages & Co · Talks: 云原生"]}
    expect(menu.locator("#feed-address")).to_have_value(https)
    page.context.close()


def test_the_copy_button_copies_the_address_and_says_so(browser: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page = at(browser, utc("2099-05-24T10:00:00"))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(fixture + "#subscribe")
    status = page.locator(".copy-status")
    expect(status).to_have_text("")
    page.get_by_role("button", name="Copy").click()
    expect(status).to_have_text("Copied. Paste it into your calendar app.")
    assert page.evaluate("navigator.clipboard.readText()") == \
        "https://example.org/talks/calendar.ics"
    page.context.close()


def test_without_a_public_base_url_the_address_is_where_the_page_is(
        browser: Any, make_site: MakeSite, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    site = make_site({"talks/soon.md": talk("Soon", "2099-01-01T10:00:00", 'tags = ["Go"]')})
    out = tmp_path / "out"
    assert build(site, out, LoadOptions(now=NOW)).ok
    with serve(out, "/sub/") as url:
        page = at(browser, utc("2098-12-01T00:00:00"))
        page.goto(url + "tags/go/#subscribe")
        menu = page.locator("details#subscribe")
        expect(menu).to_have_attribute("open", "")
        expect(menu.locator("#feed-address")).to_have_value(url + "tags/go/calendar.ics")
        expect(menu.get_by_role("link")).to_have_text(["Download the .ics file"])
        page.context.close()


def test_a_series_stays_upcoming_until_its_last_date(browser: Any, make_site: MakeSite,
                                                      tmp_path: Path) -> None:
    """A weekly series is listed at its next date; once that date is over the series is
    still to come (data-until), and the card claims nothing of a date that is gone."""
    from playwright.sync_api import expect

    site = make_site({"talks/weekly.md": talk("Weekly", "2099-01-05T10:00:00",
                                              'recurrence = "FREQ=WEEKLY;COUNT=3"')})
    out = tmp_path / "out"
    assert build(site, out, LoadOptions(now=NOW)).ok
    with serve(out, "/") as url:
        page = at(browser, utc("2099-01-05T10:30:00"))
        page.goto(url)
        weekly = row(page, "Weekly")
        expect(weekly.locator(".live")).to_have_text("Happening now")
        page.clock.fast_forward("01:00:00")  # 11:30: the first date is over, two to come
        expect(page.locator("section.upcoming .talk-title")).to_have_text(["Weekly"])
        expect(weekly.locator(".live")).to_have_count(0)
        expect(page.locator(".next-talk .relative")).to_be_hidden()
        page.clock.fast_forward(15 * 24 * 3600 * 1000)  # past the third date
        expect(page.locator("section.past .talk-title")).to_have_text(["Weekly"])
        expect(page.locator(".next-talk")).to_be_hidden()
        assert page.errors == []
        page.context.close()
