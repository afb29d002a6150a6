"""A term built from one declaration: a 10-week series with three talk files, its page,
its feed across a change of the clocks, its dates still to be announced, the talk
pages' links, each language's tree, and `check`'s warnings about sessions not ready."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

import feedclients
from talkpages.content.loader import LoadOptions

from conftest import MakeSite, build, outputs, render_site, require_tool, talk

NOW = datetime(2027, 2, 1, tzinfo=timezone.utc)
# Ten Fridays, 26 February to 30 April 2027; Berlin's clocks go forward on 28 March.
CONFIG = """\
title = "Department"
base_url = "https://example.org/"
timezone = "Europe/Berlin"

[series.colloquium]
title = "Friday Colloquium"
description = "Talks for the whole department."
weekday = "friday"
time = "15:30"
duration = 60
location = "Room 101"
starts = 2027-02-26
ends = 2027-04-30
"""
TALKS = {
    "talks/graphs.md": talk("Graphs", "2027-03-05", 'series = "colloquium"\nauthors = ["Ada"]'),
    "talks/trees.md": talk("Trees", "2027-04-02", 'series = "colloquium"\nauthors = ["Bo"]'),
    "talks/late.md": talk("Late", "2027-04-16T16:00:00", 'series = "colloquium"\n'
                          'authors = ["Cy"]\nlocation = "Aula"'),
    "talks/other.md": talk("Not in the series", "2027-03-03T10:00:00"),
}
MISSING = feedclients.available()


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({"talkpages.toml": CONFIG, **TALKS})


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def test_the_series_page_shows_the_slot_the_talks_and_the_dates_to_be_announced(site):
    result = render_site(site, now=NOW)
    assert result.ok, [d.format() for d in result.diagnostics]
    page = outputs(result)["series/colloquium/index.html"].decode()
    assert "Fridays, 3:30\u2009–\u20094:30\u202fPM Berlin (GMT+01:00), Room 101" in page
    assert "Talks for the whole department." in page
    assert page.count("To be announced") == 7  # ten Fridays, three talks
    order = [page.index(word) for word in ("Graphs", "Mar 12, 2027", "Trees", "Late")]
    assert order == sorted(order)
    assert "Not in the series" not in page
    assert 'href="../../series/colloquium/calendar.ics"' in page  # its subscribe menu
    assert "Friday Colloquium" in outputs(result)["index.html"].decode()  # the header's link


def test_the_overview_lists_every_series_with_its_slot_and_each_page_leads_there(
        make_site: MakeSite):
    config = CONFIG + ('[series.reading]\ntitle = "Reading group"\nweekday = "monday"\n'
                       'frequency = "monthly"\nweek = "last"\n')
    result = render_site(make_site({"talkpages.toml": config, **TALKS}), now=NOW)
    assert result.ok, [d.format() for d in result.diagnostics]
    files = outputs(result)
    overview = _text(files["series/index.html"])
    assert "All series" in overview
    assert ("Friday Colloquium (3 talks) Fridays, 3:30 – 4:30 PM Berlin "
            "(GMT+01:00), Room 101 Reading group (0 talks) the last Monday of each month"
            ) in overview
    page = files["series/colloquium/index.html"].decode()
    assert '<p class="up"><a href="../../series/">All series</a></p>' in page
    assert 'aria-current="page"' not in files["series/index.html"].decode().split("</header>")[0]


def test_a_site_without_series_has_no_overview_of_them(make_site: MakeSite):
    result = render_site(make_site({"talkpages.toml": 'title = "T"\n',
                                    "talks/other.md": TALKS["talks/other.md"]}), now=NOW)
    assert result.ok, [d.format() for d in result.diagnostics]
    files = outputs(result)
    assert "series/index.html" not in files and "index.html" in files


def test_a_talk_page_links_its_series(site):
    files = outputs(render_site(site, now=NOW))
    assert '<dd><a href="../series/colloquium/">Friday Colloquium</a></dd>' \
        in files["graphs/index.html"].decode()
    assert "Series" not in _text(files["other/index.html"]).replace("Friday Colloquium", "")


def test_past_talks_are_listed_and_past_dates_are_not_announced_any_more(site):
    page = outputs(render_site(site, now=datetime(2027, 4, 10, tzinfo=timezone.utc)))[
        "series/colloquium/index.html"].decode()
    assert page.count("To be announced") == 2  # 23 and 30 April: 9 April is over
    past = page[page.index('id="past"'):]
    assert "Graphs" in past and "Trees" in past and "Late" not in past


def test_the_series_feed_has_its_talks_at_their_times_across_the_change_of_clocks(site):
    feed = outputs(render_site(site, now=NOW))["series/colloquium/calendar.ics"].decode()
    assert "X-WR-CALNAME:Department: Friday Colloquium" in feed
    assert "DTSTART;TZID=Europe/Berlin:20270305T153000" in feed
    assert "DTEND;TZID=Europe/Berlin:20270305T163000" in feed
    assert "DTSTART;TZID=Europe/Berlin:20270402T153000" in feed
    assert "DTSTART;TZID=Europe/Berlin:20270416T160000" in feed
    assert feed.count("BEGIN:VEVENT") == 3 and "Not in the series" not in feed
    assert "To be announced" not in feed  # the page's, not the feed's: seriespages.py
    assert "LOCATION:Room 101" in feed and "LOCATION:Aula" in feed


EXPECTED = [
    "graphs@example.org|2027-03-05T14:30:00Z|2027-03-05T15:30:00Z||Graphs",
    "late@example.org|2027-04-16T14:00:00Z|2027-04-16T15:00:00Z||Late",
    "trees@example.org|2027-04-02T13:30:00Z|2027-04-02T14:30:00Z||Trees",
]


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_calendar_client_reads_the_series_feed_alike(name, site, tmp_path):
    require_tool(MISSING[name] is None, f"{name}: {MISSING[name]}")
    out = tmp_path / "public"
    assert build(site, out, LoadOptions(now=NOW)).ok
    rows = feedclients.IMPLEMENTATIONS[name](out / "series/colloquium/calendar.ics",
                                             "2000-01-01", "2100-01-01")
    assert rows == EXPECTED


def _two_languages(make_site: MakeSite, more: str = "") -> dict[str, bytes]:
    """The department's site in English and German (`more`: further settings), built."""
    site = make_site({"talkpages.toml": CONFIG + '[languages.en]\nweight = 1\n'
                      '[languages.de]\ntitle = "Fachbereich"\nweight = 2\n' + more, **TALKS,
                      "talks/graphs.de.md": talk("Graphen", "2027-03-05",
                                                 'series = "colloquium"')})
    result = render_site(site, now=NOW)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)


