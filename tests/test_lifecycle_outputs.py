"""A talk's life in what is published about it: the feed's URL and CONFERENCE lines
(RFC 7986) and its description's lines, the same lines in the Google and Outlook
links, the JSON-LD's attendance mode, virtual location and offer; and the page as
built at each stage of the talk's life, as a visitor without JavaScript sees it."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import icalendar
import pytest

from icslint import lint
from talkpages.content.model import Talk
from talkpages.content.times import resolve
from talkpages.output import ical, jsonld
from test_actions import buttons
from test_jsonld import build_one

from conftest import MakeSite, outputs, render_site, talk

ONLINE = '''
    date_end = 2030-05-22T19:00:00
    timezone = "Europe/Madrid"
    location = "Online"
    registration_url = "https://tickets.example.org/t?a=1&b=2"
    registration_closes = 2030-05-20T12:00:00
    price = "€10"
    join_url = "https://meet.example.org/abc;x,y"
    livestream_url = "https://stream.example.org/live"
'''
CONFIG = 'base_url = "https://talks.example.org/"\ntitle = "Example"\n'


def built(make_site: MakeSite, extra: str = ONLINE, config: str = CONFIG) -> dict[str, bytes]:
    site = make_site({"talks/t.md": talk("T", "2030-05-22T18:00:00", extra),
                      "talkpages.toml": config})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)


def event(data: bytes) -> icalendar.Event:
    (found,) = icalendar.Calendar.from_ical(data).walk("VEVENT")
    return found


def test_the_feed_carries_the_page_the_meeting_and_the_stream(make_site: MakeSite) -> None:
    files = built(make_site)
    data = files["calendar.ics"]
    assert lint(data) == []
    text = data.decode().replace("\r\n ", "")
    assert "\r\nURL:https://talks.example.org/t/\r\n" in text
    assert ("\r\nCONFERENCE;VALUE=URI;FEATURE=AUDIO,VIDEO;LABEL=Join:"
            "https://meet.example.org/abc;x,y\r\n") in text
    assert ("\r\nCONFERENCE;VALUE=URI;FEATURE=VIDEO;LABEL=Live stream:"
            "https://stream.example.org/live\r\n") in text
    found = event(data)
    conferences = found["CONFERENCE"]
    assert [str(c) for c in conferences] == ["https://meet.example.org/abc;x,y",
                                              "https://stream.example.org/live"]
    assert conferences[0].params["FEATURE"] == ["AUDIO", "VIDEO"]
    description = str(found["DESCRIPTION"])
    assert "Join: https://meet.example.org/abc;x,y" in description
    assert "Live stream: https://stream.example.org/live" in description
    assert ("Register: https://tickets.example.org/t?a=1&b=2 "
            "(closes Mon, May 20, 2030, 12:00\u202fPM Madrid (GMT+02:00))") in description
    # the talk's own .ics alike
    assert str(event(files["t/t.ics"])["CONFERENCE"][0]) == "https://meet.example.org/abc;x,y"


def test_the_add_to_calendar_links_carry_the_same_lines(make_site: MakeSite) -> None:
    site_dir = make_site({"talks/t.md": talk("T", "2030-05-22T18:00:00", ONLINE),
                          "talkpages.toml": CONFIG})
    site = render_site(site_dir).site
    assert site is not None
    description = ical.description(site, site.talks[0])
    google = parse_qs(urlsplit(ical.google_url(site, site.talks[0])).query)
    outlook = parse_qs(urlsplit(ical.outlook_url(site, site.talks[0])).query)
    assert google["details"] == [description] and outlook["body"] == [description]
    assert "Join: https://meet.example.org/abc;x,y" in description
    assert "Register: https://tickets.example.org/t?a=1&b=2 (closes" in description


def test_registration_without_a_closing_time_and_a_cancelled_talk(make_site: MakeSite) -> None:
    open_ = event(built(make_site, 'registration_url = "https://t.example.org/"')["calendar.ics"])
    assert "Register: https://t.example.org/\n" in str(open_["DESCRIPTION"]) + "\n"
    assert "CONFERENCE" not in open_
    cancelled = event(built(make_site, ONLINE + 'status = "cancelled"')["calendar.ics"])
    assert "CONFERENCE" not in cancelled
    assert "Join:" not in str(cancelled["DESCRIPTION"])


def test_the_lines_are_in_the_site_s_language(make_site: MakeSite) -> None:
    found = event(built(make_site, config=CONFIG + 'language = "de"\n')["calendar.ics"])
    description = str(found["DESCRIPTION"])
    assert "Join:" not in description and "Register:" not in description
    assert "https://meet.example.org/abc;x,y" in description
    assert "20. Mai 2030" in description
    assert found["CONFERENCE"][0].params["LABEL"] != "Join"


# --- JSON-LD --------------------------------------------------------------------------------

def test_json_ld_of_an_online_talk(make_site: MakeSite) -> None:
    data = build_one(make_site, ONLINE.replace('location = "Online"', ""),
                     date="2030-05-22T18:00:00")
    assert data["eventAttendanceMode"] == "https://schema.org/OnlineEventAttendanceMode"
    assert data["location"] == {"@type": "VirtualLocation",
                                "url": "https://meet.example.org/abc;x,y"}
    assert data["offers"] == {"@type": "Offer", "url": "https://tickets.example.org/t?a=1&b=2",
                              "price": "10", "priceCurrency": "EUR",
                              "validThrough": "2030-05-20T12:00:00+02:00"}


def test_json_ld_of_a_talk_in_a_room_and_streamed(make_site: MakeSite) -> None:
    data = build_one(make_site, 'location = "Room 2"\n'
                     'livestream_url = "https://stream.example.org/live"\nprice = "free"')
    assert data["eventAttendanceMode"] == "https://schema.org/MixedEventAttendanceMode"
    assert data["location"][1] == {"@type": "VirtualLocation",
                                   "url": "https://stream.example.org/live"}
    assert data["offers"] == {"@type": "Offer", "price": "0"}


@pytest.mark.parametrize(("price", "amount", "currency"), [
    ("€10", "10", "EUR"), ("10,50 EUR", "10.50", "EUR"), ("CHF 20", "20", "CHF"),
    ("US$15", "15", "USD"), ("$15", "15", None), ("¥1000", "1000", None),
    ("€10, students €5", None, None), ("pay what you can", None, None),
    ("10 EUR or 12 USD", None, None), ("1.000 EUR", None, None), ("12", "12", None)])
def test_a_price_as_an_offer(make_site: MakeSite, price: str, amount: str | None,
                             currency: str | None) -> None:
    schedule = resolve(date(2030, 1, 1), None, all_day=True, zone=None, default_zone="UTC",
                       default_length=timedelta(hours=1), start_field="date", end_field="")
    offer = jsonld.offers(Talk(Path("t.md"), "t", "T", schedule, price=price))
    assert offer is not None
    assert offer.get("price") == amount and offer.get("priceCurrency") == currency


# --- The page as built: its primary action at each stage ----------------------------------

PAGE_TALK = ONLINE + 'recording = "coming"\nurl_slides = "https://slides.example.org/x"\n'


@pytest.mark.parametrize(("now", "stage", "lead"), [
    ("2030-05-01T00:00:00", "register", ("button", "Register")),
    ("2030-05-21T00:00:00", "calendar", ("button", "Add to calendar (.ics)")),
    ("2030-05-22T15:45:00", "live", ("button", "Join")),
    ("2030-05-23T00:00:00", "coming", ("button", "Slides")),
])
def test_the_page_is_built_at_its_stage(make_site: MakeSite, now: str, stage: str,
                                        lead: tuple[str, str]) -> None:
    site = make_site({"talks/t.md": talk("T", "2030-05-22T18:00:00", PAGE_TALK),
                      "talkpages.toml": CONFIG})
    result = render_site(site, now=datetime.fromisoformat(now).replace(tzinfo=timezone.utc))
    assert result.ok
    page = outputs(result)["t/index.html"].decode()
    assert f'data-stage="{stage}"' in page
    shown = re.sub(r'<(p|ul)\b[^>]* hidden>.*?</\1>', "", page, flags=re.S)
    found = buttons(shown)
    assert [cls for cls, _ in found].count("button") == 1, found
    assert lead in found
    assert ('<span class="price">€10</span>' in shown) == (stage == "register")
    assert ('class="recording-coming"' in shown) == (stage == "coming")
    assert ("Live now · Join" in outputs(result)["index.html"].decode()) == (stage == "live")
