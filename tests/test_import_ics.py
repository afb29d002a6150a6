"""`talkpages import ics`: the events of a calendar file (pretalx, Indico, a feed of
another talkpages site) become talk files that build into the same events."""

from __future__ import annotations

import os
import shutil
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

import feedclients
from talkpages.commands.importers import sources
from talkpages.content.loader import LoadOptions

from conftest import build, render, require_tool

FIXTURES = Path(__file__).parent / "fixtures"
PRETALX = FIXTURES / "import" / "pretalx.ics"


def test_a_feed_survives_the_round_trip_with_its_uids(run_cli, tmp_path: Path) -> None:
    """Build the feed fixture, import its calendar.ics into an empty site, build that:
    the same events at the same UTC instants, with the same UIDs."""
    require_tool(feedclients.available()["recurring-ical-events"] is None,
                 "recurring-ical-events is missing")
    first = tmp_path / "first"
    fixture = tmp_path / "feed-site"  # a copy: a build keeps its cache in the site's folder
    shutil.copytree(FIXTURES / "feed-site", fixture,
                    ignore=shutil.ignore_patterns(".talkpages-cache"))
    assert build(fixture, first, LoadOptions(
        now=datetime(2024, 1, 1, tzinfo=timezone.utc))).ok
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(first / "calendar.ics"), "-s", str(site))
    assert code == 0, err
    assert "Imported 11 talks" in out
    second = tmp_path / "second"
    assert build(site, second, LoadOptions(now=datetime(2024, 1, 1, tzinfo=timezone.utc))).ok
    expected = (FIXTURES / "feed-site" / "expected.txt").read_text().splitlines()
    assert feedclients.python(second / "calendar.ics", "2000-01-01", "2100-01-01") == expected


def test_pretalx_export(run_cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(PRETALX), "-s", str(site))
    assert code == 1  # one event has no title: reported, the rest imported
    assert "has no SUMMARY" in err and "RECURRENCE-ID" not in err
    assert "change to one occurrence of demo-2025-series" in err
    files = sorted(p.name for p in (site / "talks").iterdir())
    assert files == ["scheduling-batch-jobs-fairly-2.md", "scheduling-batch-jobs-fairly.md",
                     "weekly-office-hour.md", "workshop-days.md"]
    talk = (site / "talks/scheduling-batch-jobs-fairly.md").read_text()
    for line in ['title = "Scheduling batch jobs, fairly"', "date = 2025-06-12 14:30:00",
                 "date_end = 2025-06-12 15:15:00", 'timezone = "Europe/Berlin"',
                 'event = "DemoCon 2025"', 'uid = "demo-2025-ABC123@pretalx.example.org"',
                 "sequence = 2", 'status = "confirmed"', "latitude = 52.52"]:
        assert line in talk, line
    assert "How queues share a cluster.\n\nSpeakers: Ada" in talk
    workshop = (site / "talks/workshop-days.md").read_text()
    assert "date = 2025-06-11" in workshop and "date_end" not in workshop.split("all_day")[0] \
        or "date_end = 2025-06-12" in workshop
    series = (site / "talks/weekly-office-hour.md").read_text()
    assert 'recurrence = "FREQ=WEEKLY;COUNT=4"' in series and "2025-06-16 18:00:00" in series
    result = render(site, LoadOptions(now=datetime(2025, 1, 1, tzinfo=timezone.utc)))
    assert result.ok, [d.format() for d in result.diagnostics]
    cancelled = next(t for t in result.site.talks if t.cancelled)  # type: ignore[union-attr]
    assert cancelled.schedule.start_utc == datetime(2025, 6, 13, 8, tzinfo=timezone.utc)


def test_import_again_changes_nothing_and_never_overwrites(run_cli, tmp_path: Path) -> None:
    site = tmp_path / "site"
    run_cli("import", "ics", str(PRETALX), "-s", str(site))
    before = {p.name: p.read_bytes() for p in (site / "talks").iterdir()}
    code, out, _ = run_cli("import", "ics", str(PRETALX), "-s", str(site))
    assert "4 imported before, left as they are" in out
    assert {p.name: p.read_bytes() for p in (site / "talks").iterdir()} == before
    (site / "talks/workshop-days.md").write_text("+++\ntitle = 'Mine'\ndate = 2020-01-01\n+++\n")
    run_cli("import", "ics", str(PRETALX), "-s", str(site))
    assert "Mine" in (site / "talks/workshop-days.md").read_text()  # left as it was
    assert "Workshop days" in (site / "talks/workshop-days-2.md").read_text()


