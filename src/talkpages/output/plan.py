"""What a build makes: a recipe for every output, worked out from the Site before anything
is made. Pure: a Site in, recipes out.

A recipe says what its output is made from: a template and a context (pages), or the
fragments of talks in order (feeds, talks.json, search.json), or a file to copy. Feeds
and the site's JSON files name their talks' fragments (`fragment_key`), never the talks
themselves: they are put together from a few hundred bytes a talk, made with the
talk's page, on any core, instead of from every talk of the site. The one folder it
lists is the site's static/, whose files are copied as they are (`_static`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content import slots, taxonomy
from ..content.loader import STATIC_DIR
from ..content.model import Site, Talk
from ..content.speakers import SPEAKERS_NAME
from . import branding, pages, pictures, seriespages, sitefiles, social, upcoming
from .feedlimits import ARCHIVE_PATH, in_window
from .ical import event_zone, zone_years
from .outputs import fragment_key
from .theme import Theme, site_files

FEED_PATH = "calendar.ics"

# Kinds of recipes
TALK, PAGE, FEED, EVENT_FILE = "talk", "page", "feed", "event file"
ATOM, TALKS_JSON, SEARCH, SITEMAP, ROBOTS, FILE, REDIRECT, IMAGE, CARD = (
    "feed.xml", "talks.json", "search.json", "sitemap.xml", "robots.txt", "file", "redirect",
    "image", "card")
WRAPPED_ASSET, SITE_FILE = "wrapped asset", "site file"


@dataclass(frozen=True, eq=False)
class Recipe:
    path: str  # of the output, from the site root
    kind: str
    origin: str  # for messages
    template: str = ""  # TALK, PAGE
    url: str = ""
    context: Mapping[str, Any] = field(default_factory=dict)  # all but FILE and feeds
    pieces: tuple[tuple[str, str], ...] = ()  # (talk source, fragment key), in order
    text: tuple[str, ...] = ()  # a feed's name and description
    zones: tuple[tuple[str, int, int], ...] = ()  # a feed's VTIMEZONEs and their years
    source: Path | None = None  # FILE, IMAGE


def make_plan(site: Site, theme: Theme) -> list[Recipe]:
    """Every output of the site, in the order they are made: talk pages first (their
    fragments make up the lists and feeds), lists last (they link the feeds there are)."""
    talks = list(site.talks)
    tags, speakers, years = taxonomy.by_tag(site), taxonomy.by_speaker(site), taxonomy.years(site)
    also = taxonomy.also_speaking(site, speakers)
    recipes = [Recipe(f"{talk.url}index.html", TALK, str(talk.source), "talk.html", talk.url,
                      {"talk": talk, "previous": talks[n - 1] if n > 0 else None,
                       "next": talks[n + 1] if n + 1 < len(talks) else None,
                       "also": also.get(talk, {})})
               for n, talk in enumerate(talks)]
    recipes += [Recipe(f"{talk.url}{name}", FILE, str(talk.source),
                       source=talk.source.parent / name)
                for talk in talks for name in pictures.published_files(talk)]
    recipes += _resized(talks, speakers, site.root)
    recipes += _cards(site, tags, speakers)
    recipes.append(_page(pages.PageSpec("404.html", "404.html", "the 404 page")))
    recipes.append(_page(upcoming.page(site)))
    zone_of = {id(talk): event_zone(talk) for talk in talks}  # each talk is in many feeds
    zone_years = zones_of(site, zone_of)
    config, _ = site.config, site.messages.gettext
    pieces = {kind: {id(talk): (talk.file, fragment_key(kind, talk)) for talk in talks}
              for kind in ("event", "record", "row")}
    feeds = [(FEED_PATH, in_window(site, talks), config.feed_name, config.description,
              "the calendar feed")]
    if config.feed_window:  # the subscribed feeds keep a window: this one, every talk
        feeds.append((ARCHIVE_PATH, talks, _("%(name)s (archive)") % {
            "name": config.feed_name}, _("Every talk on %(site)s, past ones included") % {
            "site": config.title}, "the archive feed"))
    for kind, groups in (("tags", tags), ("speakers", speakers)):
        for group in groups:
            path = f"{kind}/{group.slug}/{FEED_PATH}"
            about = _("Talks tagged %(name)s on %(site)s") if kind == "tags" \
                else _("Talks by %(name)s on %(site)s")
            feeds.append((path, in_window(site, group.talks),
                          f"{config.feed_name}: {group.name}",
                          about % {"name": group.name, "site": config.title},
                          f"the feed {path}"))
    for series in config.series.values():  # the series that have talks: seriespages.py
        sessions, path = slots.talks_of(site, series), seriespages.feed_path(series)
        if sessions:
            feeds.append((path, in_window(site, sessions), f"{config.feed_name}: {series.title}",
                          _("Talks of the series %(name)s on %(site)s") % {
                              "name": series.title, "site": config.title}, f"the feed {path}"))
    events = pieces["event"]
    for path, members, name, description, origin in feeds:
        recipes.append(Recipe(path, FEED, origin, pieces=tuple(events[id(t)] for t in members),
                              text=(name, description),
                              zones=_zones(members, zone_of, zone_years)))
    recipes += [Recipe(event_file(talk), EVENT_FILE, talk.file, pieces=(events[id(talk)],),
                       zones=_zones((talk,), zone_of, zone_years))
                for talk in talks]
    existing = {recipe.path for recipe in recipes}
    recipes += [_page(spec) for spec in pages.list_pages(site, existing, (tags, speakers, years))]
    recipes += [_page(spec) for spec in seriespages.series_pages(site, existing)]
    listed = [r.path.removesuffix("index.html") for r in recipes if r.path.endswith("index.html")]
    newest = sorted(talks, key=lambda t: t.sort_key, reverse=True)[:sitefiles.FEED_LIMIT]
    lastmod = {t.url: t.lastmod for t in talks if t.lastmod is not None}
    recipes += [
        Recipe("sitemap.xml", SITEMAP, "the sitemap",
               context={"pages": sorted(listed, key=_depth), "lastmod": lastmod}),
        Recipe("robots.txt", ROBOTS, "robots.txt"),
        Recipe("feed.xml", ATOM, "the Atom feed", context={"talks": newest}),
        Recipe("talks.json", TALKS_JSON, "talks.json",
               pieces=tuple(pieces["record"][id(t)] for t in talks)),
        Recipe("search.json", SEARCH, "the search index",
               pieces=tuple(pieces["row"][id(t)] for t in site.upcoming + site.past))]
    recipes += [Recipe(f"assets/{theme.published_name(name)}", WRAPPED_ASSET, str(path),
                       text=theme.around[name], source=path) if name in theme.around
                else Recipe(f"assets/{theme.published_name(name)}", FILE, str(path), source=path)
                for name, path in theme.assets.items()]
    if config.favicon is None:
        recipes += [Recipe(name, FILE, str(path), source=path)
                    for name, path in theme.assets.items() if name.startswith("favicon.")]
    recipes += _branding(site) + _static(site)
    return recipes + redirects(talks, {recipe.path.lower() for recipe in recipes})


def _static(site: Site) -> list[Recipe]:
    """The files of the site's static/, copied as they are to the root of the published
    site (a host's `_headers`, `.well-known/`), found by the walk that reads the site:
    links followed only while they stay inside it. One at the place of an output the
    build makes is an error of the build ("two outputs write …"), never written over
    it. A site in several languages has a tree per language: its static files are at
    the root of them all (switcher.root_files)."""
    if site.config.languages:
        return []
    return [Recipe(name, FILE, f"{STATIC_DIR}/{name}", source=path)
            for name, path in static_files(site).items()]


def static_files(site: Site) -> dict[str, Path]:
    """The files of the site's static/, by their path in it."""
    return site_files(site.root / STATIC_DIR, site.root)


def _branding(site: Site) -> list[Recipe]:
    """The site's logo and favicon (branding.py): SVG as it is, other images as copies."""
    config, recipes = site.config, []
    for image, svg, picture in ((config.logo, branding.logo_file(config),
                                 branding.logo_picture(config)),
                                (config.favicon, branding.favicon_file(config),
                                 branding.favicon_picture(config))):
        if image is None:
            continue
        source = site.root.joinpath(*image.path.split("/"))
        if svg is not None:
            recipes.append(Recipe(svg, SITE_FILE, CONFIG_ORIGIN, text=(image.digest,),
                                  source=source))
        if picture is not None:
            recipes += _copies(picture, source, CONFIG_ORIGIN)
    return recipes


CONFIG_ORIGIN = "talkpages.toml"


def _resized(talks: list[Talk], speakers: list[taxonomy.Group], root: Path) -> list[Recipe]:
    """The copies of the talks' featured images and of the speakers' photos."""
    recipes = []
    for talk in talks:
        for picture in (pictures.featured(talk), pictures.thumbnail(talk)):
            source = _featured_file(talk)
            if picture is not None and source is not None:
                recipes += _copies(picture, source, talk.file)
    for group in speakers:
        if group.speaker is not None and group.speaker.photo is not None:
            photo = group.speaker.photo
            recipes += _copies(pictures.face(photo, f"speakers/{group.slug}/"),
                               root.joinpath(*photo.path.split("/")), "speakers.toml")
    return recipes


def _cards(site: Site, tags: list[taxonomy.Group], speakers: list[taxonomy.Group],
           ) -> list[Recipe]:
    """The social cards: the site's, those of the talks that have one, and those of the
    speakers' and tags' pages (social.py); a group's card is worked out here, whole."""
    view = site.view
    recipes = [Recipe(f"{talk.url}{social.CARD_NAME}", CARD, str(talk.source),
                      context={"talk": talk}, source=_featured_file(talk))
               for talk in site.talks if social.has_card(view, talk)]
    for kind, groups in (("speaker", speakers), ("tag", tags)):
        for group in groups:
            card = social.group_card(view, kind, group)
            if card is None:
                continue
            photo = group.speaker.photo if group.speaker is not None else None
            origin = SPEAKERS_NAME if group.speaker is not None \
                else str(group.talks[0].source) if group.talks else CONFIG_ORIGIN
            recipes.append(Recipe(
                social.group_path(kind, group), CARD, origin, context={"talk": None, "card": card},
                source=site.root.joinpath(*photo.path.split("/")) if photo is not None else None))
    if social.site_card(view) is not None:
        recipes.append(Recipe(social.CARD_NAME, CARD, "talkpages.toml", context={"talk": None}))
    return recipes


def _featured_file(talk: Talk) -> Path | None:
    """The file of a talk's featured image, when it is resized (and drawn on its card)."""
    if talk.image is None or not talk.image.file or pictures.featured(talk) is None:
        return None
    return talk.source.parent / talk.image.file


def _copies(picture: pictures.Picture, source: Path, origin: str) -> list[Recipe]:
    return [Recipe(copy.path, IMAGE, origin, context={"picture": picture, "copy": copy},
                   source=source) for copy in picture.copies]


def redirects(talks: list[Talk], taken: set[str]) -> list[Recipe]:
    """A page at each alias of a talk that sends visitors on to it; an alias that is the
    address of another output (a talk's page, a list) is left to that output."""
    recipes = []
    for talk in talks:
        for alias in talk.aliases:
            path = page_path(alias)
            if path.lower() not in taken:
                taken.add(path.lower())
                recipes.append(Recipe(path, REDIRECT, talk.file, url=talk.url,
                                      text=(talk.title,)))
    return recipes


def event_file(talk: Talk) -> str:
    """The "Add to calendar" file of a talk, named after it for the download."""
    return f"{talk.url}{talk.slug}.ics"


def page_path(url: str) -> str:
    """The file of a page at `url` (`my-talk/` -> `my-talk/index.html`)."""
    return url + "index.html" if url == "" or url.endswith("/") else url


def zones_of(site: Site, zone_of: Mapping[int, str | None]) -> dict[str, tuple[int, int]]:
    """The first and last year of the site's events in each zone: every feed gives a
    zone the same VTIMEZONE, covering them all (see ical.py). `zone_of`: each talk's
    zone by its id (ical.event_zone), worked out once."""
    return zone_years(site.talks, site.now, lambda talk: zone_of[id(talk)])


def _page(spec: pages.PageSpec) -> Recipe:
    return Recipe(page_path(spec.url), PAGE, spec.origin, spec.template, spec.url, spec.context)


def _zones(talks: Any, zone_of: Mapping[int, str | None], years: dict[str, tuple[int, int]],
           ) -> tuple[tuple[str, int, int], ...]:
    """The VTIMEZONEs of a feed: those of the zones its events name (`zone_of` a talk's
    id: ical.event_zone), and no other."""
    if len(talks) == 1:  # a talk's own .ics: 100,000 of them on a large site
        zone = zone_of[id(talks[0])]
        return ((zone, *years[zone]),) if zone else ()
    zones = sorted({zone for talk in talks for zone in [zone_of[id(talk)]] if zone})
    return tuple((zone, *years[zone]) for zone in zones)


def _depth(path: str) -> tuple[int, str]:
    """The sitemap's order: the index first, then by depth and name."""
    return (path.count("/"), path)
