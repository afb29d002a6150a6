"""`talkpages import hugo`: author profiles become speakers wherever the old site keeps
them, on sites of one language and of several."""

from __future__ import annotations

from pathlib import Path

from talkpages.commands.importers import import_site
from talkpages.content.speakers import load_speakers

from conftest import write_files

TALK = "---\ntitle: Talk\ndate: 2019-01-01\nauthors: [{who}]\n---\nBody.\n"


def test_profiles_in_the_default_languages_content_dir_name_the_speakers(
        tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'defaultContentLanguage = "en"\n'
                       '[languages.en]\ncontentDir = "content/en"\n'
                       '[languages.ru]\ncontentDir = "content/ru"\n',
        "content/en/authors/toparvion/_index.md": "---\ntitle: Vladimir Plizga\n---\nBio.\n",
        "content/ru/authors/toparvion/_index.md": "---\ntitle: Владимир Плизга\n---\n",
        "content/ru/authors/only-ru/_index.md": "---\ntitle: Только Русский\n---\n",
        "content/en/talk/a/index.md": TALK.format(who="toparvion, only-ru"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    speakers, problems = load_speakers(site)
    assert not problems
    assert speakers["toparvion"].name == "Vladimir Plizga"  # the default language's
    assert speakers["only-ru"].name == "Только Русский"  # else another language's
    assert report.authors["toparvion"] == "Vladimir Plizga"


def test_profiles_in_a_language_folder_without_a_languages_table(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old"\n',
        "content/en/authors/jkr/_index.md": "---\nname: Jane K. Roe\n---\n",
        "content/en/event/x/index.md": TALK.format(who="jkr"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert load_speakers(site)[0]["jkr"].name == "Jane K. Roe"


def test_a_profile_linked_out_of_the_old_site_is_not_read(tmp_path: Path) -> None:
    secret = write_files(tmp_path / "elsewhere", {"_index.md": "---\ntitle: Secret\n---\n"})
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/talk/a.md": TALK.format(who="sc"),
    })
    (source / "content/authors/sc").mkdir(parents=True)
    (source / "content/authors/sc/_index.md").symlink_to(secret / "_index.md")
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert not (site / "speakers.toml").exists()
    assert any("leads out of the site" in p.message and p.path.name == "_index.md"
               for p in report.problems)
