"""Pure rendering: a Site and a Theme in, a stream of Outputs (path, bytes) out.

Pages use relative links (`../my-talk/`), so a site works from any sub-path of its
base_url (GitHub Pages project sites) and from a local server alike. Absolute URLs
appear only where the web wants them: canonical links, feeds and the sitemap.

The work of a talk is one job: its page and the fragments that lists and feeds are
made of (its list item, calendar event, talks.json record and search row). Jobs run on
every core for a large site, and only for what the build's cache does not have (see
cache.py). Lists, feeds, talks.json and search.json are assembled from fragments, the
large ones as a stream of chunks. An output whose key is the same as in the previous
build, with bytes the writer still has, comes back as kept (its digest alone) and is
not made at all.
"""

from __future__ import annotations

import base64
import hashlib
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from . import __version__, cache, formatting, ical, markup, pages, sitefiles, taxonomy
from .cache import BuildCache, Keys
from .diagnostics import BuildError, Diagnostic
from .model import Site, Talk
from .parallel import render_all as parallel_render
from .theme import Theme
from .writer import Output, whole

FEED_PATH = "calendar.ics"
FRAGMENTS = ("item", "event", "record", "row")


def render_site(site: Site, theme: Theme) -> list[Output]:
    """Every output, whole, in memory (check, serve, tests)."""
    return [whole(output) for output in iter_outputs(site, theme)]


def iter_outputs(site: Site, theme: Theme) -> Iterator[Output]:
    """Every output of the site, one at a time: the writer stores each as it comes, so
    a build never holds all of a large site's pages in memory."""
    env = theme.env
    keys = Keys(site, theme)
    active = cache.active()
    env.globals.update(site=site, config=site.config, version=__version__,
                       feed_path=FEED_PATH, feed_urls=feed_urls(site, FEED_PATH))
    env.filters.update(_filters(site))
    env.filters.update(pages.filters(site, theme, keys))
    env.tests.update(pages.tests(site))
    work = _Work(site, theme, keys, active)
    written: set[str] = set()

    def emit(outputs: Iterable[Output]) -> Iterator[Output]:
        for output in outputs:
            written.add(output.path)
            yield output

    yield from emit(work.talks())
    for talk in site.talks:
        for name in talk.bundle_files:
            yield from emit([Output(f"{talk.url}{name}", source=talk.source.parent / name,
                                    origin=str(talk.source))])
    yield from emit(work.pages([pages.PageSpec("404.html", "404.html", "the 404 page")]))
    yield from emit(work.feeds())
    # List pages come after the feeds: they link the per-tag and per-speaker feeds there are.
    yield from emit(work.pages(pages.list_pages(site, set(written), work.groups)))
    sitemap = sorted((p.removesuffix("index.html") for p in written
                      if p.endswith("index.html")), key=_depth)
    yield Output("sitemap.xml", sitefiles.sitemap(site, sitemap), origin="the sitemap")
    yield Output("robots.txt", sitefiles.robots(site), origin="robots.txt")
    yield from work.site_files()
    for name, path in theme.assets.items():
        yield Output(f"assets/{theme.published_name(name)}", source=path, origin=str(path))
    for name, path in theme.assets.items():
        if name.startswith("favicon."):
            yield Output(name, source=path, origin=str(path))


