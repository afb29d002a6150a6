"""The built pages as a visitor meets them, in Chromium:

- printed, a page carries no screen control (theme toggle, filter, subscribe menu,
  language switcher), and a talk's links print their addresses;
- an upcoming talk's date never starts a line with a lone "·", at any width;
- the index shows its first talks on the first screen of a laptop and of a phone;
- the states a visitor reads: the current section and tag, the theme that is on, a
  speaker's initials, and no layout shift when the visitor's own time is filled in.

Skipped with the reason when Chromium or Playwright is missing (browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from talkpages.content.loader import LoadOptions

from browser import serve
from conftest import NOW, build, talk
from pagesite import PREFIX

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
MADRID = "madrid/"


@pytest.fixture(scope="module")
def example(example_out: Path) -> Iterator[str]:
    with serve(example_out, "/talks/") as url:
        yield url


@pytest.fixture(scope="module")
def fixture(fixture_out: Path) -> Iterator[str]:
    with serve(fixture_out, PREFIX) as url:
        yield url


def make_site(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    out = root / "public"
    result = build(root, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    return out


SPEAKER = 'authors = ["Ann Lee"]\ntags = ["kubernetes"]\nlocation = "Lyon"'


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A French site with upcoming talks: its dates ("mer. 13 janv. 2027 · 18:00 …")
    fill the date column to the separator."""
    out = make_site(tmp_path_factory.mktemp("fr"), {
        "talkpages.toml": 'title = "Exposés"\nbase_url = "https://example.org/"\n'
                          'language = "fr"\ntimezone = "Europe/Berlin"\n',
        "talks/a.md": talk("Ordonnancement", "2027-01-13T18:00:00", SPEAKER),
        "talks/b.md": talk("Lots", "2027-02-28T14:00:00", SPEAKER),
        "talks/c.md": talk("Ancien", "2019-02-28T14:00:00", SPEAKER),
    })
    with serve(out) as url:
        yield url


def display(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => getComputedStyle(n).display)")


