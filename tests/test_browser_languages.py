"""Pages in German and Arabic, in Chromium, after their scripts have run: no English word
of talkpages' own (the visitor's time, how soon the next talk is, the filter's counts),
Arabic right to left with nothing scrolling sideways at 320 px, and no axe violation at
390 and 1280 px. A site in English and Arabic too: its Arabic tree as the Arabic site,
axe on both trees, and the switcher leading to the same talk in the other language.
Skipped with the reason without Chromium or axe-core; .ci/run has both."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from talkpages.content.loader import LoadOptions
from test_languages import BRANDS, _english

from browser import AXE, AXE_TAGS, require_axe, serve
from conftest import MakeSite, build, talk

NOW = datetime(2099, 5, 20, 12, tzinfo=timezone.utc)


TWO_LANGUAGES = ('language = "en"\nbase_url = "https://example.org/t/"\n'
                 'timezone = "Europe/Berlin"\n'
                 '[languages.en]\ntitle = "Talks"\n[languages.ar]\ntitle = "محاضرات"\n')


def two_language_site(make_site: MakeSite, root: Path) -> Path:
    """English and Arabic: a talk in both, a talk only in English (listed in the Arabic
    tree in English), tags and a speaker. test_html_valid.py checks it too."""
    return make_site({
        "talkpages.toml": TWO_LANGUAGES,
        "talks/graphs.md": talk("On graphs", "2099-05-22T14:50:00",
                                'tags = ["graphs"]\nauthors = ["Ann Lee"]', body="On graphs."),
        "talks/graphs.ar.md": talk("عن المخططات", "2099-05-22T14:50:00",
                                   'tags = ["graphs"]\nauthors = ["Ann Lee"]',
                                   body="عن المخططات."),
        "talks/english-only.md": talk("Only in English", "2019-05-22T14:50:00",
                                      'tags = ["trees"]\nauthors = ["Ann Lee"]',
                                      body="English words."),
    }, root)


def _site(make_site: Any, tmp_path: Path, language: str) -> Path:
    site = make_site({
        "talkpages.toml": f'title = "Kolloquium"\nlanguage = "{language}"\n'
                          'timezone = "Europe/Berlin"\n',
        "talks/eins.md": talk("Über Graphen", "2099-05-22T14:50:00",
                              'authors = ["Anna Müller"]\ntags = ["graphen"]'),
        "talks/zwei.md": talk("Über Bäume", "2019-05-22T14:50:00",
                              'authors = ["Anna Müller"]\ntags = ["graphen"]')},
        root=tmp_path / language)
    out = tmp_path / f"{language}-out"
    assert build(site, out, LoadOptions(now=NOW)).ok
    return out


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    root = tmp_path_factory.mktemp("languages")

    def make(files: dict[str, str], root: Path) -> Path:
        (root / "talks").mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        return root

    two = tmp_path_factory.mktemp("two-languages")
    assert build(two_language_site(make, two), two / "out", LoadOptions(now=NOW)).ok
    urls: dict[str, str] = {}
    with serve(_site(make, root, "de")) as german, serve(_site(make, root, "ar")) as arabic, \
            serve(two / "out") as both:
        urls["de"], urls["ar"], urls["en+ar"] = german, arabic, both
        yield urls


def _page(browser: Any, width: int = 1280, zone: str = "America/New_York") -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800}, timezone_id=zone,
                                  locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.clock.install(time=NOW)
    return page


def _axe(page: Any) -> list[str]:
    """The ids of the rules the page breaks."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                           " resultTypes: ['violations']})", AXE_TAGS)
    return [violation["id"] for violation in result["violations"]]


@pytest.mark.parametrize("language", ["de", "ar"])
def test_what_the_scripts_write_is_in_the_page_s_language(browser: Any, sites: dict[str, str],
                                                          language: str) -> None:
    page = _page(browser)
    english = _english(language)
    said: list[str] = []
    for path in ("", "eins/", "tags/graphen/"):
        page.goto(sites[language] + path)
        page.wait_for_timeout(50)
        if path == "":
            page.fill("#filter", "Graphen")
            page.wait_for_timeout(200)
        text = BRANDS.sub("", page.evaluate("document.body.innerText"))
        said += [f"{path}: {message!r}" for message, pattern in english if pattern.search(text)]
        if path == "eins/":
            local = page.locator(".local-time").inner_text()
            assert local and "Your time" not in local, local
    assert not page.errors, page.errors
    assert not said, said


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_arabic_reads_right_to_left_without_sideways_scrolling_and_passes_axe(
        browser: Any, sites: dict[str, str], width: int) -> None:
    require_axe()
    page = _page(browser, width)
    for path in ("", "eins/", "tags/", "speakers/anna-muller/"):
        page.goto(sites["ar"] + path)
        assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, (path, width, overflow)
        if width == 320:
            continue
        assert _axe(page) == [], path


def test_the_arabic_tree_of_a_two_language_site_does_not_scroll_sideways(
        browser: Any, sites: dict[str, str]) -> None:
    page = _page(browser, 320)
    for path in ("ar/", "ar/graphs/", "ar/english-only/", "ar/tags/", "ar/tags/graphs/"):
        page.goto(sites["en+ar"] + path)
        assert page.evaluate("getComputedStyle(document.documentElement).direction") == "rtl"
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, (path, overflow)


@pytest.mark.parametrize("width", [390, 1280])
def test_both_trees_of_a_two_language_site_pass_axe(browser: Any, sites: dict[str, str],
                                                    width: int) -> None:
    require_axe()
    page = _page(browser, width)
    found = {}
    for path in ("", "graphs/", "ar/", "ar/graphs/"):
        page.goto(sites["en+ar"] + path)
        found[path] = _axe(page)
    assert not any(found.values()), found


def test_the_switcher_leads_to_the_same_talk_in_the_other_language(
        browser: Any, sites: dict[str, str]) -> None:
    page = _page(browser)
    page.goto(sites["en+ar"] + "graphs/")
    page.locator("nav.languages a[hreflang=ar]").click()
    page.wait_for_url(sites["en+ar"] + "ar/graphs/")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") \
        == ["ar", "rtl"]
    assert page.locator("h1").inner_text() == "عن المخططات"
    page.locator("nav.languages a[hreflang=en]").click()
    page.wait_for_url(sites["en+ar"] + "graphs/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").inner_text() == "On graphs"
