"""`talkpages import`: the players, maps and add-to-calendar widgets of a talk's text
become what a site without unsafe_html shows (a recording, links, coordinates), and
with --unsafe-html the HTML stays and loads. The bodies are small copies of what Hugo
Academic / Wowchemy / Hugo Blox and academicpages talks carry."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.commands.importers.embedded import frame_target
from talkpages.commands.importers.report import ImportOptions, summary
from talkpages.content.frontmatter import split
from test_embeds import csp_of

from conftest import outputs, render_site, write_files

HEAD = "---\ntitle: Meetup\ndate: 2019-05-22T18:30:00\n{extra}---\n"
# Hugo Academic's responsive YouTube embed, as talks paste it.
YOUTUBE = """\
## Recording

<div style="position: relative; padding-bottom: 56.25%; height: 0; overflow: hidden;">
  <iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" style="position: absolute; top: 0;"
    title="YouTube video player" frameborder="0" allowfullscreen></iframe>
</div>

More text.
"""


def imported(tmp_path: Path, body: str, extra: str = "", options: ImportOptions | None = None,
             kind: str = "hugo") -> tuple[dict, str, list[str], Path]:
    files = ({"config.toml": 'title = "Old"\n', "content/talk/m/index.md":
              HEAD.format(extra=extra) + body} if kind == "hugo" else
             {"_config.yml": "title: Old\n", "_talks/2019-05-22-m.md":
              HEAD.format(extra=extra) + body})
    source = write_files(tmp_path / "old", files)
    site = tmp_path / "site"
    report = import_site(kind, source, site, options)
    assert report.ok, [p.format() for p in report.problems]
    path = site / "talks" / ("m/index.md" if kind == "hugo" else "2019-05-22-m.md")
    fm = split(path.read_text(encoding="utf-8"))
    return fm.data, fm.body, summary(report), site


def test_youtube_player_becomes_the_talks_recording_played_by_the_site(
        tmp_path: Path) -> None:
    data, body, lines, site = imported(tmp_path, YOUTUBE)
    assert data["url_video"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert body == "## Recording\n\nMore text.\n"  # the wrapper and its lines go with it
    assert "embed_videos = true" in (site / "talkpages.toml").read_text()
    assert any("the <iframe> of www.youtube.com -> url_video" in line for line in lines)
    assert not any(line.startswith("Raw HTML") for line in lines)
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    page = outputs(result)["m/index.html"].decode()
    assert 'data-src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1"' in page
    assert "https://www.youtube-nocookie.com" in csp_of(page)


@pytest.mark.parametrize(("current", "line"), [
    ("https://youtu.be/dQw4w9WgXcQ", ""),  # the recording it has: the page shows it
    ("https://example.org/other.mp4", "[Video](https://www.youtube.com/watch?v=dQw4w9WgXcQ)"),
])
def test_a_player_beside_a_recording(tmp_path: Path, current: str, line: str) -> None:
    iframe = ('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0" '
              'allowfullscreen></iframe>')
    data, body, _, _ = imported(tmp_path, f"Intro.\n\n{iframe}\n", f"url_video: {current}\n")
    assert data["url_video"] == current
    assert body == "Intro.\n\n" + (f"{line}\n" if line else "")


def test_unlisted_vimeo_player_keeps_its_hash(tmp_path: Path) -> None:
    iframe = ('<iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e&amp;'
              'title=0" width="640" height="360" allow="autoplay; fullscreen"></iframe>')
    data, body, _, site = imported(tmp_path, iframe + "\n")
    assert data["url_video"] == "https://vimeo.com/76979871/8272103f6e" and body == ""
    page = outputs(render_site(site))["m/index.html"].decode()
    assert "player.vimeo.com/video/76979871?dnt=1&amp;autoplay=1&amp;h=8272103f6e" in page


@pytest.mark.parametrize(("iframe", "link"), [
    ('<iframe width="100%" height="166" scrolling="no" frameborder="no" allow="autoplay" '
     'src="https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com/tracks/293&amp;'
     'color=%23ff5500"></iframe>',
     "[Listen on SoundCloud](https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com"
     "/tracks/293&color=%23ff5500)"),
    ('<iframe src="https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fa%2Fb" '
     'title="Episode 3"></iframe>', "[Episode 3](https://soundcloud.com/a/b)"),
    ('<iframe style="border-radius:12px" src="https://open.spotify.com/embed/episode/'
     '4rOoJ6Egrf8K2IrywzwOMk?utm_source=generator" width="100%" height="152" '
     'title="Spotify Embed: Episode 12"></iframe>',
     "[Episode 12](https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk)"),
    ('<iframe src="https://anchor.fm/my-show/embed/episodes/Talk-e1abcde" height="102px" '
     'width="400px" frameborder="0" scrolling="no"></iframe>',
     "[Listen to it](https://anchor.fm/my-show/episodes/Talk-e1abcde)"),
    ('<iframe allow="autoplay *; encrypted-media *;" height="175" src="https://embed.podcasts.'
     'apple.com/us/podcast/the-talk/id1234567?i=1000456&amp;itsct=podcast_box"></iframe>',
     "[Listen on Apple Podcasts](https://podcasts.apple.com/us/podcast/the-talk/id1234567"
     "?i=1000456)"),
    ('<iframe title="The Talk" allowtransparency="true" height="150" src="https://www.podbean.'
     'com/player-v2/?i=abcd-12ef34-pb&amp;from=pb6admin&amp;share=1&amp;skin=1"></iframe>',
     "[The Talk](https://www.podbean.com/player-v2/?i=abcd-12ef34-pb)"),
    ('<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2428.4!2d13.3777!3d'
     '52.5163!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x0!2sBrandenburger%20'
     'Tor!5e0" width="600" height="450" style="border:0;" loading="lazy" '
     'title="Brandenburger Tor"></iframe>',
     "[Brandenburger Tor](https://www.google.com/maps/search/?api=1&query=52.5163%2C13.3777)"),
    ('<iframe src="https://www.google.com/maps/embed/v1/place?key=SECRET&amp;q=Humboldt+'
     'University"></iframe>',
     "[Map](https://www.google.com/maps/search/?api=1&query=Humboldt%20University)"),
])
def test_players_and_maps_become_links_to_what_they_show(tmp_path: Path, iframe: str,
                                                         link: str) -> None:
    _, body, lines, _ = imported(tmp_path, f"Listen:\n\n<center>{iframe}</center>\n\nBye.\n")
    assert body == f"Listen:\n\n{link}\n\nBye.\n"
    assert "SECRET" not in body
    assert any("-> a link to" in line for line in lines)


def test_openstreetmap_gives_a_link_and_the_talks_coordinates(tmp_path: Path) -> None:
    osm = ('<iframe width="425" height="350" src="https://www.openstreetmap.org/export/embed.'
           'html?bbox=13.3700%2C52.5100%2C13.3900%2C52.5200&amp;layer=mapnik&amp;marker=52.5163'
           '%2C13.3777" style="border: 1px solid black"></iframe><br/><small><a href="https://'
           'www.openstreetmap.org/?mlat=52.5163&amp;mlon=13.3777#map=16/52.5163/13.3777">View '
           'Larger Map</a></small>')
    data, body, _, site = imported(tmp_path, f"## Venue\n\n{osm}\n")
    assert body == ("## Venue\n\n[Map](https://www.openstreetmap.org/?mlat=52.5163&mlon="
                    "13.3777#map=15/52.5163/13.3777)\n")
    assert data["coordinates"] == {"latitude": 52.5163, "longitude": 13.3777}
    assert render_site(site).ok


def test_openstreetmap_leaves_coordinates_the_talk_has(tmp_path: Path) -> None:
    osm = ('<iframe src="https://www.openstreetmap.org/export/embed.html?bbox=2.1,41.3,2.2,'
           '41.4"></iframe>')
    data, body, _, _ = imported(tmp_path, osm + "\n",
                                "coordinates:\n  latitude: 1.5\n  longitude: 2.5\n")
    assert data["coordinates"] == {"latitude": 1.5, "longitude": 2.5}
    assert body == "[Map](https://www.openstreetmap.org/?mlat=41.35&mlon=2.15#map=13/41.35/2.15)\n"


ADDEVENT = """\
Come along!

