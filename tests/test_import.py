"""`talkpages import`: fixture sites against their expected output, the real corpus,
safety (never overwrite, run twice), and the zone carried over.

UPDATE_GOLDEN=1 rewrites tests/fixtures/import/*-expected after a deliberate change;
read the diff before committing it.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.commands.importers.convert import raw_body
from talkpages.commands.importers.hugo import split_language
from talkpages.content.config import Config
from talkpages.content.frontmatter import split
from talkpages.content.loader import load_talk
from talkpages.content.model import slugify

from conftest import NOW, SHARED, MakeSite, talk

FIXTURES = Path(__file__).parent / "fixtures" / "import"
CORPUS = SHARED / "corpus" / "files"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and "public" not in p.parts}


@pytest.mark.parametrize("kind", ["hugo", "academicpages"])
def test_fixture_site_gives_the_expected_files_and_report(
        kind: str, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)  # messages name the fixture's files relative to it
    site = tmp_path / "site"
    code, out, err = run_cli("import", kind, f"{kind}-site", "-s", str(site))
    expected = FIXTURES / f"{kind}-expected"
    report = err.replace(str(site), "SITE")
    if os.environ.get("UPDATE_GOLDEN"):
        shutil.rmtree(expected, ignore_errors=True)
        shutil.copytree(site, expected)
        (FIXTURES / f"{kind}-report.txt").write_text(report, encoding="utf-8")
    assert code == 1  # each fixture has files that cannot be converted
    assert tree(site) == tree(expected)
    assert report == (FIXTURES / f"{kind}-report.txt").read_text(encoding="utf-8")
    assert "Imported" in out


def test_hugo_fixture_details(tmp_path: Path) -> None:
    source = FIXTURES / "hugo-site"
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    names = sorted(p.relative_to(site).as_posix() for p in report.written)
    assert names == ["talks/bilingual/index.de.md", "talks/bilingual/index.md",
                     "talks/blox-event/index.md", "talks/flat-yaml.md",
                     "talks/kubecon-2019/index.de.md", "talks/kubecon-2019/index.md",
                     "talks/nur-deutsch.de.md", "talks/old-talk.md", "talks/rmd/index.md",
                     "talks/with-slug.md", "talks/workshop.md"]
    assert sorted(p.name for p in report.failed) == ["bad-date.md", "broken.md"]
    assert report.copied == 3  # slides.pdf, featured.jpg, extra/notes.txt
    # the zone of the Hugo config, for the naive times
    assert 'timezone = "Europe/Berlin"\n' in (site / "talkpages.toml").read_text()
    # legacy fields normalised, the page's own date kept aside
    kubecon = (site / "talks/kubecon-2019/index.md").read_text()
    assert "date = 2019-05-22T14:50:00\ndate_end = 2019-05-22T15:25:00\n" in kubecon
    assert "page_date = 2019-04-01T00:00:00" in kubecon and "time_start" not in kubecon
    assert '{ name = "Schedule", url = "https://sched.co/MPi7" }' in kubecon
    # offsets kept as written
    assert "date = 2023-09-14T09:00:00-04:00" in (site / "talks/blox-event/index.md").read_text()
    # the body byte for byte, CRLF included, but for a shortcode turned into a field
    for source_file, target in [("content/talk/flat-yaml.md", "talks/flat-yaml.md"),
                                ("content/talk/kubecon-2019/index.md",
                                 "talks/kubecon-2019/index.md")]:
        old = (source / source_file).read_bytes().decode()
        new = (site / target).read_bytes().decode()
        assert raw_body(new, split(new).body_line) == raw_body(
            old, split(old).body_line).replace("{{< youtube rpN9IsihEKI >}}\n", "")
    assert 'url_video = "https://www.youtube.com/watch?v=rpN9IsihEKI"' in kubecon
    assert (site / "talks/flat-yaml.md").read_bytes().count(b"\r\n") == \
        (site / "talks/flat-yaml.md").read_bytes().count(b"\n")
    assert (site / "talks/kubecon-2019/extra/notes.txt").read_text() == "notes\n"
    skipped = {path.name: why for path, why in report.twins}
    assert list(skipped) == ["index.html"]  # the translations are imported
    assert "rendered copy of index.Rmd" in skipped["index.html"]


def test_imported_site_builds_with_the_same_times(tmp_path: Path, run_cli) -> None:
    site = tmp_path / "site"
    import_site("hugo", FIXTURES / "hugo-site", site)
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat(), "--drafts")
    assert code == 0, err
    assert "Built 9 talks" in out
    feed = (site / "public/calendar.ics").read_text()
    assert "DTSTART;TZID=Europe/Berlin:20190522T145000" in feed  # naive, in Hugo's zone
    assert "DTSTART:20230914T130000Z" in feed  # 09:00-04:00
    assert "DTSTART;VALUE=DATE:20220307" in feed


def test_import_twice_changes_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    first = import_site("hugo", FIXTURES / "hugo-site", site)
    before = tree(site)
    second = import_site("hugo", FIXTURES / "hugo-site", site)
    assert tree(site) == before
    assert second.written == [] and second.copied == 0
    assert sorted(second.unchanged) == sorted(first.written)
    assert second.failed == first.failed


def test_import_never_overwrites(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "talks/workshop.md").parent.mkdir(parents=True)
    (site / "talks/workshop.md").write_text(talk("Mine"))
    (site / "talks/kubecon-2019").mkdir()
    (site / "talks/kubecon-2019/slides.pdf").write_bytes(b"my own slides")
    (site / "talks/flat-yaml").mkdir()
    (site / "talks/flat-yaml/index.md").write_text(talk("Bundle form"))
    report = import_site("hugo", FIXTURES / "hugo-site", site)
    assert (site / "talks/workshop.md").read_text() == talk("Mine")
    assert (site / "talks/kubecon-2019/slides.pdf").read_bytes() == b"my own slides"
    assert not (site / "talks/flat-yaml.md").exists()
    messages = [p.format() for p in report.problems]
    assert any("workshop.md exists and differs" in m for m in messages)
    assert any("slides.pdf exists and differs" in m for m in messages)
    assert any("flat-yaml.md:1:1: error: not imported: the slug 'flat-yaml' belongs to" in m
               and m.endswith("talks/flat-yaml/index.md\n  hint: give one of them another "
                              '`slug = "…"`') for m in messages)


def test_slug_taken_by_an_existing_talk_is_reported(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    (site / "talks/mine.md").write_text(talk("Mine", extra='slug = "custom-slug"'))
    report = import_site("hugo", FIXTURES / "hugo-site", site)
    (problem,) = [p for p in report.problems if "belongs to" in p.message]
    assert problem.path is not None and problem.path.name == "with-slug.md"
    assert not (site / "talks/with-slug.md").exists()


def test_existing_config_with_another_zone_keeps_naive_times(tmp_path: Path,
                                                             make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'timezone = "Asia/Tokyo"\n'}, root=tmp_path / "s")
    report = import_site("hugo", FIXTURES / "hugo-site", site)
    assert "Asia/Tokyo" in report.config_note
    assert (site / "talkpages.toml").read_text() == 'timezone = "Asia/Tokyo"\n'
    kubecon = (site / "talks/kubecon-2019/index.md").read_text()
    assert 'date_end = 2019-05-22T15:25:00\ntimezone = "Europe/Berlin"\n' in kubecon
    blox = (site / "talks/blox-event/index.md").read_text()
    assert "timezone" not in blox  # its times carry their offset
    old = (site / "talks/old-talk.md").read_text()
    assert old.count("timezone") == 1  # its own zone, kept


@pytest.mark.parametrize(("folder", "count"), [("content", 11), ("content/talk", 6)])
def test_path_may_be_the_content_folder_or_a_section(tmp_path: Path, folder: str,
                                                     count: int) -> None:
    site = tmp_path / "site"
    report = import_site("hugo", FIXTURES / "hugo-site" / folder, site)
    assert len(report.written) == count
    # the zone of the site's config, above the folder
    assert 'timezone = "Europe/Berlin"\n' in (site / "talkpages.toml").read_text()
    assert "hugo-site/config.toml" in report.config_note


NAIVE = talk("Berlin talk", "2019-05-22T14:50:00")  # 12:50 UTC in Berlin's summer


@pytest.mark.parametrize("config", [
    "config.toml", "hugo.toml", "config.yaml", "hugo.yaml", "config/_default/config.toml",
    "config/_default/hugo.yaml"])
def test_import_of_content_talk_no_longer_loses_the_old_sites_zone(tmp_path: Path,
                                                                    config: str) -> None:
    """`import hugo site/content/talk/` read the talks' naive times as UTC, an hour off
    for a Berlin talk: the site's config, above the folder given, was never read."""
    old = tmp_path / "old"
    (old / config).parent.mkdir(parents=True, exist_ok=True)
    (old / config).write_text('timeZone = "Europe/Berlin"\n' if config.endswith(".toml")
                              else "timeZone: Europe/Berlin\n")
    (old / "content/talk").mkdir(parents=True)
    (old / "content/talk/berlin.md").write_text(NAIVE)
    site = tmp_path / "site"
    report = import_site("hugo", old / "content/talk", site)
    assert report.ok and len(report.written) == 1
    assert (site / "talkpages.toml").read_text().endswith('timezone = "Europe/Berlin"\n')
    assert f"timeZone in {old / config}" in report.config_note
    imported, _ = load_talk(site / "talks/berlin.md", "berlin",
                            Config(timezone="Europe/Berlin"))
    assert imported is not None
    assert imported.schedule.start_utc.isoformat() == "2019-05-22T12:50:00+00:00"


