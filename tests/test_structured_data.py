"""Every talk page carries one valid schema.org Event whose times are the feed's.

- strict JSON (no NaN, no duplicate keys), as search engines parse it;
- a JSON Schema of what an Event may hold here: schema.org property names only, the
  eventStatus and eventAttendanceMode enumerations, Place with address or
  VirtualLocation with url (Google's rules), ISO 8601 dates with a UTC offset;
- startDate and endDate are the same instants as the calendar feed's DTSTART/DTEND.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import icalendar
import jsonschema
import pytest

from pagesite import BASE_URL

OFFSET_DATETIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$"
DATE = r"^\d{4}-\d{2}-\d{2}$"
URL = {"type": "string", "pattern": r"^https?://[^\s<>\"]+$"}
TEXT = {"type": "string", "minLength": 1}


def node(type_: str, required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": ["@type", *required], "additionalProperties": False,
            "properties": {"@type": {"const": type_}, **properties}}


POSTAL = node("PostalAddress", [], {
    name: TEXT for name in ("streetAddress", "addressLocality", "addressRegion", "postalCode",
                            "addressCountry")})
PLACE = node("Place", ["name", "address"], {
    "name": TEXT, "address": {"oneOf": [TEXT, POSTAL]},
    "geo": node("GeoCoordinates", ["latitude", "longitude"],
                {"latitude": {"type": "number"}, "longitude": {"type": "number"}})})
VIRTUAL = node("VirtualLocation", ["url"], {"url": URL})
ORGANIZATION = node("Organization", ["name"], {"name": TEXT, "url": URL})
PERSON = node("Person", ["name", "url"], {"name": TEXT, "url": URL,
                                           "sameAs": {"type": "array", "items": URL},
                                           "affiliation": ORGANIZATION})
EVENT_SCHEMA = {
    **node("Event", ["@context", "name", "startDate", "endDate", "eventStatus",
                     "eventAttendanceMode", "url"], {
        "@context": {"const": "https://schema.org"},
        "name": TEXT,
        "startDate": {"type": "string", "pattern": f"{OFFSET_DATETIME}|{DATE}"},
        "endDate": {"type": "string", "pattern": f"{OFFSET_DATETIME}|{DATE}"},
        "eventStatus": {"enum": [f"https://schema.org/{s}" for s in (
            "EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled",
            "EventMovedOnline")]},
        "eventAttendanceMode": {"enum": [f"https://schema.org/{m}EventAttendanceMode"
                                         for m in ("Offline", "Online", "Mixed")]},
        "url": URL,
        "location": {"oneOf": [PLACE, VIRTUAL,
                               {"type": "array", "minItems": 2, "maxItems": 2,
                                "prefixItems": [PLACE, VIRTUAL]}]},
        "image": {"type": "array", "items": URL, "minItems": 1},
        "description": TEXT,
        "performer": {"type": "array", "items": PERSON, "minItems": 1},
        "organizer": ORGANIZATION,
    }),
    "$schema": "https://json-schema.org/draft/2020-12/schema",
}


def strict_json(text: str) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"duplicate keys in {keys}"
        return dict(pairs)

    def no_constant(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)


def events(out: Path) -> dict[str, dict[str, Any]]:
    """The Event of every page, by the page's URL; pages without one are left out."""
    found: dict[str, dict[str, Any]] = {}
    for page in sorted(out.rglob("*.html")):
        blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>',
                            page.read_text(encoding="utf-8"), re.S)
        for block in blocks:
            data = strict_json(block)
            found[data["url"]] = data
    return found


def feed_events(out: Path) -> dict[str, icalendar.Event]:
    cal = icalendar.Calendar.from_ical((out / "calendar.ics").read_bytes())
    return {str(e["URL"]): e for e in cal.walk("VEVENT")}


