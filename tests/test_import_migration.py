"""`talkpages import hugo`: what the old site meant survives the move: talks in nested
folders with one name, author profiles, and more (one small site a test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.content.frontmatter import split

from conftest import photo, write_files


def yaml_talk(title: str, date: str, extra: str = "") -> str:
    return f"---\ntitle: {title}\ndate: {date}\n{extra}---\nBody.\n"


def test_nested_folders_with_one_name_are_all_imported_under_names_of_their_own(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old"\n',
        "content/event/2018/joker/index.md": yaml_talk("Joker 2018", "2018-10-19T10:00:00"),
        "content/event/2019/joker/index.md": yaml_talk("Joker 2019", "2019-10-25T10:00:00"),
        "content/event/2019/devoxx/index.md": yaml_talk("Devoxx", "2019-11-05T10:00:00"),
        "content/talk/same/index.md": yaml_talk("Same A", "2017-03-01T10:00:00"),
        "content/talk/same.md": yaml_talk("Same B", "2016-03-01T10:00:00"),
    })
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    names = sorted(p.relative_to(site / "talks").as_posix()
                   for p in (site / "talks").rglob("*.md"))
    assert names == ["devoxx/index.md", "joker-2018/index.md", "joker-2019/index.md",
                     "same-2016.md", "same-2017/index.md"]
    joker = split((site / "talks/joker-2019/index.md").read_text()).data
    assert joker["aliases"] == ["/event/2019/joker/"]
    assert split((site / "talks/devoxx/index.md").read_text()).data["aliases"] == [
        "/event/2019/devoxx/"]
    assert "Imported 5 talks" in out
    assert "Renamed 4 talks" in out and "joker-2019" in out
    assert "not imported" not in err
    built = tmp_path / "public"
    assert run_cli("build", "-s", str(site), "-o", str(built))[0] == 0
    assert 'content="0; url=../../../joker-2019/"' in \
        (built / "event/2019/joker/index.html").read_text()
    assert 'url=../../joker-2018/"' not in (built / "event/2019/joker/index.html").read_text()


def test_a_page_slug_or_url_gives_the_old_address(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/a.md": yaml_talk("A", "2019-01-01", "slug: first\n"),
        "content/talk/b.md": yaml_talk("B", "2019-01-02", "url: /talks/bee\n"
                                       "aliases: [/old/b/]\n"),
    })
    site = tmp_path / "site"
    import_site("hugo", source, site)
    assert split((site / "talks/a.md").read_text()).data["aliases"] == ["/talk/first/"]
    assert split((site / "talks/b.md").read_text()).data["aliases"] == ["/old/b/",
                                                                         "/talks/bee/"]


def test_the_summary_counts_every_file_not_imported(tmp_path: Path, run_cli) -> None:
    broken = "---\ntitle: [\n---\n"
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        **{f"content/talk/{n}.md": broken for n in ("a", "b", "c")},
    })
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(tmp_path / "site"))
    assert code == 1
    assert err.count(": error:") == 3 and "3 files not imported" in err


PROFILE = """---
title: Ada Example
role: Professor of Computing
organizations:
  - name: Example University
    url: https://example.edu
bio: Short bio.
social:
  - icon: github
    icon_pack: fab
    link: https://github.com/ada-example
  - icon: envelope
    icon_pack: fas
    link: "/#contact"
  - icon: globe
    link: https://ada.example.org
