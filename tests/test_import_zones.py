"""`talkpages import`: the zone a talk's own location suggests, in the spellings of the
city's own language, and applied when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.commands.importers.report import ImportOptions, summary
from talkpages.content.frontmatter import split

from conftest import write_files

MEETUP = ("---\ntitle: Meetup\ndate: 2019-05-22T21:00:00Z\nlocation: {where}\n---\n")


@pytest.mark.parametrize("where, zone", [
    ("Новосибирск, Академгородок", "Asia/Novosibirsk"),
    ("г. Новосибирск", "Asia/Novosibirsk"),
    ("東京", "Asia/Tokyo"),
    ("ZÜRICH, Switzerland", "Europe/Zurich"),
    ("Zu\u0308rich", "Europe/Zurich"),  # decomposed ü
    ("Ciudad de México", "America/Mexico_City"),
])
def test_local_spellings_of_cities_suggest_their_zone(tmp_path: Path, where: str,
                                                      zone: str) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "", "content/event/m.md": MEETUP.format(where=where)})
    report = import_site("hugo", source, tmp_path / "site")
    assert report.ok, report.problems
    assert [n.hint[0] for n in report.zones if n.hint] == [zone]
    assert any(zone in line and "not applied" not in line for line in summary(report))


def test_apply_suggested_zones_gives_each_talk_its_zone(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/event/m.md": MEETUP.format(where="Новосибирск"),
        "content/event/n.md": "---\ntitle: N\ndate: 2019-05-23T18:30:00\n"
                              "location: Berlin\n---\n",
        "content/event/o.md": "---\ntitle: O\ndate: 2019-05-24T18:30:00Z\n"
                              "location: Nowhere\n---\n",
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site, ImportOptions(apply_suggested_zones=True))
    assert report.ok, report.problems
    m = split((site / "talks/m.md").read_text()).data
    assert m["timezone"] == "Asia/Novosibirsk" and str(m["date"]) == "2019-05-22 21:00:00"
    assert split((site / "talks/n.md").read_text()).data["timezone"] == "Europe/Berlin"
    o = split((site / "talks/o.md").read_text()).data
    assert "timezone" not in o and str(o["date"]) == "2019-05-24 18:30:00+00:00"
    lines = summary(report)
    assert any(line.startswith("Zones the files suggest, applied (2") for line in lines)
