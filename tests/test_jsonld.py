"""schema.org Event JSON-LD: real offsets, attendance mode, location, performers, escaping."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from talkpages.output import jsonld

from conftest import MakeSite, outputs, render_site, talk


def event_of(page: bytes) -> dict[str, Any]:
    blocks = re.findall(rb'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1
    data: dict[str, Any] = json.loads(blocks[0])
    return data


def build_one(make_site: MakeSite, extra: str, date: str = "2019-05-22T14:50:00",
              files: dict[str, str | bytes] | None = None, title: str = "T") -> dict[str, Any]:
    site = make_site({"talks/t/index.md": talk(title, date, extra), **(files or {}),
                      "talkpages.toml": 'base_url = "https://e.org/sub/"\n'})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return event_of(outputs(result)["t/index.html"])


def test_event_with_every_field(make_site: MakeSite) -> None:
    data = build_one(make_site, '''
        date_end = 2019-05-22T15:25:00
        timezone = "Europe/Madrid"
        authors = ["admin", "Kevin Wang"]
        event = "KubeCon Europe"
        event_url = "https://kccnceu19.sched.com/"
        location = "Barcelona, Spain"
        abstract = "Introducing *Volcano*"
        [address]
        street = "Av. Reina Maria Cristina"
        city = "Barcelona"
        postcode = "08004"
        country = "ES"
    ''', files={"talks/t/featured.jpg": b"jpg",
                "speakers.toml": '[admin]\nname = "Klaus Ma"\nurl = "https://github.com/k82cn"\n'
                                 'affiliation = "Huawei"\n'})
    assert data == {
        "@context": "https://schema.org", "@type": "Event", "name": "T",
        "startDate": "2019-05-22T14:50:00+02:00", "endDate": "2019-05-22T15:25:00+02:00",
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "url": "https://e.org/sub/t/",
        "location": {"@type": "Place", "name": "Barcelona, Spain", "address": {
            "@type": "PostalAddress", "streetAddress": "Av. Reina Maria Cristina",
            "addressLocality": "Barcelona", "postalCode": "08004", "addressCountry": "ES"}},
        "image": ["https://e.org/sub/t/featured.jpg"],
        "description": "Introducing Volcano",
        "performer": [
            {"@type": "Person", "name": "Klaus Ma", "url": "https://e.org/sub/speakers/klaus-ma/",
             "sameAs": ["https://github.com/k82cn"],
             "affiliation": {"@type": "Organization", "name": "Huawei"}},
            {"@type": "Person", "name": "Kevin Wang",
             "url": "https://e.org/sub/speakers/kevin-wang/"}],
        "organizer": {"@type": "Organization", "name": "KubeCon Europe",
                      "url": "https://kccnceu19.sched.com/"},
    }


def test_offset_is_the_one_of_that_day_in_the_venue_zone(make_site: MakeSite) -> None:
    winter = build_one(make_site, 'timezone = "America/New_York"', "2019-01-10T09:00:00")
    assert winter["startDate"] == "2019-01-10T09:00:00-05:00"
    assert winter["endDate"] == "2019-01-10T10:00:00-05:00"


def test_all_day_talks_give_dates_with_the_last_day_inclusive(make_site: MakeSite) -> None:
    data = build_one(make_site, "date_end = 2019-05-23", "2019-05-20")
    assert (data["startDate"], data["endDate"]) == ("2019-05-20", "2019-05-23")


@pytest.mark.parametrize(("location", "mode"), [
    ("Online", "online"), ("Virtual (Zoom)", "online"), ("Barcelona, Spain", "offline"),
    ("Tokyo & online", "mixed"), ("Hybrid: Berlin", "mixed"), ("", "offline")])
def test_attendance_mode_from_the_location(make_site: MakeSite, location: str,
                                           mode: str) -> None:
    data = build_one(make_site, f'location = "{location}"\nevent_url = "https://ev.org/"')
    assert data["eventAttendanceMode"] == f"https://schema.org/{mode.title()}EventAttendanceMode"
    places = data.get("location", [])
    places = places if isinstance(places, list) else [places]
    types = sorted(p["@type"] for p in places)
    expected = {"online": ["VirtualLocation"], "mixed": ["Place", "VirtualLocation"],
                "offline": ["Place"] if location else []}[mode]
    assert types == expected
    for place in places:
        if place["@type"] == "VirtualLocation":
            assert place["url"] == "https://ev.org/"
        else:
            assert place["address"] == location


@pytest.mark.parametrize(("status", "expected"), [
    ("cancelled", "EventCancelled"), ("postponed", "EventPostponed"), ("", "EventScheduled")])
def test_event_status(make_site: MakeSite, status: str, expected: str) -> None:
    data = build_one(make_site, f'status = "{status}"' if status else "")
    assert data["eventStatus"] == f"https://schema.org/{expected}"


def test_nothing_in_a_talk_can_close_the_script_element(make_site: MakeSite) -> None:
    title = "</script><script>alert(1)</script> & <!--"
    site = make_site({"talks/t.md": talk(title, extra='abstract = "</SCRIPT> x"')})
    page = outputs(render_site(site))["t/index.html"]
    block = re.search(rb'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert block is not None
    assert b"<" not in block.group(1) and b">" not in block.group(1)
    assert json.loads(block.group(1))["name"] == title


def test_script_is_strict_json() -> None:
    text = jsonld.script({"a": "x<y>&z", "b": [1.5, None, True]})
    assert json.loads(text) == {"a": "x<y>&z", "b": [1.5, None, True]}
    assert "<" not in text
