"""Subscribed feeds that stay readable: `feed_window` keeps the past talks of the last
months in them (archive.ics keeps every talk), and a feed past 1 MB is a warning."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from talkpages.output import feedlimits
from talkpages.output.feedlimits import window_start

from conftest import NOW, MakeSite, RunCli, outputs, render_site, talk

UTC = timezone.utc
CONFIG = 'base_url = "https://talks.example.org/"\ntitle = "Example"\n'


def uids(data: bytes) -> list[str]:
    return sorted(re.findall(r"^UID:(.*?)@", data.decode("utf-8"), re.M))


@pytest.mark.parametrize(("now", "months", "start"), [
    (datetime(2026, 11, 21, tzinfo=UTC), 12, datetime(2025, 11, 21, tzinfo=UTC)),
    (datetime(2026, 3, 31, 9, tzinfo=UTC), 1, datetime(2026, 2, 28, 9, tzinfo=UTC)),
    (datetime(2024, 3, 31, tzinfo=UTC), 1, datetime(2024, 2, 29, tzinfo=UTC)),
    (datetime(2026, 1, 15, tzinfo=UTC), 13, datetime(2024, 12, 15, tzinfo=UTC)),
    (datetime(2026, 1, 15, tzinfo=UTC), 0, None),
    (datetime(5, 1, 15, tzinfo=UTC), 1200, None)])
def test_the_window_starts_calendar_months_back(now: datetime, months: int,
                                                start: datetime | None) -> None:
    assert window_start(now, months) == start


SITE = {
    "talks/old.md": talk("Old", "2023-05-10T18:00:00", 'tags = ["x"]\nauthors = ["Ann"]'),
    "talks/recent.md": talk("Recent", "2026-02-10T18:00:00", 'tags = ["x"]\nauthors = ["Ann"]'),
    "talks/soon.md": talk("Soon", "2027-02-10T18:00:00", 'tags = ["x"]\nauthors = ["Ann"]'),
    # a weekly series from 2020 whose last date is in the window, and one that ended
    "talks/series.md": talk("Series", "2020-01-07T18:00:00",
                            'recurrence = "FREQ=MONTHLY;UNTIL=20260107"\ntags = ["x"]'),
    "talks/ended.md": talk("Ended", "2020-01-07T18:00:00",
                           'recurrence = "FREQ=MONTHLY;COUNT=12"\ntags = ["x"]'),
    "talks/forever.md": talk("Forever", "2019-01-07T18:00:00",
                             'recurrence = "FREQ=YEARLY"\ntags = ["x"]'),
}
KEPT = ["forever", "recent", "series", "soon"]
ALL = sorted([*KEPT, "ended", "old"])


def test_the_window_keeps_recent_and_upcoming_talks_in_every_subscribed_feed(
        make_site: MakeSite) -> None:
    site = make_site({**SITE, "talkpages.toml": CONFIG + "feed_window = 12\n"})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    made = outputs(result)
    assert uids(made["calendar.ics"]) == KEPT
    assert uids(made["tags/x/calendar.ics"]) == KEPT
    assert uids(made["speakers/ann/calendar.ics"]) == ["recent", "soon"]
    archive = made["archive.ics"]
    assert uids(archive) == ALL
    assert b"X-WR-CALNAME:Example (archive)\r\n" in archive
    assert b"Every talk on Example\\, past ones included" in archive
    assert b"SOURCE;VALUE=URI:https://talks.example.org/archive.ics" in archive
    assert "old/index.html" in made and b"/old/" in made["sitemap.xml"]  # pages: all


def test_without_a_window_every_feed_has_every_talk_and_there_is_no_archive(
        make_site: MakeSite) -> None:
    site = make_site({**SITE, "talkpages.toml": CONFIG})
    made = outputs(render_site(site))
    assert uids(made["calendar.ics"]) == ALL and "archive.ics" not in made


def test_a_feed_past_one_megabyte_is_a_warning_at_build_and_in_check(
        make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feedlimits, "FEED_BYTES", 2000)  # five events' worth
    site = make_site({**SITE, "talkpages.toml": CONFIG})
    result = render_site(site)
    warnings = [d for d in result.diagnostics if "Google Calendar stops reading" in d.message]
    by_feed = {d.message.split(" ", 1)[0]: d for d in warnings}
    assert set(by_feed) == {"calendar.ics", "tags/x/calendar.ics"}  # not Ann's three
    calendar = by_feed["calendar.ics"]
    size = len(outputs(result)["calendar.ics"])
    assert calendar.severity == "warning"
    assert f"calendar.ics is 0.0 MB ({size:,} bytes, 6 events)" in calendar.message
    assert calendar.hint is not None and "feed_window = 12" in calendar.hint
    code, out, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and f"warning: calendar.ics is 0.0 MB ({size:,} bytes" in err
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and f"warning: calendar.ics is 0.0 MB ({size:,} bytes" in err
    (site / "talkpages.toml").write_text(CONFIG + "feed_window = 12\n", encoding="utf-8")
    monkeypatch.setattr(feedlimits, "FEED_BYTES", 1200)  # past the window's four events
    result = render_site(site)
    warned = [d.message for d in result.diagnostics if "Google" in d.message]
    assert warned and not any(m.startswith("archive.ics") for m in warned)
    assert all("a smaller feed_window" in (d.hint or "") for d in result.diagnostics
               if "Google" in d.message)


def test_a_site_of_3000_talks_over_years_keeps_its_feed_under_1_mb(make_site: MakeSite
                                                                   ) -> None:
    files: dict[str, str | bytes] = {"talkpages.toml": CONFIG + "feed_window = 12\n"}
    for n in range(3000):  # a talk every 2 or 3 days from 2007 to 2027
        year, day = 2007 + n // 150, 1 + (n % 150) * 2
        files[f"talks/t{n:04d}.md"] = talk(
            f"Talk number {n} about a subject", f"{year}-01-01T18:00:00",
            f'date_end = {year}-01-01T19:00:00\ntimezone = "Europe/Madrid"\n'
            f'location = "Room {n % 7}, Main building"\ntags = ["topic-{n % 5}"]\n'
            f'authors = ["Speaker {n % 40}"]\nabstract = "An abstract of a few words."'
        ).replace(f"{year}-01-01", f"{year}-{1 + day // 29:02d}-{1 + day % 28:02d}")
    result = render_site(make_site(files))
    assert result.ok, [d.format() for d in result.diagnostics][:3]
    made = outputs(result)
    calendar, archive = made["calendar.ics"], made["archive.ics"]
    assert archive.count(b"BEGIN:VEVENT") == 3000 and len(archive) > 1_000_000
    assert 100 < calendar.count(b"BEGIN:VEVENT") < 1100
    assert len(calendar) < 1_000_000
    assert not [d for d in result.diagnostics if "Google" in d.message]


def test_the_archive_is_written_beside_each_language_s_calendar(make_site: MakeSite,
                                                                 tmp_path: Path) -> None:
    site = make_site({**SITE, "talkpages.toml": CONFIG + 'feed_window = 12\n'
                      '[languages.de]\ntitle = "Beispiel"\n'})
    made = outputs(render_site(site))
    assert "archive.ics" in made and "de/archive.ics" in made
    assert b"X-WR-CALNAME:Beispiel (Archiv)\r\n" in made["de/archive.ics"]