class _Work:
    """One build's rendering: what the cache has is kept, the rest made (in parallel)."""

    def __init__(self, site: Site, theme: Theme, keys: Keys, active: BuildCache):
        self.site, self.theme, self.keys, self.active = site, theme, keys, active
        self.talks_ = list(site.talks)
        self.makers: dict[str, Callable[[Talk], bytes]] = {
            "item": lambda talk: pages.item(theme, talk),
            "event": lambda talk: ical.event_bytes(site, talk),
            "record": lambda talk: sitefiles.record(site, talk),
            "row": lambda talk: sitefiles.search_row(site, talk)}
        self.calendars = ical.Feeds(site, lambda talk: self.fragment("event", talk))
        self.groups = (taxonomy.by_tag(site), taxonomy.by_speaker(site), taxonomy.years(site))

    def fragment(self, kind: str, talk: Talk) -> bytes:
        key = self.keys.fragment(kind, talk)
        data = self.active.fragment(key)
        if data is None:
            data = self.makers[kind](talk)
            self.active.remember_fragment(key, data)
        return data

    def kept(self, key: str | None, path: str, origin: str,
             make: Callable[[], Output]) -> Output:
        found = self.active.known_page(key, path, origin)
        return found if found is not None else self.active.remember_page(key, make())

    def talks(self) -> Iterator[Output]:
        """Each talk's page, and the fragments of it the build's cache lacks."""
        talks, keys, active = self.talks_, self.keys, self.active
        jobs: list[tuple[int, str | None, bool, tuple[str, ...]]] = []
        for number, talk in enumerate(talks):
            context = self._neighbours(number)
            key = keys.page("talk.html", talk.url, context)
            kept = active.known_page(key, page_path(talk.url), str(talk.source))
            if kept is not None:
                yield kept
            missing = tuple(kind for kind in FRAGMENTS
                            if not active.has_fragment(keys.fragment(kind, talk)))
            if kept is None or missing:
                jobs.append((number, key, kept is None, missing))

        def make(job: tuple[int, str | None, bool, tuple[str, ...]],
                 ) -> tuple[Output | None, dict[str, bytes]]:
            number, _, page, kinds = job
            talk = talks[number]
            output = _render_page(self.theme.env, "talk.html", talk.url, str(talk.source),
                                  **self._neighbours(number)) if page else None
            return output, {kind: self.makers[kind](talk) for kind in kinds}

        for job, (output, made) in zip(jobs, parallel_render(make, jobs, active.parallel),
                                       strict=True):
            for kind, data in made.items():
                active.remember_fragment(keys.fragment(kind, talks[job[0]]), data)
            if output is not None:
                yield active.remember_page(job[1], output)

    def _neighbours(self, number: int) -> dict[str, Any]:
        talks = self.talks_
        return {"talk": talks[number], "previous": talks[number - 1] if number > 0 else None,
                "next": talks[number + 1] if number + 1 < len(talks) else None}

    def pages(self, specs: list[pages.PageSpec]) -> Iterator[Output]:
        """Pages of templates and contexts: kept, or rendered (in parallel)."""
        jobs = []
        for spec in specs:
            key = self.keys.page(spec.template, spec.url, spec.context)
            kept = self.active.known_page(key, page_path(spec.url), spec.origin)
            if kept is not None:
                yield kept
            else:
                jobs.append((spec, key))
        self.active.flush()  # workers read the fragments made so far

        def make(spec: pages.PageSpec) -> Output:
            return _render_page(self.theme.env, spec.template, spec.url, spec.origin,
                                **spec.context)

        rendered = parallel_render(make, [spec for spec, _ in jobs], self.active.parallel)
        for (_, key), output in zip(jobs, rendered, strict=True):
            yield self.active.remember_page(key, output)

    def feeds(self) -> Iterator[Output]:
        """The site's feed, one per tag and per speaker, and each talk's own .ics."""
        site, config = self.site, self.site.config
        yield self._feed(FEED_PATH, site.talks, config.feed_name, config.description,
                         "the calendar feed")
        for kind, groups in (("tags", self.groups[0]), ("speakers", self.groups[1])):
            for group in groups:
                path = f"{kind}/{group.slug}/{FEED_PATH}"
                label = f"tagged {group.name}" if kind == "tags" else f"by {group.name}"
                yield self._feed(path, group.talks, f"{config.feed_name}: {group.name}",
                                 f"Talks {label} on {config.title}", f"the feed {path}")
        now = site.now.isoformat()
        for talk in self.talks_:
            zones = self._zones([talk])
            key = self.keys.of("event file", now, zones, self.keys.fragment("event", talk))
            yield self.kept(key, event_file(talk), str(talk.source), self._event_file(talk))

    def _event_file(self, talk: Talk) -> Callable[[], Output]:
        return lambda: Output(event_file(talk), self.calendars.single(talk),
                              origin=str(talk.source))

    def _feed(self, path: str, talks: Iterable[Talk], name: str, description: str,
              origin: str) -> Output:
        talks = list(talks)
        key = self.keys.of("feed", path, name, description, self.site.now.isoformat(),
                           self._zones(talks),
                           *(self.keys.fragment("event", talk) for talk in talks))
        return self.kept(key, path, origin, lambda: Output(path, chunks=self.calendars.calendar(
            talks, name=name, path=path, description=description), origin=origin))

    def _zones(self, talks: list[Talk]) -> str:
        """The VTIMEZONEs a feed of these talks carries (they cover the site's years)."""
        years = self.calendars.years
        return repr([(zone, years.get(zone)) for zone in self.calendars.zones(talks)])

    def site_files(self) -> Iterator[Output]:
        site, keys = self.site, self.keys
        now = site.now.isoformat()
        newest = sorted(site.talks, key=lambda t: t.sort_key, reverse=True)[:sitefiles.FEED_LIMIT]
        yield self.kept(keys.of("feed.xml", now, *map(keys.state, newest)), "feed.xml",
                        "the Atom feed", lambda: Output("feed.xml", sitefiles.atom(site),
                                                        origin="the Atom feed"))
        records = [keys.fragment("record", talk) for talk in self.talks_]
        urls = {"calendar": site.config.absolute_url(FEED_PATH),
                "atom": site.config.absolute_url("feed.xml")}
        yield self.kept(keys.of("talks.json", now, *records), "talks.json", "talks.json",
                        lambda: Output("talks.json", chunks=sitefiles.talks_json(site, urls, (
                            self.fragment("record", talk) for talk in self.talks_)),
                            origin="talks.json"))
        listed = site.upcoming + site.past
        rows = [keys.fragment("row", talk) for talk in listed]
        yield self.kept(keys.of("search.json", *rows), "search.json", "the search index",
                        lambda: Output("search.json", chunks=sitefiles.search_index(
                            self.fragment("row", talk) for talk in listed),
                            origin="the search index"))