def test_each_language_tree_has_the_series_page_in_its_words(make_site: MakeSite):
    files = _two_languages(make_site)
    german = files["de/series/colloquium/index.html"].decode()
    assert "freitags, 15:30–16:30 Uhr MEZ, Room 101" in german
    assert "Graphen" in german and "Noch offen" in german
    assert "de/series/colloquium/calendar.ics" in files
    assert "series/colloquium/index.html" in files
    # no title of its own in German: the series' one, in both trees
    assert "Friday Colloquium" in german and "Friday Colloquium" in files[
        "series/colloquium/index.html"].decode()
    assert "<h1>Alle Reihen</h1>" in files["de/series/index.html"].decode()


def test_a_series_is_given_its_title_and_description_in_each_language(make_site: MakeSite):
    files = _two_languages(make_site, '[languages.de.series.colloquium]\n'
                           'title = "Freitagskolloquium"\n'
                           'description = "Vorträge für den ganzen Fachbereich."\n')
    german, english = (files[f"{tree}series/colloquium/index.html"].decode()
                       for tree in ("de/", ""))
    assert "<h1>Freitagskolloquium</h1>" in german and "ganzen Fachbereich" in german
    assert "Friday Colloquium" not in german
    assert "<h1>Friday Colloquium</h1>" in english and "Freitagskolloquium" not in english
    talk_page = files["de/graphs/index.html"].decode()
    assert ">Freitagskolloquium</a>" in talk_page and "Friday Colloquium" not in talk_page
    feed = files["de/series/colloquium/calendar.ics"].decode()
    assert "Freitagskolloquium" in feed and "Friday Colloquium" not in feed
    assert "Freitagskolloquium" not in files["series/colloquium/calendar.ics"].decode()


@pytest.mark.parametrize(("table", "error", "line"), [
    ('[languages.de.series.seminar]\ntitle = "Seminar"\n',
     "'languages.de.series.seminar': no [series.seminar] to translate (the series are: "
     "colloquium)", 15),
    ('[languages.de.series.colloquium]\nweekday = "monday"\n',
     "has no setting 'weekday': a series is given its title and description", 16),
    ('[languages.de.series.colloquium]\ntitle = 3\n', "must be text", 16),
    ('[languages.de]\nseries = "colloquium"\n', "must hold tables such as", 16),
])
def test_a_series_translated_wrongly_is_an_error_at_its_line(make_site: MakeSite, table: str,
                                                           error: str, line: int):
    site = make_site({"talkpages.toml": CONFIG + '[languages.en]\n' + table, **TALKS})
    result = render_site(site, now=NOW)
    found = [d for d in result.diagnostics if error in d.message]
    assert found and found[0].is_error and found[0].line == line, \
        [d.format() for d in result.diagnostics]


