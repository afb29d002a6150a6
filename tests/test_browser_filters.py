"""The index's filter in Chromium: words, a tag, a year and "Upcoming only", kept in the
page's address so that a link shows the same talks.

- on a paginated index (the fixture site, `paginate = 3`) the matches come from
  search.json and are listed as the index lists them: upcoming and past apart, by the
  reader's clock (Playwright's), with the speakers and tags as links;
- on an index of one page (the same site, `paginate = 50`) the rows of the page itself
  are narrowed;
- an address written to harm (markup in `?q=`, values the page does not offer) puts
  nothing but text in the page;
- axe-core finds nothing to fault with matches shown; screenshots at 390 and 1280 px,
  light and dark, are kept in tests/artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from talkpages.content.loader import LoadOptions
from talkpages.output import formatting

from browser import ARTIFACTS, AXE, AXE_TAGS, require_axe, serve
from conftest import NOW, MakeSite, build, render_site, talk
from pagesite import FILES, PREFIX

UPCOMING = ["An online talk from New York", "A hybrid meetup", "A cancelled talk"]


@pytest.fixture(scope="module")
def paged(fixture_out: Path) -> Iterator[str]:
    with serve(fixture_out, PREFIX) as url:
        yield url


@pytest.fixture(scope="module")
def one_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The fixture site with every talk on the first page of the index."""
    site = tmp_path_factory.mktemp("one-page") / "site"
    for name, content in FILES.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    out = site.parent / "out"
    assert build(site, out, LoadOptions(now=NOW, overrides={"paginate": 50})).ok
    with serve(out, PREFIX) as url:
        yield url


