"""A talk page's view: what the page shows, worked out once per talk in Python.

The built-in `talk.html` reads `view.when`, `view.speakers`, `view.cards`… and does
little more than place them. Each of those used to be a filter call or a block of
template logic, run by Jinja for each talk: a filter call there costs a context, an
argument check and an escape on top of its own work, and the page did some of that
work twice (a speaker's name for the facts and for the card, the abstract's Markdown
for the page and for its JSON-LD). Here each value is worked out once, as plain Python,
with what the site's talks share (speakers, the dates shown beside other talks) kept
for the build by `Views`.

A site's own templates get `view` too, and every filter as before: the view is an
addition, and the values in it are those the filters give (`when`, `zone_note`,
`speaker_path`…), so a template may use either. Texts are as the filters give them:
plain text (escaped where the template places it) or `Markup` (HTML made here from the
talk's Markdown, the JSON-LD, icons).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import jinja2
from jinja2.filters import do_truncate
from markupsafe import Markup

from ..content import taxonomy
from ..content.model import Link, SiteView, Talk
from ..content.speakers import Speaker
from . import embeds, formatting, jsonld, lifeview, markup, pages, pictures, sitefiles, social
from .icons import Icon, icon
from .share import Share, share_row

DESCRIPTION_LENGTH = 200  # characters of a page's <meta name="description">


@dataclass(frozen=True, slots=True)
class Named:
    """A speaker or a tag: its name, and its page's path from the site root."""
    name: str
    path: str


@dataclass(frozen=True, slots=True)
class Anchor:
    """A link: `href` ready for the attribute."""
    href: str
    name: str


@dataclass(frozen=True, slots=True)
class Action:
    """A link of the talk as a button: `href` ready for the attribute, its icon."""
    href: str
    icon: Icon
    name: str


@dataclass(frozen=True, slots=True)
class Other:
    """Another talk of a speaker (a card's "Also speaking"), with its short date."""
    path: str
    title: str
    when: str


@dataclass(frozen=True, slots=True)
class Card:
    """A speaker introduced on the page: `author` as the talk names them; `entry` the
    speakers.toml entry or None; `face` the photo's copies or None; `bio` its HTML;
    `url` the website, ready for an href; `links` the other links (`href`, `name`);
    `also` their other talks."""
    author: str
    name: str
    path: str
    entry: Speaker | None
    face: pictures.Picture | None
    bio: Markup
    url: str
    links: tuple[Anchor, ...]
    also: tuple[Other, ...]


@dataclass(frozen=True, slots=True)
class TalkView:
    title: str  # the page's <title>: the talk's, then the site's
    description: str  # plain text, cut to DESCRIPTION_LENGTH as Jinja's `truncate` does
    jsonld: Markup
    status: str
    event_href: str
    when: str
    start: str  # `machine`: ISO 8601 with the real offset
    end: str
    zone: str  # `zone_note`
    place: str  # the address on one line
    map: str
    speakers: tuple[Named, ...]
    upcoming: bool
    lead: Link | None  # the link a past talk leads with (`lead_link`)
    lead_action: Action | None
    links: tuple[Action, ...]  # the talk's other links
    picture: pictures.Picture | None  # the featured image's copies, when shown
    recording: Link | None
    recording_href: str
    recording_host: str
    poster_card: str  # the talk's social card, from its page, for a recording without a picture
    video: embeds.Embed | None
    caption: Markup  # the featured image's caption, one paragraph without its <p>
    abstract: Markup  # the abstract's HTML, else the summary's
    slides: embeds.Embed | None
    slides_href: str
    body: Markup
    cards: tuple[Card, ...]
    tags: tuple[Named, ...]
    written_in: Markup  # ` lang="en"` for a page written in another language than the site's
    language: str  # the name of the language the talk is given in, when not the site's
    life: lifeview.Life  # the primary action through the talk's life
    share: Share | None  # the share row (share.py); None: `share = false`