@pytest.mark.parametrize("width", [390, 1280])
def test_print_hides_the_screen_controls(browser: Any, fixture: str, tmp_path: Path,
                                         width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(fixture)
    page.emulate_media(media="print")
    for selector in (".theme-toggle", ".filter", ".subscribe", ".site-header nav"):
        shown = display(page, selector)
        assert shown and set(shown) == {"none"}, (selector, shown)
    shot = tmp_path / f"index-print-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    page.goto(fixture + MADRID)
    page.emulate_media(media="print")
    assert set(display(page, ".theme-toggle, .add-to-calendar, .copy-button")) <= {"none"}
    shot = tmp_path / f"talk-print-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 0
    context.close()


def test_print_gives_the_talk_links_their_addresses(browser: Any, fixture: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(fixture + MADRID)
    after = ("n => getComputedStyle(n, '::after').content")
    page.emulate_media(media="print")
    links = page.eval_on_selector_all(".speaker-links a[href^='http']",
                                      f"nodes => nodes.map({after})")
    assert links and all("https://" in text for text in links), links
    nav = page.eval_on_selector_all(".site-header a", f"nodes => nodes.map({after})")
    assert set(nav) <= {"none", "normal"}, nav
    page.emulate_media(media="screen")
    assert set(page.eval_on_selector_all(".speaker-links a", f"nodes => nodes.map({after})")) \
        <= {"none", "normal"}
    context.close()


LEADING = """cells => cells.flatMap(cell => {
  const firsts = new Map();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      if (/\\s/.test(node.data[i])) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || !rect.width) continue;
      const top = Math.round(rect.top);
      if (!firsts.has(top)) firsts.set(top, node.data[i]);
    }
  }
  return [...firsts.values()].filter(first => first === "\u00b7").map(() => cell.textContent);
})"""


@pytest.mark.parametrize(("site", "path"), [
    ("fixture", ""), ("fixture", "tags/kubernetes/"), ("fixture", "speakers/grace-hopper/"),
    ("french", ""), ("french", "tags/kubernetes/"), ("french", "speakers/ann-lee/")])
def test_no_line_of_an_upcoming_date_starts_with_the_separator(
        browser: Any, request: pytest.FixtureRequest, site: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 800})
    page = context.new_page()
    page.goto(request.getfixturevalue(site) + path)
    assert page.locator(".upcoming .talk-date").count() > 0
    for width in range(320, 1281, 40):
        page.set_viewport_size({"width": width, "height": 800})
        lone = page.eval_on_selector_all(".upcoming .talk-date, .next-date", LEADING)
        assert not lone, (width, lone)
    context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
@pytest.mark.parametrize("site", ["example", "fixture"])
def test_the_first_talks_are_on_the_first_screen(browser: Any, request: pytest.FixtureRequest,
                                                 site: str, viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(request.getfixturevalue(site))
    title = page.locator("#talks .talk-item .talk-title").first.bounding_box()
    assert title["y"] + title["height"] <= viewport["height"], title
    assert page.locator("h1").count() == 1
    header = page.locator(".site-header").bounding_box()
    if viewport is PHONE:  # one line: the title, the navigation, the theme's button
        assert header["height"] < 70, header
    else:  # the filter is one line: the search field and the lists side by side
        words = page.locator(".filter-words").bounding_box()
        last = page.locator(".filter-choices > p").last.bounding_box()
        assert abs(words["y"] - last["y"]) < 20, (words, last)
    context.close()


def test_a_phone_keeps_the_filter_behind_a_button_and_opens_it_from_the_address(
        browser: Any, fixture: str) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(fixture)
    toggle = page.get_by_role("button", name="Filter", exact=True)
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator("#filter").is_visible()
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#filter").is_visible()
    page.goto(fixture + "?tag=kubernetes")
    assert page.locator("#filter-tag").is_visible()
    assert page.locator("#filter-tag").input_value() == "kubernetes"
    from playwright.sync_api import expect  # (waits: filter.js runs after the load)

    expect(page.locator("#talks .talk-item:visible")).not_to_have_count(
        page.locator("#talks .talk-item").count())
    page.set_viewport_size(LAPTOP)
    page.goto(fixture)
    assert not toggle.is_visible() and page.locator("#filter").is_visible()
    context.close()


@pytest.mark.parametrize("path", ["tags/kubernetes/", "speakers/ann-lee/", "years/2027/"])
def test_a_list_page_drops_its_upcoming_section_once_its_talks_are_over(
        browser: Any, french: str, path: str) -> None:
    """A tag's, speaker's or year's page has no empty "Upcoming" (as built, none is
    made); the index keeps its own and says there is nothing yet."""
    from datetime import datetime, timezone

    context = browser.new_context()
    page = context.new_page()
    page.clock.install(time=datetime(2027, 3, 2, tzinfo=timezone.utc))
    page.goto(french + path)
    assert page.locator(".talk-item").count() > 0
    assert page.locator("section.upcoming").count() == 0
    assert page.locator(".empty").count() == 0
    page.goto(french)
    assert page.locator("section.upcoming .empty").count() == 1
    context.close()


def test_upcoming_only_is_offered_when_a_talk_is_upcoming(browser: Any, example: str,
                                                           fixture: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(example)  # every talk of the example site is past
    assert page.locator("#filter-tag").is_visible()
    assert page.locator("#filter-upcoming").count() == 0
    page.goto(fixture)
    assert page.locator("#filter-upcoming").is_visible()
    context.close()


LAYOUT_SHIFT = """() => new Promise(resolve => {
  let total = 0;
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => resolve(total), 500);
})"""


@pytest.fixture(scope="module")
def japanese(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = make_site(tmp_path_factory.mktemp("ja"), {
        "talkpages.toml": 'title = "講演"\nbase_url = "https://example.org/"\n'
                          'language = "ja"\ntimezone = "Asia/Tokyo"\n',
        "talks/kubernetes.md": talk("Kubernetes のバッチ処理", "2027-01-13T18:00:00",
                                    'authors = ["山田 太郎"]\nlocation = "東京"',
                                    body="本文。\n\n" * 20),
    })
    with serve(out) as url:
        yield url


@pytest.mark.parametrize(("site", "path", "viewport"), [
    (site, path, viewport) for site, path in (
        ("example", "kubecon-eu-2019-kubernetes-batch-scheduling/"), ("japanese", "kubernetes/"))
    for viewport in (PHONE, LAPTOP)] + [
    (site, path, {"width": 320, "height": 700}) for site, path in (
        ("example", "kubecon-eu-2019-kubernetes-batch-scheduling/"), ("japanese", "kubernetes/"))])
def test_the_visitors_time_moves_nothing(browser: Any, request: pytest.FixtureRequest,
                                         site: str, path: str, viewport: dict[str, int]) -> None:
    """A talk page's line of the visitor's own time fills room kept for it, on a phone
    too, and at 320 px in Japanese (whose words for "your time" are kept short for it);
    a visitor in the talk's own zone gets no line and no empty room."""
    url = request.getfixturevalue(site) + path
    context = browser.new_context(timezone_id="America/New_York", viewport=viewport)
    page = context.new_page()
    page.goto(url)
    assert "New York" in page.locator(".facts .local-time").inner_text()
    shift = page.evaluate(LAYOUT_SHIFT)
    assert shift < 0.01, shift
    kept, taken = page.eval_on_selector(".facts .local-time", "n => [parseFloat("
                                        "getComputedStyle(n).minHeight), n.scrollHeight]")
    assert taken <= kept + 1, (kept, taken)  # the text fits the room kept for it
    own = page.evaluate("document.documentElement.dataset.zone")
    context.close()
    context = browser.new_context(timezone_id=own, viewport=viewport)
    page = context.new_page()
    page.goto(url)
    assert display(page, ".facts .local-time") == ["none"]
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_visitors_time_moves_no_row_of_the_index(browser: Any, french: str,
                                                     viewport: dict[str, int]) -> None:
    """A visitor outside the site's zone gets a line of their own time under the "Next
    talk" card and each upcoming row, on one line and in room kept for it; a visitor in
    the site's zone gets no such line, and no empty room either."""
    context = browser.new_context(timezone_id="America/New_York", viewport=viewport)
    page = context.new_page()
    page.goto(french)
    lines = page.locator(".talk-item .local-time, .next-talk .local-time")
    assert lines.count() == 3
    for text in lines.all_inner_texts():
        assert text.startswith("Chez vous") and "UTC−5" in text, text
    heights = page.eval_on_selector_all(
        ".talk-item .local-time", "nodes => nodes.map(n => n.getBoundingClientRect().height)")
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'.talk-item .local-time')).lineHeight)")
    assert all(height <= line * 1.2 for height in heights), (heights, line)
    shift = page.evaluate(LAYOUT_SHIFT)
    assert shift < 0.001, shift  # nothing moves, not even a space
    context.close()
    context = browser.new_context(timezone_id="Europe/Berlin", viewport=viewport)
    page = context.new_page()
    page.goto(french)
    assert page.evaluate("document.documentElement.classList.contains('elsewhere')") is False
    assert set(display(page, ".talk-item .local-time, .next-talk .local-time")) == {"none"}
    context.close()


def edge_shades(page: Any) -> tuple[int, int]:
    """How much the nav's background darkens its first and last 6 px: the nav as shown
    against the same nav with no background."""
    from io import BytesIO

    from PIL import Image, ImageChops
    nav = page.locator(".site-header nav")
    shown = Image.open(BytesIO(nav.screenshot())).convert("L")
    nav.evaluate("n => { n.style.background = 'none' }")
    bare = Image.open(BytesIO(nav.screenshot())).convert("L")
    nav.evaluate("n => { n.style.background = '' }")
    shade = ImageChops.difference(shown, bare)
    width, height = shade.size
    left, right = (shade.crop((x, 0, x + 6, height)).getextrema()[1] for x in (0, width - 6))
    return int(left), int(right)


def test_a_phone_header_shows_there_is_more_to_its_navigation(
        browser: Any, french: str) -> None:
    """The phone's one-line header scrolls its navigation sideways: a shade at the edge
    says there is more, on the side where there is, and goes once the end is reached."""
    context = browser.new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    page.goto(french)
    nav = page.locator(".site-header nav")
    assert nav.evaluate("n => n.scrollWidth > n.clientWidth + 20")
    start, end = edge_shades(page)
    assert start < 8 and end > 20, (start, end)
    nav.evaluate("n => { n.scrollLeft = n.scrollWidth }")
    start, end = edge_shades(page)
    assert start > 20 and end < 8, (start, end)
    context.close()


def test_the_current_section_and_tag_are_marked(browser: Any, fixture: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(fixture + "tags/kubernetes/")
    nav = page.locator(".site-header nav")
    assert nav.locator("[aria-current=page]").all_inner_texts() == ["Tags"]
    weight = "n => getComputedStyle(n).fontWeight"
    assert nav.get_by_role("link", name="Tags").evaluate(weight) == "700"
    assert nav.get_by_role("link", name="Speakers").evaluate(weight) == "400"
    pills = page.locator("#main a.tag")
    current = page.locator("#main a.tag[aria-current=page]")
    assert current.count() >= 2 and set(current.all_inner_texts()) == {"Kubernetes"}
    background = "n => getComputedStyle(n).backgroundColor"
    other = pills.filter(has_not_text="Kubernetes").first
    assert current.first.evaluate(background) != other.evaluate(background)
    page.goto(fixture + "speakers/")
    assert nav.locator("[aria-current=page]").all_inner_texts() == ["Speakers"]
    page.goto(fixture)
    assert nav.locator("[aria-current]").count() == 0
    assert page.locator("a.tag[aria-current]").count() == 0
    context.close()


@pytest.mark.parametrize(("scheme", "label"), [("light", "Theme: light"), ("dark", "Theme: dark")])
def test_the_theme_button_says_which_theme_is_on(browser: Any, fixture: str, scheme: str,
                                                 label: str) -> None:
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(fixture)
    toggle = page.locator("button.theme-toggle")
    assert toggle.inner_text() == label
    toggle.click()
    assert toggle.inner_text() == ("Theme: dark" if scheme == "light" else "Theme: light")
    context.close()


def test_a_speaker_without_a_photo_has_initials(browser: Any, fixture: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(fixture + "speakers/grace-hopper/")
    initials = page.locator(".speaker-head .initials")
    assert initials.is_visible() and initials.inner_text() == "GH"
    assert initials.bounding_box()["width"] > 100
    context.close()


def test_a_recording_without_a_picture_shows_its_card_or_a_play_button(
        browser: Any, example: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(example + "kubecon-eu-2019-kubernetes-batch-scheduling/")  # no card, no image
    figure = page.locator("figure.recording")
    assert figure.get_attribute("class") == "recording recording--compact"
    assert page.locator(".poster").bounding_box()["height"] < 80
    assert page.locator(".poster-title").count() == 0
    with serve(make_site(tmp_path, {
        "talkpages.toml": 'title = "Cards"\nbase_url = "https://example.org/"\n'
                          'social_cards = "all"\n',
        "talks/old.md": talk("Recorded", "2019-05-22T14:50:00",
                             'url_video = "https://example.org/video"'),
    })) as url:
        page.goto(url + "old/")
        card = page.locator(".poster img")
        assert card.get_attribute("src") == "card.jpg"
        assert card.evaluate("img => img.complete && img.naturalWidth") == 1200
        assert page.locator("figure.recording").get_attribute("class") == "recording"
    context.close()
