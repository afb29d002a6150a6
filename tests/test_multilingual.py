"""A site in two languages (content/languages.py, output/switcher.py): a tree of pages and
feeds for each, translations linked by slug, switchers, `hreflang`, sitemaps, and a
talk with no translation shown in the other language marked with its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import feedclients
from icslint import lint
from talkpages.content.config import Config, load_config
from talkpages.content.languages import Language, file_language, languages_table
from talkpages.content.loader import LoadOptions

from conftest import NOW, MakeSite, build, outputs, render_site, require_tool, talk

MISSING = feedclients.available()

CONFIG = ('title = "Talks"\nlanguage = "en"\nbase_url = "https://example.org/t/"\n'
          'timezone = "Europe/Berlin"\n'
          '[languages.en]\ntitle = "Talks"\nweight = 1\n'
          '[languages.de]\ntitle = "Vorträge"\ndescription = "Unsere Vorträge"\nweight = 2\n')


def _site(make_site: MakeSite, config: str = CONFIG) -> Path:
    return make_site({
        "talkpages.toml": config,
        "talks/graphs.md": talk("On graphs", "2099-05-22T14:50:00",
                                'tags = ["graphs"]\nauthors = ["Ann Lee"]'),
        "talks/graphs.de.md": talk("Über Graphen", "2099-05-22T14:50:00",
                                   'tags = ["graphs"]\nauthors = ["Ann Lee"]',
                                   body="Ein Text."),
        "talks/trees/index.md": talk("On trees", "2019-05-22T14:50:00"),
        "talks/trees/index.de.md": talk("Über Bäume", "2019-05-22T14:50:00"),
        "talks/trees/slides.pdf": b"%PDF-1.4\n",
        "talks/english-only.md": talk("Only in English", "2018-05-22T14:50:00",
                                      body="English words."),
    })


def test_each_language_gets_its_own_tree_with_its_feed(make_site: MakeSite) -> None:
    result = render_site(_site(make_site))
    assert result.ok, result.diagnostics
    files = outputs(result)
    for page in ("index.html", "graphs/index.html", "trees/index.html", "tags/graphs/index.html",
                 "speakers/ann-lee/index.html", "calendar.ics", "feed.xml", "sitemap.xml"):
        assert page in files and f"de/{page}" in files
    copied = {output.path for output in result.outputs}
    assert "trees/slides.pdf" in copied and "de/trees/slides.pdf" in copied
    assert b'<html lang="de"' in files["de/graphs/index.html"]
    assert "Über Graphen" in files["de/graphs/index.html"].decode()
    assert "On graphs" in files["graphs/index.html"].decode()
    german = files["de/calendar.ics"].decode()
    assert "SUMMARY;LANGUAGE=de:Über Graphen" in german and "X-WR-CALNAME:Vorträge" in german
    assert "https://example.org/t/de/graphs/" in german
    assert "SUMMARY;LANGUAGE=en:On graphs" in files["calendar.ics"].decode()
    assert "de/robots.txt" not in files
    assert files["robots.txt"].decode().count("Sitemap:") == 2


def test_pages_link_their_translations_and_the_switcher_leads_to_the_same_page(
        make_site: MakeSite) -> None:
    files = outputs(render_site(_site(make_site)))
    german = files["de/graphs/index.html"].decode()
    assert '<link rel="alternate" hreflang="en" href="https://example.org/t/graphs/">' in german
    assert '<link rel="alternate" hreflang="de" href="https://example.org/t/de/graphs/">' \
        in german
    assert 'hreflang="x-default" href="https://example.org/t/graphs/"' in german
    assert '<a href="../../graphs/" hreflang="en" lang="en">English</a>' in german
    assert '<span aria-current="page" lang="de">Deutsch</span>' in german
    assert 'aria-label="Sprache"' in german
    english = files["graphs/index.html"].decode()
    assert '<a href="../de/graphs/" hreflang="de" lang="de">Deutsch</a>' in english
    assert '<link rel="canonical" href="https://example.org/t/graphs/">' in english


def test_a_talk_with_no_translation_is_listed_in_its_own_language(
        make_site: MakeSite) -> None:
    files = outputs(render_site(_site(make_site)))
    page = files["de/english-only/index.html"].decode()
    assert '<link rel="canonical" href="https://example.org/t/english-only/">' in page
    assert "hreflang=\"en\" href" not in page  # no alternates: not a translation
    assert '<h1 lang="en">Only in English</h1>' in page
    assert "<dt>Sprache</dt>\n      <dd>Englisch</dd>" in page
    index = files["de/index.html"].decode()
    assert '<a class="talk-title" href="./english-only/" lang="en">Only in English</a>' in index
    assert '<span class="talk-language" data-language="en">Englisch</span>' in index
    assert '<option value="en" data-name="Englisch">Englisch (1)</option>' in index
    sitemap = files["de/sitemap.xml"].decode()
    assert "de/english-only/" not in sitemap
    assert ('<xhtml:link rel="alternate" hreflang="en" href="https://example.org/t/graphs/"/>'
            in sitemap)
    assert files["de/calendar.ics"].decode().count("BEGIN:VEVENT") == 3


def test_untranslated_omit_leaves_a_talk_out_of_other_languages(make_site: MakeSite) -> None:
    config = CONFIG.replace("timezone", 'untranslated = "omit"\ntimezone')
    files = outputs(render_site(_site(make_site, config)))
    assert "de/english-only/index.html" not in files
    assert "english-only/index.html" in files
    assert files["de/calendar.ics"].decode().count("BEGIN:VEVENT") == 2


def test_every_language_in_its_folder_with_an_index_that_leads_there(
        make_site: MakeSite) -> None:
    site = _site(make_site, CONFIG.replace('timezone', 'default_language_in_subdir = true\n'
                                           'timezone'))
    files = outputs(render_site(site))
    assert "en/graphs/index.html" in files and "de/graphs/index.html" in files
    assert "graphs/index.html" not in files
    root = files["index.html"].decode()
    assert 'content="0; url=en/"' in root and '<a href="de/" hreflang="de" lang="de">' in root


def test_a_site_in_one_language_has_no_switcher(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'language = "de"\n',
                      "talks/a.md": talk("A"), "talks/b.de.md": talk("B")})
    files = outputs(render_site(site))
    assert "b-de/index.html" in files  # without [languages], a name is only a name
    assert b"hreflang" not in files["a/index.html"]
    assert b'class="languages"' not in files["a/index.html"]


def test_the_same_slug_twice_in_one_language_is_an_error(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": CONFIG, "talks/a.de.md": talk("A"),
                      "talks/a/index.de.md": talk("B")})
    result = render_site(site)
    assert not result.ok
    assert any("two talks have the slug 'a'" in d.message for d in result.diagnostics)


def test_a_talk_at_a_language_folder_is_an_error(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": CONFIG, "talks/de.md": talk("Germany")})
    result = render_site(site)
    assert any("the folder of the site's language" in d.message for d in result.diagnostics)


@pytest.mark.parametrize(("table", "error"), [
    ('[languages.de_DE]\ntitle = "x"\n', "'de_DE' is not a BCP 47 language tag"),
    ('[languages.de]\ntitel = "x"\n', "has no setting 'titel'"),
    ('[languages.de]\nweight = "1"\n', "must be a whole number"),
    ('languages = "de"\n', "expected tables"),
    ('untranslated = "hide"\n', "expected \"list\""),
])
def test_wrong_language_settings_are_errors_at_their_line(
        make_site: MakeSite, table: str, error: str) -> None:
    site = make_site({"talkpages.toml": 'title = "T"\n' + table})
    _, problems = load_config(site)
    found = [p for p in problems if error in p.message]
    assert found and found[0].line == 2 and found[0].is_error, problems


def test_the_default_language_is_added_when_the_tables_leave_it_out(
        make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'language = "fr"\n[languages.de]\ntitle = "D"\n'})
    config, problems = load_config(site)
    assert [lang.tag for lang in config.languages] == ["fr", "de"]
    assert not [p for p in problems if p.is_error]


def test_a_file_name_names_its_language_only_on_a_site_of_several() -> None:
    config = Config(language="en", languages=(Language("en"), Language("pt-BR")))
    assert file_language("talk.pt-br", config) == ("talk", "pt-BR")
    assert file_language("talk.fr", config) == ("talk.fr", "en")
    assert file_language("index.PT-BR", config) == ("index", "pt-BR")
    assert languages_table({"pt-br": {}, "de": {"weight": -1}})[0].tag == "de"


def test_a_talk_says_the_language_it_is_given_in(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'language = "de"\n',
                      "talks/a.md": talk("A", extra='language = "Spanish"'),
                      "talks/b.md": talk("B", extra='language = "de-AT"'),
                      "talks/c.md": talk("C", extra='language = "English (US)"')})
    result = render_site(site)
    files = outputs(result)
    assert "<dt>Sprache</dt>\n      <dd>Spanisch</dd>" in files["a/index.html"].decode()
    assert b"<dt>Sprache</dt>" not in files["b/index.html"]  # German is the site's
    assert any("`language`" in d.message and d.severity == "warning" and d.line == 4
               for d in result.diagnostics)


def test_a_two_language_site_written_to_disk(make_site: MakeSite, tmp_path: Path) -> None:
    out = tmp_path / "public"
    result = build(_site(make_site), out, LoadOptions(now=NOW))
    assert result.ok, result.diagnostics
    german = (out / "de" / "index.html").read_text()
    assert re.search(r'href="\./assets/style\.[0-9a-f]+\.css"', german)
    style = re.search(r'assets/style\.[0-9a-f]+\.css', german)
    assert style and (out / "de" / style.group(0)).is_file()


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_client_reads_each_language_feed_alike(name: str, make_site: MakeSite,
                                                     tmp_path: Path) -> None:
    """The German feed (`de/calendar.ics`, with its LANGUAGE parameters) and the English
    one: the same events at the same instants, each in its own words, for every client."""
    require_tool(MISSING[name] is None, f"{name}: {MISSING[name]}")
    out = tmp_path / "public"
    assert build(_site(make_site), out, LoadOptions(now=NOW)).ok
    rows = {}
    for feed in (out / "calendar.ics", out / "de" / "calendar.ics"):
        rows[feed] = feedclients.IMPLEMENTATIONS[name](feed, "2000-01-01", "2100-01-01")
        assert lint(feed.read_bytes()) == []
    english, german = rows.values()
    assert [r.rsplit("|", 1)[0] for r in english] == [r.rsplit("|", 1)[0] for r in german]
    assert any(r.endswith("|Über Graphen") for r in german)
    assert any(r.endswith("|On graphs") for r in english)


def test_check_notes_the_talks_a_language_lacks_without_failing(
        make_site: MakeSite, run_cli: Any) -> None:
    site = _site(make_site)
    code, _, err = run_cli("check", "--strict", "-s", str(site), "--now", NOW.isoformat())
    assert "english-only.md: note: no translation into de: listed in its own language" in err
    assert "hint: write it in " in err and "english-only.de.md" in err
    assert "graphs.md: note" not in err  # translated
    code, out, _ = run_cli("check", "--format", "json", "-s", str(site), "--now",
                           NOW.isoformat())
    assert '"notes": 1' in out


@pytest.mark.parametrize(("language", "heading"), [("de", "## Gliederung"), ("ja", "## 構成"),
                                                    ("en", "## Outline")])
def test_new_writes_its_outline_in_the_site_s_language(
        make_site: MakeSite, run_cli: Any, language: str, heading: str) -> None:
    site = make_site({"talkpages.toml": f'language = "{language}"\n'})
    code, _, err = run_cli("new", "Ein Vortrag", "--date", "2030-05-22T14:50", "-s", str(site))
    assert code == 0, err
    text = (site / "talks" / "ein-vortrag.md").read_text(encoding="utf-8")
    assert heading in text
    assert render_site(site).ok


def test_an_old_address_says_where_the_talk_went_in_the_site_s_language(
        make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'language = "de"\nbase_url = "https://e.org/"\n',
                      "talks/a.md": talk("A", extra='aliases = ["/talk/old/"]')})
    page = outputs(render_site(site))["talk/old/index.html"].decode()
    assert ('<p>Dieser Vortrag ist umgezogen: <a href="../../a/">https://e.org/a/</a>.</p>'
            in page)