def test_academicpages_talks_folder_takes_the_zone_of_config_yml(tmp_path: Path) -> None:
    site = tmp_path / "site"
    report = import_site("academicpages", FIXTURES / "academicpages-site" / "_talks", site)
    assert (site / "talkpages.toml").read_text().endswith('timezone = "America/New_York"\n')
    assert "academicpages-site/_config.yml" in report.config_note


def test_a_config_above_that_is_not_the_sites_is_not_read(tmp_path: Path) -> None:
    """The walk up takes a config only when its content folder holds PATH, and it stops
    at a repository's root: a stranger's folder reads nothing of the folders above."""
    (tmp_path / "config.toml").write_text('timeZone = "Asia/Tokyo"\n')
    talks = tmp_path / "notes/talks"
    talks.mkdir(parents=True)
    (talks / "berlin.md").write_text(NAIVE)
    report = import_site("hugo", talks, tmp_path / "site1")
    assert "Asia/Tokyo" not in report.config_note  # its content/ is not where PATH is
    repo = tmp_path / "content"  # inside the content folder of that config, but a repository
    (repo / ".git").mkdir(parents=True)
    (repo / "talk").mkdir()
    (repo / "talk/berlin.md").write_text(NAIVE)
    report = import_site("hugo", repo / "talk", tmp_path / "site2")
    assert "Asia/Tokyo" not in report.config_note
    assert not (tmp_path / "site2/talkpages.toml").exists()
    (warning,) = [p for p in report.problems if "zone is unknown" in p.message]
    assert warning.format().startswith(f"{repo / 'talk'}: warning: naive times of 1 talk "
                                       "were read as UTC: no Hugo config")
    assert "Naive times are read as UTC (no Hugo config" in report.config_note