def check_site(out: Path, talk_count: int) -> dict[str, dict[str, Any]]:
    found = events(out)
    talk_pages = [p for p in out.glob("*/index.html")
                  if p.parent.name not in ("tags", "speakers", "years", "page", "assets")]
    assert len(found) == len(talk_pages) == talk_count  # one Event on every talk page
    feed = feed_events(out)
    validator = jsonschema.Draft202012Validator(EVENT_SCHEMA)
    for url, event in found.items():
        errors = sorted(validator.iter_errors(event), key=lambda e: list(e.path))
        assert not errors, (url, [f"{list(e.path)}: {e.message}" for e in errors])
        start, end = event["startDate"], event["endDate"]
        item = feed[url]
        dtstart, dtend = item.decoded("DTSTART"), item.decoded("DTEND")
        if len(start) == 10:  # all-day: the feed's DTEND is the day after the last day
            assert type(dtstart) is date and (start, end) == (
                dtstart.isoformat(), (dtend - timedelta(days=1)).isoformat()), url
        else:
            assert datetime.fromisoformat(start) == dtstart, url
            assert datetime.fromisoformat(end) == dtend, url
            if getattr(dtstart, "tzinfo", None) is not None and str(dtstart.tzinfo) != "UTC":
                # the offset written is the zone's real offset on that day
                assert datetime.fromisoformat(start).utcoffset() == dtstart.utcoffset(), url
        assert event["name"] == str(item["SUMMARY"])
    return found


def test_example_site_events(example_out: Path) -> None:
    found = check_site(example_out, 18)
    seed = found["https://k82cn.github.io/talks/kubecon-eu-2019-kubernetes-batch-scheduling/"]
    assert (seed["startDate"], seed["endDate"]) == ("2019-05-22T14:50:00+02:00",
                                                    "2019-05-22T15:25:00+02:00")
    assert seed["location"] == {"@type": "Place", "name": "Barcelona, Europe",
                                "address": "Barcelona, Europe"}
    assert [p["name"] for p in seed["performer"]] == ["Kevin Wang"]
    assert seed["organizer"]["name"] == "KubeCon Europe"
    # Seattle, two days after the clocks went back: Pacific Standard Time, not daylight time
    seattle = found["https://k82cn.github.io/talks/kubecon-na-2016-kubernetes-on-ego/"]
    assert seattle["startDate"] == "2016-11-08T11:00:00-08:00"


def test_fixture_site_events(fixture_out: Path) -> None:
    found = check_site(fixture_out, 7)
    by_slug = {url[len(BASE_URL):].strip("/"): e for url, e in found.items()}
    assert by_slug["online"]["eventAttendanceMode"].endswith("/OnlineEventAttendanceMode")
    assert by_slug["online"]["location"] == {"@type": "VirtualLocation",
                                             "url": "https://remote.example.org/"}
    assert by_slug["online"]["startDate"] == "2099-06-01T12:00:00-04:00"
    assert by_slug["hybrid"]["eventAttendanceMode"].endswith("/MixedEventAttendanceMode")
    assert by_slug["cancelled"]["eventStatus"] == "https://schema.org/EventCancelled"
    assert by_slug["madrid"]["image"] == [BASE_URL + "madrid/featured-64.jpg"]  # its largest copy
    assert by_slug["madrid"]["location"]["address"]["@type"] == "PostalAddress"
    assert by_slug["summit"]["startDate"] == "2018-10-01"
    assert by_slug["escape"]["name"] == 'Quotes " and </script> & <b>tags</b>'
    assert by_slug["escape"]["startDate"] == "2017-01-15T09:00:00+09:00"


def test_the_schema_rejects_what_search_engines_would() -> None:
    validator = jsonschema.Draft202012Validator(EVENT_SCHEMA)
    good = {"@context": "https://schema.org", "@type": "Event", "name": "x",
            "startDate": "2019-05-22T14:50:00+02:00", "endDate": "2019-05-22T15:00:00+02:00",
            "eventStatus": "https://schema.org/EventScheduled",
            "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
            "url": "https://e.org/x/",
            "location": {"@type": "Place", "name": "B", "address": "B"}}
    assert validator.is_valid(good)
    for change in ({"startDate": "2019-05-22T14:50:00"},  # no offset
                   {"eventStatus": "Scheduled"}, {"speaker": "x"},
                   {"location": {"@type": "Place", "name": "B"}},  # no address
                   {"location": {"@type": "VirtualLocation"}}):  # no url
        assert not validator.is_valid({**good, **change}), change
    with pytest.raises(AssertionError):
        strict_json('{"a": NaN}')
    with pytest.raises(AssertionError):
        strict_json('{"a": 1, "a": 2}')
