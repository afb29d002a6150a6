"""The calendar feed: framing, events, and time zones that clients read right."""

from __future__ import annotations

import bisect
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar
import pytest

from icslint import lint
from talkpages.output import ics
from talkpages.output.vtimezone import vtimezone

from conftest import MakeSite, outputs, render_site, talk

UTC = timezone.utc


def feed(make_site: MakeSite, files: dict[str, str], config: str = "") -> bytes:
    site = make_site({**files, "talkpages.toml": config or
                      'base_url = "https://talks.example.org/"\ntitle = "Example"\n'})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)["calendar.ics"]


def events(data: bytes) -> dict[str, icalendar.Event]:
    return {str(e["UID"]): e for e in icalendar.Calendar.from_ical(data).walk("VEVENT")}


def test_timed_talk_in_a_zone_has_tzid_and_vtimezone(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/bcn.md": talk("Barcelona", "2019-05-22T14:50:00", """
        date_end = 2019-05-22T15:25:00
        timezone = "Europe/Madrid"
    """)})
    text = data.decode()
    assert "DTSTART;TZID=Europe/Madrid:20190522T145000" in text
    assert "DTEND;TZID=Europe/Madrid:20190522T152500" in text
    assert text.count("BEGIN:VTIMEZONE") == 1 and "TZID:Europe/Madrid" in text
    assert "\nDURATION" not in text
    event = events(data)["bcn@talks.example.org"]
    assert event.decoded("DTSTART").astimezone(UTC) == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)


def test_naive_time_uses_the_site_zone_when_the_talk_has_none(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/a.md": talk("A", "2019-11-20T09:00:00")},
                'timezone = "Asia/Shanghai"\n')
    assert "DTSTART;TZID=Asia/Shanghai:20191120T090000" in data.decode()
    assert "DTEND;TZID=Asia/Shanghai:20191120T100000" in data.decode()  # default: 1 hour


def test_fixed_offset_talk_is_written_in_utc(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/tokyo.md": talk("Tokyo", "2024-03-01T10:00:00+09:00")})
    text = data.decode()
    assert "DTSTART:20240301T010000Z" in text
    assert "BEGIN:VTIMEZONE" not in text


def test_all_day_talks_have_an_exclusive_end_and_no_zone(make_site: MakeSite) -> None:
    data = feed(make_site, {
        "talks/one.md": talk("One day", "2019-05-22"),
        "talks/three.md": talk("Three days", "2019-05-20T00:00:00Z",
                               "date_end = 2019-05-22T00:00:00Z\nall_day = true")})
    text = data.decode()
    assert "DTSTART;VALUE=DATE:20190522\r\nDTEND;VALUE=DATE:20190523" in text
    assert "DTSTART;VALUE=DATE:20190520\r\nDTEND;VALUE=DATE:20190523" in text
    assert "TZID" not in text


def test_uid_survives_a_new_title_and_dtstamp_is_the_build_time(make_site: MakeSite) -> None:
    first = events(feed(make_site, {"talks/x.md": talk("Old title")}))
    second = events(feed(make_site, {"talks/x.md": talk("New title")}))
    assert list(first) == list(second) == ["x@talks.example.org"]
    stamp = first["x@talks.example.org"].decoded("DTSTAMP")
    assert stamp == datetime(2026, 11, 21, tzinfo=UTC)


def test_event_properties(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/x/index.md": talk("Commas, semicolons; back\\\\slash", extra="""
        authors = ["Ada", "Grace"]
        location = "Barcelona, Spain"
        event = "KubeCon"
        tags = ["k8s", "batch"]
        abstract = "About things."
        url_slides = "slides.pdf"
        lastmod = 2019-06-01T10:00:00Z
    """)})
    event = events(data)["x@talks.example.org"]
    assert str(event["SUMMARY"]) == "Commas, semicolons; back\\slash"
    assert str(event["LOCATION"]) == "Barcelona, Spain"
    assert str(event["URL"]) == "https://talks.example.org/x/"
    assert [str(c) for c in event["CATEGORIES"].cats] == ["k8s", "batch"]
    description = str(event["DESCRIPTION"])
    assert "About things." in description and "Speakers: Ada, Grace" in description
    assert "Slides: https://talks.example.org/x/slides.pdf" in description
    assert event.decoded("LAST-MODIFIED") == datetime(2019, 6, 1, 10, tzinfo=UTC)
    assert "ORGANIZER" not in event


def test_framing_crlf_and_folding_never_splits_a_character(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/long.md": talk("长" * 60 + " and more text " * 5)})
    assert not data.startswith(b"\xef\xbb\xbf")
    assert data.endswith(b"\r\n")
    for line in data.split(b"\r\n"):
        assert b"\n" not in line and b"\r" not in line
        assert len(line) <= 75
        line.decode("utf-8")  # every folded piece is whole UTF-8
    cal = icalendar.Calendar.from_ical(data)
    for key in ("PRODID", "VERSION"):
        assert key in cal
    assert "METHOD" not in cal


def test_calendar_properties(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/a.md": talk("A")},
                'base_url = "https://t.example.org/"\ncalendar_name = "My talks"\n'
                'description = "All of them"\n').decode()
    for line in ["NAME:My talks", "X-WR-CALNAME:My talks", "X-WR-CALDESC:All of them",
                 "REFRESH-INTERVAL;VALUE=DURATION:PT12H", "X-PUBLISHED-TTL:PT12H",
                 "SOURCE;VALUE=URI:https://t.example.org/calendar.ics",
                 "URL:https://t.example.org/"]:
        assert line + "\r\n" in data, line


def onsets(component: icalendar.Timezone) -> list[tuple[datetime, timedelta]]:
    """The UTC instants at which each observance of a VTIMEZONE begins, in order."""
    return sorted(((part.decoded("DTSTART") - part.decoded("TZOFFSETFROM")).replace(tzinfo=UTC),
                   part.decoded("TZOFFSETTO")) for part in component.subcomponents)


def offset_at(table: list[tuple[datetime, timedelta]], instant: datetime) -> timedelta:
    """Evaluate plain observances as a client would: the last onset before `instant` wins."""
    index = bisect.bisect_right([onset for onset, _ in table], instant) - 1
    assert index >= 0, f"no observance covers {instant}"
    return table[index][1]


@pytest.mark.parametrize("zone", ["Europe/Madrid", "America/Los_Angeles", "Asia/Shanghai",
                                  "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kathmandu",
                                  "Africa/Casablanca"])
def test_vtimezone_gives_the_same_offset_as_the_tz_database_every_hour(zone: str) -> None:
    component = icalendar.Calendar.from_ical(
        b"BEGIN:VCALENDAR\r\n" + ics.lines(vtimezone(zone, 2018, 2020)) + b"END:VCALENDAR\r\n"
    ).walk("VTIMEZONE")[0]
    tz = ZoneInfo(zone)
    table = onsets(component)
    instant = datetime(2018, 1, 1, tzinfo=UTC)
    while instant < datetime(2021, 1, 1, tzinfo=UTC):
        expected = instant.astimezone(tz).utcoffset()
        assert offset_at(table, instant) == expected, (zone, instant)
        instant += timedelta(hours=1)


def test_vtimezone_has_one_value_per_line_and_no_comment() -> None:
    text = ics.lines(vtimezone("Europe/Madrid", 2019, 2019)).decode()
    assert "RDATE" not in text and "RRULE" not in text and "COMMENT" not in text
    assert text.count("BEGIN:DAYLIGHT") == 3 and text.count("BEGIN:STANDARD") == 4


def test_talk_across_a_dst_change_keeps_its_real_length(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/night.md": talk("Night", "2019-10-27T01:30:00", """
        date_end = 2019-10-27T03:30:00
        timezone = "Europe/Madrid"
    """)})
    event = events(data)["night@talks.example.org"]
    length = event.decoded("DTEND").astimezone(UTC) - event.decoded("DTSTART").astimezone(UTC)
    assert length == timedelta(hours=3)  # the clocks went back an hour in between
    assert date(2019, 10, 27) == event.decoded("DTSTART").date()


def test_status_sequence_geo_and_an_explicit_uid(make_site: MakeSite) -> None:
    data = feed(make_site, {
        "talks/off.md": talk("Off", extra='status = "cancelled"\nsequence = 3\nuid = "fixed@x"'),
        "talks/later.md": talk("Later", extra='status = "postponed"\n'
                               "coordinates = {latitude = 41.3851, longitude = 2.1734}")})
    found = events(data)
    assert str(found["fixed@x"]["STATUS"]) == "CANCELLED"
    assert found["fixed@x"]["SEQUENCE"] == 3
    later = found["later@talks.example.org"]
    assert str(later["STATUS"]) == "TENTATIVE"
    assert "GEO:41.385100;2.173400" in data.decode()


def test_organizer_only_when_asked_for(make_site: MakeSite) -> None:
    assert b"ORGANIZER" not in feed(make_site, {"talks/a.md": talk("A")})
    data = feed(make_site, {"talks/a.md": talk("A")},
                'calendar_organizer = "talks@example.org"\nauthor = "Ada"\n').decode()
    assert "ORGANIZER;CN=Ada:mailto:talks@example.org" in data


def test_last_modified_is_never_after_now(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/a.md": talk("A", extra="lastmod = 2030-01-01T00:00:00Z"),
                            "talks/b.md": talk("B", extra="lastmod = 2020-01-01T00:00:00Z")})
    found = events(data)
    assert found["a@talks.example.org"].decoded("LAST-MODIFIED") == datetime(2026, 11, 21,
                                                                             tzinfo=UTC)
    assert found["b@talks.example.org"].decoded("LAST-MODIFIED") == datetime(2020, 1, 1,
                                                                             tzinfo=UTC)


def test_recurring_talk_in_the_feed(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/meetup.md": talk("Meetup", "2024-10-09T19:00:00", """
        timezone = "Europe/Madrid"
        recurrence = "FREQ=WEEKLY;UNTIL=20241106"
        exdates = [2024-10-23T19:00:00, 2024-10-30T19:00:00]
    """)}).decode()
    assert "RRULE:FREQ=WEEKLY;UNTIL=20241106T225959Z\r\n" in data
    assert "EXDATE;TZID=Europe/Madrid:20241023T190000\r\n" in data
    assert "EXDATE;TZID=Europe/Madrid:20241030T190000\r\n" in data


def test_feeds_per_tag_per_speaker_and_per_talk(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", extra='tags = ["K8s", "中文"]\nauthors = ["Ada"]'),
                      "talks/b.md": talk("B", extra='tags = ["k8s"]\nauthors = ["Grace"]'),
                      "talkpages.toml": 'base_url = "https://t.example.org/"\n'})
    files = outputs(render_site(site))
    tag = events(files["tags/k8s/calendar.ics"])
    assert sorted(tag) == ["a@t.example.org", "b@t.example.org"]
    assert sorted(events(files["speakers/ada/calendar.ics"])) == ["a@t.example.org"]
    assert "SOURCE;VALUE=URI:https://t.example.org/tags/%E4%B8%AD%E6%96%87/calendar.ics" in \
        files["tags/中文/calendar.ics"].decode()
    single = files["a/a.ics"].decode()
    assert single.count("BEGIN:VEVENT") == 1
    assert "X-WR-CALNAME" not in single and "REFRESH-INTERVAL" not in single


def test_google_and_outlook_links_carry_the_same_times(make_site: MakeSite) -> None:
    from urllib.parse import parse_qs, urlsplit

    from talkpages.output import ical

    site_dir = make_site({"talks/x.md": talk("X & Y", "2019-05-22T14:50:00",
                                             'date_end = 2019-05-22T15:25:00\n'
                                             'timezone = "Europe/Madrid"\nlocation = "BCN"')})
    result = render_site(site_dir)
    site = result.site
    assert site is not None
    google = parse_qs(urlsplit(ical.google_url(site, site.talks[0])).query)
    assert google["dates"] == ["20190522T125000Z/20190522T132500Z"]
    assert google["text"] == ["X & Y"] and google["ctz"] == ["Europe/Madrid"]
    outlook = parse_qs(urlsplit(ical.outlook_url(site, site.talks[0])).query)
    assert outlook["startdt"] == ["2019-05-22T12:50:00Z"]
    assert outlook["enddt"] == ["2019-05-22T13:25:00Z"] and outlook["location"] == ["BCN"]


def test_a_single_talk_at_an_ambiguous_time_is_written_in_utc(make_site: MakeSite) -> None:
    data = feed(make_site, {"talks/night.md": talk("Night", "2024-11-03T01:30:00",
                                                   'timezone = "America/New_York"')}).decode()
    assert "DTSTART:20241103T053000Z" in data  # the first 01:30, EDT


def test_an_unused_vtimezone_is_left_out_of_every_feed(make_site: MakeSite) -> None:
    """A talk whose start happens twice is written in UTC: its zone's VTIMEZONE would be
    used by nothing (RFC 5545 3.6.5) in its own file, its tag's and speaker's feeds and
    calendar.ics, unless another event there names the zone."""
    site = make_site({
        "talks/night.md": talk("Night", "2024-11-03T01:30:00", """
            timezone = "America/New_York"
            tags = ["Late"]
            authors = ["Owl"]
        """),
        "talks/day.md": talk("Day", "2024-11-04T10:00:00", """
            timezone = "Europe/Madrid"
            authors = ["Owl"]
        """),
        "talks/morning.md": talk("Morning", "2030-03-05T09:00:00", """
            timezone = "America/New_York"
        """),
        "talkpages.toml": 'base_url = "https://talks.example.org/"\n'})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    files = outputs(result)
    for path in ("night/night.ics", "tags/late/calendar.ics", "speakers/owl/calendar.ics"):
        text = files[path].decode()
        assert "DTSTART:20241103T053000Z" in text and "America/New_York" not in text, path
    assert "TZID:Europe/Madrid" in files["speakers/owl/calendar.ics"].decode()
    feed = files["calendar.ics"].decode()
    assert feed.count("BEGIN:VTIMEZONE") == 2 and "TZID:America/New_York" in feed
    # New York's zone is there for 2030 alone: the talk of 2024 does not use it.
    assert "DTSTART:2023" not in feed.split("TZID:America/New_York")[1].split("END:VTIME")[0]
    for path, data in files.items():
        if path.endswith(".ics"):
            assert lint(data) == [], path


def test_years_before_1000_are_written_with_four_digits(make_site: MakeSite) -> None:
    """strftime's %Y wrote the year 999 as `999`: DTSTART:9991231T233000Z, no date at all."""
    assert ics.day_stamp(date(999, 1, 2)) == "09990102"
    assert ics.local_stamp(datetime(999, 1, 2, 3, 4, 5)) == "09990102T030405"
    assert ics.utc_stamp(datetime(1000, 1, 1, 0, 30, tzinfo=timezone(timedelta(hours=1)))
                         ) == "09991231T233000Z"
    data = feed(make_site, {
        "talks/offset.md": talk("Offset", "1000-01-01T00:30:00+01:00"),
        "talks/zoned.md": talk("Zoned", "1000-01-01T10:00:00", """
            timezone = "Europe/Madrid"
            recurrence = "FREQ=YEARLY;UNTIL=10011231T000000Z"
            exdates = [1000-01-01T10:00:00]
        """)})
    text = data.decode()
    assert "DTSTART:09991231T233000Z" in text
    assert "DTSTART:09990101T000000" in text  # the VTIMEZONE starts the year before
    assert "UNTIL=10011231T000000Z" in text
    assert lint(data) == []


def test_a_talk_before_the_year_1000_is_an_error_at_its_line(make_site: MakeSite) -> None:
    for written in ("0990-05-22", "0999-12-31T23:00:00", "0999-12-31T23:30:00-01:00"):
        site = make_site({"talks/old.md": talk("Old", written)})
        result = render_site(site)
        assert not result.ok
        [problem] = [d for d in result.diagnostics if d.is_error]
        assert (problem.path.name, problem.line) == ("old.md", 3)  # type: ignore[union-attr]
        assert "`date` is in the year 99" in problem.message
        assert "from the year 1000 on" in problem.message


def test_the_description_is_the_abstract_s_words_not_its_markdown(make_site: MakeSite) -> None:
    """Regression: a feed, the talk's .ics and the Google and Outlook links carried the
    abstract's Markdown (`**18:30 in Berlin**`), which calendars show as it is."""
    data = feed(make_site, {"talks/a.md": talk(
        "A", extra='abstract = """**18:30 in Berlin**\n\nThe [slides](https://x.org/s) and '
                   '`code`.\n\n- one\n- two"""')})
    [event] = events(data).values()
    description = str(event["DESCRIPTION"])
    assert description.startswith("18:30 in Berlin\nThe slides (https://x.org/s) and code.\n"
                                  "one\ntwo\n")
    assert "**" not in description and "`" not in description


TITLED_FILES = {"talks/gone.md": talk("Gone", "2027-01-01T10:00:00", 'status = "cancelled"'),
                "talks/later.md": talk("Later", "2027-01-02T10:00:00", 'status = "postponed"'),
                "talks/on.md": talk("On", "2027-01-03T10:00:00")}
TITLED_CONFIG = 'base_url = "https://talks.example.org/"\ncancelled_in_feeds = "title"\n'


def test_cancelled_talks_stay_visible_where_google_hides_them(make_site: MakeSite) -> None:
    """Google Calendar hides STATUS:CANCELLED: "title" says it in the title instead."""
    plain = events(feed(make_site, TITLED_FILES))
    assert plain["gone@talks.example.org"]["STATUS"] == "CANCELLED"
    assert plain["gone@talks.example.org"]["SUMMARY"] == "Gone"
    titled = events(feed(make_site, TITLED_FILES, TITLED_CONFIG))
    gone, later, on = (titled[f"{slug}@talks.example.org"] for slug in ("gone", "later", "on"))
    assert "STATUS" not in gone and gone["SUMMARY"] == "Cancelled: Gone"
    assert later["STATUS"] == "TENTATIVE" and later["SUMMARY"] == "Postponed: Later"
    assert "STATUS" not in on and on["SUMMARY"] == "On"
    assert str(gone["DESCRIPTION"]).startswith("CANCELLED.")
    german = events(feed(make_site, TITLED_FILES, TITLED_CONFIG + 'language = "de"\n'))
    assert german["gone@talks.example.org"]["SUMMARY"] == "Abgesagt: Gone"
    assert german["later@talks.example.org"]["SUMMARY"] == "Verschoben: Later"


@pytest.mark.parametrize(("key", "value"), [("cancelled_in_feeds", '"hidden"'),
                                            ("feed_window", "-1"), ("feed_window", '"12"'),
                                            ("feed_window", "true")])
def test_the_feed_options_refuse_what_they_do_not_know(make_site: MakeSite, key: str,
                                                       value: str) -> None:
    site = make_site({"talks/a.md": talk(), "talkpages.toml": f"{key} = {value}\n"})
    result = render_site(site)
    assert not result.ok
    assert any(f"config value {key!r}" in d.message and d.line == 1
               for d in result.diagnostics)