def test_folder_of_talk_files_and_unknown_folder(tmp_path: Path, run_cli) -> None:
    code, _, err = run_cli("import", "hugo", str(tmp_path / "nowhere"), "-s",
                           str(tmp_path / "site"))
    assert code == 1 and "does not exist" in err
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli("import", "hugo", str(tmp_path / "empty"), "-s",
                           str(tmp_path / "site"))
    assert code == 1 and "no talk files found" in err


def test_import_into_a_site_with_a_broken_config_writes_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "talkpages.toml").write_text('timezone = "Mars/Olympus"\n')
    report = import_site("hugo", FIXTURES / "hugo-site", site)
    assert not report.ok and not (site / "talks").exists()


CORPUS_FILES = sorted(CORPUS.iterdir()) if CORPUS.is_dir() else []


def name(path: Path) -> str:
    """The name a flat file is imported under: `x.en.md` is the English `x`."""
    return split_language(path.stem)[0]


@pytest.mark.skipif(not CORPUS_FILES, reason=f"the corpus is absent ({CORPUS})")
def test_corpus_every_parsable_file_is_converted_and_the_broken_reported(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    report = import_site("hugo", CORPUS, site)
    loadable = {p for p in CORPUS_FILES if _converts(p)}
    page_dates = {p for p in loadable if load_talk(p, slugify(p.stem), Config())[0] is None}
    ends = {p for p in page_dates if _end_before_start(p)}
    assert len(page_dates - ends) == 2  # a broken publishDate: imported without it
    assert len(ends) == 11  # an end before the start, which Hugo published all the same
    for path in page_dates:
        assert any(p.path == path and "imported without" in p.message
                   for p in report.problems)
    twins = {path for path, why in report.twins if "rendered copy" in why}
    assert len(twins) == 1  # a blogdown index.html beside its index.Rmd
    converted = {site / "talks" / f"{name(p)}.md" for p in loadable - twins}
    assert set(report.written) == converted
    widgets = {path for path, why in report.skipped if "headless" in why or "widget" in why}
    assert len(widgets) == 3  # sections of a page made of widgets: no talks
    assert set(report.failed) == set(CORPUS_FILES) - loadable - widgets
    for path in report.failed:  # each with its file, line and reason
        errors = [p for p in report.problems if p.path == path and p.is_error]
        assert errors and all(e.line for e in errors), path
    assert len(report.written) + len(report.failed) + len(twins) + len(widgets) == \
        len(CORPUS_FILES)
    print(f"\ncorpus import: {len(CORPUS_FILES)} files, {len(report.written)} converted, "
          f"{len(report.failed)} reported as broken, {len(twins)} skipped as a rendered copy")
    # what was written loads, with the same times as the original
    for source in sorted(loadable - twins - page_dates):
        original, _ = load_talk(source, slugify(source.stem), Config())
        target = site / "talks" / f"{name(source)}.md"
        imported, problems = load_talk(target, slugify(source.stem), Config())
        assert imported is not None, [p.format() for p in problems]
        assert original is not None
        assert imported.schedule.start_utc == original.schedule.start_utc, source
        assert imported.schedule.end_utc == original.schedule.end_utc, source
        assert imported.schedule.zone == original.schedule.zone, source
        assert imported.title == original.title
        players = {path for path, _ in report.embedded}  # made the recording, links
        if "{{" not in original.body and source not in players:  # and shortcodes
            assert imported.body == original.body
    again = import_site("hugo", CORPUS, site)
    assert again.written == [] and len(again.unchanged) == len(report.written)


def _converts(path: Path) -> bool:
    """The file loads, or would without its page's broken publishDate, or its end
    before its start."""
    talk, problems = load_talk(path, slugify(path.stem), Config())
    return talk is not None or all("`publishdate`" in p.message or "is before" in p.message
                                   for p in problems if p.is_error)


def _end_before_start(path: Path) -> bool:
    _, problems = load_talk(path, slugify(path.stem), Config())
    return any("is before" in p.message for p in problems if p.is_error)


BOMB_CONFIG = "a0: &a0 [" + ", ".join(['"lol"'] * 9) + "]\n" + "".join(
    f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]\n" for n in range(1, 9))


@pytest.mark.parametrize("kind, config, words", [
    ("hugo", "config.yaml", "cannot read the Hugo config: invalid YAML: the alias `*a0`"),
    ("hugo", "config/_default/params.yaml", "cannot read the Hugo config: invalid YAML"),
    ("academicpages", "_config.yml", "cannot read the Jekyll config: invalid YAML: the alias"),
])
def test_alias_bomb_in_an_imported_config_is_refused_at_its_line(
        tmp_path: Path, kind: str, config: str, words: str) -> None:
    source = tmp_path / "old"
    shutil.copytree(FIXTURES / f"{kind}-site", source)
    for existing in ("config.toml", "hugo.toml", "config.yaml", "_config.yml"):
        (source / existing).unlink(missing_ok=True)
    (source / config).parent.mkdir(parents=True, exist_ok=True)
    (source / config).write_text(f"timeZone: Europe/Madrid\n{BOMB_CONFIG}", encoding="utf-8")
    report = import_site(kind, source, tmp_path / "site")
    found = [p for p in report.problems if p.path == source / config]
    assert len(found) == 1 and words in found[0].message
    assert (found[0].line, found[0].column) == (3, 10)


@pytest.mark.parametrize("name, text, words", [
    ("config.toml", "n = " + "1" * 5000 + "\n", "invalid TOML: integer"),
    ("config.json", "[" * 100_000, "cannot read the Hugo config"),
    ("config.yaml", "n: !!timestamp nonsense\n", "`nonsense` cannot be read as !!timestamp"),
])
def test_broken_hugo_config_is_a_warning_not_an_internal_error(
        tmp_path: Path, name: str, text: str, words: str) -> None:
    source = tmp_path / "old"
    (source / "content" / "talk").mkdir(parents=True)
    (source / "content" / "talk" / "a.md").write_text(talk("A"), encoding="utf-8")
    (source / name).write_text(text, encoding="utf-8")
    report = import_site("hugo", source, tmp_path / "site")
    assert [p.message for p in report.problems if p.path == source / name and words in p.message]
    assert len(report.written) == 1


CONFIGS = [("hugo", "config.toml"), ("hugo", "config/_default/params.toml"),
           ("academicpages", "_config.yml")]


def _site_without_config(tmp_path: Path, kind: str) -> Path:
    source = tmp_path / "old"
    shutil.copytree(FIXTURES / f"{kind}-site", source)
    for existing in ("config.toml", "hugo.toml", "config.yaml", "_config.yml"):
        (source / existing).unlink(missing_ok=True)
    return source


@pytest.mark.parametrize("kind, config", CONFIGS)
def test_imported_config_linked_out_of_the_site_is_not_read(
        tmp_path: Path, kind: str, config: str) -> None:
    source = _site_without_config(tmp_path, kind)
    if config.startswith("config/"):
        (source / "hugo.toml").write_text('title = "Old"\n', encoding="utf-8")
    secret = tmp_path / "secret.toml"
    secret.write_text('timeZone = "Asia/Tokyo"\ntimezone = "Asia/Tokyo"\n', encoding="utf-8")
    (source / config).parent.mkdir(parents=True, exist_ok=True)
    (source / config).unlink(missing_ok=True)
    (source / config).symlink_to(secret)
    report = import_site(kind, source, tmp_path / "site")
    found = [p for p in report.problems if p.path == source / config]
    assert len(found) == 1 and found[0].severity == "warning", report.problems
    assert "config" in found[0].message and "leads out of the site folder" in found[0].message
    assert report.written and "Asia/Tokyo" not in str(report)


def test_hugo_config_folder_linked_out_of_the_site_is_not_read(tmp_path: Path) -> None:
    source = _site_without_config(tmp_path, "hugo")
    (source / "hugo.toml").write_text('title = "Old"\n', encoding="utf-8")
    elsewhere = tmp_path / "elsewhere" / "_default"
    elsewhere.mkdir(parents=True)
    (elsewhere / "params.toml").write_text('timeZone = "Asia/Tokyo"\n', encoding="utf-8")
    (source / "config").symlink_to(elsewhere.parent)
    report = import_site("hugo", source, tmp_path / "site")
    found = [p for p in report.problems if "leads out of the site folder" in p.message]
    assert found and all(p.severity == "warning" for p in found), report.problems
    assert report.written and "Asia/Tokyo" not in str(report)


@pytest.mark.parametrize("kind, config", CONFIGS)
def test_imported_config_that_is_a_pipe_is_a_warning_not_a_hang(
        tmp_path: Path, kind: str, config: str) -> None:
    source = _site_without_config(tmp_path, kind)
    (source / config).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(source / config)
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(
        import_site(kind, source, tmp_path / "site")), daemon=True)
    thread.start()
    thread.join(timeout=30)
    if not done:  # the read blocks: open the pipe for writing to let the thread end
        with open(source / config, "wb"):
            pass
        thread.join(timeout=30)
        pytest.fail("reading the config waited on a pipe")
    found = [p for p in done[0].problems if p.path == source / config]  # type: ignore[attr-defined]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "not a file" in found[0].message
