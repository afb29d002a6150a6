"""The site's machine-readable files: sitemap.xml, robots.txt, feed.xml, talks.json,
search.json; and the pages at talks' old addresses (`aliases`). Pure: a Site (and
the pages rendered) in, bytes out.

- `sitemap.xml`: every page, with `<lastmod>` where a talk says when it changed.
- `feed.xml`: Atom (RFC 4287), the newest `FEED_LIMIT` talks by date, upcoming ones
  included. Entry ids are the talk's URL, which a rebuild never changes; `updated` is the
  talk's `lastmod`, else its `publishDate`, else its date (never later than the build).
- `talks.json`: every talk with all its fields and absolute URLs, for other programs.
- `search.json`: the few fields the index's filter searches, for sites whose index
  spans several pages (the filter then searches every talk, not just the first page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime, timezone
from typing import Any
from urllib.parse import quote, urljoin

from ..content import languages, taxonomy
from ..content.config import Config
from ..content.messages import N_, messages_of
from ..content.model import Site, Talk
from . import formatting, jsonld, markup, pictures

UTC = timezone.utc
FEED_LIMIT = 50
ATOM = "http://www.w3.org/2005/Atom"
END_OF_TIME = datetime.max.replace(tzinfo=UTC)


def escape(text: str) -> str:
    """XML character data: `&`, `<` and `>` escaped (xml.sax.saxutils.escape, whose
    module imports urllib, http and ssl: 30 ms of every start)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def quoteattr(text: str) -> str:
    """A quoted XML attribute value, as xml.sax.saxutils.quoteattr writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def url_path(path: str) -> str:
    """A path from the site root as it goes into a URL: non-ASCII percent-encoded."""
    return quote(path, safe="/%")


def sitemap(site: Site, pages: Iterable[str], lastmod: dict[str, datetime],
            alternates: dict[str, list[tuple[str, str]]] | None = None) -> bytes:
    """`pages`: paths from the site root (`""`, `my-talk/`, `tags/x/`); `lastmod`: the
    `lastmod` of talk pages that have one; `alternates`: a page's versions in the other
    languages of the site, (tag, absolute URL), as Google reads them in a sitemap."""
    rows = []
    alternates = alternates or {}
    for path in pages:
        loc = escape(site.config.absolute_url(url_path(path)))
        changed = lastmod.get(path)
        extra = f"<lastmod>{changed.isoformat(timespec='seconds')}</lastmod>" if changed else ""
        extra += "".join(f'<xhtml:link rel="alternate" hreflang={quoteattr(tag)} '
                         f'href={quoteattr(url)}/>'
                         for tag, url in alternates.get(path, ()))
        rows.append(f"  <url><loc>{loc}</loc>{extra}</url>\n")
    spaces = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' if alternates else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"{spaces}>\n'
            f"{''.join(rows)}</urlset>\n").encode()


def robots(site: Site) -> bytes:
    return (f"User-agent: *\nAllow: /\n"
            f"Sitemap: {site.config.absolute_url('sitemap.xml')}\n").encode()


def redirect(config: Config, path: str, target: str, title: str) -> bytes:
    """The page at an old address of a talk, as Hugo's alias pages: an immediate
    refresh to the talk's page (relative, so it works wherever the site is served),
    its canonical URL, and a link for clients that do not follow refreshes."""
    relative = "../" * path.count("/") + target
    canonical = config.absolute_url(target)
    moved = messages_of(config).gettext(N_("This talk has moved to %(address)s."))
    return (f'<!DOCTYPE html>\n<html lang={quoteattr(config.language)}>\n<head>\n'
            f'<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
            f'<link rel="canonical" href={quoteattr(canonical)}>\n'
            f'<meta name="robots" content="noindex">\n'
            f'<meta http-equiv="refresh" content={quoteattr("0; url=" + relative)}>\n'
            f'</head>\n<body>\n<p>{escape(moved)}</p>\n</body>\n</html>\n').encode() \
        .replace(b"%(address)s", f'<a href={quoteattr(relative)}>{escape(canonical)}</a>'
                 .encode())


def updated(site: Site, talk: Talk) -> datetime:
    stamp = talk.lastmod or talk.publish_date or min(talk.schedule.start_utc, site.now)
    return stamp.astimezone(UTC)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def atom(site: Site, talks: list[Talk], path: str = "feed.xml") -> bytes:
    """`talks`: the newest FEED_LIMIT talks by date, newest first."""
    config = site.config
    newest = max((updated(site, t) for t in talks), default=site.now)
    author = config.author or config.title
    lines = ['<?xml version="1.0" encoding="utf-8"?>', f'<feed xmlns="{ATOM}" '
             f'xml:lang={quoteattr(config.language)}>',
             f"<title>{escape(config.title)}</title>"]
    if config.description:
        lines.append(f"<subtitle>{escape(config.description)}</subtitle>")
    lines += [f"<id>{escape(config.base_url)}</id>",
              f'<link rel="self" type="application/atom+xml" '
              f'href={quoteattr(config.absolute_url(path))}/>',
              f'<link rel="alternate" type="text/html" href={quoteattr(config.base_url)}/>',
              f"<updated>{_stamp(newest)}</updated>",
              f"<author><name>{escape(author)}</name></author>",
              '<generator uri="https://pypi.org/project/talkpages/">talkpages</generator>']
    for talk in talks:
        lines += _entry(site, talk)
    lines.append("</feed>\n")
    return "\n".join(lines).encode()


# A talk's status before its date in the Atom feed: "Cancelled: Thu 14 Jan 2027, …".
STATUS_LINES = {"cancelled": N_("Cancelled: %(facts)s"), "postponed": N_("Postponed: %(facts)s"),
                "tentative": N_("Tentative: %(facts)s"), "confirmed": N_("Confirmed: %(facts)s")}


def _entry(site: Site, talk: Talk) -> list[str]:
    url = site.config.absolute_url(url_path(talk.url))
    where = ", ".join(p for p in [talk.event, talk.location] if p)
    facts = formatting.dates_for(site.messages.locale).when(talk.schedule) \
        + (f" · {where}" if where else "")
    status = taxonomy.status(talk)
    if status:
        facts = site.messages.gettext(STATUS_LINES[status]) % {"facts": facts}
    content = f"<p>{escape(facts)}</p>" + markup.to_html(talk.abstract or talk.summary,
                                                         math=talk.math)
    lines = ["<entry>", f"<title>{escape(talk.title)}</title>", f"<id>{escape(url)}</id>",
             f'<link rel="alternate" type="text/html" href={quoteattr(url)}/>',
             f"<updated>{_stamp(updated(site, talk))}</updated>"]
    if talk.publish_date:
        lines.append(f"<published>{_stamp(talk.publish_date)}</published>")
    lines += [f"<author><name>{escape(taxonomy.speaker_name(site, a))}</name></author>"
              for a in talk.authors]
    lines += [f"<category term={quoteattr(tag)}/>" for tag in talk.tags]
    summary = jsonld.plain(talk.abstract or talk.summary)
    if summary:
        lines.append(f"<summary>{escape(summary)}</summary>")
    lines += [f'<content type="html">{escape(content)}</content>', "</entry>"]
    return lines


def _json_value(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)


def _moment(value: date | None) -> str | None:
    if value is None:
        return None
    return jsonld.date_value(value)


def talk_record(site: Site, talk: Talk) -> dict[str, Any]:
    config = site.config
    page = config.absolute_url(url_path(talk.url))
    image = None
    shared = pictures.shared(talk)
    if talk.image and shared is not None:
        image = {"url": config.absolute_url(shared.href), "caption": talk.image.caption,
                 "alt_text": talk.image.alt_text}
    return {
        "slug": talk.slug, "url": page, "title": talk.title,
        "start": _moment(talk.schedule.start), "end": _moment(talk.schedule.end),
        "all_day": talk.schedule.all_day, "timezone": talk.schedule.zone,
        "when": formatting.dates_for(site.messages.locale).when(talk.schedule),
        "status": taxonomy.status(talk) or None,
        "speakers": [{"name": taxonomy.speaker_name(site, a),
                      "url": config.absolute_url(taxonomy.speaker_path(site, a))}
                     for a in talk.authors],
        "event": talk.event or None, "event_url": talk.event_url or None,
        "location": talk.location or None,
        "address": talk.address.__dict__ if talk.address else None,
        "attendance": jsonld.attendance(talk),
        "abstract": talk.abstract or None, "summary": talk.summary or None,
        "tags": [{"name": tag, "url": config.absolute_url(taxonomy.tag_path(tag))}
                 for tag in talk.tags],
        "categories": list(talk.categories), "projects": list(talk.projects),
        "links": [{"name": link.name,
                   "url": link.url if "://" in link.url else urljoin(page, link.url),
                   "kind": link.kind} for link in talk.links],
        "image": image, "featured": talk.featured, "math": talk.math,
        "publish_date": _moment(talk.publish_date), "lastmod": _moment(talk.lastmod),
        "body": talk.body, "params": dict(talk.params),
    }


def record(site: Site, talk: Talk) -> bytes:
    """A talk's entry of talks.json (a fragment made with the talk's page)."""
    return json.dumps(talk_record(site, talk), ensure_ascii=False,
                      separators=(",", ":"), default=_json_value).encode()


def talks_json(site: Site, feeds: dict[str, str], records: Iterable[bytes]) -> Iterator[bytes]:
    """The site's fields, then `talks`: the records, in the site's order."""
    config = site.config
    head = json.dumps({"title": config.title, "description": config.description,
                       "url": config.base_url, "language": config.language,
                       "generated": _stamp(site.now), "feeds": feeds},
                      ensure_ascii=False, separators=(",", ":"))
    yield head[:-1].encode() + b',"talks":['
    yield from _joined(records)
    yield b"]}\n"


def search_row(site: Site, talk: Talk) -> bytes:
    """What the index's filter searches and shows of a talk (a fragment made with the
    talk's page): `[path, title, day, line, start, length, speakers, event, location,
    tags, status, year, language]`, and `until` after them for a series.

    `day` is the day (or days) of a compact row (`May 22, 2019`), `line` that of an
    upcoming row (`Thu, Jan 14, 2027 · 6:00 PM EST`, `Dates.schedule_when`), both in the
    site's language as the pages write them; `year` the year the talk is listed under;
    `language` the one the talk is given in when it is not the site's (languages.key), else "";
    `start` the instant it starts in seconds since 1970
    (UTC), `length` the seconds until it is over; `until`, when the last occurrence of
    a series is over (null: never). Which talks are upcoming is the reader's clock's to
    say, so a row says nothing of the time of the build. A speaker or a tag is its
    name, or `[name, slug]` when its page's slug is not the one the script makes of the
    name (`derived_slug`). The file is fetched whole: every field earns its bytes."""
    schedule = talk.schedule
    start = schedule.start_utc
    dates = formatting.dates_for(site.messages.locale)
    row: list[Any] = [
        url_path(talk.url), talk.title, dates.short_when(schedule),
        dates.schedule_when(schedule), _seconds(start),
        _seconds(schedule.end_utc) - _seconds(start),
        [_named(name, taxonomy.speaker_slug(name))
         for name in (taxonomy.speaker_name(site, a) for a in talk.authors)],
        talk.event, talk.location,
        [_named(tag, taxonomy.tag_slug(tag)) for tag in talk.tags], taxonomy.status(talk),
        schedule.start.year, languages.key(languages.given_in(talk, site.config.language))]
    if talk.recurrence is not None:  # upcoming until its last date is over
        endless = talk.is_upcoming(END_OF_TIME)  # cut short: no last date to give
        row.append(None if endless else _seconds(talk.occurrences[-1].end_utc))
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode()


def derived_slug(name: str) -> str | None:
    """The slug the filter's script makes of an ASCII name (filter.js `derivedSlug`):
    lower case, every run of other characters than letters and digits one `-`."""
    if not name.isascii():
        return None
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _named(name: str, slug: str) -> str | list[str]:
    return name if derived_slug(name) == slug else [name, slug]


def _seconds(moment: datetime) -> int:
    return int(moment.timestamp())


def search_index(rows: Iterable[bytes]) -> Iterator[bytes]:
    """The rows of the talks in the order of the index (upcoming, then past)."""
    yield b"["
    yield from _joined(rows)
    yield b"]"


def _joined(parts: Iterable[bytes]) -> Iterator[bytes]:
    """`b",".join(parts)` in batches, never all of a large site at once."""
    batch: list[bytes] = []
    first = True
    for part in parts:
        batch.append(part)
        if len(batch) == 256:
            yield (b"" if first else b",") + b",".join(batch)
            batch, first = [], False
    if batch:
        yield (b"" if first else b",") + b",".join(batch)
