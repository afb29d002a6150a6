"""The feed as real clients read it: five implementations must agree with each other
and with a hand-checked list, including through the subscribe flow.

Clients: ical.js (Thunderbird) and node-ical from npm, icalendar +
recurring-ical-events from PyPI, libical (Evolution) and khal + vdirsyncer from Debian.
Each test skips with the reason when its client is absent; CI installs them all and
turns those skips into failures (TALKPAGES_REQUIRE_TOOLS=1).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

import feedclients
from icslint import lint
from talkpages.content.loader import LoadOptions

from conftest import ROOT, MakeSite, RunCli, build, cli_build, require_tool, talk

FIXTURE = Path(__file__).parent / "fixtures" / "feed-site"
EXPECTED = (FIXTURE / "expected.txt").read_text(encoding="utf-8").splitlines()
GOLDEN = FIXTURE / "calendar.golden.ics"
FIXTURE_NOW = datetime(2024, 1, 1, tzinfo=timezone.utc)
MISSING = feedclients.available()


def need(name: str) -> None:
    require_tool(MISSING[name] is None, f"{name}: {MISSING[name]}")


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("feed-site")
    site = folder / "site"  # a copy: a build keeps its cache in the site's folder
    shutil.copytree(FIXTURE, site, ignore=shutil.ignore_patterns(".talkpages-cache"))
    out = folder / "public"
    result = build(site, out, LoadOptions(now=FIXTURE_NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    return out


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "public"
    result = build(ROOT, out, LoadOptions(now=datetime(2026, 11, 21, tzinfo=timezone.utc)))
    assert result.ok
    return out


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_reads_the_fixture_feed_as_hand_checked(name: str,
                                                            fixture_site: Path) -> None:
    need(name)
    rows = feedclients.IMPLEMENTATIONS[name](fixture_site / "calendar.ics", "2000-01-01",
                                             "2100-01-01")
    assert rows == EXPECTED


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_agrees_on_the_example_site(name: str, example_site: Path) -> None:
    need(name)
    need("recurring-ical-events")
    feed = example_site / "calendar.ics"
    reference = feedclients.python(feed, "2000-01-01", "2100-01-01")
    assert len(reference) == 18
    assert ("kubecon-eu-2019-kubernetes-batch-scheduling@k82cn.github.io|"
            "2019-05-22T12:50:00Z|2019-05-22T13:25:00Z||Intro: Kubernetes Batch Scheduling"
            ) in reference
    assert feedclients.IMPLEMENTATIONS[name](feed, "2000-01-01", "2100-01-01") == reference


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_an_endless_series_stays_right_years_after_it_starts(name: str, make_site: MakeSite,
                                                             tmp_path: Path) -> None:
    """The VTIMEZONE must reach as far as clients expand a series with no end."""
    need(name)
    site = make_site({"talks/forever.md": talk("Forever", "2026-01-07T19:00:00", """
        date_end = 2026-01-07T20:00:00
        timezone = "Europe/Madrid"
        recurrence = "FREQ=WEEKLY;BYDAY=WE"
    """), "talkpages.toml": 'base_url = "https://t.example.org/"\n'})
    result = build(site, tmp_path / "out", LoadOptions(now=datetime(2026, 1, 1,
                                                                    tzinfo=timezone.utc)))
    assert result.ok
    rows = feedclients.IMPLEMENTATIONS[name](tmp_path / "out/calendar.ics", "2035-03-19",
                                             "2035-04-05")
    starts = [row.split("|")[1] for row in rows]
    # Clocks go forward on Sunday 25 March 2035: 19:00 CET, then 19:00 CEST.
    assert starts == ["2035-03-21T18:00:00Z", "2035-03-28T17:00:00Z", "2035-04-04T17:00:00Z"]


# One series of each kind a talk may have, all starting on the talk's own date,
# Wednesday 9 October 2024 at 19:00 in Madrid (clocks go back on 27 October).
SERIES = [
    "FREQ=DAILY;COUNT=4", "FREQ=DAILY;INTERVAL=10;UNTIL=20241231",
    "FREQ=DAILY;BYDAY=WE,TH;BYMONTH=10;COUNT=6", "FREQ=DAILY;BYMONTHDAY=9,10;COUNT=5",
    "FREQ=DAILY;BYHOUR=19,21;COUNT=4", "FREQ=WEEKLY;BYDAY=WE,FR;COUNT=6",
    "FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,WE;COUNT=6", "FREQ=WEEKLY;BYMONTH=10;COUNT=6",
    "FREQ=WEEKLY;BYDAY=WE;BYHOUR=19;BYMINUTE=0,30;COUNT=4", "FREQ=MONTHLY;BYDAY=2WE;COUNT=4",
    "FREQ=MONTHLY;BYDAY=-4WE;COUNT=3", "FREQ=MONTHLY;BYMONTHDAY=9,-1;COUNT=5",
    "FREQ=MONTHLY;BYDAY=WE;BYMONTHDAY=8,9,10,11,12,13,14;COUNT=3",
    "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,7;COUNT=5",
    "FREQ=MONTHLY;BYDAY=2WE;BYMONTH=10,12;COUNT=4", "FREQ=MONTHLY;INTERVAL=13;COUNT=3",
    "FREQ=YEARLY;COUNT=3", "FREQ=YEARLY;BYMONTH=10,11;BYDAY=2WE;COUNT=4",
    "FREQ=YEARLY;BYMONTH=10;BYDAY=WE;BYSETPOS=2;COUNT=3", "FREQ=YEARLY;BYDAY=WE;COUNT=4",
    "FREQ=YEARLY;BYMONTH=4,10;BYMONTHDAY=9;COUNT=3", "FREQ=YEARLY;BYYEARDAY=283,-1;COUNT=4",
]


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_reads_every_kind_of_series_as_the_site_does(name: str,
                                                                 make_site: MakeSite,
                                                                 tmp_path: Path) -> None:
    """The rules talkpages accepts are the ones every client expands alike."""
    need(name)
    site = make_site({**{f"talks/s{n}.md": talk(f"S{n}", "2024-10-09T19:00:00",
                                                f'date_end = 2024-10-09T20:00:00\n'
                                                f'timezone = "Europe/Madrid"\n'
                                                f'recurrence = "{rule}"')
                         for n, rule in enumerate(SERIES)},
                      "talkpages.toml": 'base_url = "https://t.example.org/"\n'})
    result = build(site, tmp_path / "out", LoadOptions(now=FIXTURE_NOW))
    assert result.ok and result.site is not None, [d.format() for d in result.diagnostics]
    utc = "%Y-%m-%dT%H:%M:%SZ"
    expected = sorted(f"{t.slug}@t.example.org|{o.start_utc:{utc}}|{o.end_utc:{utc}}||{t.title}"
                      for t in result.site.talks for o in t.occurrences)
    assert len(expected) > 4 * len(SERIES)
    assert feedclients.IMPLEMENTATIONS[name](tmp_path / "out/calendar.ics", "2024-01-01",
                                             "2030-01-01") == expected


MOVED_SITE = {
    "talkpages.toml": 'base_url = "https://t.example.org/"\n',
    "talks/moved.md": talk("Moved", "2027-03-10T18:00:00", 'timezone = "Europe/Madrid"'),
    "talks/called-off.md": talk("Called off", "2027-04-10T18:00:00",
                                'timezone = "Europe/Madrid"'),
    "talks/kept.md": talk("Kept", "2027-04-11T10:00:00", 'timezone = "Europe/Madrid"')}


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_reads_a_moved_and_a_cancelled_talk_of_a_second_build(
        name: str, make_site: MakeSite, run_cli: RunCli) -> None:
    """The feed a second build makes once a talk moved and another was cancelled, its
    SEQUENCE raised from sequence.lock: read alike by every client, as hand-checked."""
    need(name)
    site = make_site(MOVED_SITE)
    assert cli_build(run_cli, site) == (0, "")
    for name_, old, new in (("moved.md", "18:00", "19:30"),
                            ("called-off.md", "+++\nBody", 'status = "cancelled"\n+++\nBody')):
        path = site / "talks" / name_
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert cli_build(run_cli, site) == (0, "")
    feed = site / "public" / "calendar.ics"
    assert feed.read_bytes().count(b"SEQUENCE:1\r\n") == 2
    assert feedclients.IMPLEMENTATIONS[name](feed, "2027-01-01", "2028-01-01") == [
        "called-off@t.example.org|2027-04-10T16:00:00Z|2027-04-10T17:00:00Z|CANCELLED|"
        "Called off",
        "kept@t.example.org|2027-04-11T08:00:00Z|2027-04-11T09:00:00Z||Kept",
        "moved@t.example.org|2027-03-10T18:30:00Z|2027-03-10T19:30:00Z||Moved"]


def test_fixture_feed_matches_its_golden_copy(fixture_site: Path) -> None:
    data = (fixture_site / "calendar.ics").read_bytes()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_bytes(data)
    assert data == GOLDEN.read_bytes()


def test_every_feed_of_both_sites_passes_the_framing_lint(fixture_site: Path,
                                                          example_site: Path) -> None:
    feeds = [*fixture_site.rglob("*.ics"), *example_site.rglob("*.ics")]
    assert len(feeds) > 30
    for feed in feeds:
        assert lint(feed.read_bytes()) == [], feed


def test_the_lint_catches_what_it_should() -> None:
    good = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\n"
            b"DTSTAMP:20240101T000000Z\r\nDTSTART:20240101T000000Z\r\nSUMMARY:a\\, b\r\n"
            b"END:VEVENT\r\nEND:VCALENDAR\r\n")
    assert lint(good) == []
    assert lint(good.replace(b"\r\n", b"\n"))
    assert lint(good.replace(b"a\\, b", b"a, b"))
    assert lint(good.replace(b"UID:a\r\n", b""))
    assert lint(good.replace(b"DTSTART:20240101T000000Z", b"DTSTART;TZID=X/Y:20240101T000000"))
    assert lint(good.replace(b"DTSTART:20240101T000000Z", b"DTSTART:9990101T000000Z"))
    assert lint(b"\xef\xbb\xbf" + good)
    assert lint(good.replace(b"SUMMARY:a\\, b", b"SUMMARY:" + "é".encode() * 40))


@pytest.fixture
def served(fixture_site: Path) -> Iterator[str]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".ics": "text/calendar; charset=utf-8"}

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(fixture_site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


VDIRSYNCER_CONFIG = """[general]
status_path = "{work}/status/"

