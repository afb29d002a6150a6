"""What `talkpages import` reports, and what it keeps of a talk the old site published
in spite of a flaw: every line true, each file named once."""

from __future__ import annotations

from pathlib import Path

from talkpages.commands.importers import import_site
from talkpages.commands.importers.report import summary
from talkpages.content.frontmatter import split

from conftest import write_files


def test_a_talk_whose_end_is_before_its_start_is_imported_without_the_end(
        tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/event/meetup/index.md": "---\ntitle: Meetup\n"
        "event_start: 2019-05-22T18:30:00Z\nevent_end: 2019-05-21T20:00:00Z\n---\nText.\n",
        "content/talk/day.md": "---\ntitle: Day\ndate: 2019-05-22\ndate_end: 2019-05-20\n"
        "all_day: true\n---\n",
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok and len(report.written) == 2, report.problems
    data = split((site / "talks/meetup/index.md").read_text()).data
    assert str(data["date"]) == "2019-05-22 18:30:00+00:00"
    assert "date_end" not in data and "event_end" not in data
    warning = next(p for p in report.problems if p.path.name == "index.md")
    assert warning.severity == "warning" and warning.line == 4
    assert warning.message.startswith("`event_end` (2019-05-21T20:00:00+00:00) is before the "
                                      "start (2019-05-22T18:30:00+00:00): the talk is "
                                      "imported without its end")
    assert "date_end" not in split((site / "talks/day.md").read_text()).data


def test_a_copy_of_a_talk_not_imported_is_not_said_to_be_imported(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "[languages.en]\n[languages.de]\n",
        "content/talk/broken/index.Rmd": "---\ntitle: [\n---\n",
        "content/talk/broken/index.html": "---\ntitle: Broken\ndate: 2019-01-01\n---\n",
        "content/talk/broken/index.de.md": "---\ntitle: Kaputt\ndate: 2019-01-01\n---\n",
        "content/talk/fine/index.Rmd": "---\ntitle: Fine\ndate: 2019-01-01\n---\n",
        "content/talk/fine/index.html": "---\ntitle: Fine\ndate: 2019-01-01\n---\n",
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    whys = {path.parent.name: why for path, why in report.twins}
    assert whys["fine"].endswith("which is imported")
    assert whys["broken"].endswith("which was not imported either")
    warned = [p for p in report.problems if p.path.name == "index.html"]
    assert len(warned) == 1 and "not imported either" in warned[0].message
    # the German version is a talk of its own language all the same
    assert (site / "talks/broken/index.de.md").is_file()


def test_translations_are_listed_once(tmp_path: Path) -> None:
    files = {"config.toml": 'defaultContentLanguage = "en"\n'
             '[languages.en]\ncontentDir = "content/en"\n'
             '[languages.ru]\ncontentDir = "content/ru"\n'}
    for n in range(3):
        talk = f"---\ntitle: T{n}\ndate: 2019-01-0{n + 1}T10:00:00Z\n---\n"
        files[f"content/en/talk/t{n}/index.md"] = talk
        files[f"content/ru/talk/t{n}/index.md"] = talk
    source = write_files(tmp_path / "old", files)
    report = import_site("hugo", source, tmp_path / "site")
    assert report.ok and len(report.written) == 6 and not report.twins
    assert len(set(report.written)) == 6
    lines = summary(report)
    assert lines[0] == "By language: 3 en, 3 ru (a talk's translations share its name and slug)"
    assert not any("content/ru/talk" in line for line in lines)


def test_naive_times_are_mentioned_only_when_a_talk_has_one(tmp_path: Path) -> None:
    z_only = write_files(tmp_path / "z", {
        "config.toml": "",
        "content/talk/a.md": "---\ntitle: A\ndate: 2019-01-01T10:00:00Z\n---\n",
        "content/talk/b.md": "---\ntitle: B\ndate: 2019-01-02\n---\n",
    })
    report = import_site("hugo", z_only, tmp_path / "site-z")
    assert report.ok and "Naive" not in report.config_note
    assert not any("naive" in line.lower() for line in summary(report))
    naive = write_files(tmp_path / "naive", {
        "config.toml": "", "content/talk/a.md": "---\ntitle: A\ndate: 2019-01-01T10:00:00\n---\n"})
    report = import_site("hugo", naive, tmp_path / "site-naive")
    assert report.config_note.startswith("Naive times are read as UTC")
