"""embed/upcoming.html (output/upcoming.py): the next talks for another site's frame,
made by the build in each language's tree, loading nothing but the site's own files.
How it fits its frame and follows the clock: test_browser_embed.py."""

from __future__ import annotations

import re
from pathlib import Path

from talkpages.output.upcoming import EMBED_TALKS
from test_multilingual import _site as two_languages

from conftest import MakeSite, outputs, render_site, talk


def test_the_list_has_the_upcoming_talks_soonest_first(fixture_out: Path) -> None:
    html = (fixture_out / "embed" / "upcoming.html").read_text(encoding="utf-8")
    titles = re.findall(r'class="talk-title" href="[^"]*">([^<]*)</a>', html)
    assert titles == ["An online talk from New York", "A hybrid meetup",
                      "A cancelled talk"]
    assert html.count("data-start=") == 3 and html.count("data-end=") == 3
    assert '<strong class="status">Cancelled</strong>' in html
    assert '<base target="_top">' in html  # links leave the frame
    assert '<div class="schedule" data-drop>' in html  # site.js: past talks leave
    assert '<meta name="robots" content="noindex">' in html
    assert 'http-equiv="Content-Security-Policy"' in html


def test_it_loads_nothing_from_elsewhere(fixture_out: Path) -> None:
    html = (fixture_out / "embed" / "upcoming.html").read_text(encoding="utf-8")
    addresses = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert addresses
    assert all(not re.match(r"[a-z]+:|//", address) for address in addresses), addresses
    scripts = re.findall(r'<script src="([^"]*)"', html)
    assert [s.split("/")[-1].split(".")[0] for s in scripts] == ["site", "embed"]
    for script in scripts:
        assert (fixture_out / "embed" / script).resolve().is_file()


def test_it_is_not_a_page_of_the_sitemap(fixture_out: Path) -> None:
    assert "embed/" not in (fixture_out / "sitemap.xml").read_text(encoding="utf-8")


def test_a_frame_s_worth_of_talks(make_site: MakeSite) -> None:
    files = {f"talks/t{n:02}.md": talk(f"Talk {n:02}", f"2099-01-{n + 1:02}T10:00:00")
             for n in range(EMBED_TALKS + 3)}
    result = render_site(make_site(files))
    html = outputs(result)["embed/upcoming.html"].decode()
    titles = re.findall(r'class="talk-title" href="[^"]*">([^<]*)</a>', html)
    assert titles == [f"Talk {n:02}" for n in range(EMBED_TALKS)]


def test_without_upcoming_talks_it_says_so(make_site: MakeSite) -> None:
    result = render_site(make_site({"talks/old.md": talk("Old", "2001-01-01T10:00:00")}))
    html = outputs(result)["embed/upcoming.html"].decode()
    assert '<p class="empty">No upcoming talks yet.</p>' in html


def test_each_language_has_its_own(make_site: MakeSite) -> None:
    result = render_site(two_languages(make_site))
    assert result.ok, result.diagnostics
    files = outputs(result)
    english = files["embed/upcoming.html"].decode()
    german = files["de/embed/upcoming.html"].decode()
    assert '<html lang="en"' in english and ">On graphs</a>" in english
    assert '<html lang="de"' in german and ">Über Graphen</a>" in german
    assert ">Demnächst</h2>" in german
