"""A talk page's view (talkview.py): the values the filters give, worked out once per
talk; and a site's own talk.html, which may read it or not."""

from __future__ import annotations

import jinja2
import pytest

from talkpages.content import taxonomy
from talkpages.content.loader import LoadOptions, load_site
from talkpages.content.model import Site, Talk
from talkpages.output import formatting, icons, jsonld, markup, talkview

from conftest import NOW, MakeSite, outputs, render_site, talk

SPEAKERS = '''
[ada]
name = "Ada Lovelace"
bio = "Writes *programs*."
affiliation = "Engines & Co"
url = "https://ada.example.org/a b"
links = [{ name = "Mastodon", url = "https://social.example.org/@ada" }]
'''


def load(make_site: MakeSite, files: dict[str, str]) -> Site:
    site, problems = load_site(make_site(files), LoadOptions(now=NOW, future=True))
    assert site is not None, [p.format() for p in problems]
    return site


def view_of(site: Site, slug: str) -> talkview.TalkView:
    speakers = taxonomy.by_speaker(site)
    also = taxonomy.also_speaking(site, speakers)
    found = next(t for t in site.talks if t.slug == slug)
    return talkview.Views(site.view).view(found, also.get(found, {}))


def test_a_view_gives_what_the_filters_give(make_site: MakeSite) -> None:
    site = load(make_site, {
        "talkpages.toml": 'title = "Talks"\n', "speakers.toml": SPEAKERS,
        "talks/one.md": talk("One", "2019-05-22T14:50:00", '''
            timezone = "Europe/Madrid"
            authors = ["ada", "Grace Hopper", "Linus"]
            tags = ["Kubernetes", "C++"]
            summary = "A *short* summary."
            abstract = "The **abstract**."
            url_video = "https://vimeo.com/76979871"
            url_slides = "https://example.org/slides"
            location = "Madrid"
            [address]
            city = "Madrid"
            country = "Spain"
        ''', body="Some *body*."),
        "talks/two.md": talk("Two", "2018-01-10", 'authors = ["Grace Hopper"]'),
        "talks/three.md": talk("Three", "2017-03-01", 'authors = ["ada"]'),
    })
    view = view_of(site, "one")
    one = next(t for t in site.talks if t.slug == "one")
    assert view.title == "One · Talks"
    assert view.description == "A short summary."  # the summary first, as plain text
    assert view.abstract == markup.to_html("The **abstract**.")
    assert view.body == markup.to_html("Some *body*.")
    assert view.jsonld == jsonld.script(jsonld.event(site.view, one))
    dates = formatting.dates_for(site.messages.locale)  # "en": CLDR's US style
    assert view.when == dates.when(one.schedule) == \
        "Wed, May 22, 2019, 2:50\u2009–\u20093:50\u202fPM Madrid (GMT+02:00)"
    assert view.zone == dates.zone_note(one.schedule) == \
        "Europe/Madrid, Central European Summer Time"
    assert view.start == "2019-05-22T14:50+02:00"
    assert view.place == "Madrid, Spain"
    assert [(s.name, s.path) for s in view.speakers] == [
        ("Ada Lovelace", "speakers/ada-lovelace/"), ("Grace Hopper", "speakers/grace-hopper/"),
        ("Linus", "speakers/linus/")]
    assert [(t.name, t.path) for t in view.tags] == [
        ("Kubernetes", "tags/kubernetes/"), ("C++", "tags/c-plus-plus/")]
    assert not view.upcoming and view.status == ""
    assert view.lead is not None and view.lead.kind == "video"  # a past talk leads with it
    assert view.lead_action is not None and view.lead_action.icon is icons.icon("play")
    assert [link.name for link in view.links] == ["Slides"]  # the others
    assert view.recording_host == "vimeo.com"
    # Cards: speakers with an entry or other talks; Linus has neither.
    ada, grace = view.cards
    assert (ada.name, ada.entry is not None, str(ada.bio)) == (
        "Ada Lovelace", True, "<p>Writes <em>programs</em>.</p>\n")
    assert ada.url == "https://ada.example.org/a%20b"
    assert [(link.name, link.href) for link in ada.links] == [
        ("Mastodon", "https://social.example.org/@ada")]
    assert [(o.path, o.title, o.when) for o in ada.also] == [("three/", "Three", "Mar 1, 2017")]
    assert (grace.entry, grace.bio, grace.face) == (None, "", None)
    assert [o.title for o in grace.also] == ["Two"]


def test_a_talk_without_speakers_or_text_has_an_empty_view(make_site: MakeSite) -> None:
    site = load(make_site, {"talkpages.toml": 'title = "Talks"\n',
                            "talks/bare.md": talk("Bare", "2019-05-22", body="")})
    view = view_of(site, "bare")
    assert (view.speakers, view.cards, view.tags, view.links) == ((), (), (), ())
    assert (view.abstract, view.body, view.lead, view.recording) == ("", "", None, None)
    assert view.description == "Bare"  # the title, without a summary or abstract
    assert view.zone == "" and view.when == "Wed, May 22, 2019"  # all day


def test_an_upcoming_series_leads_with_no_link(make_site: MakeSite) -> None:
    site = load(make_site, {"talkpages.toml": 'title = "Talks"\n', "talks/weekly.md": talk(
        "Weekly", "2026-11-02T18:00:00", '''
        timezone = "Europe/Berlin"
        recurrence = "FREQ=WEEKLY;COUNT=10"
        url_video = "https://vimeo.com/76979871"
        status = "cancelled"
    ''')})
    view = view_of(site, "weekly")
    assert view.upcoming and view.status == "cancelled"
    assert view.lead is None and [link.name for link in view.links] == ["Video"]
    # the first date, as `when`
    assert view.when == "Mon, Nov 2, 2026, 6:00\u2009–\u20097:00\u202fPM Berlin (GMT+01:00)"


@pytest.mark.parametrize("text", ["short", "x" * 205, "x" * 206, "word " * 60,
                                  "a" * 300, ("word " * 39) + "lastword" + " tail" * 10])
def test_truncate_cuts_as_jinjas_filter_does(text: str) -> None:
    env = jinja2.Environment()
    assert talkview.truncate(text, 200) == env.from_string(
        "{{ text | truncate(200) }}").render(text=text)


def test_a_sites_own_talk_page_reads_the_view(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'title = "Talks"\n',
                      "layouts/talk.html": "{{ view.when }}|{{ view.speakers[0].path }}|"
                                           "{{ talk.schedule | when }}",
                      "talks/one.md": talk("One", extra='authors = ["Ada"]')})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    page = outputs(result)["one/index.html"].decode()
    assert page == "Wed, May 22, 2019, 2:50\u2009–\u20093:50\u202fPM UTC|speakers/ada/|" \
                   "Wed, May 22, 2019, 2:50\u2009–\u20093:50\u202fPM UTC"


def test_a_view_no_template_reads_is_never_made(make_site: MakeSite,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A site's own talk.html that reads only the filters costs no view."""
    def refuse(self: talkview.Views, talk: Talk, also: object) -> None:
        raise AssertionError(f"the view of {talk.slug} was made")

    monkeypatch.setattr(talkview.Views, "view", refuse)
    site = make_site({"talkpages.toml": 'title = "Talks"\n',
                      "layouts/talk.html": "{{ talk.schedule | when }}",
                      "talks/one.md": talk("One")})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert outputs(result)["one/index.html"] == \
        "Wed, May 22, 2019, 2:50\u2009–\u20093:50\u202fPM UTC".encode()
