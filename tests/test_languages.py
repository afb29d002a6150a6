"""Sites in German, French, Japanese and Arabic: no English word of talkpages' own on any
page (the English catalogue is the list of them), the language's CLDR dates, and Arabic
written right to left."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from talkpages.content.messages import LOCALES, catalogue_name

from conftest import MakeSite, outputs, render_site, talk

LANGUAGES = ["de", "fr", "ja", "ar"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
ATTRIBUTES = ("aria-label", "placeholder", "title", "alt", "data-title")
BRANDS = re.compile(r"Google Calendar|Apple Calendar|Outlook(\.com)?|Microsoft 365")  # names


def _site(make_site: MakeSite, language: str) -> Path:
    """Talks whose own words are not English, so that any English on a page is ours."""
    return make_site({
        "talkpages.toml": f'title = "Kolloquium"\nlanguage = "{language}"\n'
                          'timezone = "Europe/Berlin"\nbase_url = "https://example.org/k/"\n',
        "speakers.toml": '[anna]\nname = "Anna Müller"\naffiliation = "Universität"\n'
                         'bio = "Forscht."\nurl = "https://example.org/anna"\n',
        "talks/eins.md": talk("Über Graphen", "2099-05-22T14:50:00",
                              'authors = ["anna"]\ntags = ["graphen"]\n'
                              'url_slides = "https://example.org/folien.pdf"\n'
                              'event = "Tagung"\nlocation = "Hörsaal 1"',
                              body="Zusammenfassung."),
        "talks/zwei.md": talk("Über Bäume", "2019-05-22T14:50:00",
                              'authors = ["anna"]\ntags = ["graphen"]\n'
                              'url_video = "https://example.org/film"\nabstract = "Bäume."'),
        "talks/drei.md": talk("Abgesagt", "2099-06-01T10:00:00", 'status = "cancelled"'),
        "talks/vier.md": talk("Verschoben", "2099-06-02T10:00:00", 'status = "postponed"'),
    })


class _Words(HTMLParser):
    """The texts a visitor reads or hears: text, and the attributes read aloud or shown."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        found = dict(attrs)
        self.texts += [found[a] or "" for a in ATTRIBUTES if a in found]
        if tag == "meta" and found.get("name") == "description":
            self.texts.append(found.get("content") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data.strip())


def _english(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English message the language says otherwise, as a pattern of its text (a
    placeholder stands for any text)."""
    name = catalogue_name(language)
    assert name is not None
    with open(LOCALES / f"{name}.po", "rb") as handle:
        catalog = read_po(handle)
    found = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id[0] if isinstance(message.id, tuple) else message.id
        said = message.string[0] if isinstance(message.string, tuple) else message.string
        if said == english or len(english) < 3:
            continue
        if not any(c.isalpha() for c in PLACEHOLDER.sub("", english)):
            continue  # "%(slot)s, %(more)s": punctuation, no English word to show
        pieces = [re.escape(p) for p in PLACEHOLDER.split(english)]
        words = r".+?".join(pieces)
        found.append((english, re.compile(rf"(?<![\w]){words}(?![\w])")))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_an_english_word_of_talkpages(make_site: MakeSite,
                                                    language: str) -> None:
    result = render_site(_site(make_site, language))
    assert result.ok, result.diagnostics
    english = _english(language)
    said: list[str] = []
    for path, data in outputs(result).items():
        if not path.endswith(".html"):
            continue
        words = _Words()
        words.feed(data.decode())
        for text in map(lambda t: BRANDS.sub("", t), words.texts):
            said += [f"{path}: {text!r} ({message!r})" for message, pattern in english
                     if pattern.search(text)]
    assert not said, "\n".join(sorted(set(said))[:20])


def test_the_feed_and_the_atom_feed_speak_the_language(make_site: MakeSite) -> None:
    pages = outputs(render_site(_site(make_site, "de")))
    feed = pages["calendar.ics"].decode()
    assert "ABGESAGT" in feed.upper() and "CANCELLED." not in feed
    assert "Speakers:" not in feed
    atom = pages["feed.xml"].decode()
    assert "Cancelled:" not in atom


@pytest.mark.parametrize(("language", "day"), [
    ("de", "Mi., 22. Mai 2019"), ("fr", "mer. 22 mai 2019"), ("ja", "2019年5月22日(水)"),
    ("ar", "الأربعاء، 22 مايو 2019")])
def test_dates_are_cldr_s_in_the_language(make_site: MakeSite, language: str,
                                          day: str) -> None:
    pages = outputs(render_site(_site(make_site, language)))
    assert day in pages["zwei/index.html"].decode()


def test_arabic_pages_are_right_to_left_and_others_left_to_right(make_site: MakeSite) -> None:
    arabic = outputs(render_site(_site(make_site, "ar")))
    assert '<html lang="ar" dir="rtl" ' in arabic["index.html"].decode()
    german = outputs(render_site(_site(make_site, "de")))  # the same folder, rewritten
    assert '<html lang="de" data-zone=' in german["index.html"].decode()


@pytest.mark.parametrize("language", ["en", "en-GB", "de", "fr", "es", "it", "pt-BR", "nl", "pl",
                                      "ru", "uk", "tr", "zh-Hans", "zh-TW", "ja", "ko", "ar",
                                      "he", "fa", "hi", "th", "sv", "lt"])
def test_a_site_builds_in_every_shipped_language_and_others_cldr_knows(
        make_site: MakeSite, language: str) -> None:
    """Regression: a zh-Hant site failed as an internal error (Babel could not compare
    the flexible day period of its times): every language a site may name builds."""
    result = render_site(_site(make_site, language))
    assert result.ok, result.diagnostics
    assert f'lang="{language}"' in outputs(result)["index.html"].decode()
