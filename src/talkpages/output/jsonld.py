"""schema.org `Event` JSON-LD for a talk page: what search engines read.

- startDate/endDate carry the real UTC offset of the venue's zone on that day
  (`2019-05-22T14:50:00+02:00`): the same instant as the feed's DTSTART, never a
  guess from the site's zone. All-day talks give dates, the last day inclusive.
- eventAttendanceMode comes from the location: "Online" (or virtual, webinar…) is an
  online event, "Barcelona & online" or "hybrid" a mixed one, anything else offline.
  A talk with a `join_url` or a `livestream_url` is online, or mixed when it has a
  place too.
- location: a Place whose address is the talk's `address` table (a PostalAddress) or
  else its `location` text; online events get a VirtualLocation with the meeting's URL
  (`join_url`), else the stream's, else the event's.
- offers: an Offer with the `registration_url` and the price: "0" for a free talk;
  the amount when the price holds exactly one ("€10", "10,50 EUR"), with its
  priceCurrency when the text names one plainly (an ISO 4217 code such as EUR or CHF,
  or €, £, ₹, ₩, ₺, ₽, ₴, ₪, US$, C$, A$, R$); a "$" alone or a "¥" names several
  currencies, and is left without one. validThrough: `registration_closes`.
- performer: every speaker as a Person, linked to their page here; organizer: the event.

The block is written as strict JSON with `<`, `>` and `&` escaped, so no value can
close the <script> element it lives in.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime
from typing import Any

from markupsafe import Markup

from ..content import lifecycle, taxonomy
from ..content.model import Settings, Talk
from . import markup, pictures

SCHEMA = "https://schema.org"
STATUS = {"cancelled": "EventCancelled", "postponed": "EventPostponed",
          "rescheduled": "EventRescheduled", "moved online": "EventMovedOnline"}
_ONLINE = re.compile(r"\b(online|virtual|remote|webinar|livestream(ed)?|live stream|zoom)\b",
                     re.IGNORECASE)
_HYBRID = re.compile(r"\bhybrid\b", re.IGNORECASE)
_FILLER = re.compile(r"(\b(and|or|also|plus|only)\b|[\s,;:&+/|()\-–—·.])+", re.IGNORECASE)


def attendance(talk: Talk) -> str:
    """"online", "offline" or "mixed", read from the location and the talk's links."""
    mode = _attendance(talk)
    if mode == "offline" and lifecycle.online(talk):
        return "mixed" if talk.location or talk.address else "online"
    return mode


def _attendance(talk: Talk) -> str:
    text = talk.location
    if _HYBRID.search(text):
        return "mixed"
    if _ONLINE.search(text):
        rest = _FILLER.sub("", _ONLINE.sub("", text))
        return "mixed" if rest or talk.address else "online"
    return "offline"