@pytest.mark.parametrize("content", [b"not a calendar", b"", b"\xff\xfe\x00garbage"])
def test_a_file_that_is_not_a_calendar_is_reported(run_cli, tmp_path: Path,
                                                   content: bytes) -> None:
    source = tmp_path / "x.ics"
    source.write_bytes(content)
    code, _, err = run_cli("import", "ics", str(source), "-s", str(tmp_path / "site"))
    assert code == 1 and "Traceback" not in err
    assert "x.ics" in err


CONTROLS = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nX-WR-CALNAME:Conf\x1b[31m\r\n"
            b"BEGIN:VEVENT\r\nUID:a\x07b@example.org\r\nDTSTAMP:20250101T000000Z\r\n"
            b"DTSTART:20250612T143000Z\r\nDTEND:20250612T153000Z\r\n"
            b"SUMMARY:Bell\x07 talk\r\nLOCATION:Room\x01 1\r\nCATEGORIES:a\x02,b\r\n"
            b"DESCRIPTION:Line one\\nline\x0c two\twith a tab\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def test_control_characters_in_a_calendar_are_dropped_and_remarked(run_cli,
                                                                   tmp_path: Path) -> None:
    source = tmp_path / "controls.ics"
    source.write_bytes(CONTROLS)
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(source), "-s", str(site))
    assert code == 0, err
    assert "Imported 1 talk" in out
    assert "@example.org): 6 control characters dropped from its text" in err
    assert "error" not in err
    talk = (site / "talks" / "bell-talk.md").read_text(encoding="utf-8")
    for line in ['title = "Bell talk"', 'location = "Room 1"', 'event = "Conf[31m"',
                 'uid = "ab@example.org"', '"a",', "Line one\nline two\twith a tab"]:
        assert line in talk, line
    result = render(site, LoadOptions(now=datetime(2025, 1, 1, tzinfo=timezone.utc)))
    assert result.ok and not result.diagnostics, [d.format() for d in result.diagnostics]


ONE_EVENT = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\n"
             b"UID:one@example.org\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250612T143000Z\r\n"
             b"SUMMARY:Piped\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def _unreadable(monkeypatch: pytest.MonkeyPatch, source: Path) -> None:
    """As a user without the right to read it sees it (tests may run as root)."""
    real_open = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> int:
        if Path(path) == source:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)


@pytest.mark.parametrize("kind, message", [
    ("folder", "the path to import is a folder, not a calendar file"),
    ("missing", "the calendar file to import does not exist"),
    ("pipe", "nothing writes into this pipe"),
    ("unreadable", "cannot read the calendar file: Permission denied"),
    ("inside a file", "cannot read the calendar file: Not a directory"),
])
def test_import_ics_of_a_folder_missing_pipe_or_unreadable_path_is_a_clear_error(
        run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str,
        message: str) -> None:
    source = tmp_path / "feed\x1b[2J.ics"
    if kind == "folder":
        source.mkdir()
    elif kind == "pipe":
        os.mkfifo(source)
        monkeypatch.setattr(sources, "WRITER_WAIT", 0.2)
    elif kind == "unreadable":
        source.write_bytes(PRETALX.read_bytes())
        _unreadable(monkeypatch, source)
    elif kind == "inside a file":
        (tmp_path / "file").write_text("x")
        source = tmp_path / "file" / "feed.ics"
    done: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: done.append(run_cli(
        "import", "ics", str(source), "-s", str(tmp_path / "site"))), daemon=True)
    worker.start()
    worker.join(10)
    assert done, "the import waits for ever"
    code, out, err = done[0]
    assert code == 1, err
    shown = source.name.replace("\x1b", "\\x1b")  # escaped, as every message shows it
    assert f"{shown}: error: {message}" in err
    assert "Traceback" not in err and "internal error" not in err and "\x1b" not in err
    assert not (tmp_path / "site" / "talks").exists()


