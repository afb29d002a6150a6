"""`talkpages import … --replace`: importing again over an earlier import, with other
options, writes the talks and the settings that import wrote; nothing else, and never
through a link. The messages say what the site's config really holds."""

from __future__ import annotations

from pathlib import Path

from talkpages.commands.importers import import_site
from talkpages.commands.importers.report import ImportOptions, summary
from talkpages.content.frontmatter import split

from conftest import write_files

Z_TALK = "---\ntitle: {title}\ndate: 2021-03-04T18:30:00Z\n---\nMeetup.\n"
BERLIN = ImportOptions(timezone="Europe/Berlin", assume_local_z=True)


def _old_site(tmp_path: Path) -> Path:
    return write_files(tmp_path / "old", {
        "config.toml": 'title = "Meetups"\n',
        "content/event/a/index.md": Z_TALK.format(title="A"),
        "content/event/b.md": Z_TALK.format(title="B"),
    })


def test_following_the_zone_hint_without_replace_says_what_the_config_holds(
        tmp_path: Path) -> None:
    source, site = _old_site(tmp_path), tmp_path / "site"
    assert import_site("hugo", source, site).ok
    assert "timezone" not in (site / "talkpages.toml").read_text()
    report = import_site("hugo", source, site, BERLIN)
    assert not report.written
    assert "talkpages.toml sets no timezone (so UTC)" in report.config_note
    assert "timezone = 'UTC'" not in report.config_note
    differs = [p for p in report.problems if "exists and differs" in p.message]
    assert len(differs) == 2 and all("--replace" in (p.hint or "") for p in differs)


def test_replace_imports_again_with_the_new_options(tmp_path: Path) -> None:
    source, site = _old_site(tmp_path), tmp_path / "site"
    assert import_site("hugo", source, site).ok
    report = import_site("hugo", source, site, ImportOptions(
        timezone="Europe/Berlin", assume_local_z=True, replace=True))
    assert report.ok, report.problems
    assert sorted(p.name for p in report.replaced) == ["b.md", "index.md"]
    data = split((site / "talks/a/index.md").read_text()).data
    assert str(data["date"]) == "2021-03-04 18:30:00" and "timezone" not in data
    config = (site / "talkpages.toml").read_text()  # the import's own, written again
    assert 'timezone = "Europe/Berlin"' in config and 'title = "Meetups"' in config
    assert any("Replaced 2 talk files" in line for line in summary(report))
    # a third run with the same options finds everything as it is
    again = import_site("hugo", source, site, ImportOptions(
        timezone="Europe/Berlin", assume_local_z=True, replace=True))
    assert not again.replaced and len(again.unchanged) == 2


def test_replace_keeps_a_config_someone_added_to_and_the_talks_name_their_zone(
        tmp_path: Path) -> None:
    source, site = _old_site(tmp_path), tmp_path / "site"
    assert import_site("hugo", source, site).ok
    with (site / "talkpages.toml").open("a") as config:
        config.write('description = "Our meetups"\n')
    before = (site / "talkpages.toml").read_text()
    report = import_site("hugo", source, site, ImportOptions(
        timezone="Europe/Berlin", assume_local_z=True, replace=True))
    assert report.ok, report.problems
    assert (site / "talkpages.toml").read_text() == before
    assert "sets no timezone (so UTC)" in report.config_note
    assert split((site / "talks/b.md").read_text()).data["timezone"] == "Europe/Berlin"


def test_replace_never_writes_through_a_link(tmp_path: Path) -> None:
    source, site = _old_site(tmp_path), tmp_path / "site"
    assert import_site("hugo", source, site).ok
    outside = tmp_path / "outside.md"
    outside.write_text("mine\n")
    (site / "talks/b.md").unlink()
    (site / "talks/b.md").symlink_to(outside)
    report = import_site("hugo", source, site, ImportOptions(
        timezone="Europe/Berlin", assume_local_z=True, replace=True))
    assert outside.read_text() == "mine\n" and (site / "talks/b.md").is_symlink()
    assert any(p.path == site / "talks/b.md" and "link" in p.message
               for p in report.problems)
    assert [p.name for p in report.replaced] == ["index.md"]


def test_the_command_line_takes_replace_and_apply_suggested_zones(
        tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    source, site = _old_site(tmp_path), tmp_path / "site"
    assert run_cli("import", "hugo", str(source), "-s", str(site))[0] == 0
    again = ("import", "hugo", str(source), "-s", str(site), "--timezone", "Europe/Berlin",
             "--assume-local-z")
    code, _out, err = run_cli(*again)
    assert "exists and differs" in err
    code, _out, err = run_cli(*again, "--replace", "--apply-suggested-zones")
    assert code == 0, err
    assert "Europe/Berlin" in (site / "talkpages.toml").read_text()
