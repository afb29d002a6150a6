"""Rendering: the recipes of a Site (plan.py) made into Outputs (path, bytes).

Pages use relative links (`../my-talk/`), so a site works from any sub-path of its
base_url (GitHub Pages project sites) and from a local server alike. Absolute URLs
appear only where the web wants them: canonical links, feeds and the sitemap.

Everything is made at every build, as Hugo, Zola and MkDocs do: no rendered page is
kept between builds, so no page can be out of date. A talk's page is made in one job
with the fragments of the talk that lists and feeds are put together from (its list
item, calendar event, talks.json record and search row); they are kept for the build
only. Jobs run on every core for a large site. Resized images and social cards, the
only outputs that cost real time and depend on one file, come from the media cache
(`Media`) when it has them.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Callable, Generator, Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from .. import __version__, parallel
from ..content.model import Settings, Site, SiteView, Talk
from ..diagnostics import BuildError, Diagnostic
from ..parallel import collector_paused
from . import (
    branding,
    embeds,
    formatting,
    ical,
    icons,
    lifeview,
    markup,
    pages,
    sitefiles,
    subscribe,
    switcher,
    talkview,
)
from .budget import rendering
from .kinds import KINDS
from .outputs import Media, NoMedia, Output, Store, fragment_key
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

__all__ = ["FEED_PATH", "Maker", "event_file", "page_path"]
FRAGMENTS = ("item", "event", "record", "row")


class Maker:
    """Makes recipes into outputs for one build, the fragments of talks kept for it."""

    def __init__(self, site: Site, theme: Theme, store: Store, media: Media | None = None,
                 workers: bool = True):
        self.store = store
        self.media = media or NoMedia()
        self.workers = workers
        theme = theme.for_config(site.config)  # the accent colour's rules in style.css
        self.site, self.theme = site, theme
        self.now = site.now.isoformat()
        self.fragments: dict[str, bytes] = {}
        self.zones: dict[tuple[str, int, int], bytes] = {}
        env = theme.env
        env.globals.update(site=site, config=site.config, version=__version__,
                           feed_path=FEED_PATH, feed_urls=feed_urls(site, FEED_PATH),
                           logo=branding.logo(site.config), icons=branding.icons(site.config),
                           partial_once=_partial_once(env), icons_placed=icons.placed,
                           alternates=lambda url: switcher.NONE)  # one language: none
        view = site.view  # filters never see the talks: see SiteView
        self.views = talkview.Views(view)  # talk pages' views, and what they share
        made_here = {**_filters(view), **pages.filters(view, theme, self.fragments),
                     **lifeview.filters(view),
                     "talk_view": self.views.lazy}
        for name, function in made_here.items():
            env.filters[name] = _unfoldable(function)
        env.filters["content_security_policy"] = _policy_filter(view)
        env.tests.update({name: _unfoldable(test) for name, test in pages.tests(view).items()})
        self.feeds = ical.Feeds(site, self.piece, self._zone)
        self.makers: dict[str, Callable[[Talk], bytes]] = {
            "item": lambda talk: pages.item(theme, talk),
            "event": lambda talk: ical.event_bytes(site, talk),
            "record": lambda talk: sitefiles.record(site, talk),
            "row": lambda talk: sitefiles.search_row(site, talk)}

    def plan(self) -> list[Recipe]:
        """A recipe for every output of the site (plan.py)."""
        with collector_paused():
            return make_plan(self.site, self.theme)

    def run(self, recipes: list[Recipe]) -> Generator[Output, None, None]:
        """Every output, each given to `store` where it is made (in a worker process for
        most), and what `store` returns, in turn: the writer stores each as it is made,
        so a build never holds a large site's pages in memory, nor moves them between
        processes. Talk pages and their fragments first, then the rest, in parallel: files,
        images, template pages, each batch after the fragments it shows are made."""
        yield from self.talks([r for r in recipes if r.kind == TALK])
        later: list[Recipe] = []
        images: list[Recipe] = []
        files: list[Recipe] = []
        for recipe in recipes:
            if recipe.kind == TALK:
                continue
            if recipe.kind == PAGE:
                later.append(recipe)
            elif recipe.kind in (IMAGE, CARD):
                self.media.plan(KINDS[recipe.kind].media_key(self, recipe))
                images.append(recipe)
            else:
                files.append(recipe)
        yield from parallel.render_all(self.stored, files, self.workers)
        # images two at a time (a width's WebP and JPEG; two cards): 10 to 300 ms each
        yield from parallel.render_all(self.stored, images, self.workers, chunk=2, least=4)
        # a list page shows up to `paginate` talks: fresh workers 16 times as often
        yield from parallel.render_all(self.stored, later, self.workers,
                                       parallel.SEGMENT // 16)

    def stored(self, recipe: Recipe) -> Output:
        return self.store(self.make(recipe))

    def talks(self, recipes: list[Recipe]) -> Iterator[Output]:
        """Each talk's page, and the talk's fragments, kept for the lists and feeds."""
        def make(recipe: Recipe) -> tuple[Output, list[bytes]]:
            talk = recipe.context["talk"]
            return self.stored(recipe), [self.makers[kind](talk) for kind in FRAGMENTS]

        for recipe, (output, made) in zip(recipes, parallel.render_all(make, recipes,
                                                                       self.workers),
                                          strict=True):
            talk = recipe.context["talk"]
            for kind, data in zip(FRAGMENTS, made, strict=True):
                self.fragments[fragment_key(kind, talk)] = data
            yield output

    def _zone(self, zone: tuple[str, int, int], make: Callable[[], bytes]) -> bytes:
        """A VTIMEZONE (some milliseconds to work out), made once a build."""
        data = self.zones.get(zone)
        if data is None:
            data = self.zones[zone] = make()
        return data

    def piece(self, key: str) -> bytes:
        """A fragment of a talk by its key, made with the talk's page."""
        data = self.fragments.get(key)
        if data is None:
            raise BuildError([Diagnostic(None, f"internal error: the fragment {key} of a "
                                         "talk was not made before the file that shows it")])
        return data

    def make(self, recipe: Recipe) -> Output:
        return KINDS[recipe.kind].make(self, recipe)

    def render_page(self, recipe: Recipe) -> Output:
        context = recipe.context
        if recipe.kind == TALK:  # what its page shows, worked out once (talkview.py)
            context = {**context, "view": self.views.lazy(context["talk"], context["also"])}
        return _render_page(self.theme.env, recipe.template, recipe.url, recipe.origin,
                            **context)


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


