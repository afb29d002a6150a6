"""The pages in a real browser: Debian's Chromium driven by Playwright (Python).

- the index's filter narrows the list as you type and clears; on a paginated index it
  searches every talk (search.json);
- links work from the index to a talk, to a tag, to a speaker, with the site served
  from a sub-path (/talks/), as on GitHub Pages;
- the local-time line appears for a visitor in another zone, not in the event's;
- axe-core finds no WCAG 2 A/AA violation on any page, no link is broken, no page
  reaches a third party or logs an error; screenshots at 375 and 1280 px, light and
  dark, are kept in tests/artifacts/.

Skipped with the reason when Chromium, Playwright or axe-core is missing; .ci/run
installs them and makes such a skip a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from talkpages.content import taxonomy
from talkpages.content.model import Site

from browser import ARTIFACTS, AXE, AXE_TAGS, keep_screenshot, require_axe, serve
from conftest import ROOT, render_site
from pagesite import PREFIX

SEED = "kubecon-eu-2019-kubernetes-batch-scheduling/"


@pytest.fixture(scope="module")
def example(example_out: Path) -> Iterator[str]:
    with serve(example_out, "/talks/") as url:  # base_url is https://k82cn.github.io/talks/
        yield url


@pytest.fixture(scope="module")
def fixture(fixture_out: Path) -> Iterator[str]:
    with serve(fixture_out, PREFIX) as url:
        yield url


@pytest.fixture(scope="module")
def example_site() -> Site:
    result = render_site(ROOT)
    assert result.site is not None
    return result.site


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def expected_titles(site: Site, query: str) -> list[str]:
    """What the filter must leave: every word in the title, speakers, event, location
    or tags, regardless of case."""
    words = query.casefold().split()
    found = []
    for talk in site.upcoming + site.past:
        text = " ".join([talk.title, talk.event, talk.location, *talk.tags,
                         *(taxonomy.speaker_name(site, a) for a in talk.authors)]).casefold()
        if all(word in text for word in words):
            found.append(talk.title)
    return found


def visible_titles(page: Any) -> list[str]:
    titles: list[str] = page.locator(".talk-item:visible .talk-title").all_inner_texts()
    return titles


@pytest.mark.parametrize("query", ["mesos", "Seattle", "wei huang", "policy wg",
                                   "KubeCon seattle", "华为", "scheduling volcano"])
def test_the_filter_narrows_the_list_and_clears(page: Any, example: str, example_site: Site,
                                                query: str) -> None:
    from playwright.sync_api import expect

    page.goto(example)
    everything = visible_titles(page)
    assert len(everything) == 18
    box = page.get_by_label("Filter talks")
    box.fill(query)
    expected = expected_titles(example_site, query)
    expect(page.locator(".talk-item:visible")).to_have_count(len(expected))
    assert visible_titles(page) == expected and 0 < len(expected) < 18
    status = page.locator("#filter-status")
    expect(status).to_have_text("1 talk matches." if len(expected) == 1
                                else f"{len(expected)} talks match.")
    for heading in page.locator("#talks h3:visible").all():  # no year left without talks
        assert heading.locator("xpath=following-sibling::ol[1]").locator(
            ".talk-item:visible").count() > 0
    box.fill("")
    expect(page.locator(".talk-item:visible")).to_have_count(18)
    expect(status).to_have_text("")


def test_a_filter_that_matches_nothing_says_so(page: Any, example: str) -> None:
    from playwright.sync_api import expect

    page.goto(example)
    page.get_by_label("Filter talks").press_sequentially("zzz nothing", delay=5)
    expect(page.locator(".talk-item:visible")).to_have_count(0)
    expect(page.locator("#filter-status")).to_have_text("No talk matches “zzz nothing”.")
    expect(page.locator("#past")).to_be_hidden()


def test_the_filter_searches_every_page_of_a_paginated_index(page: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    page.goto(fixture)
    assert visible_titles(page) == ["An online talk from New York", "A hybrid meetup",
                                    "A cancelled talk"]  # paginate = 3
    page.get_by_label("Filter talks").fill("ada")  # Ada's talks are on pages 2 and 3
    expect(page.locator(".search-results .talk-item")).to_have_count(3)
    assert visible_titles(page) == ["Batch scheduling in Madrid", "Math without a CDN",
                                    "A three-day summit"]
    expect(page.locator("nav.pages")).to_be_hidden()
    page.get_by_role("link", name="A three-day summit").click()
    expect(page).to_have_url(fixture + "summit/")
    expect(page.get_by_role("heading", level=1)).to_have_text("A three-day summit")
    page.go_back()
    page.get_by_label("Filter talks").fill("")
    expect(page.locator(".talk-item:visible")).to_have_count(3)
    expect(page.locator("nav.pages")).to_be_visible()


def test_links_from_the_index_to_a_talk_to_a_tag_to_a_speaker(page: Any, example: str) -> None:
    from playwright.sync_api import expect

    page.goto(example)
    title = "Improving Performance of Deep Learning Workloads With Volcano"
    page.get_by_role("link", name=title, exact=True).click()
    expect(page).to_have_url(example + "kubecon-na-2019-volcano-deep-learning/")
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    page.locator(".tags").get_by_role("link", name="Volcano").click()
    expect(page).to_have_url(example + "tags/volcano/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Talks tagged “Volcano”")
    page.get_by_role("link", name="Ti Zhou").first.click()
    expect(page).to_have_url(example + "speakers/ti-zhou/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ti Zhou")
    expect(page.locator(".talk-title")).to_have_text([title])
    page.get_by_role("link", name="2019").click()
    expect(page).to_have_url(example + "years/2019/")
    page.get_by_role("link", name="Klaus Ma · Talks").first.click()
    expect(page).to_have_url(example)


# The example site is in English ("en"): the build and Chromium's Intl write CLDR's US
# style, the visitor's time as Intl's formatRange does.
@pytest.mark.parametrize(("zone", "line"), [
    ("America/New_York", "Your time (New York): Wed, May 22, 8:50 – 9:25 AM EDT"),
    ("Asia/Tokyo", "Your time (Tokyo): Wed, May 22, 9:50 – 10:25 PM GMT+9"),
    ("Pacific/Auckland",
     "Your time (Auckland): Thu, May 23, 12:50 – 1:25 AM GMT+12"),
    ("UTC", "Your time: Wed, May 22, 12:50 – 1:25 PM UTC"),  # named once
    ("Europe/Madrid", None), ("Europe/Paris", None),  # the event's offset: nothing to add
])
def test_the_local_time_line_shows_only_for_another_zone(browser: Any, example: str,
                                                        zone: str, line: str | None) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(timezone_id=zone, locale="en-US")
    page = context.new_page()
    page.goto(example + SEED)
    when = page.locator(".facts time")
    expect(when).to_have_text(  # the event's zone rules
        "Wed, May 22, 2019, 2:50\u2009–\u20093:25\u202fPM Madrid (GMT+02:00)")
    local = page.locator(".local-time")
    if line is None:
        expect(local).to_be_hidden()
        assert local.inner_text() == ""
    else:
        expect(local).to_be_visible()
        expect(local).to_have_text(line)
    context.close()


def test_screenshots_at_phone_and_desktop_widths(browser: Any, example: str) -> None:
    for width, height in ((375, 812), (1280, 900)):
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": width, "height": height},
                                          color_scheme=scheme, device_scale_factor=1)
            page = context.new_page()
            for name, path in (("index", ""), ("talk", SEED), ("tag", "tags/kubernetes/")):
                page.goto(example + path)
                # Nothing wider than the screen: no sideways scrolling on a phone.
                overflow = page.evaluate("document.documentElement.scrollWidth")
                assert overflow <= width, (name, width, overflow)
                keep_screenshot(page, f"{name}-{width}-{scheme}")
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert background == ("rgb(253, 253, 252)" if scheme == "light"
                                  else "rgb(21, 23, 26)")
            context.close()


def test_print_styles_hide_the_navigation(page: Any, example: str) -> None:
    page.goto(example + SEED)
    page.emulate_media(media="print")
    assert not page.locator(".site-header nav").is_visible()
    assert not page.locator(".site-footer").is_visible()
    assert page.locator("h1").is_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.pdf(path=str(ARTIFACTS / "talk-print.pdf"))
    assert (ARTIFACTS / "talk-print.pdf").read_bytes().startswith(b"%PDF")


def test_without_javascript_every_talk_is_listed_and_the_filter_is_absent(
        browser: Any, example: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(example)
    assert len(visible_titles(page)) == 18
    assert not page.locator("form.filter").is_visible()
    context.close()


def test_videos_load_nothing_from_the_provider_before_a_click(page: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(fixture + "online/")
    page.wait_for_load_state("networkidle")
    assert all(urlsplit(u).hostname == "127.0.0.1" for u in requested), requested
    assert page.locator("iframe").count() == 0
    page.get_by_role("link", name="Play the video").click()  # a talk to come: a video
    frame = page.locator(".recording .embed-frame iframe")
    expect(frame).to_have_attribute(
        "src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1")
    expect(frame).to_have_attribute("title", "Video: An online talk from New York")


def test_a_past_talk_leads_with_its_recording_and_shows_its_pdf_on_a_click(
        page: Any, fixture: str) -> None:
    from playwright.sync_api import expect

    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto(fixture + "madrid/")
    page.wait_for_load_state("networkidle")
    poster = page.locator(".recording a.poster")
    box = poster.bounding_box()
    assert box is not None and abs(box["width"] / box["height"] - 16 / 9) < 0.02
    assert poster.locator("img").count() == 1  # the featured image is the poster
    assert page.locator(".featured").count() == 0  # and not shown twice
    assert not any(path.endswith("slides.pdf") for path in requested)
    page.get_by_role("button", name="Show the slides here").click()
    shown = page.locator("section.slides .embed-frame iframe")
    expect(shown).to_have_attribute("src", "slides.pdf")
    expect(shown).to_have_attribute("title", "Slides: Batch scheduling in Madrid")
    page.get_by_role("link", name="Play the recording").click()
    expect(page.locator(".recording iframe")).to_have_attribute(
        "src", "https://player.vimeo.com/video/76979871?dnt=1&autoplay=1")


def test_math_is_rendered_by_the_browser(page: Any, fixture: str) -> None:
    page.goto(fixture + "math/")
    formulas = page.locator("math")
    assert formulas.count() == 2
    for number in range(2):
        box = formulas.nth(number).bounding_box()
        assert box is not None and box["width"] > 20 and box["height"] > 10
    display = formulas.nth(1).bounding_box()
    inline = formulas.nth(0).bounding_box()
    assert display is not None and inline is not None and display["height"] > inline["height"]


def pages_of(out: Path, base: str) -> list[str]:
    urls = []
    for path in sorted(out.rglob("*.html")):
        relative = path.relative_to(out).as_posix()
        urls.append(base + relative.removesuffix("index.html"))
    return urls


@pytest.mark.parametrize("which", ["example", "fixture"])
def test_every_page_passes_axe_has_no_broken_link_and_stays_on_the_site(
        browser: Any, request: pytest.FixtureRequest, which: str) -> None:
    require_axe()
    base: str = request.getfixturevalue(which)
    out: Path = request.getfixturevalue(f"{which}_out")
    # axe is given to every page the context opens, compiled once by Chromium rather
    # than sent and parsed page by page (half this test's time). The pages' CSP is set
    # aside for axe's sake: test_the_pages_csp_blocks_nothing_of_the_theme checks it.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    outside: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if urlsplit(r.url).hostname != "127.0.0.1" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    violations: dict[str, list[str]] = {}
    links: dict[str, str] = {}
    pages = pages_of(out, base)
    for url in pages:
        errors_before = len(errors)
        expected = 200
        if url.endswith("/404.html"):  # as a server sends it: for a missing address, deep down
            url, expected = base + "no/such/page/", 404
        response = page.goto(url)
        assert response is not None and response.status == expected, url
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                               " resultTypes: ['violations']})", AXE_TAGS)
        found = [f"{v['id']}: {v['help']} ({', '.join(str(n['target']) for n in v['nodes'][:3])})"
                 for v in result["violations"]]
        if found:
            violations[url] = found
        if expected == 404:  # the page's own status, which Chromium logs as an error
            errors[errors_before:] = [e for e in errors[errors_before:]
                                      if "status of 404" not in e]
        assert len(errors) == errors_before, (url, errors[errors_before:])
        for href in page.eval_on_selector_all(
                "a[href], link[href], script[src], img[src], iframe[src]",
                "nodes => nodes.map(n => n.href || n.src)"):
            target = urldefrag(urljoin(url, href))[0]
            if urlsplit(target).netloc == urlsplit(base).netloc and target != url:
                links.setdefault(target, url)
    assert not violations, violations
    broken = {}
    for target, source in sorted(links.items()):
        status = page.request.get(target).status
        if status != 200:
            broken[target] = (status, source)
    assert not broken, broken
    assert not outside, sorted(set(outside))
    assert len(links) > len(pages)
    context.close()


def test_the_pages_csp_blocks_nothing_of_the_theme(browser: Any, example: str) -> None:
    """Every page carries a Content-Security-Policy; the theme's own script and styles
    pass it (a violation is logged as a console error), and the filter still works."""
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    for path in ("", SEED, "tags/", "speakers/"):
        page.goto(example + path)
        page.wait_for_load_state("load")
        policy = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
        assert policy and "script-src 'self'" in policy and "object-src 'none'" in policy
        assert page.evaluate("document.documentElement.classList.contains('js')")
    assert problems == []
    ran = page.evaluate("""() => { const s = document.createElement("script");
        s.textContent = "window.__injected = 1"; document.head.appendChild(s);
        return window.__injected || 0; }""")
    assert ran == 0  # an inline script that is not the theme's does not run
    context.close()
    assert any("Content Security Policy" in p for p in problems)


def test_the_404_page_suggests_talks_by_the_words_of_the_address(page: Any, example: str) -> None:
    response = page.goto(example + "kubecon-volcano-2019/")
    assert response is not None and response.status == 404
    suggestions = page.locator("section.suggestions")
    suggestions.wait_for(state="visible")
    links = suggestions.locator("a")
    hrefs = [urlsplit(h).path for h in links.evaluate_all("nodes => nodes.map(n => n.href)")]
    assert 1 <= len(hrefs) <= 5
    assert set(hrefs[:2]) == {"/talks/kubecon-china-2019-volcano-ai-dl/",  # all three words
                              "/talks/kubecon-na-2019-volcano-deep-learning/"}
    assert "Volcano" in links.first.inner_text()
    page.goto(example + "zzzz-qqqq/")
    page.wait_for_load_state("networkidle")
    assert page.locator("section.suggestions").is_hidden()