def at(browser: Any, when: datetime = NOW, **options: Any) -> Any:
    """A page whose clock reads `when` (the build's time unless told), in Berlin."""
    context = browser.new_context(timezone_id="Europe/Berlin", locale="en-GB",
                                  viewport={"width": 1280, "height": 900}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.clock.install(time=when)
    return page


def shown(page: Any, where: str = ".talk-item:visible") -> list[str]:
    titles: list[str] = page.locator(f"{where} .talk-title").all_inner_texts()
    return titles


def listed(page: Any, part: str) -> list[str]:
    """The titles of the matches under Upcoming (`part` "upcoming") or Past talks."""
    return shown(page, f".search-results section.{part} .talk-item")


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def test_a_shared_link_with_a_tag_and_upcoming_only_lists_those_talks(
        browser: Any, paged: str) -> None:
    from playwright.sync_api import expect

    page = at(browser)
    page.goto(paged + "?tag=kubernetes&upcoming=1")
    results = page.locator(".search-results")
    expect(results.locator(".talk-item")).to_have_count(2)
    assert shown(page) == ["An online talk from New York", "A cancelled talk"]
    assert page.get_by_label("Tag", exact=True).input_value() == "kubernetes"
    assert page.get_by_label("Upcoming only").is_checked()
    expect(page.locator("#filter-status")).to_have_text("2 talks match.")
    expect(results.locator("section.past")).to_have_count(0)
    expect(page.locator("nav.pages")).to_be_hidden()
    assert page.errors == []
    page.context.close()


def test_matches_from_search_json_read_like_the_list(browser: Any, paged: str) -> None:
    """Upcoming soonest first with their schedule line, past newest first with their
    day; the title, each speaker and each tag a link to its page."""
    from playwright.sync_api import expect

    page = at(browser)
    page.goto(paged)
    built = {title: page.locator(".talk-item").filter(has_text=title).locator(".talk-date")
             .inner_text() for title in UPCOMING}  # the rows of the built page
    page.get_by_label("Tag", exact=True).select_option("kubernetes")
    results = page.locator(".search-results")
    expect(results.locator(".talk-item")).to_have_count(3)
    upcoming, past = results.locator("section.upcoming"), results.locator("section.past")
    expect(upcoming.get_by_role("heading", level=2)).to_have_text("Upcoming")
    expect(past.get_by_role("heading", level=2)).to_have_text("Past talks")
    assert listed(page, "upcoming") == ["An online talk from New York", "A cancelled talk"]
    assert listed(page, "past") == ["Batch scheduling in Madrid"]
    online = upcoming.locator(".talk-item").first
    expect(online.locator(".talk-date")).to_have_text(built["An online talk from New York"])
    expect(upcoming.locator(".talk-item").nth(1)).to_have_class("talk-item talk--cancelled")
    madrid = past.locator(".talk-item")
    expect(madrid.locator(".talk-date")).to_have_text("May 22, 2019")  # the site is "en"
    expect(madrid.locator(".talk-meta")).to_contain_text("KubeCon Europe")
    links = {a.inner_text(): a.get_attribute("href") for a in madrid.locator("a").all()}
    assert links == {"Batch scheduling in Madrid": "./madrid/",
                     "Ada Lovelace": "./speakers/ada-lovelace/",
                     "Grace Hopper": "./speakers/grace-hopper/",
                     "Kubernetes": "./tags/kubernetes/",
                     "Batch Scheduling": "./tags/batch-scheduling/"}
    for href in links.values():  # from the index, whose root is "./"
        assert page.request.get(paged + href[2:]).status == 200, href
    page.get_by_label("Filter talks").fill("c++")  # a tag whose page's slug is spelled out
    page.get_by_label("Tag", exact=True).select_option("")
    expect(results.locator(".talk-item")).to_have_count(1)
    tag = results.locator("a.tag")
    expect(tag).to_have_attribute("href", "./tags/c-plus-plus/")
    page.get_by_label("Filter talks").fill("")
    page.get_by_label("Tag", exact=True).select_option("云原生")
    expect(results.locator("a.tag")).to_have_attribute(
        "href", "./tags/%E4%BA%91%E5%8E%9F%E7%94%9F/")
    assert page.errors == []
    page.context.close()


def test_the_readers_clock_says_what_is_upcoming(browser: Any, paged: str) -> None:
    """Mid-June 2099 the online talk of 1 June is past: it heads the past talks."""
    from playwright.sync_api import expect

    page = at(browser, datetime(2099, 6, 15, tzinfo=timezone.utc))
    page.goto(paged + "?tag=kubernetes")
    expect(page.locator(".search-results .talk-item")).to_have_count(3)
    assert listed(page, "upcoming") == ["A cancelled talk"]
    assert listed(page, "past") == ["An online talk from New York", "Batch scheduling in Madrid"]
    expect(page.locator("section.past .talk-item").first.locator(".talk-date")).to_have_text(
        "Jun 1, 2099")
    page.context.close()


def test_typing_and_choosing_keep_the_address_up_to_date(browser: Any, paged: str) -> None:
    from playwright.sync_api import expect

    page = at(browser)
    page.goto(paged + "?utm_source=x#talks")
    length = page.evaluate("history.length")
    page.get_by_label("Filter talks").press_sequentially("ada", delay=5)
    expect(page).to_have_url(paged + "?utm_source=x&q=ada#talks")
    page.get_by_label("Year", exact=True).select_option("2019")
    page.get_by_label("Upcoming only").check()
    assert query(page) == {"utm_source": ["x"], "q": ["ada"], "year": ["2019"],
                           "upcoming": ["1"]}
    expect(page.locator("#filter-status")).to_have_text("No talk matches these filters.")
    clear = page.get_by_role("button", name="Clear the filters")
    clear.click()
    expect(page).to_have_url(paged + "?utm_source=x#talks")
    expect(page.locator(".talk-item:visible")).to_have_count(3)  # the first page again
    expect(page.locator("nav.pages")).to_be_visible()
    expect(clear).to_be_hidden()
    expect(page.get_by_label("Filter talks")).to_be_focused()
    assert page.evaluate("history.length") == length  # replaced, never pushed
    page.context.close()


def test_an_index_of_one_page_narrows_its_own_rows(browser: Any, one_page: str) -> None:
    from playwright.sync_api import expect

    page = at(browser)
    page.goto(one_page + "?tag=kubernetes&upcoming=1")
    expect(page.locator(".talk-item:visible")).to_have_count(2)
    assert shown(page) == ["An online talk from New York", "A cancelled talk"]
    expect(page.locator("#past")).to_be_hidden()
    assert page.locator(".search-results").count() == 0  # no request for search.json
    page.get_by_label("Upcoming only").uncheck()
    expect(page.locator(".talk-item:visible")).to_have_count(3)
    assert query(page) == {"tag": ["kubernetes"]}
    page.get_by_label("Tag", exact=True).select_option("")
    page.get_by_label("Year", exact=True).select_option("2019")
    assert shown(page) == ["Batch scheduling in Madrid", "Math without a CDN"]
    assert page.locator("#talks h3:visible").all_inner_texts() == ["2019"]
    page.get_by_label("Filter talks").fill("math")
    expect(page.locator(".talk-item:visible")).to_have_count(1)
    assert query(page) == {"q": ["math"], "year": ["2019"]}
    expect(page.locator("#filter-status")).to_have_text("1 talk matches.")
    assert page.errors == []
    page.context.close()


def test_a_tag_may_be_named_in_the_address(browser: Any, one_page: str) -> None:
    """`?tag=` takes the slug of the tag's page; the name as written will do."""
    from playwright.sync_api import expect

    page = at(browser)
    page.goto(one_page + "?tag=Batch+Scheduling")
    expect(page.locator(".talk-item:visible")).to_have_count(1)
    assert page.get_by_label("Tag", exact=True).input_value() == "batch-scheduling"
    assert shown(page) == ["Batch scheduling in Madrid"]
    page.context.close()


def test_a_tag_named_in_the_address_is_the_tag_of_that_name(browser: Any,
                                                          tmp_path: Path) -> None:
    """Regression: `?tag=C%2B%2B` chose the tag C, whose slug the script made of "C++"
    by dropping its symbols; a name is matched against the names the page lists."""
    from playwright.sync_api import expect

    site = tmp_path / "site"
    for name, tags in (("plain", '["C"]'), ("plus", '["C++"]'), ("net", '[".NET"]')):
        path = site / "talks" / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(talk(f"Talk {name}", "2019-05-22T14:50:00", f"tags = {tags}"))
    assert build(site, tmp_path / "out", LoadOptions(now=NOW)).ok
    with serve(tmp_path / "out", "/") as url:
        page = at(browser)
        for asked, slug, title in (("C%2B%2B", "c-plus-plus", "Talk plus"),
                                   ("c", "c", "Talk plain"), (".net", "dotnet", "Talk net")):
            page.goto(url + "?tag=" + asked)
            expect(page.locator(".talk-item:visible")).to_have_count(1)
            assert page.get_by_label("Tag", exact=True).input_value() == slug
            assert shown(page) == [title]
        page.context.close()


def test_a_talk_that_ends_leaves_the_upcoming_only_list(browser: Any, one_page: str) -> None:
    """site.js moves a talk that is over to Past talks, under a year it makes; with
    "Upcoming only" asked, it is no longer shown."""
    from playwright.sync_api import expect

    page = at(browser, datetime(2099, 6, 1, 16, 50, tzinfo=timezone.utc))  # ends at 17:00
    page.goto(one_page + "?upcoming=1")
    expect(page.locator(".talk-item:visible")).to_have_count(3)
    page.clock.fast_forward("15:00")
    expect(page.locator(".talk-item:visible")).to_have_count(2)
    assert shown(page) == ["A hybrid meetup", "A cancelled talk"]
    expect(page.locator("#filter-status")).to_have_text("2 talks match.")
    expect(page.locator("#year-2099")).to_be_hidden()  # the year it made, empty as shown
    page.get_by_label("Upcoming only").uncheck()
    expect(page.locator("#year-2099")).to_be_visible()
    assert shown(page)[:3] == ["A hybrid meetup", "A cancelled talk",
                               "An online talk from New York"]
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("which", ["paged", "one_page"])
def test_a_hostile_address_puts_only_text_in_the_page(browser: Any, which: str,
                                                      request: pytest.FixtureRequest) -> None:
    from playwright.sync_api import expect

    base: str = request.getfixturevalue(which)
    page = at(browser)
    words = '<img src=x id=injected onerror="window.hit=1">'
    page.goto(base + "?q=" + words.replace(" ", "%20").replace('"', "%22")
              + "&tag=%3Cb%3E&year=20x19&upcoming=yes&tag=kubernetes")
    expect(page.locator("#filter-status")).to_have_text(f"No talk matches “{words}”.")
    assert page.get_by_label("Filter talks").input_value() == words
    assert page.get_by_label("Tag", exact=True).input_value() == ""  # the first ?tag= is not a tag
    assert page.get_by_label("Year", exact=True).input_value() == ""
    assert not page.get_by_label("Upcoming only").is_checked()
    assert page.locator("#injected").count() == 0
    assert page.evaluate("window.hit") is None
    page.goto(base + "?q=" + "a" * 5000)
    assert page.get_by_label("Filter talks").input_value() == "a" * 200
    assert page.errors == []
    page.context.close()


def test_upcoming_all_day_talks_read_as_the_built_rows(browser: Any, make_site: MakeSite,
                                                       tmp_path: Path) -> None:
    """The script shows the line of an upcoming row from a search.json row as the
    build writes it: one day, days in a month, across months, across years."""
    from playwright.sync_api import expect

    spans = {"one-day": ("2099-03-04", "2099-03-04"), "in-a-month": ("2099-03-10", "2099-03-12"),
             "across-months": ("2099-03-30", "2099-04-02"),
             "across-years": ("2099-12-30", "2100-01-02")}
    files = {"talkpages.toml": 'title = "T"\nbase_url = "https://example.org/"\npaginate = 1\n'
             'timezone = "America/New_York"\n'}
    for name, (first, last) in spans.items():
        files[f"talks/{name}.md"] = talk(f"Days {name}", first, f"date_end = {last}")
    files["talks/timed.md"] = talk("Timed", "2099-11-01T18:00:00", 'timezone = "Asia/Tokyo"')
    site = make_site(files)
    result = render_site(site)
    assert result.site is not None
    dates = formatting.dates_for(result.site.messages.locale)
    expected = {t.title: dates.schedule_when(t.schedule) for t in result.site.talks}
    out = tmp_path / "out"
    assert build(site, out, LoadOptions(now=NOW)).ok
    with serve(out, "/") as url:
        page = at(browser)
        page.goto(url + "?upcoming=1")
        expect(page.locator(".search-results .talk-item")).to_have_count(5)
        got = {item.locator(".talk-title").inner_text(): item.locator(".talk-date").inner_text()
               for item in page.locator(".search-results .talk-item").all()}
        assert got == expected
        assert "Mon, Mar 30\u2009–\u2009Thu, Apr 2, 2099" in got.values()
        page.context.close()


def test_matches_pass_axe_and_look_right_at_390_and_1280(browser: Any, paged: str) -> None:
    require_axe()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        for scheme in ("light", "dark"):
            # axe is injected as an inline script, which the pages' CSP rightly blocks
            page = at(browser, color_scheme=scheme, bypass_csp=True)
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(paged + "?tag=kubernetes")
            page.locator(".search-results .talk-item").first.wait_for()
            page.get_by_label("Year", exact=True).focus()  # the focus ring is in the picture
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(ARTIFACTS / f"filters-{width}-{scheme}.png"),
                            full_page=True)
            page.add_script_tag(path=str(AXE))
            result = page.evaluate(
                "tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                " resultTypes: ['violations']})", AXE_TAGS)
            assert result["violations"] == [], [v["id"] for v in result["violations"]]
            assert page.errors == []
            page.context.close()