def _partial_once(env: jinja2.Environment) -> Callable[..., Markup]:
    """`partial_once(name, **values)`: a partial whose output depends on nothing but the
    site, the page's `root` and `values` (strings), rendered once a build for each of
    them: the header and footer every page shows. Never given a talk or a list. The
    icons a partial places are placed again by every page that shows it (icons.py)."""
    made: dict[tuple[str, str, tuple[tuple[str, str], ...]],
               tuple[Markup, frozenset[str]]] = {}

    @jinja2.pass_context
    def partial_once(context: Any, name: str, **values: str) -> Markup:
        root = context.get("root", "")
        key = (name, root, tuple(sorted((k, str(v)) for k, v in values.items())))
        entry = made.get(key)
        if entry is None:
            with icons.placing() as placed:
                html = Markup(env.get_template(name).render(root=root, **values))
            entry = made[key] = (html, frozenset(placed))
        icons.place(entry[1])
        return entry[0]

    return partial_once


def _render_page(env: jinja2.Environment, template: str, url: str, origin: str,
                 **context: Any) -> Output:
    """Render one page; `url` is its path from the site root (`my-talk/`, `404.html`)."""
    depth = url.count("/")
    root = "../" * depth if depth else "./"
    if template == "404.html":
        root = "/" + _base_path(env)  # served for any missing path, so links are absolute
    with rendering(env, origin), icons.placing():
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
    dates = formatting.dates_for(site.messages.locale)
    return {
        "markdown": lambda text, math=False, inline=False: Markup(markup.to_html(
            text, unsafe=unsafe, math=math, inline=inline)),
        "when": dates.when,
        "short_when": dates.short_when,
        "zone_note": dates.zone_note,
        "machine": formatting.machine,
        "schedule_when": lambda schedule: formatting.glued(dates.schedule_when(schedule)),
        "instant": formatting.instant,
        "absolute": lambda path: site.config.absolute_url(sitefiles.url_path(path)),
        "href": pages.href,
        "event_file": lambda talk: quote(event_file(talk).split("/", 1)[1]),
        "google_calendar_url": lambda talk: ical.google_url(site, talk),
        "outlook_calendar_url": lambda talk: ical.outlook_url(site, talk),
    }


def _policy_filter(site: SiteView) -> Callable[..., str]:
    """`inline | content_security_policy`: the policy of the page being rendered. It
    reads the page's `talk` from the context, so that a site's own base.html gets a
    talk page's policy as the theme's does (Jinja never folds a filter that takes the
    context). Made once a build for each inline script and set of origins."""
    policy = functools.lru_cache(maxsize=64)(
        lambda inline, frames, scripts: content_security_policy(site, inline, frames,
                                                                scripts))
    unsafe = site.config.unsafe_html

    @jinja2.pass_context
    def call(context: Any, inline: Any) -> str:
        talk = context.get("talk") if unsafe else None
        frames, scripts = embeds.talk_origins(talk) if isinstance(talk, Talk) else ((), ())
        return str(policy(str(inline), frames, scripts))

    return call


def content_security_policy(site: Settings, inline_script: str,
                            frames: tuple[str, ...] = (),
                            scripts: tuple[str, ...] = ()) -> str:
    """The pages' Content-Security-Policy: scripts only from the site itself and the one
    inline script of the theme (by its hash), no plugins, frames from the site itself (a
    talk's PDF of slides) and from the players a site turns on, nothing else. A payload
    that slipped into a page could not run.

    On a site with `unsafe_html`, a talk's page adds the https origins its text loads
    frames and scripts from (`frames`, `scripts`: embeds.talk_origins), and only those;
    never `'unsafe-inline'`, so an inline script of a talk's text does not run
    (content/embedcheck.py says why per page, and `check` warns)."""
    digest = base64.b64encode(hashlib.sha256(inline_script.encode()).digest()).decode()
    config = site.config
    players = ((embeds.VIDEO_HOSTS if config.embed_videos else "")
               + (embeds.SLIDE_HOSTS if config.embed_slides else "")).split()
    frame_src = " ".join(dict.fromkeys(["'self'", *players, *frames]))
    script_src = " ".join(dict.fromkeys(["'self'", f"'sha256-{digest}'", *scripts]))
    return (f"default-src 'self'; script-src {script_src}; style-src 'self'; "
            f"img-src 'self' https: data:; font-src 'self'; connect-src 'self'; "
            f"frame-src {frame_src}; object-src 'none'; base-uri 'self'; "
            f"form-action 'self'")