[pair subscription]
a = "site"
b = "local"
collections = null
conflict_resolution = "a wins"

[storage site]
type = "http"
url = "{url}/calendar.ics"

[storage local]
type = "filesystem"
path = "{work}/vdir/"
fileext = ".ics"
"""


def test_subscribe_flow_with_vdirsyncer_and_khal(served: str, tmp_path: Path) -> None:
    require_tool(shutil.which("vdirsyncer") is not None, "Debian's vdirsyncer is missing")
    need("khal")
    (tmp_path / "vdir").mkdir()
    config = tmp_path / "vdirsyncer.conf"
    config.write_text(VDIRSYNCER_CONFIG.format(work=tmp_path, url=served))
    for command in (["discover", "subscription"], ["sync"]):
        done = subprocess.run(["vdirsyncer", "-c", str(config), *command], capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stdout + done.stderr
    assert len(list((tmp_path / "vdir").glob("*.ics"))) == len(
        {row.split("|")[0] for row in EXPECTED})
    rows = feedclients.khal_list(tmp_path / "vdir", "2000-01-01", "2100-01-01", tmp_path)
    # vdirsyncer's http storage replaces every UID with a hash of the item, by design.
    without_uid = sorted(row.split("|", 1)[1] for row in rows)
    assert without_uid == sorted(row.split("|", 1)[1] for row in EXPECTED)