def event_file(talk: Talk) -> str:
    """The "Add to calendar" file of a talk, named after it for the download."""
    return f"{talk.url}{talk.slug}.ics"


def page_path(url: str) -> str:
    """The file of a page at `url` (`my-talk/` -> `my-talk/index.html`)."""
    return url + "index.html" if url == "" or url.endswith("/") else url


def _render_page(env: jinja2.Environment, template: str, url: str, origin: str,
                 **context: Any) -> Output:
    """Render one page; `url` is its path from the site root (`my-talk/`, `404.html`)."""
    depth = url.count("/")
    root = "../" * depth if depth else "./"
    if template == "404.html":
        root = "/" + _base_path(env)  # served for any missing path, so links are absolute
    try:
        html = env.get_template(template).render(root=root, page_url=url, **context)
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError([Diagnostic(_template_path(exc.filename, exc.name), exc.message or
                                     "template syntax error", exc.lineno)]) from None
    except jinja2.TemplateError as exc:
        raise BuildError([_template_error(exc, origin)]) from None
    return Output(page_path(url), html.encode("utf-8"), origin=origin)


def _base_path(env: jinja2.Environment) -> str:
    site: Site = env.globals["site"]  # type: ignore[assignment]
    return urlsplit(site.config.base_url).path.lstrip("/")


def _template_error(exc: Exception, origin: str) -> Diagnostic:
    """Name the template file and line from the traceback Jinja leaves behind."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.endswith((".html", ".xml", ".txt", ".ics"))]
    if frames:
        frame = frames[-1]
        return Diagnostic(Path(frame.filename), f"template error while rendering {origin}: "
                          f"{exc}", frame.lineno)
    return Diagnostic(None, f"template error while rendering {origin}: {exc}")


def _template_path(filename: str | None, name: str | None) -> Path:
    return Path(filename or name or "template")


def feed_urls(site: Site, path: str) -> dict[str, str]:
    https = site.config.absolute_url(path)
    return {"https": https, "webcal": "webcal://" + https.split("://", 1)[1]}


def _filters(site: Site) -> dict[str, Callable[..., Any]]:
    unsafe = site.config.unsafe_html
    return {
        "markdown": lambda text, math=False: Markup(markup.to_html(text, unsafe=unsafe,
                                                                   math=math)),
        "when": formatting.when,
        "short_when": formatting.short_when,
        "zone_note": formatting.zone_note,
        "machine": formatting.machine,
        "absolute": lambda path: site.config.absolute_url(sitefiles.url_path(path)),
        "href": href,
        "content_security_policy": lambda inline: content_security_policy(site, str(inline)),
        "event_file": lambda talk: quote(event_file(talk).split("/", 1)[1]),
        "google_calendar_url": lambda talk: ical.google_url(site, talk),
        "outlook_calendar_url": lambda talk: ical.outlook_url(site, talk),
    }


def content_security_policy(site: Site, inline_script: str) -> str:
    """The pages' Content-Security-Policy: scripts only from the site itself and the one
    inline script of the theme (by its hash), no plugins, no foreign frames except the
    video players a site turns on. A payload that slipped into a page could not run."""
    digest = base64.b64encode(hashlib.sha256(inline_script.encode()).digest()).decode()
    frames = " https://www.youtube-nocookie.com https://player.vimeo.com" \
        if site.config.embed_videos else ""
    return (f"default-src 'self'; script-src 'self' 'sha256-{digest}'; style-src 'self'; "
            f"img-src 'self' https: data:; font-src 'self'; connect-src 'self'; "
            f"frame-src 'self'{frames}; object-src 'none'; base-uri 'self'; "
            f"form-action 'self'")


def href(url: str) -> str:
    """A URL from a talk file made valid for an href: spaces, quotes, braces… encoded."""
    return quote(url.strip(), safe=":/?#@!$&'()*+,;=%~")


def _depth(path: str) -> tuple[int, str]:
    """The sitemap's order: the index first, then by depth and name."""
    return (path.count("/"), path)
