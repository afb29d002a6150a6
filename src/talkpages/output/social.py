"""What a link to a page shows when it is shared (Open Graph's `og:image`, Twitter's
`summary_large_image`): a card of 1200 x 630 drawn for the talk (cards.py draws it:
title, when, who, the event, over its featured image or the site's colour), or the
site's card, for the index, the lists and the talks without a card of their own.
A speaker's page and a tag's have a card of their own (`GroupCard`, drawn by
groupcards.py): the speaker's photo, name and affiliation, or the tag and its number
of talks, with the site's name. A site has far fewer speakers and tags than talks, so
they get theirs whatever `social_cards` says, unless it is "none".

`social_cards` in talkpages.toml says which talks get a card:
- "upcoming" (the default): upcoming talks, the ones shared to bring people, and
  talks with a featured image (its copies cost far more than the card); past talks
  without an image share the site's card. A card takes about 10 ms of one core: at
  10,000 mostly past talks, cards for all would double a first build.
- "all": every talk. "none": no card is drawn; a talk's featured image is shown
  (its largest copy), or nothing.

No pixels here: pages are rendered without Pillow.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from ..content import taxonomy
from ..content.colours import card_colour
from ..content.model import SiteView, Talk
from . import formatting, pictures

CARD_NAME = "card.jpg"  # in a talk's folder; the site's at the site root
SIZE = (1200, 630)
SITE_COLOUR = (31, 58, 96)


@dataclass(frozen=True)
class Card:
    """All a card shows, and all its bytes depend on (with the font): its key."""
    title: str
    when: str  # "Thu 14 Jan 2027 · 18:00 EST"
    speakers: str
    event: str
    colour: tuple[int, int, int] = SITE_COLOUR
    background: str = ""  # the digest of the image drawn behind the text (the talk's
    focal_point: str = ""  # featured image: the recipe's source), and how it is cut
    language: str = ""  # of its text (BCP 47): Chinese and Japanese draw some letters apart

    @property
    def alt(self) -> str:
        return " · ".join(part for part in (self.event, self.title, self.when, self.speakers)
                          if part)

    @property
    def texts(self) -> tuple[str, str, str, str]:
        """What it draws, the title first: the title's script sets the card's font."""
        return (self.title, self.event, self.when, self.speakers)


@dataclass(frozen=True)
class GroupCard:
    """A speaker's or a tag's card: all it shows, and all its bytes depend on (with the
    font and the photo's bytes, by their digest): its key."""
    name: str
    line: str  # a speaker's affiliation; a tag's number of talks ("12 talks")
    site: str
    colour: tuple[int, int, int] = SITE_COLOUR
    photo: str = ""  # the digest of the speaker's photo, drawn cut round
    language: str = ""

    @property
    def alt(self) -> str:
        return " · ".join(part for part in (self.name, self.line, self.site) if part)

    @property
    def texts(self) -> tuple[str, str, str]:
        """What it draws, the name first: the name's script sets the card's font."""
        return (self.name, self.line, self.site)


@dataclass(frozen=True)
class SocialImage:
    href: str  # from the site root, quoted
    width: int  # 0: not known
    height: int
    alt: str


def has_card(site: SiteView, talk: Talk) -> bool:
    mode = site.config.social_cards
    return mode == "all" or mode == "upcoming" and (
        talk.is_upcoming(site.now) or pictures.featured(talk) is not None)


def talk_card(site: SiteView, talk: Talk) -> Card:
    names = ", ".join(taxonomy.speaker_name(site, author) for author in talk.authors)
    schedule = talk.next_schedule(site.now)
    picture = pictures.featured(talk)
    return Card(talk.title, formatting.dates_for(site.messages.locale).schedule_when(schedule),
                names, talk.event,
                colour=colour(site), background=picture.digest if picture is not None else "",
                focal_point=picture.focal_point if picture is not None else "",
                language=talk.given_in or talk.written_in)


def site_card(site: SiteView) -> Card | None:
    """The site's card, or None when `social_cards = "none"`."""
    if site.config.social_cards == "none":
        return None
    config = site.config
    return Card(config.title, "", config.description, config.host, colour=colour(site),
                language=config.language)


def group_card(site: SiteView, kind: str, group: taxonomy.Group) -> GroupCard | None:
    """The card of a speaker's or a tag's page (`kind`), or None: another kind of list,
    `social_cards = "none"`, or, with `"upcoming"`, a speaker without a photo. `group`
    with its talks: a tag's card counts them.

    With `"upcoming"` (the default) a card is drawn where it shows what a link
    preview's own text cannot: an upcoming talk's time, a picture. A speaker's card
    without a photo would show the name the preview already shows as its title, and a
    conference's archive has thousands of such speakers (each card some 5 ms of a
    core: at 10,000 talks a tenth of the first build), so their pages show the site's
    card; `"all"` draws theirs too. A site has a few dozen tags: each has its card."""
    config = site.config
    if config.social_cards == "none" or kind not in ("speaker", "tag"):
        return None
    if kind == "tag":
        count = len(group.talks)
        line = site.messages.ngettext("%(num)d talk", "%(num)d talks", count) % {"num": count}
        return GroupCard(group.name, line, config.title, colour(site), language=config.language)
    entry = group.speaker
    photo = entry.photo if entry is not None else None
    if photo is None and config.social_cards == "upcoming":
        return None
    return GroupCard(group.name, entry.affiliation if entry is not None else "", config.title,
                     colour(site), photo.digest if photo is not None else "", config.language)


def group_path(kind: str, group: taxonomy.Group) -> str:
    """Where a speaker's or a tag's card is published: in its page's folder."""
    return f"{kind}s/{group.slug}/{CARD_NAME}"


def group_image(site: SiteView, kind: str, group: taxonomy.Group) -> SocialImage | None:
    """What a shared link to a speaker's or a tag's page shows: its card, or None (the
    page then shows what `image` gives a list: the site's card, or nothing)."""
    card = group_card(site, kind, group)
    if card is None:
        return None
    return SocialImage(quote(group_path(kind, group)), *SIZE, card.alt)


def colour(site: SiteView) -> tuple[int, int, int]:
    """A card's background without an image: the site's accent colour, as dark as white
    text on it needs (colours.py), or the theme's own."""
    accent = site.config.accent_color
    return card_colour(accent) if accent else SITE_COLOUR


def image(site: SiteView, talk: Talk | None) -> SocialImage | None:
    """What a shared link to a page shows: the talk's card, the site's card, or (with
    `social_cards = "none"`) the talk's featured image."""
    if talk is not None and has_card(site, talk):
        return SocialImage(quote(f"{talk.url}{CARD_NAME}"), *SIZE, talk_card(site, talk).alt)
    if talk is not None and site.config.social_cards == "none":
        shared = pictures.shared(talk)
        if shared is None or talk.image is None:
            return None
        return SocialImage(shared.href, shared.width, shared.height,
                           talk.image.alt_text or talk.image.caption)
    card = site_card(site)
    return SocialImage(CARD_NAME, *SIZE, card.alt) if card is not None else None
