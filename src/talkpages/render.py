"""Pure rendering: a Site and a Theme in, a list of Outputs (path, bytes) out.

Pages use relative links (`../my-talk/`), so a site works from any sub-path of its
base_url (GitHub Pages project sites) and from a local server alike. Absolute URLs
appear only where the web wants them: canonical links, feeds and the sitemap.
"""

from __future__ import annotations

import base64
import hashlib
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from markupsafe import Markup

from . import __version__, cache, formatting, ical, markup, pages, sitefiles, taxonomy
from .diagnostics import BuildError, Diagnostic
from .model import Site, Talk
from .parallel import render_all as parallel_render
from .theme import Theme
from .writer import Output

FEED_PATH = "calendar.ics"


def render_site(site: Site, theme: Theme) -> list[Output]:
    return list(iter_outputs(site, theme))


def iter_outputs(site: Site, theme: Theme) -> Iterator[Output]:
    """Every output of the site, one at a time: the writer stores each as it comes, so
    a build never holds all of a large site's pages in memory."""
    env = theme.env
    env.globals.update(site=site, config=site.config, version=__version__,
                       feed_path=FEED_PATH, feed_urls=feed_urls(site, FEED_PATH))
    env.filters.update(_filters(site))
    env.filters.update(pages.filters(site, theme))
    written: set[str] = set()
    pages_written: list[str] = []

    def emit(output: Output) -> Output:
        written.add(output.path)
        if output.path.endswith("index.html"):
            pages_written.append(output.path.removesuffix("index.html"))
        return output

    talks = list(site.talks)
    # Pages render on every core when the build has no cache of its own to fill.
    parallel = not cache.active().keeps_results

    def render(spec: pages.PageSpec) -> Output:
        return _page(env, spec.template, spec.url, spec.origin, **spec.context)

    talk_pages = [pages.PageSpec("talk.html", talk.url, talk.source.as_posix(), {
        "talk": talk, "previous": talks[index - 1] if index > 0 else None,
        "next": talks[index + 1] if index + 1 < len(talks) else None})
        for index, talk in enumerate(talks)]
    for output in parallel_render(render, talk_pages, parallel):
        yield emit(output)
    for talk in talks:
        for name in talk.bundle_files:
            yield emit(Output(f"{talk.url}{name}", source=talk.source.parent / name,
                              origin=str(talk.source)))
    yield emit(_page(env, "404.html", "404.html", "the 404 page"))
    for output in feed_outputs(site):
        yield emit(output)
    # List pages come after the feeds: they link the per-tag and per-speaker feeds there are.
    for output in parallel_render(render, pages.list_pages(site, set(written)), parallel):
        yield emit(output)
    yield Output("sitemap.xml", sitefiles.sitemap(site, sorted(pages_written, key=_depth)),
                 origin="the sitemap")
    yield Output("robots.txt", sitefiles.robots(site), origin="robots.txt")
    yield Output("feed.xml", sitefiles.atom(site), origin="the Atom feed")
    yield Output("talks.json", sitefiles.talks_json(site, {
        "calendar": site.config.absolute_url(FEED_PATH),
        "atom": site.config.absolute_url("feed.xml")}), origin="talks.json")
    yield Output("search.json", sitefiles.search_index(site, site.upcoming + site.past),
                 origin="the search index")
    for name, path in theme.assets.items():
        yield Output(f"assets/{theme.published_name(name)}", source=path, origin=str(path))
    for name, path in theme.assets.items():
        if name.startswith("favicon."):
            yield Output(name, source=path, origin=str(path))


def feed_outputs(site: Site) -> Iterator[Output]:
    """The site's feed, one per tag and per speaker, and the one-event file of every talk."""
    feeds = ical.Feeds(site)
    config = site.config
    yield Output(FEED_PATH, feeds.calendar(site.talks, name=config.feed_name, path=FEED_PATH,
                                           description=config.description),
                 origin="the calendar feed")
    for kind, groups in (("tags", taxonomy.by_tag(site)),
                         ("speakers", taxonomy.by_speaker(site))):
        for group in groups:
            path = f"{kind}/{group.slug}/{FEED_PATH}"
            label = f"tagged {group.name}" if kind == "tags" else f"by {group.name}"
            yield Output(path, feeds.calendar(
                group.talks, name=f"{config.feed_name}: {group.name}", path=path,
                description=f"Talks {label} on {config.title}"), origin=f"the feed {path}")
    for talk in site.talks:
        yield Output(event_file(talk), feeds.single(talk), origin=str(talk.source))


def event_file(talk: Talk) -> str:
    """The "Add to calendar" file of a talk, named after it for the download."""
    return f"{talk.url}{talk.slug}.ics"


def _page(env: jinja2.Environment, template: str, url: str, origin: str,
          **context: Any) -> Output:
    """One page, from the build's cache when nothing it depends on changed (cache.py)."""
    site: Site = env.globals["site"]  # type: ignore[assignment]
    return cache.active().page(site, template, url, context, lambda: _render_page(
        env, template, url, origin, **context))


def _render_page(env: jinja2.Environment, template: str, url: str, origin: str,
                 **context: Any) -> Output:
    """Render one page; `url` is its path from the site root (`my-talk/`, `404.html`)."""
    depth = url.count("/")
    root = "../" * depth if depth else "./"
    path = url + "index.html" if url == "" or url.endswith("/") else url
    if template == "404.html":
        root = "/" + _base_path(env)  # served for any missing path, so links are absolute
    try:
        html = env.get_template(template).render(root=root, page_url=url, **context)
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError([Diagnostic(_template_path(exc.filename, exc.name), exc.message or
                                     "template syntax error", exc.lineno)]) from None
    except jinja2.TemplateError as exc:
        raise BuildError([_template_error(exc, origin)]) from None
    return Output(path, html.encode("utf-8"), origin=origin)


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
