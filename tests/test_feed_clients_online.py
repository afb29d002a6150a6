"""An online talk's feed as the five calendar implementations read it: the same
occurrence, the talk's page as its URL, and the meeting and the stream either as
CONFERENCE (RFC 7986: ical.js, node-ical, icalendar, libical keep it) or, where a
client shows none (khal), in the DESCRIPTION's lines."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

import feedclients
import feedprops
from icslint import lint
from talkpages.content.loader import LoadOptions

from conftest import build, require_tool, talk

PAGE = "https://talks.example.org/meetup/"
JOIN = "https://meet.example.org/abc-defg?pwd=1;x,y"
STREAM = "https://stream.example.org/live"
MISSING = feedclients.available()


@pytest.fixture(scope="module")
def feed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("online")
    (root / "site" / "talks").mkdir(parents=True)
    (root / "site" / "talks" / "meetup.md").write_text(talk("Meetup", "2030-05-22T18:00:00", f'''
        date_end = 2030-05-22T19:00:00
        timezone = "Europe/Madrid"
        join_url = "{JOIN}"
        livestream_url = "{STREAM}"
        registration_url = "https://tickets.example.org/m"
    '''), encoding="utf-8")
    (root / "site" / "talkpages.toml").write_text('base_url = "https://talks.example.org/"\n')
    result = build(root / "site", root / "out",
                   LoadOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc)))
    assert result.ok
    data = root / "out" / "calendar.ics"
    assert lint(data.read_bytes()) == []
    return data


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_reads_the_online_talk_alike(name: str, feed: Path) -> None:
    require_tool(MISSING[name] is None, f"{name}: {MISSING[name]}")
    assert feedclients.IMPLEMENTATIONS[name](feed, "2030-01-01", "2031-01-01") == [
        "meetup@talks.example.org|2030-05-22T16:00:00Z|2030-05-22T17:00:00Z||Meetup"]
    (row,) = feedprops.PROPERTIES[name](feed)
    uid, url, conferences, description = row.split("|", 3)
    assert (uid, url) == ("meetup@talks.example.org", PAGE)
    lines = description.split("\\n")
    # every client has the links in the description, whether it reads CONFERENCE or not
    assert f"Join: {JOIN}" in lines and f"Live stream: {STREAM}" in lines
    assert "Register: https://tickets.example.org/m" in lines
    if name == "khal":
        assert conferences == ""  # khal shows no CONFERENCE: the description carries them
    else:
        assert conferences.split(" ") == [JOIN, STREAM]
