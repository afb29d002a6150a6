"""`talkpages import`: a site in several languages keeps every language.

Which folders and file names are languages: a section or bundle whose name happens
to be two or three letters (`ai`, `iot`, `ml`) is no language; the config's
`languages` table says which are, and only a site without one is judged by the name.

Then each shape real Hugo sites have (a content folder per language, translations
named `index.de.md`, a `translationKey`, disabled languages, keys such as `zh-cn`):
every language's talks are written as translations (`x.de.md`, `index.de.md`), under
one name and slug, and the new talkpages.toml gets `[languages]`; academicpages'
`locale` becomes the site's `language`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.commands.importers import hugo, import_site
from talkpages.commands.importers.languages import bcp47
from talkpages.commands.importers.report import ImportOptions, summary
from talkpages.content.frontmatter import split
from talkpages.content.loader import LoadOptions, load_site

from conftest import NOW, outputs, render_site, talk, write_files

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


def yaml_talk(title: str, date: str = "2019-05-22T14:50:00", extra: str = "") -> str:
    return f"---\ntitle: {title}\nevent_start: {date}\n{extra}---\nText of {title}.\n"


def versions(site: Path) -> dict[str, tuple[str, str]]:
    """Each talk file of the imported site, as the loader reads it: (slug, language)."""
    loaded, problems = load_site(site, LoadOptions(now=NOW), workers=False)
    assert loaded is not None, problems
    return {t.source.relative_to(site).as_posix(): (t.slug, t.written_in)
            for t in loaded.talks}


CONTENT_DIRS = """\
baseURL = "https://example.org/"
title = "Talks"
defaultContentLanguage = "en"
[languages.en]
contentDir = "content/en"
languageName = "English"
weight = 1
[languages.de]
contentDir = "content/de"
title = "Vorträge"
languageName = "Deutsch"
weight = 2
[languages.de.params]
description = "Vorträge der Gruppe"
"""


def test_a_content_folder_per_language_gives_a_translation_per_talk(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/talk/graphs/index.md": yaml_talk("Graphs"),
        "content/en/talk/graphs/featured.jpg": "the English picture",
        "content/de/talk/graphs/index.md": yaml_talk("Graphen"),
        "content/de/talk/graphs/featured.jpg": "the English picture",
        "content/en/talk/only-english.md": yaml_talk("Only English"),
        "content/de/talk/nur-deutsch.md": yaml_talk("Nur Deutsch"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert sorted(p.relative_to(site).as_posix() for p in report.written) == [
        "talks/graphs/index.de.md", "talks/graphs/index.md", "talks/nur-deutsch.de.md",
        "talks/only-english.md"]
    assert report.copied == 1 and (site / "talks/graphs/featured.jpg").is_file()
    assert (site / "talkpages.toml").read_text() == (
        "# Written by `talkpages import` from the old site's settings.\n"
        "# languages: those of the talks; a translation is talks/<slug>.<tag>.md "
        "(or index.<tag>.md).\n"
        'title = "Talks"\nbase_url = "https://example.org/"\nlanguage = "en"\n\n'
        '[languages.en]\nname = "English"\nweight = 1\n\n'
        '[languages.de]\ntitle = "Vorträge"\nname = "Deutsch"\n'
        'description = "Vorträge der Gruppe"\nweight = 2\n')
    # the German page's old address was /de/talk/graphs/: the German tree's talk/graphs/
    assert split((site / "talks/graphs/index.de.md").read_text()).data["aliases"] == [
        "/talk/graphs/"]
    assert versions(site) == {
        "talks/graphs/index.md": ("graphs", "en"), "talks/graphs/index.de.md": ("graphs", "de"),
        "talks/only-english.md": ("only-english", "en"),
        "talks/nur-deutsch.de.md": ("nur-deutsch", "de")}
    lines = summary(report)
    assert lines[0] == "By language: 2 en, 2 de (a talk's translations share its name and slug)"
    assert ('Settings carried over into talkpages.toml: title = "Talks", base_url = '
            '"https://example.org/", language = "en", [languages.en], [languages.de]') in lines
    built = outputs(render_site(site))
    assert "Graphen" in built["de/graphs/index.html"].decode()
    assert "de/talk/graphs/index.html" in built  # the old German address leads on
    assert "talk/graphs/index.html" in built


def test_translations_named_as_hugo_names_them_share_the_folder(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": '[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n',
        "content/talk/graphs/index.md": yaml_talk("Graphs"),
        "content/talk/graphs/index.de.md": yaml_talk("Graphen"),
        "content/talk/graphs/slides.pdf": "slides",
        "content/talk/flat.md": yaml_talk("Flat"),
        "content/talk/flat.de.md": yaml_talk("Flach"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert versions(site) == {
        "talks/graphs/index.md": ("graphs", "en"), "talks/graphs/index.de.md": ("graphs", "de"),
        "talks/flat.md": ("flat", "en"), "talks/flat.de.md": ("flat", "de")}
    assert report.copied == 1 and report.twins == []
    assert "[languages.de]\nweight = 2\n" in (site / "talkpages.toml").read_text()
    written = [p.relative_to(site).as_posix() for p in report.written]
    assert len(written) == len(set(written)) == 4  # each file once


def test_a_translation_key_makes_files_of_other_names_one_talk(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/talk/my-talk/index.md": yaml_talk(
            "My talk", extra="translationKey: graphs\nslug: graph-talk\n"),
        "content/de/talk/mein-vortrag/index.md": yaml_talk(
            "Mein Vortrag", extra="translationKey: graphs\n"),
        # at one place, but with other keys: no translations of each other
        "content/en/talk/keynote/index.md": yaml_talk("Keynote", extra="translationKey: a\n"),
        "content/de/talk/keynote/index.md": yaml_talk("Festvortrag", extra="translationKey: b\n"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    loaded = versions(site)
    # the German version is named and slugged after the English one, its old address kept
    assert loaded["talks/my-talk/index.md"] == ("graph-talk", "en")
    assert loaded["talks/my-talk/index.de.md"] == ("graph-talk", "de")
    german = split((site / "talks/my-talk/index.de.md").read_text()).data
    assert german["slug"] == "graph-talk" and german["aliases"] == ["/talk/mein-vortrag/"]
    changes = [what for path, what in report.changes if path.parent.name == "mein-vortrag"]
    assert changes == [
        "named 'my-talk', as the talk whose translation its translationKey makes it (it was "
        "'mein-vortrag'; the old address stays an alias)",
        "slug = 'graph-talk', as in en: a talk's translations share one slug (the old "
        "address stays an alias)"]
    # the keynotes are two talks, each with a slug of its own
    keynotes = sorted(slug for path, (slug, _) in loaded.items() if "keynote" in path)
    assert keynotes == ["keynote-2019", "keynote-2019-2"]
    assert {path.name for path, _, _ in report.renamed} == {"index.md"}


def test_a_translation_takes_the_name_its_talk_is_renamed_to(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/event/2018/joker/index.md": yaml_talk("Joker 2018", "2018-10-19T10:00:00"),
        "content/en/event/2019/joker/index.md": yaml_talk("Joker 2019", "2019-10-25T10:00:00"),
        "content/de/event/2019/joker/index.md": yaml_talk("Joker 2019, deutsch",
                                                         "2019-10-25T10:00:00"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert versions(site) == {"talks/joker-2018/index.md": ("joker-2018", "en"),
                              "talks/joker-2019/index.md": ("joker-2019", "en"),
                              "talks/joker-2019/index.de.md": ("joker-2019", "de")}
    assert split((site / "talks/joker-2019/index.de.md").read_text()).data["aliases"] == [
        "/event/2019/joker/"]


def test_an_import_written_config_with_languages_is_written_again_with_replace(
        tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/talk/graphs/index.md": yaml_talk("Graphs"),
        "content/de/talk/graphs/index.md": yaml_talk("Graphen"),
    })
    site = tmp_path / "site"
    import_site("hugo", source, site)
    before = (site / "talkpages.toml").read_text()
    report = import_site("hugo", source, site, ImportOptions(replace=True, unsafe_html=True))
    assert report.ok, report.problems
    after = (site / "talkpages.toml").read_text()
    assert after != before and "unsafe_html = true\n" in after
    assert after.endswith(before[before.index("[languages.en]"):])


def test_a_translation_takes_the_slug_of_the_talk(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/talk/graphs/index.md": yaml_talk("Graphs"),
        "content/de/talk/graphs/index.md": yaml_talk("Graphen", extra="slug: graphen\n"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    german = split((site / "talks/graphs/index.de.md").read_text()).data
    assert "slug" not in german and german["aliases"] == ["/talk/graphen/"]
    assert versions(site)["talks/graphs/index.de.md"] == ("graphs", "de")
    assert any("`slug` 'graphen' left out" in what for _, what in report.changes)


def test_disabled_languages_and_languages_without_talks_are_left_out(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'disableLanguages = ["fr"]\n[languages.en]\n[languages.de]\n'
                       '[languages.fr]\n[languages.it]\n',
        "content/talk/a/index.md": yaml_talk("A"),
        "content/talk/a/index.de.md": yaml_talk("A auf Deutsch"),
        "content/talk/a/index.fr.md": yaml_talk("A en français"),
        "content/talk/b.fr.md": yaml_talk("B en français"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert sorted(p.name for p in report.written) == ["index.de.md", "index.md"]
    config = (site / "talkpages.toml").read_text()
    assert "[languages.en]" in config and "[languages.de]" in config
    assert "[languages.fr]" not in config and "[languages.it]" not in config
    lines = summary(report)
    assert ("Not imported, in languages the old site disables (disableLanguages): 2 files "
            "in fr") in lines
    assert "Languages of the old site without talks, not in talkpages.toml: it" in lines


def test_a_site_whose_talks_are_all_in_its_default_language_stays_in_one(
        tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Talks"\n[languages.en]\nlanguageCode = "en-us"\n'
                       'title = "My talks"\n[languages.de]\n',
        "content/talk/a.md": yaml_talk("A"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    config = (site / "talkpages.toml").read_text()
    assert "[languages" not in config
    assert 'title = "My talks"' in config and 'language = "en-US"' in config
    assert "Languages of the old site without talks, not in talkpages.toml: de" in \
        summary(report)


@pytest.mark.parametrize(("name", "tag"), [
    ("en", "en"), ("zh-cn", "zh-CN"), ("pt-br", "pt-BR"), ("pt_BR", "pt-BR"),
    ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("x", None)])
def test_hugo_language_keys_become_bcp_47_tags(name: str, tag: str | None) -> None:
    assert bcp47(name) == tag


def test_file_names_and_tables_take_the_tag_in_its_case(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'defaultContentLanguage = "zh-cn"\n[languages.zh-cn]\nweight = 1\n'
                       '[languages.pt-br]\nweight = 2\ntitle = "Palestras"\n',
        "content/talk/a/index.md": yaml_talk("A"),
        "content/talk/a/index.pt-br.md": yaml_talk("A em português"),
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert (site / "talks/a/index.pt-BR.md").is_file()
    config = (site / "talkpages.toml").read_text()
    assert 'language = "zh-CN"\n' in config
    assert '[languages.zh-CN]\nweight = 1\n\n[languages.pt-BR]\ntitle = "Palestras"\n' in config
    assert versions(site)["talks/a/index.pt-BR.md"] == ("a", "pt-BR")


def test_a_site_whose_default_is_another_language_imports_again_unchanged(
        tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'defaultContentLanguage = "de"\ndefaultContentLanguageInSubdir = true\n'
                       '[languages.de]\nweight = 1\n[languages.en]\nweight = 2\n',
        "content/talk/a.md": yaml_talk("A auf Deutsch"),
        "content/talk/a.en.md": yaml_talk("A in English"),
    })
    site = tmp_path / "site"
    first = import_site("hugo", source, site)
    assert first.ok, first.problems
    config = (site / "talkpages.toml").read_text()
    assert 'language = "de"\n' in config and "default_language_in_subdir = true\n" in config
    assert versions(site) == {"talks/a.md": ("a", "de"), "talks/a.en.md": ("a", "en")}
    again = import_site("hugo", source, site)
    assert again.ok, again.problems
    assert again.written == [] and sorted(again.unchanged) == sorted(first.written)


def test_translations_are_never_overwritten_but_with_replace(tmp_path: Path) -> None:
    files = {"config.toml": CONTENT_DIRS,
             "content/en/talk/graphs/index.md": yaml_talk("Graphs"),
             "content/en/talk/graphs/featured.jpg": "the English picture",
             "content/de/talk/graphs/index.md": yaml_talk("Graphen"),
             "content/de/talk/graphs/featured.jpg": "das deutsche Bild"}
    source = write_files(tmp_path / "old", files)
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    picture = site / "talks/graphs/featured.jpg"
    # the folder's files are the talk's in every language: the first version's stays
    assert picture.read_text() == "the English picture"
    warned = [p for p in report.problems if p.path.parts[-4:] == (
        "de", "talk", "graphs", "featured.jpg")]
    assert len(warned) == 1 and "share the files of its folder" in warned[0].message
    write_files(source, {"content/de/talk/graphs/index.md": yaml_talk("Graphen, neu")})
    again = import_site("hugo", source, site)
    assert "Graphen, neu" not in (site / "talks/graphs/index.de.md").read_text()
    assert any("index.de.md exists and differs" in p.message for p in again.problems)
    replaced = import_site("hugo", source, site, ImportOptions(replace=True))
    assert [p.name for p in replaced.replaced] == ["index.de.md"]
    assert "Graphen, neu" in (site / "talks/graphs/index.de.md").read_text()
    assert picture.read_text() == "the English picture"  # not replaced by the German one


def test_an_existing_config_is_told_the_languages_it_lacks(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": CONTENT_DIRS,
        "content/en/talk/graphs/index.md": yaml_talk("Graphs"),
        "content/de/talk/graphs/index.md": yaml_talk("Graphen"),
    })
    site = write_files(tmp_path / "site", {"talkpages.toml": 'title = "Mine"\n'})
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert (site / "talkpages.toml").read_text() == 'title = "Mine"\n'
    assert (site / "talks/graphs/index.de.md").is_file()
    assert ("talkpages.toml exists and is left as it is; the old site's settings it does not "
            'have: base_url = "https://example.org/", [languages.en] (name = "English", '
            'weight = 1), [languages.de] (title = "Vorträge", name = "Deutsch", description = '
            '"Vorträge der Gruppe", weight = 2)') in summary(report)
    # read with those tables added, the site has the talk in both languages
    write_files(site, {"talkpages.toml": 'title = "Mine"\n[languages.en]\n[languages.de]\n'})
    assert versions(site) == {"talks/graphs/index.md": ("graphs", "en"),
                              "talks/graphs/index.de.md": ("graphs", "de")}
    again = import_site("hugo", source, site)
    assert again.ok and again.written == [] and len(again.unchanged) == 2


@pytest.mark.parametrize(("locale", "language"), [
    ("en-US", "en-US"), ("de_DE", "de-DE"), ("fr", "fr")])
def test_academicpages_locale_becomes_the_sites_language(tmp_path: Path, locale: str,
                                                        language: str) -> None:
    source = write_files(tmp_path / "old", {
        "_config.yml": f'title: "Talks"\nlocale: "{locale}"\n',
        "_talks/2019-05-22-talk.md": "---\ntitle: Talk\ndate: 2019-05-22\n---\n",
    })
    site = tmp_path / "site"
    report = import_site("academicpages", source, site)
    assert report.ok, report.problems
    assert f'language = "{language}"\n' in (site / "talkpages.toml").read_text()
    assert f'language = "{language}"' in " ".join(summary(report))