@pytest.mark.parametrize("paginate", [2, 50])
def test_the_language_a_talk_is_given_in_narrows_the_list(
        browser: Any, make_site: MakeSite, tmp_path: Path, paginate: int) -> None:
    """Talks given in Spanish on an English site: the filter offers the languages (the
    site's own for a talk that names none), from search.json on a paginated index and
    from the page's own rows on one page, each match marked with its language."""
    from playwright.sync_api import expect

    site = make_site({
        "talkpages.toml": f'title = "T"\npaginate = {paginate}\n',
        "talks/uno.md": talk("Uno", "2019-05-22T14:50:00", 'language = "es"'),
        "talks/dos.md": talk("Dos", "2019-06-22T14:50:00", 'language = "es-MX"'),
        "talks/one.md": talk("One", "2019-07-22T14:50:00"),
        "talks/two.md": talk("Two", "2019-08-22T14:50:00", 'language = "en-GB"')})
    out = tmp_path / "out"
    assert build(site, out, LoadOptions(now=NOW)).ok
    with serve(out) as url:
        page = at(browser)
        page.goto(url + "?language=es")
        expect(page.locator(".talk-item:visible")).to_have_count(2)
        assert sorted(shown(page)) == ["Dos", "Uno"]
        badges = page.locator(".talk-item:visible .talk-language").all_inner_texts()
        assert len(badges) == 2 and all(b.startswith("Spanish") for b in badges)
        page.get_by_label("Language", exact=True).select_option("en")
        expect(page.locator(".talk-item:visible")).to_have_count(2)
        assert sorted(shown(page)) == ["One", "Two"]
        assert query(page) == {"language": ["en"]}
        assert page.errors == []
        page.context.close()
