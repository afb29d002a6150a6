"""Rendering: the recipes of a Site (plan.py) made into Outputs (path, bytes).

Pages use relative links (`../my-talk/`), so a site works from any sub-path of its
base_url (GitHub Pages project sites) and from a local server alike. Absolute URLs
appear only where the web wants them: canonical links, feeds and the sitemap.

A talk's page is made in one job with the fragments of the talk that lists and feeds
are assembled from (its list item, calendar event, talks.json record and search row);
jobs run on every core for a large site. Every output has a key (keys.py): one whose
key is the key of an output the cache it is given still has comes back as kept (its
digest alone) and is not made at all.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from itertools import accumulate
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from .. import __version__, parallel
from ..content.model import Settings, Site, SiteView, Talk
from ..diagnostics import BuildError, Diagnostic
from ..parallel import collector_paused
from . import branding, embeds, formatting, ical, markup, pages, sitefiles, subscribe
from .budget import rendering
from .keys import Keys, OutputCache
from .kinds import KINDS
from .outputs import Media, NoMedia, Output
from .plan import (
    CARD,
    FEED_PATH,
    IMAGE,
    PAGE,
    TALK,
    Recipe,
    event_file,
    make_plan,
    page_path,
)
from .theme import Theme

__all__ = ["FEED_PATH", "Maker", "event_file", "iter_outputs", "page_path"]
FRAGMENTS = ("item", "event", "record", "row")


def iter_outputs(site: Site, theme: Theme, cache: OutputCache, keys: Keys | None = None,
                 media: Media | None = None,
                 ) -> Iterator[Output]:
    """Every output of the site, one at a time: the writer stores each as it comes, so
    a build never holds all of a large site's pages in memory. What `cache` keeps by
    its key is not made again."""
    maker = Maker(site, theme, cache, keys, media)
    with collector_paused():
        recipes = make_plan(site, maker.theme, maker.keys)
    return maker.run(recipes)


class Maker:
    """Makes recipes into outputs for one build, keeping what the cache has."""

    def __init__(self, site: Site, theme: Theme, cache: OutputCache, keys: Keys | None = None,
                 media: Media | None = None):
        self.keys = keys or Keys(site, theme)
        self.media = media or NoMedia()
        theme = theme.for_config(site.config)  # the accent colour's rules in style.css
        self.site, self.theme = site, theme
        self.now = site.now.isoformat()
        self.active = cache
        env = theme.env
        env.globals.update(site=site, config=site.config, version=__version__,
                           feed_path=FEED_PATH, feed_urls=feed_urls(site, FEED_PATH),
                           logo=branding.logo(site.config), icons=branding.icons(site.config))
        view = site.view  # filters never see the talks: see SiteView
        made_here = {**_filters(view), **pages.filters(view, theme, self.keys, cache)}
        for name, function in made_here.items():
            env.filters[name] = _unfoldable(function)
        env.tests.update({name: _unfoldable(test) for name, test in pages.tests(view).items()})
        self.feeds = ical.Feeds(site, self.piece, self._zone)
        self.makers: dict[str, Callable[[Talk], bytes]] = {
            "item": lambda talk: pages.item(theme, talk),
            "event": lambda talk: ical.event_bytes(site, talk),
            "record": lambda talk: sitefiles.record(site, talk),
            "row": lambda talk: sitefiles.search_row(site, talk)}

    def run(self, recipes: list[Recipe]) -> Iterator[Output]:
        """Talk pages and their fragments first, then the rest; images, then template
        pages in parallel, each batch after the fragments it shows are made."""
        yield from self.talks([r for r in recipes if r.kind == TALK])
        later: list[tuple[Recipe, str | None]] = []
        images: list[tuple[Recipe, str | None]] = []
        for recipe in recipes:
            if recipe.kind == TALK:
                continue
            key = self.key(recipe)
            self.active.planned(recipe, key)
            if recipe.kind in (IMAGE, CARD) and key is not None:
                self.media.plan(key)
            kept = self.active.known_page(key, recipe.path, recipe.origin)
            if kept is not None:
                yield kept
            elif recipe.kind == PAGE:
                later.append((recipe, key))
            elif recipe.kind in (IMAGE, CARD):
                images.append((recipe, key))
            else:
                yield self.active.remember_page(key, self.make(recipe))
        # images two at a time (a width's WebP and JPEG; two cards): 10 to 300 ms each
        made = parallel.render_all(self.make, [recipe for recipe, _ in images],
                                   self.active.parallel, chunk=2, least=4)
        for (_, key), output in zip(images, made, strict=True):
            yield self.active.remember_page(key, output)
        self.active.flush()  # workers read the fragments made so far
        # a list page shows up to `paginate` talks: fresh workers 16 times as often
        made = parallel.render_all(self.make, [recipe for recipe, _ in later],
                                   self.active.parallel, parallel.SEGMENT // 16)
        for (_, key), output in zip(later, made, strict=True):
            yield self.active.remember_page(key, output)

    def talks(self, recipes: list[Recipe]) -> Iterator[Output]:
        """Each talk's page, and the fragments of the talk the build's cache lacks."""
        keys, active = self.keys, self.active
        jobs: list[tuple[Recipe, str | None, bool, tuple[str, ...]]] = []
        for recipe in recipes:
            talk = recipe.context["talk"]
            key = self.key(recipe)
            active.planned(recipe, key)
            kept = active.known_page(key, recipe.path, recipe.origin)
            if kept is not None:
                yield kept
            missing = tuple(kind for kind in FRAGMENTS
                            if not active.has_fragment(keys.fragment(kind, talk)))
            if kept is None or missing:
                jobs.append((recipe, key, kept is None, missing))

        def make(job: tuple[Recipe, str | None, bool, tuple[str, ...]],
                 ) -> tuple[Output | None, dict[str, bytes]]:
            recipe, _, page, kinds = job
            talk = recipe.context["talk"]
            return (self.make(recipe) if page else None,
                    {kind: self.makers[kind](talk) for kind in kinds})

        for job, (output, made) in zip(jobs, parallel.render_all(make, jobs, active.parallel),
                                       strict=True):
            for kind, data in made.items():
                active.remember_fragment(keys.fragment(kind, job[0].context["talk"]), data)
            if output is not None:
                yield active.remember_page(job[1], output)

    def fragments(self, talk: Talk) -> None:
        """Make the fragments of a talk the cache lacks (delta.py)."""
        for kind in FRAGMENTS:
            key = self.keys.fragment(kind, talk)
            if not self.active.has_fragment(key):
                self.active.remember_fragment(key, self.makers[kind](talk))

    def _zone(self, zone: tuple[str, int, int], make: Callable[[], bytes]) -> bytes:
        """A VTIMEZONE (some milliseconds to work out), kept by the build's cache."""
        key = self.keys.of("zone", *map(str, zone))
        data = self.active.fragment(key)
        if data is None:
            data = make()
            self.active.remember_fragment(key, data)
        return data

    def piece(self, key: str) -> bytes:
        """A fragment by its key: made by the talk pages, kept by the build's cache."""
        data = self.active.fragment(key)
        if data is None:
            raise BuildError([Diagnostic(None, "internal error: a fragment of a talk is "
                                         "missing from the build's cache",
                                         hint="delete .talkpages-cache/ and build again")])
        return data

    def key(self, recipe: Recipe) -> str | None:
        """The key of an output (keys.py, kinds.py); None: always made."""
        return KINDS[recipe.kind].key(self, recipe)

    def make(self, recipe: Recipe) -> Output:
        return KINDS[recipe.kind].make(self, recipe)

    def render_page(self, recipe: Recipe) -> Output:
        return _render_page(self.theme.env, recipe.template, recipe.url, recipe.origin,
                            **recipe.context)

    def splice(self, recipe: Recipe, old: Recipe, base: str) -> Output | None:
        """The output of `recipe` as the last build's output of `old` (digest `base`)
        with the fragments that changed replaced, where they are in it (delta.py);
        None where it cannot be (the output is then made whole)."""
        layout = KINDS[recipe.kind].layout(self, recipe)
        if layout is None or len(old.pieces) != len(recipe.pieces):
            return None
        prefix, separator, change, shown = layout
        lengths = self.active.fragment_lengths([key for _, key in old.pieces])
        if None in lengths:
            return None
        starts = accumulate((length + change + len(separator)  # type: ignore[operator]
                             for length in lengths), initial=len(prefix))
        edits = [(start, start + length + change, shown(self.piece(new)))  # type: ignore[operator]
                 for start, length, (_, was), (_, new)
                 in zip(starts, lengths, old.pieces, recipe.pieces, strict=False)  # one start more
                 if new != was]
        return Output(recipe.path, splice=(base, tuple(edits)), origin=recipe.origin)


