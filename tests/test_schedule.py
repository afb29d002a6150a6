"""The pages as a schedule, without JavaScript: upcoming rows with weekday, time and zone
and the instants site.js reads, compact past rows, the Next talk card, the subscribe
menu (with and without a public base_url), Add to calendar for talks still to come,
list badges as links, the Map link. site.js itself: test_browser_schedule.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from talkpages.output.pages import map_url

from conftest import MakeSite, outputs, render_site, talk

UPCOMING = talk("Schedule talk", "2027-01-14T18:00:00", '''
    date_end = 2027-01-14T19:30:00
    timezone = "America/New_York"
    authors = ["Ada"]
    tags = ["Café Society"]
    url_slides = "slides.pdf"
    url_video = "https://video.example.org/watch?v=1&t=2"
    coordinates = { latitude = 40.75, longitude = -73.9867 }
''')
PAST = talk("Old talk", "2019-05-22T14:50:00", '''
    timezone = "Europe/Madrid"
    authors = ["Ada"]
    tags = ["Café Society"]
''')
CONFIG = 'title = "Q&A Talks"\nbase_url = "https://example.org/talks/"\n'


class Anchors(HTMLParser):
    """Every <a> of a page: its attributes and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[dict[str, str | None], str]] = []
        self._open: list[tuple[dict[str, str | None], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._open.append((dict(attrs), []))

    def handle_data(self, data: str) -> None:
        for _, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            attrs, text = self._open.pop()
            self.links.append((attrs, "".join(text)))


def links_by_text(page: str) -> dict[str, str]:
    parser = Anchors()
    parser.feed(page)
    return {text: attrs.get("href") or "" for attrs, text in parser.links}


def site_files(make_site: MakeSite, config: str = CONFIG, root: Path | None = None,
               ) -> dict[str, bytes]:
    site = make_site({"talkpages.toml": config, "talks/up/index.md": UPCOMING,
                      "talks/up/slides.pdf": b"%PDF-1.4\n", "talks/old.md": PAST}, root)
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)


def section(page: str, name: str) -> str:
    found = re.search(rf'<section class="{name}".*?</section>', page, re.S)
    assert found, name
    return found.group(0)


def test_an_upcoming_row_reads_as_a_schedule_and_a_past_row_stays_compact(
        make_site: MakeSite) -> None:
    index = site_files(make_site)["index.html"].decode()
    upcoming, past = section(index, "upcoming"), section(index, "past")
    assert ('<li class="talk-item" data-start="2027-01-14T23:00:00Z" '
            'data-end="2027-01-15T00:30:00Z" data-year="2027">') in upcoming
    assert ('<time class="talk-date" datetime="2027-01-14T18:00-05:00" '
            'data-short="Jan 14, 2027">Thu, Jan 14, 2027\u00a0· 6:00\u202fPM EST</time>'
            ) in upcoming
    assert ('<p class="local-time" hidden data-start="2027-01-14T18:00-05:00" '
            'data-end="2027-01-14T19:30-05:00" data-brief></p>') in upcoming
    assert '<li class="talk-item">\n  <time class="talk-date" datetime="2019-05-22T14:50+02:00">' \
        'May 22, 2019</time>' in past
    # no time, no zone (an English page names Madrid's "Madrid (GMT+02:00)")
    assert "data-start" not in past and "local-time" not in past and "GMT+02:00" not in past


def test_an_all_day_upcoming_row_shows_its_days_and_no_local_time(make_site: MakeSite) -> None:
    site = make_site({"talks/conf.md": talk("Conf", "2027-03-04", "date_end = 2027-03-06")})
    index = outputs(render_site(site))["index.html"].decode()
    assert '>Thu, Mar 4\u2009–\u2009Sat, Mar 6, 2027</time>' in index
    assert 'data-short="Mar 4\u2009–\u20096, 2027"' in index
    assert "local-time" not in index


def test_the_next_talk_card_leads_the_index_and_skips_cancelled_talks(
        make_site: MakeSite) -> None:
    site = make_site({
        "talks/gone.md": talk("Gone", "2027-01-01T10:00:00", 'status = "cancelled"'),
        "talks/next.md": talk("Next one", "2027-01-02T10:00:00", 'location = "Online"'),
        "talks/later.md": talk("Later one", "2027-02-02T10:00:00")})
    files = outputs(render_site(site))
    index = files["index.html"].decode()
    card = section(index, "next-talk")
    assert index.index('class="next-talk"') < index.index('class="subscribe"') \
        < index.index('id="upcoming"')
    assert 'data-start="2027-01-02T10:00:00Z" data-end="2027-01-02T11:00:00Z"' in card
    assert ('<h2 id="next-talk"><span class="next-label">Next talk</span>'
            '<span class="relative" hidden></span></h2>') in card
    assert '<a class="next-title" href="./next/">Next one</a>' in card
    assert "Sat, Jan 2, 2027\u00a0· 10:00\u202fAM UTC" in card and "<span>Online</span>" in card
    assert "Gone" not in card
    # how soon is written in the browser only: a built page is read for weeks
    assert not re.search(r"\bin \d+ days|tomorrow|happening now", index, re.I)


def test_no_next_talk_card_without_upcoming_talks_or_past_the_first_page(
        make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site({"talkpages.toml": "paginate = 1\n",
                      "talks/a.md": talk("A", "2027-01-02T10:00:00"),
                      "talks/b.md": talk("B", "2027-01-03T10:00:00")})
    files = outputs(render_site(site))
    assert 'class="next-talk"' in files["index.html"].decode()
    assert 'class="next-talk"' not in files["page/2/index.html"].decode()
    only_past = outputs(render_site(make_site({"talks/old.md": PAST}, tmp_path / "past")))
    assert 'class="next-talk"' not in only_past["index.html"].decode()


def test_the_subscribe_menu_links_every_calendar_app(make_site: MakeSite) -> None:
    files = site_files(make_site)
    for path, feed, name, label in [
            ("index.html", "calendar.ics", "Q&A Talks", "Subscribe to the calendar"),
            ("tags/cafe-society/index.html", "tags/cafe-society/calendar.ics",
             "Q&A Talks: Café Society", "Subscribe to these talks"),
            ("speakers/ada/index.html", "speakers/ada/calendar.ics", "Q&A Talks: Ada",
             "Subscribe to these talks")]:
        page = files[path].decode()
        assert f'<details class="subscribe" id="subscribe">\n  <summary>{label}</summary>' in page
        https = f"https://example.org/talks/{feed}"
        webcal = f"webcal://example.org/talks/{feed}"
        links = links_by_text(page)
        assert links["Apple Calendar, Outlook on the desktop"] == webcal
        google = urlsplit(links["Google Calendar"])
        assert (google.scheme, google.netloc, google.path) == (
            "https", "calendar.google.com", "/calendar/render")
        assert parse_qs(google.query) == {"cid": [webcal]}
        assert "cid=webcal%3A%2F%2Fexample.org%2Ftalks%2F" in links["Google Calendar"]
        for text, host in (("Outlook.com", "outlook.live.com"),
                           ("Microsoft 365", "outlook.office.com")):
            added = urlsplit(links[text])
            assert (added.netloc, added.path) == (host, "/calendar/0/addfromweb")
            assert parse_qs(added.query) == {"url": [https], "name": [name]}
        depth = path.count("/")
        assert links["Download the .ics file"] == ("../" * depth or "./") + feed
        assert f'<input id="feed-address" type="text" readonly value="{https}">' in page
        assert '<button class="button copy-button" type="button">Copy</button>' in page
    assert "<details" not in files["years/2027/index.html"].decode()  # no feed of its own


def test_the_nav_goes_to_the_subscribe_menu_and_the_years(make_site: MakeSite) -> None:
    files = site_files(make_site)
    for path, root in (("index.html", "./"), ("up/index.html", "../"),
                       ("tags/cafe-society/index.html", "../../")):
        nav = files[path].decode().split('<nav aria-label="Site">')[1].split("</nav>")[0]
        assert f'<a href="{root}#subscribe">Calendar</a>' in nav
        assert f'<a href="{root}years/">Years</a>' in nav
        assert ".ics" not in nav


def test_without_a_public_base_url_the_menu_offers_the_download_and_the_address(
        make_site: MakeSite, tmp_path: Path) -> None:
    """The default base_url is this computer: no calendar service could fetch the feed
    there, so the app links are left out; site.js resolves the address where the page is
    read."""
    for number, config in enumerate(("", 'base_url = "http://127.0.0.1:8000/"\n')):
        files = site_files(make_site, config, tmp_path / str(number))
        page = files["tags/cafe-society/index.html"].decode()
        links = links_by_text(page)
        assert links["Download the .ics file"] == "../../tags/cafe-society/calendar.ics"
        assert not {"Google Calendar", "Outlook.com", "Microsoft 365"} & set(links)
        assert "webcal:" not in page and "addfromweb" not in page
        assert ('readonly value="../../tags/cafe-society/calendar.ics" data-relative>'
                in page)


def test_add_to_calendar_only_for_a_talk_still_to_come(make_site: MakeSite) -> None:
    files = site_files(make_site)
    coming = files["up/index.html"].decode()
    assert '<ul class="add-to-calendar" aria-label="Add to calendar" ' \
        'data-until="2027-01-15T00:30:00Z">' in coming
    assert "Add to calendar (.ics)" in coming and "calendar.google.com" in coming
    past = files["old/index.html"].decode()
    assert "add-to-calendar" not in past and "Add to calendar" not in past
    assert "calendar.google.com" not in past and "outlook.live.com" not in past


def test_list_badges_are_links_relative_to_the_page(make_site: MakeSite) -> None:
    files = site_files(make_site)
    for path, root in (("index.html", "./"), ("tags/cafe-society/index.html", "../../")):
        links = links_by_text(files[path].decode())
        assert links["Slides"] == f"{root}up/slides.pdf"
        assert links["Video"] == "https://video.example.org/watch?v=1&t=2"


def test_a_talk_with_coordinates_links_a_map(make_site: MakeSite) -> None:
    files = site_files(make_site)
    page = files["up/index.html"].decode()
    assert ('<a class="map" href="https://www.openstreetmap.org/?mlat=40.75&amp;mlon=-73.9867'
            '#map=16/40.75/-73.9867"><svg class="icon" aria-hidden="true" focusable="false">'
            '<use href="#i-map"></use></svg>Map</a>') in page
    assert "openstreetmap" not in files["old/index.html"].decode()
    assert map_url(41.0, 2.15) == \
        "https://www.openstreetmap.org/?mlat=41&mlon=2.15#map=16/41/2.15"


def test_titles_are_underlined_on_hover_only() -> None:
    from conftest import ROOT

    css = (ROOT / "assets" / "style.css").read_text(encoding="utf-8")
    assert ".talk-title { font-weight: 600; text-decoration: none; }" in css
    assert ".talk-title:hover, .talk-title:focus-visible { text-decoration: underline; }" in css