def date_value(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value.isoformat()  # type: ignore[attr-defined, no-any-return]


def event(site: Settings, talk: Talk) -> dict[str, Any]:
    config = site.config
    page = config.absolute_url(talk.url)
    mode = attendance(talk)
    data: dict[str, Any] = {
        "@context": SCHEMA,
        "@type": "Event",
        "name": talk.title,
        "startDate": date_value(talk.schedule.start),
        "endDate": date_value(talk.schedule.end),
        "eventStatus": f"{SCHEMA}/{STATUS.get(taxonomy.status(talk), 'EventScheduled')}",
        "eventAttendanceMode": f"{SCHEMA}/{mode.title()}EventAttendanceMode",
        "url": page,
    }
    locations = _locations(talk, mode, page)
    if locations:
        data["location"] = locations[0] if len(locations) == 1 else locations
    image = pictures.shared(talk)
    if image is not None:
        data["image"] = [config.absolute_url(image.href)]
    description = plain(talk.abstract or talk.summary)
    if description:
        data["description"] = description
    if talk.authors:
        data["performer"] = [_person(site, author) for author in talk.authors]
    offer = offers(talk)
    if offer:
        data["offers"] = offer
    if talk.event:
        organizer: dict[str, Any] = {"@type": "Organization", "name": talk.event}
        if talk.event_url.startswith(("http://", "https://")):
            organizer["url"] = talk.event_url
        data["organizer"] = organizer
    return data


def _locations(talk: Talk, mode: str, page: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if mode in ("offline", "mixed") and (talk.location or talk.address):
        place: dict[str, Any] = {"@type": "Place", "name": talk.location or talk.event or
                                 ", ".join(talk.address.lines() if talk.address else [])}
        if talk.address:
            address = {"@type": "PostalAddress", "streetAddress": talk.address.street,
                       "addressLocality": talk.address.city,
                       "addressRegion": talk.address.region,
                       "postalCode": talk.address.postcode,
                       "addressCountry": talk.address.country}
            place["address"] = {k: v for k, v in address.items() if v}
        else:
            place["address"] = talk.location
        geo = getattr(talk, "geo", None)
        if geo:
            place["geo"] = {"@type": "GeoCoordinates", "latitude": geo[0], "longitude": geo[1]}
        found.append(place)
    if mode in ("online", "mixed"):
        url = lifecycle.online(talk) or (
            talk.event_url if talk.event_url.startswith(("http://", "https://")) else page)
        found.append({"@type": "VirtualLocation", "url": url})
    return found


# Signs that name one currency; "$" and "¥" name several, and are not here.
CURRENCY_SIGNS = {"€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW", "₺": "TRY", "₽": "RUB",
                  "₴": "UAH", "₪": "ILS", "US$": "USD", "C$": "CAD", "A$": "AUD", "R$": "BRL"}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_AMOUNT = re.compile(r"\d+(?:[.,]\d{1,2})?")
_CODE = re.compile(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])")


def offers(talk: Talk) -> dict[str, Any] | None:
    """schema.org's Offer of a talk: where to register, at what price (see the module's
    docstring); None when the talk says neither."""
    if not talk.registration_url and not talk.price:
        return None
    offer: dict[str, Any] = {"@type": "Offer"}
    if talk.registration_url:
        offer["url"] = talk.registration_url
    if talk.price == "free":
        offer["price"] = "0"
    elif talk.price:
        numbers = _NUMBER.findall(talk.price)
        if len(numbers) == 1 and _AMOUNT.fullmatch(numbers[0]):
            offer["price"] = numbers[0].replace(",", ".")
            currency = currency_of(talk.price)
            if currency:
                offer["priceCurrency"] = currency
    if talk.registration_closes is not None:
        offer["validThrough"] = talk.registration_closes.isoformat(timespec="seconds")
    return offer


def currency_of(price: str) -> str:
    """The ISO 4217 code a price names plainly, or ""."""
    found = {code for sign, code in CURRENCY_SIGNS.items() if sign in price}
    found |= {code for code in _CODE.findall(price) if code in _ISO_CODES()}
    return found.pop() if len(found) == 1 else ""


@functools.lru_cache(maxsize=1)
def _ISO_CODES() -> frozenset[str]:  # noqa: N802 - a constant, read once
    from babel.numbers import list_currencies
    return frozenset(list_currencies())


def _person(site: Settings, author: str) -> dict[str, Any]:
    name = taxonomy.speaker_name(site, author)
    person: dict[str, Any] = {"@type": "Person", "name": name,
                              "url": site.config.absolute_url(taxonomy.speaker_path(site, author))}
    entry = (getattr(site, "speakers", None) or {}).get(author)
    if entry is not None:
        same = [u for u in [entry.url, *(link.url for link in entry.links)]
                if u.startswith(("http://", "https://"))]
        if same:
            person["sameAs"] = same
        if entry.affiliation:
            person["affiliation"] = {"@type": "Organization", "name": entry.affiliation}
    return person


@functools.lru_cache(maxsize=1024)
def plain(text: str) -> str:
    """Markdown as one line of plain text, for descriptions."""
    return Markup(markup.to_html(text)).striptags() if text else ""


def script(data: dict[str, Any]) -> str:
    """The JSON for a <script type="application/ld+json">, safe to put in HTML."""
    text = json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
