"""`talkpages import hugo`: which folders and file names are languages.

A section or bundle whose name happens to be two or three letters (`ai`, `iot`,
`ml`) is no language: the config's `languages` table says which are; only a site
without one is judged by the name, and then only a real language code counts.
"""

from __future__ import annotations

from pathlib import Path

from talkpages.commands.importers import hugo, import_site

from conftest import talk, write_files

LANGUAGES = """\
timeZone = "Europe/Berlin"
defaultContentLanguage = "en"
[languages.en]
weight = 1
[languages.de]
weight = 2
"""


def found(site: Path) -> dict[str, str | None]:
    config, _ = hugo.read_config(site)
    return {c.path.relative_to(site).as_posix(): c.language for c in hugo.find(site, config)}


def test_short_section_or_bundle_names_are_not_taken_for_languages(tmp_path: Path) -> None:
    site = write_files(tmp_path / "old", {
        "config.toml": LANGUAGES,
        "content/talk/ai/index.md": talk("AI bundle"),
        "content/talk/iot.md": talk("IoT, flat"),
        "content/talk/intro.iot.md": talk("A name with a dot"),
        "content/talk/keynote/index.de.md": talk("Deutsch"),
        "content/talk/keynote/index.md": talk("English"),
        "content/event/iot/talk/meetup.md": talk("A section named iot"),
        "content/ai/talk/keynote.md": talk("A section named ai"),
        "content/de/talk/nur-deutsch.md": talk("Nur Deutsch"),
    })
    assert found(site) == {
        "content/talk/ai/index.md": None, "content/talk/iot.md": None,
        "content/talk/intro.iot.md": None, "content/talk/keynote/index.de.md": "de",
        "content/talk/keynote/index.md": None, "content/event/iot/talk/meetup.md": None,
        "content/de/talk/nur-deutsch.md": "de"}
    report = import_site("hugo", site, tmp_path / "new")
    assert not [p for p in report.problems if "ai-language" in p.message
                or "iot-language" in p.message]
    assert (tmp_path / "new/talks/keynote/index.md").read_text().count("English") == 1


def test_language_folders_of_the_config_content_dirs(tmp_path: Path) -> None:
    site = write_files(tmp_path / "old", {
        "hugo.toml": 'defaultContentLanguage = "en"\n[languages.en]\ncontentDir = '
                     '"content/english"\n[languages.zh-cn]\ncontentDir = "content/chinese"\n',
        "content/english/talk/a.md": talk("A"),
        "content/chinese/talk/a.md": talk("A, zh"),
        "content/ml/talk/b.md": talk("B"),
    })
    assert found(site) == {"content/english/talk/a.md": "en",
                           "content/chinese/talk/a.md": "zh-cn"}


def test_without_a_languages_table_only_language_codes_are_languages(tmp_path: Path) -> None:
    site = write_files(tmp_path / "old", {
        "content/talk/a.md": talk("A"),
        "content/zh-cn/talk/a.md": talk("A, zh"),
        "content/pt_BR/talk/a.md": talk("A, pt"),
        "content/iot/talk/c.md": talk("C"),
        "content/ai/event/d.md": talk("D"),
        "content/talk/b.fr.md": talk("B, fr"),
        "content/talk/b.pdf.md": talk("B as a PDF?"),
    })
    assert found(site) == {"content/talk/a.md": None, "content/zh-cn/talk/a.md": "zh-cn",
                           "content/pt_BR/talk/a.md": "pt_br", "content/talk/b.fr.md": "fr",
                           "content/talk/b.pdf.md": None}
