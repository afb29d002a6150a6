"""`talkpages import`: the zone an add-to-calendar widget or a Google Calendar link of a
talk's text states is the talk's, when the front matter's time is naive or UTC and means
the same; when the two disagree, the front matter's time is kept and the report shows
both. The widgets are small copies of those Hugo Blox and Wowchemy talks carry."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.commands.importers.report import ImportOptions, summary
from talkpages.commands.importers.widgetzones import stated_in
from talkpages.content.frontmatter import split

from conftest import write_files

BUTTON = ('<add-to-calendar-button name="Meetup" startDate="2024-05-22" startTime="18:30" '
          'endTime="20:30" timeZone="Europe/Berlin" options="\'Apple\',\'Google\'" '
          'lightMode="bodyScheme"></add-to-calendar-button>\n')
GOOGLE = ("[Add to Google Calendar](https://calendar.google.com/calendar/render?action=TEMPLATE"
          "&text=Meetup&dates=20240522T183000/20240522T203000&ctz=Europe/Berlin)\n")
GOOGLE_UTC = ('<a href="https://www.google.com/calendar/render?action=TEMPLATE&amp;text=M&amp;'
              'dates=20240522T163000Z/20240522T183000Z&amp;ctz=Europe/Berlin">Add</a>\n')
ADDEVENT = ('<div title="Add to Calendar" class="addeventatc">Add to Calendar\n'
            '<span class="start">22/05/2024 06:30 PM</span>\n'
            '<span class="end">22/05/2024 08:30 PM</span>\n'
            '<span class="timezone">Europe/Berlin</span>\n'
            '<span class="date_format">DD/MM/YYYY</span>\n</div>\n')
OLD_BUTTON = ('<div class="atcb" style="display:none;">\n{\n  "name":"Meetup",\n'
              '  "startDate":"2024-05-22",\n  "endDate":"2024-05-22",\n'
              '  "startTime":"18:30",\n  "endTime":"20:30",\n'
              '  "timeZone":"Europe/Berlin"\n}\n</div>\n')


def imported(tmp_path: Path, front: str, body: str, config: str = "",
             options: ImportOptions | None = None) -> tuple[dict, list[str]]:
    source = write_files(tmp_path / "old", {
        "config.toml": config,
        "content/event/m/index.md": f"---\ntitle: Meetup\n{front}---\n{body}"})
    report = import_site("hugo", source, tmp_path / "site", options)
    assert report.ok, [p.format() for p in report.problems]
    text = (tmp_path / "site/talks/m/index.md").read_text(encoding="utf-8")
    return split(text).data, summary(report)


@pytest.mark.parametrize("widget", [BUTTON, GOOGLE, GOOGLE_UTC, ADDEVENT, OLD_BUTTON])
def test_a_z_time_written_as_the_local_clock_takes_the_widgets_zone(
        tmp_path: Path, widget: str) -> None:
    data, lines = imported(tmp_path, "event_start: 2024-05-22T18:30:00Z\n", widget)
    assert data["timezone"] == "Europe/Berlin"
    assert data["date"] == datetime(2024, 5, 22, 18, 30)
    assert data["date_end"] == datetime(2024, 5, 22, 20, 30)
    head = lines.index("Zones the talks' add-to-calendar widgets state, applied (1):")
    assert "timezone = 'Europe/Berlin' and 2024-05-22 18:30–20:30 in Europe/Berlin " \
           "(16:30 UTC)" in lines[head + 1] and "(its end too)" in lines[head + 1]
    assert not any(line.startswith("Times written with Z") for line in lines)


def test_a_utc_time_of_the_same_instant_becomes_the_local_time(tmp_path: Path) -> None:
    data, _ = imported(tmp_path, "date: 2024-05-22T16:30:00Z\n", "Join us!\n\n" + BUTTON)
    assert (data["timezone"], data["date"]) == ("Europe/Berlin", datetime(2024, 5, 22, 18, 30))


def test_a_naive_time_read_in_the_old_sites_zone(tmp_path: Path) -> None:
    data, _ = imported(tmp_path, "date: 2024-05-22T17:30:00\n", BUTTON,
                       config='timeZone = "Europe/London"\n')
    assert (data["timezone"], data["date"]) == ("Europe/Berlin", datetime(2024, 5, 22, 18, 30))


def test_the_front_matters_end_keeps_its_meaning(tmp_path: Path) -> None:
    data, lines = imported(tmp_path, "date: 2024-05-22T16:30:00Z\n"
                           "date_end: 2024-05-22T19:00:00Z\n", BUTTON)
    assert data["date_end"] == datetime(2024, 5, 22, 21, 0)  # 19:00 UTC in Berlin
    assert not any("(its end too)" in line for line in lines)


def test_times_that_disagree_keep_the_front_matters_and_are_reported(tmp_path: Path) -> None:
    data, lines = imported(tmp_path, "date: 2024-05-22T09:00:00Z\n", BUTTON)
    assert "timezone" not in data and str(data["date"]) == "2024-05-22 09:00:00+00:00"
    head = next(i for i, line in enumerate(lines) if line.startswith("Times the talks' "
                                                                      "widgets state otherwise"))
    assert lines[head + 1].endswith(
        "an add-to-calendar-button states 2024-05-22 18:30–20:30 in Europe/Berlin (16:30 UTC), "
        "the front matter 2024-05-22T09:00:00Z")


@pytest.mark.parametrize("front", [
    "date: 2024-05-22T18:30:00+02:00\n",  # an offset of its own
    'date: 2024-05-22T18:30:00\ntimezone: "Europe/Paris"\n',  # a zone of its own
    "date: 2024-05-22\n",  # a day
])
def test_a_time_that_says_its_zone_is_left_alone(tmp_path: Path, front: str) -> None:
    data, lines = imported(tmp_path, front, BUTTON)
    assert data.get("timezone") in (None, "Europe/Paris")
    assert not any("widgets state" in line for line in lines)


def test_widgets_stating_different_times_state_none() -> None:
    assert stated_in(BUTTON + BUTTON.replace("18:30", "10:00")) is None
    assert stated_in(BUTTON + GOOGLE.replace("183000", "100000")) is None
    assert stated_in(BUTTON + GOOGLE) is not None  # the same, twice


@pytest.mark.parametrize("body", [
    BUTTON.replace("Europe/Berlin", "currentBrowser"),
    BUTTON.replace('startTime="18:30" ', ""),  # a day, no time
    BUTTON.replace("2024-05-22", "today+3"),
    GOOGLE.replace("&ctz=Europe/Berlin", ""),  # a time, no zone
    "<span class=\"start\">13/45/2024 06:30 PM</span><span class=\"timezone\">UTC</span>",
])
def test_what_states_no_zone_and_time(body: str) -> None:
    assert stated_in(body) is None


def test_with_apply_suggested_zones_the_widget_wins(tmp_path: Path) -> None:
    data, _ = imported(tmp_path, "date: 2024-05-22T18:30:00Z\nlocation: Tokyo\n", BUTTON,
                       options=ImportOptions(apply_suggested_zones=True))
    assert data["timezone"] == "Europe/Berlin"


def test_a_long_body_of_keys_is_read_in_time() -> None:
    import time

    body = 'startDate="' * 50_000 + "timeZone: 'x" * 50_000
    started = time.perf_counter()
    assert stated_in(body) is None
    assert time.perf_counter() - started < 3