<div title="Add to Calendar" class="addeventatc">
    Add to Calendar
    <span class="start">05/22/2019 06:30 PM</span>
    <span class="timezone">Europe/Berlin</span>
</div>
<script type="text/javascript" src="https://cdn.addevent.com/libs/atc/1.6.1/atc.min.js"
  async defer></script>
"""
ATCB = """\
<link rel="stylesheet"
  href="https://cdn.jsdelivr.net/npm/add-to-calendar-button@1/assets/css/atcb.min.css">
<div class="atcb" style="display:none;">
{ "name":"Meetup", "startDate":"2019-05-22", "startTime":"18:30", "timeZone":"Europe/Berlin" }
</div>
<button id="cal" onclick="atcb_action(config, this)">Add to calendar</button>
<script src="https://cdn.jsdelivr.net/npm/add-to-calendar-button@1" defer></script>
Bye.
"""


@pytest.mark.parametrize(("body", "left", "count"), [
    (ADDEVENT, "Come along!\n\n", 2), (ATCB, "Bye.\n", 4),
    ('<add-to-calendar-button name="Meetup" startDate="2019-05-22" startTime="18:30" '
     'timeZone="Europe/Berlin" options="\'Apple\',\'Google\'"></add-to-calendar-button>\n'
     '<script type="module">import "https://cdn.jsdelivr.net/npm/add-to-calendar-button@2";'
     "atcb_action({})</script>\n", "", 2),
])
def test_add_to_calendar_widgets_are_left_out_with_a_line_each(
        tmp_path: Path, body: str, left: str, count: int) -> None:
    _, written, lines, _ = imported(tmp_path, body)
    assert written == left
    said = [line for line in lines if "left out: the site offers its own" in line]
    assert len(said) == count, lines


def test_other_html_and_code_stay_as_they_are(tmp_path: Path) -> None:
    body = ('<iframe src="https://widgets.example.org/poll"></iframe>\n\n'
            '```html\n<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>\n```\n\n'
            'Inline `<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ">` code.\n')
    data, written, lines, _ = imported(tmp_path, body)
    assert written == body and "url_video" not in data
    assert any(line.startswith("Raw HTML in 1 talk (<iframe>)") for line in lines)


def test_unsafe_html_keeps_the_html_and_its_page_loads_it(tmp_path: Path) -> None:
    """The report's advice, --unsafe-html, works: the page's CSP lets the player in."""
    body = YOUTUBE + '\n<iframe src="https://widgets.example.org/poll"></iframe>\n'
    data, written, lines, site = imported(tmp_path, body,
                                          options=ImportOptions(unsafe_html=True))
    assert written == body and "url_video" not in data
    assert "embed_videos" not in (site / "talkpages.toml").read_text()
    page = outputs(render_site(site))["m/index.html"].decode()
    assert '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"' in page
    policy = csp_of(page)
    assert "https://www.youtube.com" in policy and "https://widgets.example.org" in policy


def test_academicpages_talk_with_a_player(tmp_path: Path) -> None:
    body = ('<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" '
            'frameborder="0" allowfullscreen></iframe>\n')
    data, written, _, _ = imported(tmp_path, body, kind="academicpages")
    assert data["url_video"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ" and written == ""


def test_a_second_import_changes_nothing(tmp_path: Path) -> None:
    imported(tmp_path, YOUTUBE + ADDEVENT)
    report = import_site("hugo", tmp_path / "old", tmp_path / "site")
    assert report.ok and not report.written and len(report.unchanged) == 1


def test_line_endings_of_the_body_are_kept(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {"config.toml": ""})
    talk = source / "content/talk/m.md"
    talk.parent.mkdir(parents=True)
    talk.write_bytes((HEAD.format(extra="") + "A\n\n" + YOUTUBE).replace("\n", "\r\n").encode())
    report = import_site("hugo", source, tmp_path / "site")
    assert report.ok, [p.format() for p in report.problems]
    written = (tmp_path / "site/talks/m.md").read_bytes()
    assert written.endswith(b"+++\r\nA\r\n\r\n## Recording\r\n\r\nMore text.\r\n")


@pytest.mark.parametrize("src", [
    "https://www.youtube.com/embed/", "javascript:alert(1)", "https://example.org/embed/x",
    "https://www.openstreetmap.org/export/embed.html?bbox=1,2,3",
    "https://www.openstreetmap.org/export/embed.html?bbox=200,2,300,4",
])
def test_frames_it_cannot_read_stay(src: str) -> None:
    assert frame_target(src) is None


def test_many_unclosed_tags_are_read_in_linear_time(tmp_path: Path) -> None:
    body = ("<iframe " * 20_000 + "<div " * 20_000 + '<div class="addeventatc">' * 5_000
            + '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ">\n')
    started = time.perf_counter()
    data, _, _, _ = imported(tmp_path, body)
    assert time.perf_counter() - started < 10
    assert data["url_video"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


def test_many_players_in_one_body_in_time(tmp_path: Path) -> None:
    one = ('<p><iframe src="https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk">'
           "</iframe></p>\n")
    started = time.perf_counter()
    _, body, _, _ = imported(tmp_path, one * 5_000)
    assert time.perf_counter() - started < 10
    assert len(re.findall(r"^\[Listen on Spotify\]", body, re.M)) == 5_000


def test_a_decks_player_becomes_the_talks_slides_shown_by_the_site(tmp_path: Path) -> None:
    deck = "2PACX-1vSUVZwa3nwJY0hiPa47dCPWWxKFI2RwSW"
    iframe = (f'<iframe src="https://docs.google.com/presentation/d/e/{deck}/embed?start=false'
              '&loop=false&delayms=3000" frameborder="0" width="960" height="569" '
              'allowfullscreen="true" mozallowfullscreen="true"></iframe>')
    data, body, _, site = imported(tmp_path, f"Slides:\n\n{iframe}\n", 'url_slides: ""\n')
    assert data["url_slides"] == f"https://docs.google.com/presentation/d/e/{deck}/pub"
    assert body == "Slides:\n\n"
    assert "embed_slides = true" in (site / "talkpages.toml").read_text()
    page = outputs(render_site(site))["m/index.html"].decode()
    assert f"https://docs.google.com/presentation/d/e/{deck}/embed?start=false" in page


@pytest.mark.parametrize("body", [
    "<div>" * 20_000 + "</div>\n",  # one far end for every start
    "<script>" * 20_000 + "</script>\n",
    '<add-to-calendar-button name="x"></add-to-calendar-button> ' * 20_000 + "\n",  # one line
    '<p><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>' * 20_000 + "\n",
])
def test_hostile_bodies_are_read_in_linear_time(tmp_path: Path, body: str) -> None:
    started = time.perf_counter()
    imported(tmp_path, body)
    assert time.perf_counter() - started < 10