superuser: true
---
Ada works on *compilers*.
"""


def test_wowchemy_author_profiles_become_speakers_with_names_and_bios(
        tmp_path: Path, run_cli) -> None:
    from talkpages.content.speakers import load_speakers

    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/authors/admin/_index.md": PROFILE,
        "content/authors/bob-builder/_index.md": "---\nname: Bob Builder\nbio: Builds.\n---\n",
        "content/authors/nobody/_index.md": "---\ntitle: Not In Any Talk\n---\n",
        "content/talk/a.md": yaml_talk("A", "2019-01-01", "authors: [admin, Bob Builder, "
                                       "Guest Person]\n"),
    })
    (source / "content/authors/admin/Avatar.JPG").write_bytes(photo(60, 80))
    (source / "content/authors/bob-builder/avatar.png").symlink_to(tmp_path / "secret.png")
    (tmp_path / "secret.png").write_bytes(b"PRIVATE")
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    speakers, problems = load_speakers(site)
    assert not problems
    assert sorted(speakers) == ["Bob Builder", "admin"]
    ada = speakers["admin"]
    assert ada.name == "Ada Example" and ada.bio == "Ada works on *compilers*."
    assert ada.affiliation == "Professor of Computing, Example University"
    assert ada.url == "https://ada.example.org"
    assert [(link.name, link.url) for link in ada.links] == [
        ("GitHub", "https://github.com/ada-example")]
    assert speakers["Bob Builder"].bio == "Builds."
    # the photo beside a profile is the speaker's; one linked out of the old site is not
    assert ada.photo is not None and ada.photo.path == "speakers/admin.jpg"
    assert (site / "speakers/admin.jpg").read_bytes() == photo(60, 80)
    assert speakers["Bob Builder"].photo is None and "leads out of the site" in err
    assert not (site / "speakers/bob-builder.png").exists()
    assert "/#contact" in err  # left out, with a remark
    assert "admin = Ada Example" in out
    # the talk keeps its ids; the built page shows the name
    assert 'authors = [\n    "admin",' in (site / "talks/a.md").read_text()
    built = tmp_path / "public"
    code, _, err = run_cli("build", "-s", str(site), "-o", str(built))
    assert code == 0, err
    page = (built / "a/index.html").read_text()
    assert "Ada Example" in page and ">admin<" not in page
    # the avatar is the speaker's face, published as square copies
    assert (built / "speakers/ada-example/photo-60.webp").exists()
    assert 'srcset="../speakers/ada-example/photo-60.webp 60w"' in page
    # a second import leaves the file as it is, and says nothing of it
    before = (site / "speakers.toml").read_bytes()
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0 and "left as it is" not in err
    assert (site / "speakers.toml").read_bytes() == before


def test_an_existing_speakers_file_is_never_changed(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "", "content/authors/admin/_index.md": PROFILE,
        "content/talk/a.md": yaml_talk("A", "2019-01-01", "authors: [admin]\n")})
    site = write_files(tmp_path / "site", {"speakers.toml": '[someone]\nname = "Some One"\n'})
    report = import_site("hugo", source, site)
    assert (site / "speakers.toml").read_text() == '[someone]\nname = "Some One"\n'
    assert any("no entry for admin" in p.message for p in report.problems)


def test_a_bundles_own_pdf_becomes_its_pdf_link_and_check_is_content(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/deep-dive/index.md": yaml_talk("Deep dive", "2019-01-01T10:00:00"),
        "content/talk/paper/index.md": yaml_talk("Paper", "2019-02-01T10:00:00",
                                                 "url_pdf: https://example.org/p.pdf\n"),
        "content/talk/bare/index.md": yaml_talk("Bare", "2019-03-01T10:00:00"),
    })
    for folder in ("deep-dive", "paper"):
        (source / f"content/talk/{folder}/{folder}.pdf").write_bytes(b"%PDF-1.4\n")
    (source / "content/talk/bare/notes.pdf").write_bytes(b"%PDF-1.4\n")
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    deep = split((site / "talks/deep-dive/index.md").read_text()).data
    assert deep["url_pdf"] == "deep-dive.pdf"
    paper = split((site / "talks/paper/index.md").read_text()).data
    assert paper["url_pdf"] == "https://example.org/p.pdf"
    assert paper["url_slides"] == "paper.pdf"
    assert "url_pdf" not in split((site / "talks/bare/index.md").read_text()).data
    assert "deep-dive.pdf" in out
    code, _, err = run_cli("check", "-s", str(site))
    assert err.count("no slides or video") == 1 and "bare/index.md" in err


ZONE_SITE = {
    "config.toml": 'title = "Old"\n',  # no timeZone, as most Hugo sites
    "content/talk/naive.md": yaml_talk("Naive", "2019-05-22T14:00:00",
                                       "location: Santiago, Chile\n"),
    "content/talk/widget.md": yaml_talk("Widget", "2019-06-10T15:00:00Z") +
    '<div class="atcb" data-tz="America/Santiago"></div>\n',
    "content/talk/late.md": yaml_talk("Real UTC", "2019-06-11T01:00:00Z"),
    "content/talk/day.md": yaml_talk("A day", "2019-07-01T00:00:00Z",
                                     "location: Santiago de Compostela, Spain\n"),
}


def test_times_without_a_zone_are_counted_and_the_files_hints_offered(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", ZONE_SITE)
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    assert "Times with no zone: 1 talk naive, read in UTC" in out
    assert "Times written with Z: 3 talks; 3 kept as UTC: if they are local times" in out
    assert "naive.md: America/Santiago, as its location, 'Santiago, Chile', is in " \
        "America/Santiago; read as UTC" in out
    assert "widget.md: America/Santiago, as the file names America/Santiago" in out
    assert "late.md" not in out and "day.md" not in out  # nothing to suggest
    # never applied: the times are as written
    assert split((site / "talks/widget.md").read_text()).data["date"].isoformat() == \
        "2019-06-10T15:00:00+00:00"
    assert "timezone" not in split((site / "talks/naive.md").read_text()).data


def test_timezone_and_assume_local_z_read_the_times_as_local(tmp_path: Path,
                                                             run_cli) -> None:
    source = write_files(tmp_path / "old", ZONE_SITE)
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site),
                             "--timezone", "America/Santiago", "--assume-local-z")
    assert code == 0, err
    assert 'timezone = "America/Santiago"' in (site / "talkpages.toml").read_text()
    data = {name: split((site / f"talks/{name}.md").read_text()).data["date"].isoformat()
            for name in ("naive", "widget", "late", "day")}
    assert data == {"naive": "2019-05-22T14:00:00", "widget": "2019-06-10T15:00:00",
                    "late": "2019-06-11T01:00:00+00:00",  # 21:00 there: real UTC
                    "day": "2019-07-01T00:00:00"}
    assert "read in America/Santiago (--timezone)" in out
    assert "2 read as local times of America/Santiago (--assume-local-z); 1 kept as UTC" in out
    assert "Zones the files suggest" not in out  # they agree with how times were read
    built = tmp_path / "public"
    assert run_cli("build", "-s", str(site), "-o", str(built))[0] == 0
    assert "DTSTART;TZID=America/Santiago:20190610T150000" in \
        (built / "calendar.ics").read_text()


def test_assume_local_z_without_a_zone_and_a_wrong_zone_are_refused(tmp_path: Path,
                                                                    run_cli) -> None:
    source = write_files(tmp_path / "old", ZONE_SITE)
    site = tmp_path / "site"
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site), "--assume-local-z")
    assert code == 1 and "--assume-local-z needs the zone" in err
    assert not (site / "talks").exists()
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site),
                           "--timezone", "America/Santiaho")
    assert code == 2 and "America/Santiago" in err  # argparse: with the close names


@pytest.mark.parametrize(("config", "language"), [
    ('languageCode = "ru-ru"\n', "ru-RU"),
    ('defaultContentLanguage = "ru"\nlanguageCode = "en-us"\n', "ru"),  # template's leftover
    ('defaultContentLanguage = "ru"\n[languages.ru]\nlanguageCode = "ru"\n'
     '[languages.en]\nlanguageCode = "en-us"\n', "ru"),
    ("", "en"),
])
def test_the_old_sites_settings_are_carried_over(tmp_path: Path, run_cli, config: str,
                                                 language: str) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'baseURL = "https://example.ru"\ntitle = "Доклады"\n' + config,
        "content/talk/a.md": yaml_talk("Доклад", "2019-01-01T10:00:00"),
    })
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    settings = (site / "talkpages.toml").read_text()
    assert 'title = "Доклады"\nbase_url = "https://example.ru/"\n' in settings
    assert (f'language = "{language}"' in settings) == (language != "en")
    assert "Settings carried over into talkpages.toml: title" in out
    built = tmp_path / "public"
    assert run_cli("build", "-s", str(site), "-o", str(built))[0] == 0
    assert f'<html lang="{language}"' in (built / "a/index.html").read_text()


def test_an_existing_config_is_left_and_what_it_lacks_named(tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old talks"\n',
        "content/talk/a.md": yaml_talk("A", "2019-01-01T10:00:00", extra="") + "<br>\n",
    })
    site = write_files(tmp_path / "site", {"talkpages.toml": 'base_url = "https://new.example/"\n'})
    code, out, _ = run_cli("import", "hugo", str(source), "-s", str(site), "--unsafe-html")
    assert code == 0
    assert (site / "talkpages.toml").read_text() == 'base_url = "https://new.example/"\n'
    assert ('talkpages.toml exists and is left as it is; the old site\'s settings it does '
            'not have: title = "Old talks", unsafe_html = true') in out


def test_raw_html_is_reported_and_unsafe_html_lets_it_through(tmp_path: Path,
                                                              run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/video.md": yaml_talk("Video", "2019-01-01T10:00:00") +
        '\n<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>\n',
        "content/talk/centered.md": yaml_talk("Centered", "2019-01-02T10:00:00") +
        '\n<p align="center">Hi</p>\n',
        "content/talk/plain.md": yaml_talk("Plain", "2019-01-03T10:00:00") + "\n`<b>`\n",
    })
    site = tmp_path / "site"
    code, out, _ = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0
    assert ("Raw HTML in 2 talks (<p>, <iframe>): shown as text, as the old site did not; "
            "if the site is your own, import with --unsafe-html") in out
    assert "centered.md" in out and "plain.md" not in out
    assert not (site / "talkpages.toml").exists()  # nothing to carry over
    other = tmp_path / "own"
    code, out, _ = run_cli("import", "hugo", str(source), "-s", str(other), "--unsafe-html")
    assert code == 0 and "let through, as unsafe_html = true says" in out
    assert "unsafe_html = true" in (other / "talkpages.toml").read_text()
    built = tmp_path / "public"
    assert run_cli("build", "-s", str(other), "-o", str(built))[0] == 0
    assert '<p align="center">Hi</p>' in (built / "centered/index.html").read_text()


def test_widget_pages_are_skipped_and_a_broken_publish_date_only_drops_itself(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/home/index.md": "---\ntitle: Talks\ntype: widget_page\n---\n",
        "content/talk/hidden/index.md": "+++\ntitle = \"Hidden\"\nheadless = true\n+++\n",
        "content/talk/_index.md": "---\ntitle: Talks\n---\n",
        "content/talk/dated.md": yaml_talk("Dated", "2019-01-01T10:00:00",
                                           "publishDate: 2019-13-45\n"),
    })
    site = tmp_path / "site"
    code, out, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    assert sorted(p.name for p in (site / "talks").iterdir()) == ["dated.md"]
    assert "Skipped 2 files" in out
    assert "home/index.md: a widget page (`type: widget_page`)" in out
    assert "hidden/index.md: a headless page" in out
    assert "dated.md:4:1: warning: invalid `publishdate`" in err
    assert "the talk is imported without it" in err
    data = split((site / "talks/dated.md").read_text()).data
    assert data["title"] == "Dated" and "publishDate" not in data


def test_an_imported_bundles_featured_image_is_published_for_the_screen(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/big/index.md": yaml_talk("Big photo", "2019-01-01T10:00:00",
                                               "image:\n  caption: A hall\n"
                                               "  focal_point: Top\n"),
    })
    (source / "content/talk/big/featured.jpg").write_bytes(photo(2400, 1600))
    site = tmp_path / "site"
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 0, err
    built = tmp_path / "public"
    code, _, err = run_cli("build", "-s", str(site), "-o", str(built))
    assert code == 0, err
    names = sorted(p.name for p in (built / "big").iterdir())
    assert names == ["big.ics", "card.jpg", "featured-1440.jpg", "featured-1440.webp",
                     "featured-160x107.jpg", "featured-160x107.webp", "featured-320x213.jpg",
                     "featured-320x213.webp", "featured-480.jpg", "featured-480.webp",
                     "featured-960.jpg", "featured-960.webp", "index.html"]
    assert (built / "big/featured-960.webp").stat().st_size < 250_000
    page = (built / "big/index.html").read_text()
    assert 'width="1440" height="960" alt="A hall" fetchpriority="high"' in page