def test_check_warns_about_a_talk_or_a_date_still_to_be_announced(make_site: MakeSite,
                                                                  run_cli):
    site = make_site({"talkpages.toml": CONFIG.replace('base_url = "https://example.org/"',
                                                       'base_url = "https://example.org/"'),
                      "talks/soon.md": talk("TBA", "2027-03-05", 'series = "colloquium"'),
                      "talks/named.md": talk("To be announced", "2027-03-06T10:00:00",
                                             'authors = ["Ada"]'),
                      "talks/later.md": talk("TBD", "2027-03-19", 'series = "colloquium"'),
                      "talks/who.md": talk("Graphs", "2027-03-05T09:00:00",
                                           'authors = ["tbd"]'),
                      "talks/na.md": talk("Graphs again", "2027-03-05T09:00:00",
                                          'authors = ["Na Li"]')})
    code, _, err = run_cli("check", "-s", str(site), "--now", "2027-03-04T12:00:00Z")
    assert code == 0
    said = [line for line in err.splitlines() if "48 hours" in line]
    assert any("soon.md:2:" in line and "title is still 'TBA'" in line for line in said)
    assert any("soon.md:" in line and "it has no speaker" in line for line in said)
    assert any("named.md:2:" in line and "title is still" in line for line in said)
    assert not any("later.md" in line for line in said)  # two weeks off
    assert any("who.md:" in line and "its speaker is still 'tbd'" in line for line in said)
    assert not any("na.md" in line for line in said)
    assert not any("named.md" in line and "speaker" in line for line in said)
    code, _, err = run_cli("check", "-s", str(site), "--now", "2027-02-25T12:00:00Z")
    assert any("talkpages.toml:5:" in line and "2027-02-26" in line and "no talk yet" in line
               for line in err.splitlines()), err


def test_check_warns_about_a_talk_on_a_day_that_is_no_session(make_site: MakeSite, run_cli):
    site = make_site({"talkpages.toml": CONFIG + "breaks = [2027-03-12]\n",
                      "talks/thu.md": talk("Thursday", "2027-03-04", 'series = "colloquium"'),
                      "talks/break.md": talk("Break", "2027-03-12", 'series = "colloquium"'),
                      "talks/may.md": talk("May", "2027-05-07", 'series = "colloquium"')})
    code, _, err = run_cli("check", "-s", str(site), "--now", "2027-01-01T00:00:00Z")
    assert code == 0  # warnings: the talks are published as written
    assert "thu.md:3:" in err and "not a date of its slot (every Friday)" in err
    assert "break.md:3:" in err and "in a break of the series" in err
    assert "may.md:3:" in err and "outside the term" in err
    code, _, err = run_cli("check", "-s", str(site), "--now", "2027-01-01T00:00:00Z",
                           "--strict")
    assert code == 1


def test_serve_makes_an_edit_of_a_series_talk_as_a_whole_build(make_site: MakeSite):
    from talkpages.engine.live import LiveSite

    from conftest import render

    site = make_site({"talkpages.toml": CONFIG, **TALKS})
    options = LoadOptions(now=NOW)
    first = render(site, options)
    assert first.site is not None and first.maker is not None
    live = LiveSite.of(first.site, first.maker, first.recipes, first.outputs)
    graphs = site / "talks/graphs.md"
    graphs.write_text(graphs.read_text().replace('"Graphs"', '"Graphs, edited"'))
    edited = live.edited([graphs], options)
    assert edited is not None
    whole = {o.path: o.data for o in render(site, options).outputs}
    again = {path: o.data for path, o in edited[0].outputs.items()}
    assert again == whole and b"Graphs, edited" in again["series/colloquium/index.html"]
    other = site / "talks/other.md"
    other.write_text(other.read_text().replace("+++\ntitle", '+++\nseries = "colloquium"\ntitle'))
    assert edited[0].edited([other], options) is None  # it joins the series: built whole


def test_the_series_feed_keeps_the_window_of_the_subscribed_feeds(make_site: MakeSite) -> None:
    config = CONFIG.replace('timezone = "Europe/Berlin"\n',
                            'timezone = "Europe/Berlin"\nfeed_window = 1\n')
    site = make_site({"talkpages.toml": config, **TALKS})
    result = render_site(site, now=datetime(2027, 4, 20, tzinfo=timezone.utc))
    assert result.ok, [d.format() for d in result.diagnostics]
    feed = outputs(result)["series/colloquium/calendar.ics"].decode()
    assert "SUMMARY:Late" in feed and "SUMMARY:Trees" in feed  # within the month
    assert "SUMMARY:Graphs" not in feed  # 5 March: before the window
    assert "SUMMARY:Graphs" in outputs(result)["archive.ics"].decode()


def test_check_takes_a_series_room_as_in_the_zone_of_its_slot(make_site: MakeSite,
                                                              run_cli) -> None:
    """Regression: a talk of a series was told that its `location` (the series' room)
    had no `timezone` on a site with talks in several zones, and that it had no link to
    its event (the series' page is)."""
    site = make_site({"talkpages.toml": CONFIG, **TALKS, "talks/madrid.md": talk(
        "In Madrid", "2027-03-10T10:00:00", 'location = "Madrid"\ntimezone = "Europe/Madrid"')})
    code, _, err = run_cli("check", "-s", str(site), "--now", "2027-02-01T12:00:00Z")
    zones = [line for line in err.splitlines() if "without `timezone`" in line]
    assert len(zones) == 1 and "late.md" in zones[0], err  # its own room, no zone
    events = " ".join(line for line in err.splitlines() if "no link to its event" in line)
    assert "madrid.md" in events and "other.md" in events, err
    assert not any(name in events for name in ("graphs.md", "trees.md", "late.md")), err
