"""Announcements of talks: the e-mail (plain text and HTML), the week's digest and the
posts for Mastodon and Bluesky, from the templates of `layouts/announce/`.

They are made with the build's own environment (a Maker's: its filters, its
translations, the sandbox and the budget for a site's own templates), since a site's
`layouts/announce/email.txt` is a template of the site like any other, and may come
from a stranger as well. What they show of a talk is worked out here once (`Item`): the
same date and time in the same words as the talk's page (formatting.py), its page and
its `.ics` at their published addresses.

A `.txt` template is plain text (theme.escaped): its first line is the subject of an
e-mail, the rest the body.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import jinja2
from markupsafe import Markup

from ..content import lifecycle, taxonomy
from ..content.model import Site, Talk
from ..content.times import Schedule
from . import formatting, graphemes, markup
from .budget import rendering
from .outputs import whole
from .plan import Recipe, event_file
from .sitefiles import url_path

if TYPE_CHECKING:
    from .render import Maker

TEMPLATES = "announce/"
WEEK_DAYS = 7  # of `--week`: today and the six days after it
# The longest post each network takes, and how it counts one (graphemes.py).
NETWORKS: dict[str, tuple[int, Callable[[str], int]]] = {
    "mastodon": (500, graphemes.mastodon_count), "bluesky": (300, graphemes.count)}


@dataclass(frozen=True)
class Item:
    """A talk as an announcement shows it, at one of its dates."""
    talk: Talk
    title: str
    status: str  # "cancelled", "postponed"…: taxonomy.status
    event: str
    speakers: tuple[str, ...]  # names, as the pages show them
    when: str  # "Wed, 22 May 2019, 14:50–15:25 CEST", as the talk's page says it
    short_when: str
    zone: str  # `zone_note`: the zone's name when the time does not say it
    place: str  # the location, then the address, on one line
    join: str  # the link to join online; see join_link
    hashtags: tuple[str, ...]  # the tags as hashtags: "Cloud native" -> "#Cloudnative"
    abstract: str  # plain text, paragraphs apart
    abstract_html: Markup
    url: str  # the talk's page
    ics_url: str  # its calendar file


@dataclass(frozen=True)
class Mail:
    subject: str
    text: str  # the plain-text part, as the template gave it: the subject line first
    html: str


def join_link(talk: Talk) -> str:
    """Where the talk is followed online (its meeting, else its stream): the one place
    an announcement reads it from; none for a cancelled or postponed talk."""
    return lifecycle.online(talk) if lifecycle.active(talk) else ""


def item(site: Site, talk: Talk, schedule: Schedule | None = None) -> Item:
    """`talk` at `schedule` (its next date, by default) for an announcement."""
    config, dates = site.config, formatting.dates_for(site.messages.locale)
    schedule = schedule or talk.next_schedule(site.now)
    text = talk.abstract or talk.summary
    shown = markup.to_html(text, unsafe=config.unsafe_html, math=talk.math) if text else ""
    place = [talk.location] if talk.location else []
    place += [", ".join(talk.address.lines())] if talk.address else []
    return Item(
        talk=talk, title=talk.title, status=taxonomy.status(talk), event=talk.event,
        speakers=tuple(taxonomy.speaker_name(site, author) for author in talk.authors),
        when=dates.when(schedule), short_when=dates.short_when(schedule),
        zone=dates.zone_note(schedule), place=", ".join(place), join=join_link(talk),
        hashtags=tuple(dict.fromkeys(f"#{word}" for tag in talk.tags
                                     if (word := _NOT_A_WORD.sub("", tag)))),
        abstract=plain_text(shown), abstract_html=Markup(shown),
        url=config.absolute_url(url_path(talk.url)),
        ics_url=config.absolute_url(url_path(event_file(talk))))


_BLOCK_END = re.compile(r"</(?:p|li|h[1-6]|blockquote|pre|tr)>|<br\s*/?>|<hr\s*/?>", re.I)
_LINK = re.compile(r'<a href="([^"<>]*)"[^<>]*>([^<>]*)</a>')
_NOT_A_WORD = re.compile(r"\W+")  # what a hashtag cannot hold: spaces, `-`, `+`
_BLANKS = re.compile(r"\n[ \t]*(?:\n[ \t]*)+\n")  # two blank lines or more: one
_ITEM = re.compile(r"<li[^<>]*>", re.I)


def plain_text(shown: str) -> str:
    """A talk's HTML (markup.py's) as plain text: a paragraph a block, a list item a
    line starting with "- ", a link's address after its words."""
    shown = _LINK.sub(lambda m: m[2] if html.unescape(m[1]) in (html.unescape(m[2]),
                                                                 "mailto:" + m[2])
                      else f"{m[2]} &lt;{m[1]}&gt;", shown)
    shown = _ITEM.sub("- ", shown)
    blocks = (Markup(part).striptags() for part in _BLOCK_END.split(shown))
    return "\n\n".join(block for block in blocks if block)


