"""Pure rendering: a Site and a Theme in, a list of Outputs (path, bytes) out.

Pages use relative links (`../my-talk/`), so a site works from any sub-path of its
base_url (GitHub Pages project sites) and from a local server alike. Absolute URLs
appear only where the web wants them: canonical links, feeds and the sitemap.
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit
from xml.sax.saxutils import escape as xml_escape

import jinja2
from markupsafe import Markup

from . import __version__, formatting, ical, markup
from .diagnostics import BuildError, Diagnostic
from .model import Site, Talk
from .theme import Theme
from .writer import Output

FEED_PATH = "calendar.ics"


def render_site(site: Site, theme: Theme) -> list[Output]:
    env = theme.env
    env.globals.update(site=site, config=site.config, version=__version__,
                       feed_path=FEED_PATH, feed_urls=feed_urls(site, FEED_PATH))
    env.filters.update(_filters(site))
    outputs: list[Output] = []
    talks = list(site.talks)
    for index, talk in enumerate(talks):
        previous = talks[index - 1] if index > 0 else None
        following = talks[index + 1] if index + 1 < len(talks) else None
        outputs.append(_page(env, "talk.html", talk.url, talk.source.as_posix(),
                             talk=talk, previous=previous, next=following))
        outputs += [Output(f"{talk.url}{name}", source=talk.source.parent / name,
                           origin=str(talk.source)) for name in talk.bundle_files]
    outputs.append(_page(env, "index.html", "", "the index", upcoming=site.upcoming,
                         past_by_year=_by_year(site.past)))
    outputs.append(_page(env, "404.html", "404.html", "the 404 page"))
    outputs.append(Output(FEED_PATH, ical.calendar(site, talks, site.config.feed_name,
                                                   FEED_PATH), origin="the calendar feed"))
    outputs.append(Output("sitemap.xml", _sitemap(site), origin="the sitemap"))
    outputs.append(Output("robots.txt", _robots(site), origin="robots.txt"))
    outputs += [Output(f"assets/{name}", source=path, origin=str(path))
                for name, path in theme.assets.items()]
    outputs += [Output(name, source=path, origin=str(path))
                for name, path in theme.assets.items() if name.startswith("favicon.")]
    return outputs


def _page(env: jinja2.Environment, template: str, url: str, origin: str,
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


def _by_year(talks: list[Talk]) -> list[tuple[int, list[Talk]]]:
    return [(year, list(group)) for year, group in
            itertools.groupby(talks, key=lambda t: formatting._as_date(t.schedule.start).year)]


def feed_urls(site: Site, path: str) -> dict[str, str]:
    https = site.config.absolute_url(path)
    return {"https": https, "webcal": "webcal://" + https.split("://", 1)[1]}


def _filters(site: Site) -> dict[str, Callable[..., Any]]:
    unsafe = site.config.unsafe_html
    return {
        "markdown": lambda text: Markup(markup.to_html(text, unsafe=unsafe)),
        "when": formatting.when,
        "short_when": formatting.short_when,
        "zone_note": formatting.zone_note,
        "machine": formatting.machine,
        "absolute": site.config.absolute_url,
        "href": href,
    }


def href(url: str) -> str:
    """A URL from a talk file made valid for an href: spaces, quotes, braces… encoded."""
    return quote(url.strip(), safe=":/?#@!$&'()*+,;=%~")


def _sitemap(site: Site) -> bytes:
    urls = [site.config.base_url] + [site.config.absolute_url(t.url) for t in site.talks]
    body = "".join(f"  <url><loc>{xml_escape(u)}</loc></url>\n" for u in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{body}</urlset>\n").encode()


def _robots(site: Site) -> bytes:
    return f"User-agent: *\nAllow: /\nSitemap: {site.config.absolute_url('sitemap.xml')}\n".encode()