class Views:
    """The views of one build's talks. What several talks share is worked out once and
    kept for the build (never longer: a site's speakers and time are the build's):
    speakers' names, pages, entries and faces, and a talk as shown beside another's (its
    short date)."""

    def __init__(self, site: SiteView) -> None:
        self.site = site
        self.dates = formatting.dates_for(site.messages.locale)
        self.people: dict[str, tuple[Named, Speaker | None]] = {}
        self.faces: dict[str, pictures.Picture | None] = {}
        self.others: dict[Talk, Other] = {}

    def lazy(self, talk: Talk, also: Mapping[str, tuple[Talk, ...]]) -> LazyView:
        """The view of `talk`'s page, worked out when a template first reads it."""
        return LazyView(lambda: self.view(talk, also))

    def view(self, talk: Talk, also: Mapping[str, tuple[Talk, ...]]) -> TalkView:
        """The view of `talk`'s page; `also`: its authors' other talks (by author)."""
        site, config = self.site, self.site.config
        schedule = talk.schedule
        status = taxonomy.status(talk)
        upcoming = talk.is_upcoming(site.now)
        lead = None if upcoming else pages.lead_link(talk)
        shown = talk.image is not None and not talk.image.preview_only
        image = talk.image
        math = talk.math
        abstract = talk.abstract or talk.summary
        video = embeds.video_embed(talk, config.embed_videos)
        recording = embeds.recording(talk)
        slides = embeds.slides_embed(talk, config.embed_slides)
        data = jsonld.event(site, talk)
        return TalkView(
            title=f"{talk.title} · {config.title}",
            description=truncate(jsonld.plain(talk.summary or talk.abstract or talk.title),
                                 DESCRIPTION_LENGTH),
            jsonld=Markup(jsonld.script(data)),
            status=status,
            event_href=pages.href(talk.event_url),
            when=self.dates.when(schedule),
            start=formatting.machine(schedule.start),
            end=formatting.machine(schedule.end),
            zone=self.dates.zone_note(schedule),
            place=", ".join(talk.address.lines()) if talk.address else "",
            map=pages.venue_map(talk),
            speakers=tuple(self._person(author)[0] for author in talk.authors),
            upcoming=upcoming,
            lead=lead,
            lead_action=_action(lead) if lead is not None else None,
            links=tuple(_action(link) for link in talk.links if link is not lead),
            picture=pictures.featured(talk) if shown else None,
            recording=recording,
            recording_href=pages.href(recording.url) if recording is not None else "",
            recording_host=pages.host(recording.url) if recording is not None else "",
            poster_card=social.CARD_NAME if recording is not None and social.has_card(site, talk)
            else "",
            video=video,
            caption=_html(image.caption, inline=True, unsafe=config.unsafe_html)
            if image is not None and image.caption else Markup(),
            abstract=_html(abstract, math=math, unsafe=config.unsafe_html),
            slides=slides,
            slides_href=pages.href(slides.url) if slides is not None else "",
            body=_html(talk.body, math=math, unsafe=config.unsafe_html),
            cards=tuple(self._card(author, also.get(author, ()))
                        for author in talk.authors
                        if self._person(author)[1] is not None or also.get(author)),
            tags=tuple(Named(tag, taxonomy.tag_path(tag)) for tag in talk.tags),
            written_in=pages.written_in(talk, site.messages.language),
            language=pages.language_named(talk, site.messages.language),
            life=lifeview.life(site, talk),
            share=share_row(talk.title, config.absolute_url(sitefiles.url_path(talk.url)))
            if config.share else None,
        )

    def _person(self, author: str) -> tuple[Named, Speaker | None]:
        """An author's name and page (`speaker_name`, `speaker_path`) and entry."""
        found = self.people.get(author)
        if found is None:
            site = self.site
            found = self.people[author] = (
                Named(taxonomy.speaker_name(site, author), taxonomy.speaker_path(site, author)),
                taxonomy.speaker_entry(site, author))
        return found

    def _card(self, author: str, others: tuple[Talk, ...]) -> Card:
        person, entry = self._person(author)
        unsafe = self.site.config.unsafe_html
        return Card(
            author=author, name=person.name, path=person.path, entry=entry, face=self._face(author),
            bio=_html(entry.bio, unsafe=unsafe) if entry is not None else Markup(),
            url=pages.href(entry.url) if entry is not None else "",
            links=tuple(Anchor(pages.href(link.url), link.name) for link in entry.links)
            if entry is not None else (),
            also=tuple(self._other(other) for other in others))

    def _face(self, author: str) -> pictures.Picture | None:
        """The copies of a speaker's photo, in the folder of the speaker's page (`face`)."""
        if author not in self.faces:
            person, entry = self._person(author)
            self.faces[author] = pages.speaker_face(entry, person.name)
        return self.faces[author]

    def _other(self, talk: Talk) -> Other:
        """`talk` beside another's, on the day of its occurrence a list shows."""
        other = self.others.get(talk)
        if other is None:
            other = self.others[talk] = Other(talk.url, talk.title, self.dates.short_when(
                talk.next_schedule(self.site.now)))
        return other

class LazyView:
    """A talk's view, worked out at the first read of one of its fields: a site's own
    talk.html may read none, and then the page costs what it did before views."""

    def __init__(self, make: Callable[[], TalkView]) -> None:
        self._make = make

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in TalkView.__slots__:
            raise AttributeError(name)
        view = self._make()
        for field in TalkView.__slots__:  # read from here on without this method
            setattr(self, field, getattr(view, field))
        return getattr(view, name)


def _action(link: Link) -> Action:
    return Action(pages.href(link.url), icon(pages.LINK_ICONS.get(link.kind, "link")),
                  link.name)


def _html(text: str, **options: Any) -> Markup:
    """A talk's Markdown as HTML (`markdown`): remembered by markup.py for the build's
    other uses of the same text (the JSON-LD's and the feeds' descriptions)."""
    return Markup(markup.to_html(text, **options)) if text else Markup()


def truncate(text: str, length: int, leeway: int = 5, end: str = "...") -> str:
    """Jinja's `truncate(length)` with its default policy (a text up to `leeway`
    characters over `length` is kept whole; a longer one is cut at a space)."""
    # Given a leeway, Jinja's filter reads nothing of its environment.
    return do_truncate(cast(jinja2.Environment, None), text, length, end=end, leeway=leeway)