@pytest.mark.parametrize("how", ["substitution", "fifo", "late fifo", "late and slow fifo"])
def test_import_ics_reads_a_pipe_that_something_writes_into(
        run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """`talkpages import ics <(curl …)`: the shell hands over a pipe whose writer is
    there and may be slow to send its first bytes; a named pipe's writer may open it a
    moment after the import did (a race that once failed the import)."""
    if how == "substitution":
        reader, writer_end = os.pipe()
        source = Path(f"/dev/fd/{reader}")

        def write() -> None:
            time.sleep(0.3)  # curl still connecting
            with os.fdopen(writer_end, "wb") as pipe:
                pipe.write(ONE_EVENT)
    else:
        source = tmp_path / "feed.ics"
        os.mkfifo(source)

        monkeypatch.setattr(sources, "WRITER_WAIT", 0.5)

        def write() -> None:
            if how != "fifo":
                time.sleep(0.2)  # the import has opened the pipe and found no writer
            with open(source, "wb") as pipe:  # waits for the import to open it
                if how == "late and slow fifo":
                    time.sleep(0.8)  # connected, and silent past WRITER_WAIT
                pipe.write(ONE_EVENT)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        code, out, err = run_cli("import", "ics", str(source), "-s", str(tmp_path / "site"))
    finally:
        if how == "substitution":
            os.close(reader)
    writer.join(10)
    assert code == 0, err
    assert "Imported 1 talk" in out


REFUSED = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:fine@example.org
SUMMARY:Fine talk
DTSTART:20250612T143000Z
END:VEVENT
BEGIN:VEVENT
UID:secondly@example.org
SUMMARY:Every second
DTSTART:20250612T143000Z
RRULE:FREQ=SECONDLY
END:VEVENT
BEGIN:VEVENT
UID:backwards@example.org
SUMMARY:Backwards
DTSTART:20250612T143000Z
DTEND:20250612T133000Z
END:VEVENT
END:VCALENDAR
"""


def test_import_ics_imports_only_events_the_loader_accepts(run_cli, tmp_path: Path) -> None:
    """An event the loader refuses (RRULE:FREQ=SECONDLY, an end before the start) was
    written as a talk the next build failed on, and counted as imported."""
    source = tmp_path / "feed.ics"
    source.write_text(REFUSED, encoding="utf-8")
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(source), "-s", str(site))
    assert code == 1
    assert "Imported 1 talk " in out
    assert [p.name for p in (site / "talks").iterdir()] == ["fine-talk.md"]
    assert "feed.ics:13: error: event 2 (secondly@example.org) not imported (RRULE)" in err
    assert "FREQ=DAILY, WEEKLY, MONTHLY or YEARLY" in err
    assert "feed.ics:19: error: event 3 (backwards@example.org) not imported (DTEND)" in err
    assert "internal error" not in err
    assert render(site, LoadOptions(now=datetime(2025, 1, 1, tzinfo=timezone.utc))).ok


@pytest.mark.parametrize("zone", ["../../etc/passwd", "Mars/Olympus", "Europe/Ber\x1blin"])
def test_import_ics_names_a_tzid_that_is_no_known_zone(run_cli, tmp_path: Path,
                                                       zone: str) -> None:
    """A TZID that is no IANA zone (and no VTIMEZONE of the file) was dropped without a
    word: the time was read as the site's own zone."""
    source = tmp_path / "feed.ics"
    source.write_text(ONE_EVENT.decode().replace(
        "DTSTART:20250612T143000Z", f"DTSTART;TZID={zone}:20250612T143000"),
        encoding="utf-8", newline="")
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(source), "-s", str(site))
    assert code == 1
    assert "feed.ics:7: error: event 1 (one@example.org) not imported (DTSTART)" in err
    assert ("is not a known time zone" in err or "cannot be read" in err) and "\x1b" not in err
    assert not (site / "talks").exists() or not list((site / "talks").iterdir())


def test_import_ics_keeps_a_zone_the_calendar_defines(run_cli, tmp_path: Path) -> None:
    source = tmp_path / "feed.ics"
    zone = ("BEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nBEGIN:STANDARD\r\n"
            "DTSTART:16010101T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\n"
            "DTSTART:16010101T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
            "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n")
    text = ONE_EVENT.decode().replace("BEGIN:VEVENT", zone + "BEGIN:VEVENT").replace(
        "DTSTART:20250612T143000Z", "DTSTART;TZID=W. Europe Standard Time:20250612T143000")
    source.write_text(text, encoding="utf-8", newline="")
    site = tmp_path / "site"
    code, out, err = run_cli("import", "ics", str(source), "-s", str(site))
    assert code == 0, err
    assert "date = 2025-06-12 12:30:00+00:00" in (site / "talks/piped.md").read_text()


def test_import_ics_a_talks_folder_link_is_refused_before_anything_is_read(
        run_cli, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("+++\ntitle = 'Secret'\ndate = 2020-01-01\n+++\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "talks").symlink_to(outside)
    source = tmp_path / "feed.ics"
    source.write_bytes(ONE_EVENT)
    code, _, err = run_cli("import", "ics", str(source), "-s", str(site))
    assert code == 1 and "talks: error: this folder is a link" in err
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_import_ics_counts_an_event_with_two_errors_once(run_cli, tmp_path: Path) -> None:
    source = tmp_path / "feed.ics"
    source.write_text(REFUSED.replace("DTEND:20250612T133000Z",
                                      "GEO:200;10\nRRULE:FREQ=SECONDLY"),
                      encoding="utf-8")
    code, out, err = run_cli("import", "ics", str(source), "-s", str(tmp_path / "site"))
    assert code == 1
    assert "feed.ics:19: error: event 3 (backwards@example.org) not imported (GEO)" in err
    assert "feed.ics:20: error: event 3 (backwards@example.org) not imported (RRULE)" in err
    assert "2 files not imported" in err  # events 2 and 3