def render(env: jinja2.Environment, name: str, origin: str, **context: Any) -> str:
    """`layouts/announce/<name>` (the site's, else the built-in one), within the budget
    a site's templates have."""
    with rendering(env, origin):
        return env.get_template(TEMPLATES + name).render(**context)


def _mail(env: jinja2.Environment, name: str, origin: str, **context: Any) -> Mail:
    text = _BLANKS.sub("\n\n", render(env, f"{name}.txt", origin, **context).strip()) + "\n"
    subject = " ".join(text.partition("\n")[0].split())
    page = render(env, f"{name}.html", origin, subject=subject, **context)
    return Mail(subject, text, page)


def announcement(env: jinja2.Environment, site: Site, talk: Talk) -> Mail:
    """The e-mail that announces `talk`."""
    return _mail(env, "email", talk.file, talk=item(site, talk))


def week(site: Site, now: datetime) -> tuple[list[Item], date]:
    """The talks that start from `now` to the end of the seventh day, today the first,
    by the site's clock: days of the calendar, so a week over a change to or from
    summer time is 167 or 169 hours. Each talk at each of its dates then; and the last
    day."""
    zone = ZoneInfo(site.config.timezone)
    last = now.astimezone(zone).date() + timedelta(days=WEEK_DAYS - 1)
    end = datetime.combine(last + timedelta(days=1), time(), zone)  # midnight, local
    found = [(schedule, talk) for talk in site.talks for schedule in talk.occurrences
             if now <= schedule.start_utc < end]
    found.sort(key=lambda pair: (pair[0].start_utc, pair[1].slug))
    return [item(site, talk, schedule) for schedule, talk in found], last


def digest(env: jinja2.Environment, site: Site, now: datetime) -> Mail:
    """The e-mail of the week's talks from `now`."""
    items, last = week(site, now)
    dates = formatting.dates_for(site.messages.locale)
    first = now.astimezone(ZoneInfo(site.config.timezone)).date()
    return _mail(env, "week", "the week's digest", talks=items, first=dates.day(first),
                 last=dates.day(last))


def post(env: jinja2.Environment, site: Site, talk: Talk, network: str) -> str:
    """The post that announces `talk` on `network`, within its limit, its page's
    address whole at the end."""
    limit, weigh = NETWORKS[network]
    shown = item(site, talk)
    text = _BLANKS.sub("\n\n", render(env, f"{network}.txt", talk.file, talk=shown).strip())
    return graphemes.fit(text, shown.url, limit, weigh)


def message(mail: Mail, attachment: tuple[str, bytes] | None, sender: str = "",
            to: Sequence[str] = ()) -> bytes:
    """A whole e-mail (.eml): the text and HTML as alternatives, and the calendar file
    (`attachment`: its name and bytes) as `text/calendar; method=PUBLISH`, which mail
    clients offer to add to a calendar. Without `sender` and `to` they are left for the
    mail client, which opens the file as a draft (`X-Unsent`)."""
    mail_message = EmailMessage()
    mail_message["Subject"] = mail.subject
    if sender:
        mail_message["From"] = sender
    if to:
        mail_message["To"] = ", ".join(to)
    mail_message["X-Unsent"] = "1"
    mail_message.set_content(mail.text)
    mail_message.add_alternative(mail.html, subtype="html")
    if attachment is not None:
        name, data = attachment
        mail_message.add_attachment(data, maintype="text", subtype="calendar", filename=name,
                                    params={"method": "PUBLISH", "charset": "utf-8"})
    return mail_message.as_bytes(policy=SMTP)


def calendar_file(maker: Maker, recipes: Sequence[Recipe], talk: Talk) -> tuple[str, bytes]:
    """The name and bytes of `talk`'s `.ics`, made as the build makes it (its recipe,
    from the event the talk's page is made with)."""
    path = event_file(talk)
    recipe = next(recipe for recipe in recipes if recipe.path == path)
    maker.fragments[recipe.pieces[0][1]] = maker.makers["event"](talk)
    made = whole(maker.make(recipe))
    assert made.data is not None
    return f"{talk.slug}.ics", made.data
