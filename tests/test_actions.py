"""A talk page's actions: one primary button (Add to calendar while the talk is to come,
then its recording, else its slides), the rest outlined, each with an icon of the page's
own sprite; the venue's Map link from coordinates or an address."""

from __future__ import annotations

import re

from talkpages.content.model import Address, Link
from talkpages.output.pages import lead_link, map_url, venue_map

from conftest import MakeSite, outputs, render_site, talk

LINKS = '''
    url_code = "https://git.example.org/x"
    url_slides = "slides.pdf"
    url_video = "https://video.example.org/watch?v=1"
    [[links]]
    name = "Photos"
    url = "https://photos.example.org/"
'''
UPCOMING = talk("Soon", "2027-01-14T18:00:00", 'timezone = "America/New_York"' + LINKS)
PAST = talk("Done", "2019-05-22T14:50:00", 'timezone = "Europe/Madrid"' + LINKS)
PAST_SLIDES_ONLY = talk("Slides only", "2019-05-23T10:00:00", '''
    url_code = "https://git.example.org/y"
    url_slides = "https://slides.example.org/y"
''')
PAST_CODE_ONLY = talk("Code only", "2019-05-24T10:00:00", 'url_code = "https://git.example.org/z"')
AT_AN_ADDRESS = talk("Somewhere", "2019-05-25T10:00:00", '''
    location = "Room 2"
    [address]
    street = "Carrer de Mallorca 401"
    city = "Barcelona"
    country = "Spain"
''')


def pages(make_site: MakeSite) -> dict[str, str]:
    site = make_site({"talks/soon/index.md": UPCOMING, "talks/soon/slides.pdf": b"%PDF-1.4\n",
                      "talks/done/index.md": PAST, "talks/done/slides.pdf": b"%PDF-1.4\n",
                      "talks/slides-only.md": PAST_SLIDES_ONLY,
                      "talks/code-only.md": PAST_CODE_ONLY, "talks/somewhere.md": AT_AN_ADDRESS})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return {path: data.decode() for path, data in outputs(result).items()
            if path.endswith(".html")}


def buttons(page: str) -> list[tuple[str, str]]:
    """(class, text) of every button of the page's actions, in order."""
    actions = re.search(r'<div class="actions"[^>]*>.*?\n    </div>', page, re.S)
    assert actions, "no actions"
    return [(cls, re.sub(r"<[^>]+>", "", text).strip())
            for cls, text in re.findall(r'<a class="(button[^"]*)"[^>]*>(.*?)</a>',
                                        actions.group(0), re.S)]


def test_an_upcoming_talk_leads_with_add_to_calendar(make_site: MakeSite) -> None:
    found = buttons(pages(make_site)["soon/index.html"])
    assert [cls for cls, _ in found].count("button") == 1
    assert found[0] == ("button", "Add to calendar (.ics)")
    assert ("button outline", "Video") in found and ("button outline", "Slides") in found


def test_a_past_talk_leads_with_its_recording_then_its_slides(make_site: MakeSite) -> None:
    found = pages(make_site)
    done = buttons(found["done/index.html"])
    assert done[0] == ("button", "Video")
    assert [text for _, text in done[1:]] == ["Code", "Slides", "Photos"]
    assert all(cls == "button outline" for cls, _ in done[1:])
    assert buttons(found["slides-only/index.html"])[0] == ("button", "Slides")
    assert buttons(found["code-only/index.html"]) == [("button outline", "Code")]


def test_the_page_sprite_holds_the_icons_the_page_places(make_site: MakeSite) -> None:
    """Each talk page's sprite (output/icons.py) holds every icon it uses, those the
    talk's view made before the page too (its leading link's), and no other."""
    for path, page in pages(make_site).items():
        used = set(re.findall(r'<use href="#(i-[a-z]+)">', page))
        defined = re.findall(r'<symbol id="(i-[a-z]+)"', page)
        assert set(defined) == used and len(defined) == len(used), path
        assert page.count('<svg class="sprite"') == (1 if used else 0), path
        if path == "done/index.html":
            assert {"i-play", "i-code", "i-slides", "i-link"} <= used


def test_a_sprite_included_without_names_holds_every_icon(make_site: MakeSite) -> None:
    """A site's own talk.html written for the sprite of every icon, at the top of the
    page, still gets it whole."""
    site = make_site({"talks/done/index.md": PAST, "layouts/talk.html":
                      '{% extends "base.html" %}{% block main %}'
                      '{{ partial_once("partials/icons.html") }}{{ "map" | icon }}'
                      '{% endblock %}'})
    page = outputs(render_site(site))["done/index.html"].decode()
    assert len(re.findall(r'<symbol id="i-[a-z]+"', page)) == 18
    assert page.index('<svg class="sprite"') < page.index('<use href="#i-map">')


def test_an_address_without_coordinates_is_searched_on_the_map(make_site: MakeSite) -> None:
    page = pages(make_site)["somewhere/index.html"]
    assert ('href="https://www.openstreetmap.org/search?query=Carrer%20de%20Mallorca%20401'
            '%2C%20Barcelona%2C%20Spain"') in page


class Bare:
    """What `lead_link` and `venue_map` read of a talk."""

    def __init__(self, links: tuple[Link, ...] = (), geo: tuple[float, float] | None = None,
                 address: Address | None = None) -> None:
        self.links, self.geo, self.address = links, geo, address


def test_lead_link_and_venue_map_directly() -> None:
    video, pdf = Link("Video", "https://v", "video"), Link("PDF", "x.pdf", "pdf")
    code = Link("Code", "https://c", "code")
    assert lead_link(Bare()) is None  # type: ignore[arg-type]
    assert lead_link(Bare((code, pdf, video))) is video  # type: ignore[arg-type]
    assert lead_link(Bare((code, pdf))) is pdf  # type: ignore[arg-type]
    assert venue_map(Bare()) == ""  # type: ignore[arg-type]
    assert venue_map(Bare(address=Address(city="Zürich"))) == \
        "https://www.openstreetmap.org/search?query=Z%C3%BCrich"  # type: ignore[arg-type]
    assert venue_map(Bare(geo=(47.37, 8.54), address=Address(city="Zürich"))) == \
        map_url(47.37, 8.54)  # type: ignore[arg-type]


def test_an_icon_joined_with_text_stays_markup_and_is_placed() -> None:
    from markupsafe import Markup

    from talkpages.output import icons
    from talkpages.output.theme import Environment

    env = Environment(autoescape=True)
    env.filters["icon"] = icons.icon
    env.globals["icons_placed"] = icons.placed
    with icons.placing():
        html = env.from_string('{{ name | icon ~ "<Map>" }}|{{ icons_placed() }}').render(
            name="map")
    assert html == str(icons.icon("map").markup) + "&lt;Map&gt;|map"
    assert isinstance(str(icons.icon("map")), Markup) and icons.placed() is None


def test_an_icon_of_a_partial_made_once_is_in_every_page_sprite(make_site: MakeSite) -> None:
    """A site's header partial, made once a build (`partial_once`), with an icon: each
    page that shows it holds the icon in its sprite, not only the first one made."""
    site = make_site({"talks/done/index.md": PAST, "talks/soon/index.md": UPCOMING,
                      "layouts/partials/site_header.html":
                      '<header><a href="{{ root }}">{{ "map" | icon }}Home</a></header>'})
    built = outputs(render_site(site))
    for path in ("done/index.html", "soon/index.html"):
        assert '<symbol id="i-map"' in built[path].decode(), path
