"""The list pages: the index, and a page per tag, speaker and year (Site -> specs), and
the template filters (list items made once, with each talk's page).

Every list shows upcoming talks (soonest first), then past talks (newest first, under
a heading per year), and is cut into pages of `paginate` talks (`page/2/`, `page/3/`…)
so that no page grows with the site: the index of a 10,000-talk site weighs what the
index of a 50-talk site does. Overview pages (`tags/`, `speakers/`, `years/`) list
every group with its number of talks.

Each page is a `PageSpec`: the template, the path from the site root and the
context; render.py turns them into HTML.
"""

from __future__ import annotations

import unicodedata
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from markupsafe import Markup, escape

from ..content import languages, taxonomy
from ..content.messages import N_, language_name
from ..content.model import Link, Site, SiteView, Talk
from ..content.speakers import Speaker
from ..content.taxonomy import Group
from . import embeds, jsonld, pictures, social, subscribe
from .budget import rendering
from .icons import icon
from .outputs import fragment_key
from .theme import Theme

LEADING_LINKS = ("video", "slides", "pdf")  # what a past talk's page leads with, in order
LINK_ICONS = {"video": "play", "slides": "slides", "pdf": "file", "preprint": "file",
              "poster": "image", "code": "code", "source": "code", "dataset": "data"}
HEADINGS = {"tag": N_("Talks tagged “%(name)s”"), "speaker": "%(name)s",
            "year": N_("Talks in %(name)s")}


@dataclass(frozen=True)
class PageSpec:
    template: str
    url: str  # from the site root, as written to disk: "", "tags/kubernetes/", "page/2/"
    origin: str  # for messages
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pager:
    number: int
    count: int
    base: str  # the first page's path from the site root, URL-encoded (for hrefs)

    def url(self, number: int) -> str:
        return self.base if number == 1 else f"{self.base}page/{number}/"

    @property
    def previous(self) -> str | None:
        return self.url(self.number - 1) if self.number > 1 else None

    @property
    def next(self) -> str | None:
        return self.url(self.number + 1) if self.number < self.count else None

    @property
    def first(self) -> str:
        return self.url(1)

    @property
    def last(self) -> str:
        return self.url(self.count)


@dataclass(frozen=True)
class Term:
    """One entry of an overview page."""
    name: str
    path: str  # from the site root, ready for an href
    count: int
    photo: pictures.Picture | None = None  # a speaker's
    slug: str = ""  # what the index's filter puts in its address: `?tag=c-plus-plus`
    note: str = ""  # a series' slot in words


def list_pages(site: Site, existing: set[str],
               known: tuple[list[Group], list[Group], list[Group]] | None = None,
               ) -> list[PageSpec]:
    """Every list page; `existing` are the paths already rendered (to link only the
    per-tag and per-speaker feeds that the site has). The site's tags,
    speakers and years (`known`), when the caller has them already."""
    order = site.upcoming + site.past
    position = {id(talk): number for number, talk in enumerate(order)}
    tags, speakers, years = known or (taxonomy.by_tag(site), taxonomy.by_speaker(site),
                                      taxonomy.years(site))
    specs = paginated(site, "index.html", "", "the index", order, {
        "years": [Term(g.name, f"years/{g.slug}/", len(g.talks), slug=g.slug) for g in years],
        "tags": _choices(tags), "languages": _spoken(site), "any_upcoming": bool(site.upcoming),
        "languages_own": languages.key(site.config.language)})
    _ = site.messages.gettext
    specs += _overview(tags, "tags/", _("Tags"), "tag")
    specs += _overview(speakers, "speakers/", _("Speakers"), "speaker")
    specs += _overview(years, "years/", _("Years"), "year")
    view = site.view
    for kind, groups in (("tag", tags), ("speaker", speakers), ("year", years)):
        for group in groups:
            base = f"{kind}s/{quote(group.slug)}/"
            feed = f"{kind}s/{group.slug}/calendar.ics"
            talks = sorted(group.talks, key=lambda t: position[id(t)])
            # The group without its talks: a page shows (and so depends on) its own.
            specs += paginated(site, "list.html", base, f"the {kind} page of {group.name!r}",
                                talks, {"kind": kind, "group": replace(group, talks=()),
                                        "heading": _(HEADINGS[kind]) % {"name": group.name},
                                        "current": base if kind == "tag" else "",
                                        "feed": quote(feed) if feed in existing else None,
                                        "page_card": social.group_image(view, kind, group)})
    return specs