def _unfoldable(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter or test Jinja never calls while it compiles a template. Jinja works out
    `"" | absolute` then, once, and compiled templates are kept between builds and shared
    by the user's sites: a value of one site (its base_url, the hashed name of its
    stylesheet) would stay in another's pages. It calls no filter that takes the
    context."""
    @jinja2.pass_context
    def call(context: Any, *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return call


def _render_page(env: jinja2.Environment, template: str, url: str, origin: str,
                 **context: Any) -> Output:
    """Render one page; `url` is its path from the site root (`my-talk/`, `404.html`)."""
    depth = url.count("/")
    root = "../" * depth if depth else "./"
    if template == "404.html":
        root = "/" + _base_path(env)  # served for any missing path, so links are absolute
    with rendering(env, origin):
        html = env.get_template(template).render(root=root, page_url=url, **context)
    return Output(page_path(url), html.encode("utf-8"), origin=origin)


def _base_path(env: jinja2.Environment) -> str:
    site: Site = env.globals["site"]  # type: ignore[assignment]
    return urlsplit(site.config.base_url).path.lstrip("/")


def feed_urls(site: Site, path: str) -> dict[str, str]:
    https = site.config.absolute_url(path)
    return {"https": https, "webcal": subscribe.webcal_of(https)}


def _filters(site: SiteView) -> dict[str, Callable[..., Any]]:
    unsafe = site.config.unsafe_html
    return {
        "markdown": lambda text, math=False, inline=False: Markup(markup.to_html(
            text, unsafe=unsafe, math=math, inline=inline)),
        "when": formatting.when,
        "short_when": formatting.short_when,
        "zone_note": formatting.zone_note,
        "machine": formatting.machine,
        "schedule_when": formatting.schedule_when,
        "instant": formatting.instant,
        "absolute": lambda path: site.config.absolute_url(sitefiles.url_path(path)),
        "href": pages.href,
        "content_security_policy": lambda inline: content_security_policy(site, str(inline)),
        "event_file": lambda talk: quote(event_file(talk).split("/", 1)[1]),
        "google_calendar_url": lambda talk: ical.google_url(site, talk),
        "outlook_calendar_url": lambda talk: ical.outlook_url(site, talk),
    }


def content_security_policy(site: Settings, inline_script: str) -> str:
    """The pages' Content-Security-Policy: scripts only from the site itself and the one
    inline script of the theme (by its hash), no plugins, frames from the site itself (a
    talk's PDF of slides) and from the players a site turns on, nothing else. A payload
    that slipped into a page could not run."""
    digest = base64.b64encode(hashlib.sha256(inline_script.encode()).digest()).decode()
    config = site.config
    frames = (embeds.VIDEO_HOSTS if config.embed_videos else "") \
        + (embeds.SLIDE_HOSTS if config.embed_slides else "")
    return (f"default-src 'self'; script-src 'self' 'sha256-{digest}'; style-src 'self'; "
            f"img-src 'self' https: data:; font-src 'self'; connect-src 'self'; "
            f"frame-src 'self'{frames}; object-src 'none'; base-uri 'self'; "
            f"form-action 'self'")