def paginated(site: Site, template: str, base: str, origin: str, talks: Sequence[Talk],
               context: dict[str, Any]) -> list[PageSpec]:
    size = site.config.paginate
    chunks = [talks[i:i + size] for i in range(0, len(talks), size)] or [[]]
    specs = []
    coming = site.coming
    for number, chunk in enumerate(chunks, start=1):
        pager = Pager(number, len(chunks), base)
        upcoming = [t for t in chunk if id(t) in coming]
        past = [t for t in chunk if id(t) not in coming]
        url = pager.url(number)
        specs.append(PageSpec(template, unquote(url), origin, {
            **context, "pager": pager, "upcoming": upcoming,
            "past_by_year": taxonomy.by_year(past), "total": len(talks),
            "first_page": number == 1}))
    return specs


def _spoken(site: Site) -> list[Term]:
    """The languages the index's filter offers, when the talks are given in two or more:
    each by its name in the site's language, with its count, the most common first."""
    own = site.config.language
    counts = Counter(languages.key(languages.given_in(talk, own) or own) for talk in site.talks)
    if len(counts) < 2:
        return []
    return [Term(language_name(key, own), "", count, slug=key)
            for key, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def _choices(tags: Iterable[Group]) -> list[Term]:
    """The tags the index's filter offers, in the order of their names: a site may have
    hundreds, and a select whose options are in alphabetical order lets a reader jump to
    a tag by typing its first letters; in order of size, a known tag is anywhere."""
    return sorted((Term(g.name, f"tags/{quote(g.slug)}/", len(g.talks), slug=g.slug)
                   for g in tags), key=lambda term: (_folded(term.name), term.slug))


def _folded(name: str) -> str:
    """A name as the alphabet orders it: `Été` among the e, not after `zebra`."""
    return "".join(c for c in unicodedata.normalize("NFKD", name)
                   if not unicodedata.combining(c)).casefold()


def _overview(groups: Iterable[Group], base: str, title: str, kind: str) -> list[PageSpec]:
    terms = [Term(g.name, f"{base}{quote(g.slug)}/", len(g.talks), _photo(g, base))
             for g in groups]
    return [PageSpec("terms.html", base, f"the {kind} overview",
                     {"heading": title, "kind": kind, "terms": terms})]


def _photo(group: Group, base: str) -> pictures.Picture | None:
    photo = group.speaker.photo if group.speaker is not None else None
    return pictures.face(photo, f"{base}{group.slug}/") if photo is not None else None


# A talk's list item is made once, with this where the path to the site root goes, and
# shown on the index, its year, tags and speakers alike (control characters never reach
# a talk's text, so no field can spell it).
ROOT_MARK = "\x00root\x00"


def item(theme: Theme, talk: Talk) -> bytes:
    """A talk's list item (partials/talk_item.html), with ROOT_MARK for the root."""
    with rendering(theme.env, str(talk.source)):
        macro = theme.env.get_template("partials/talk_item.html").module.talk_item  # type: ignore[attr-defined]
        return str(macro(talk, ROOT_MARK)).encode()


def language_named(talk: Talk, site_language: str) -> str:
    """The name of the language a talk is given in, in the site's, when it is another."""
    if not talk.given_in and talk.written_in == site_language:  # most talks of most sites
        return ""
    tag = languages.given_in(talk, site_language)
    return language_name(tag, site_language) if tag else ""


def written_in(talk: Talk, site_language: str) -> Markup:
    """` lang="…"` for what of a talk is written in another language than the site's."""
    if talk.written_in == site_language:
        return Markup()
    return Markup(f' lang="{escape(talk.written_in)}"')


def filters(site: SiteView, theme: Theme, fragments: Mapping[str, bytes],
            ) -> dict[str, Callable[..., Any]]:
    """The template filters of the pages (see docs/themes.md); list items
    come from `fragments`, made with the talks' pages, when they are there."""
    config = site.config

    def item_html(talk: Talk, root: str, current: str = "") -> Markup:
        """A talk's row, made once and shared by every list; on a tag's page (`current`,
        its path) that tag's pill is marked as the page the visitor is on."""
        data = fragments.get(fragment_key("item", talk))
        if data is None:
            data = item(theme, talk)
        html = data.decode().replace(ROOT_MARK, root)
        if current:
            pill = f'<a class="tag" href="{root}{current}"'
            html = html.replace(pill, pill + ' aria-current="page"')
        return Markup(html)

    paths: dict[str, str] = {}
    names: dict[str, str] = {}
    faces: dict[str, pictures.Picture | None] = {}
    entries: dict[str, Speaker | None] = {}

    def speaker_path(author: str) -> str:
        if author not in paths:
            paths[author] = taxonomy.speaker_path(site, author)
        return paths[author]

    def speaker_name(author: str) -> str:
        if author not in names:
            names[author] = taxonomy.speaker_name(site, author)
        return names[author]

    def speaker_entry(author: str) -> Speaker | None:
        if author not in entries:
            entries[author] = taxonomy.speaker_entry(site, author)
        return entries[author]

    def face(author: str) -> pictures.Picture | None:
        """The copies of a speaker's photo, in the folder of the speaker's page."""
        if author not in faces:
            faces[author] = speaker_face(speaker_entry(author), speaker_name(author))
        return faces[author]

    return {
        "item_html": item_html,
        "speaker_entry": speaker_entry,
        "face": face,
        "featured_picture": pictures.featured,
        "thumbnail": pictures.thumbnail,
        "initials": initials,
        "hue": hue,
        "speaker_cards": lambda authors, also: [
            (author, entry) for author in authors
            for entry in [speaker_entry(author)] if entry or also.get(author)],
        "social_image": lambda talk: social.image(site, talk),
        "asset": lambda name: f"assets/{quote(theme.published_name(name))}",
        "tag_path": taxonomy.tag_path,
        "speaker_path": speaker_path,
        "speaker_name": speaker_name,
        "status": taxonomy.status,
        "jsonld": lambda talk: Markup(jsonld.script(jsonld.event(site, talk))),
        "video": lambda talk: embeds.video_embed(talk, config.embed_videos),
        "recording": embeds.recording,
        "slides": lambda talk: embeds.slides_embed(talk, config.embed_slides),
        "host": host,
        "plain": jsonld.plain,
        "next_schedule": lambda talk: talk.next_schedule(site.now),
        "subscribe": lambda path, name, root: subscribe.links(config, path, name, root + path),
        "map_url": venue_map,
        "link_href": link_href,
        "lead_link": lead_link,
        "icon": icon,
        "talk_language": lambda talk: language_named(talk, site.messages.language),
        "language_key": lambda talk: languages.key(talk.given_in or talk.written_in),
        "written_in": lambda talk: written_in(talk, site.messages.language),
        "link_icon": lambda kind: icon(LINK_ICONS.get(kind, "link")),
    }


def speaker_face(entry: Speaker | None, name: str) -> pictures.Picture | None:
    """The copies of a speaker's photo, in the folder of the speaker's page; None
    without one."""
    if entry is None or entry.photo is None:
        return None
    return pictures.face(entry.photo, f"speakers/{taxonomy.speaker_slug(name)}/")


def initials(name: str) -> str:
    """What stands for a speaker without a photo: "Ada Lovelace" -> "AL"."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    if not words:
        return "?"
    letters = words[0][:1] + (words[-1][:1] if len(words) > 1 else "")
    return letters.upper()


HUES = 8  # the colours of initials' circles: .hue-0 to .hue-7 in the theme's style.css


def hue(name: str) -> int:
    """The colour of a name's circle of initials: the same for the name everywhere."""
    return zlib.crc32(name.casefold().encode("utf-8")) % HUES


def link_href(url: str, talk: Talk, root: str) -> str:
    """A link of a talk from a list page: one into the talk's folder made relative to
    the page (`slides.pdf` -> `../my-talk/slides.pdf`), any other as it is."""
    if "://" in url or url.startswith(("/", "#", "mailto:")):
        return href(url)
    return f"{root}{talk.url}{href(url)}"


def host(url: str) -> str:
    """The host a link leads to, as people say it: "youtube.com"."""
    try:
        name = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return name.removeprefix("www.")


def href(url: str) -> str:
    """A URL from a talk file made valid for an href: spaces, quotes, braces… encoded."""
    return quote(url.strip(), safe=":/?#@!$&'()*+,;=%~")


def venue_map(talk: Talk) -> str:
    """OpenStreetMap at a talk's venue: at its `coordinates`, else a search for its
    address (a `location` alone, "Room 2" or "Online", is no place to search for)."""
    if talk.geo:
        return map_url(*talk.geo)
    if talk.address:
        return "https://www.openstreetmap.org/search?query=" + quote(
            ", ".join(talk.address.lines()), safe="")
    return ""


def lead_link(talk: Talk) -> Link | None:
    """The link a past talk's page leads with, as its one primary action: the
    recording, else the slides, else their PDF; none when it has none of them."""
    return next((link for kind in LEADING_LINKS
                 for link in [embeds.first_link(talk, kind)] if link), None)


def map_url(latitude: float, longitude: float) -> str:
    """OpenStreetMap at a venue's coordinates, with a marker."""
    lat, lon = (f"{value:.6f}".rstrip("0").rstrip(".") for value in (latitude, longitude))
    return f"https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=16/{lat}/{lon}"


def tests(site: SiteView) -> dict[str, Callable[..., bool]]:
    """The template tests: `occurrence is over` (ended at the time of the build) and
    `talk is upcoming` (not over: an occurrence still to come or under way)."""
    return {"over": lambda schedule: bool(schedule.end_utc <= site.now),
            "upcoming": lambda talk: talk.is_upcoming(site.now)}
