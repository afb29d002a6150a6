"""A talk's primary action through its life, as its page and its list rows show it.

The stage at the build's time (content/lifecycle.py) decides what a page shows without
JavaScript: which of Register, Add to calendar, Join / Watch live, the recording or
"Recording coming" is there, and which one is the filled button. The page also carries
what site.js needs to move on from stage to stage with the clock, between builds, by
the same rules: on the page's `.actions`,

- `data-stage`: the stage at the build;
- `data-times`: `start/end` instants of the occurrences still to come (at most
  TIMES_SHOWN; a series that goes on past them is read as its last listed date);
- `data-until`: the end of the last occurrence ("never" for a series with no end);
- `data-register` (with `data-closes` when the talk says when), `data-live`;
- `data-after`: the stage once the talk is over (recording, coming or over).

Elements shown at some stages only say so in `data-stages`; a button filled at some
stages only (outlined at the others) in `data-lead`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ..content import lifecycle
from ..content.messages import N_
from ..content.model import SiteView, Talk
from ..content.recurrence import MAX_OCCURRENCES
from . import embeds, formatting, pages

FREE = N_("Free")  # the price of a free talk, beside Register
TIMES_SHOWN = 60  # occurrences a page lists for site.js: a year of weekly talks


@dataclass(frozen=True, slots=True)
class Life:
    stage: str  # at the build: register, calendar, live, recording, coming, over
    after: str  # once the talk is over: recording, coming or over
    register: str  # the registration's href, while it can open ("" else)
    price: str  # "Free", the price as written, or ""
    join: str  # the meeting's href
    stream: str  # the live stream's href
    lead: str  # the href of the link the page leads with once the talk is over
    data: Markup  # the data-* attributes of `.actions`, for site.js

    def hidden(self, *stages: str) -> Markup:
        """` hidden` unless the page is at one of `stages` (with `data-stages`)."""
        hidden = "" if self.stage in stages else " hidden"  # (Markup.format: 10x slower)
        return Markup(f' data-stages="{escape(" ".join(stages))}"{hidden}')

    def lead_at(self, *stages: str) -> Markup:
        """The class of a button filled at `stages` only, and its `data-lead`."""
        outline = "" if self.stage in stages else " outline"
        return Markup(f'class="button{outline}" data-lead="{escape(" ".join(stages))}"')


def life(site: SiteView, talk: Talk) -> Life:
    """The life of `talk` as its page shows it at the build's time."""
    now, say = site.now, site.messages.gettext
    recorded = embeds.recording(talk) is not None
    after = lifecycle.after(talk, recorded)
    active = lifecycle.active(talk)
    upcoming = talk.is_upcoming(now)
    lead = pages.lead_link(talk)
    attributes: dict[str, str] = {"stage": lifecycle.stage_at(talk, now, recorded),
                                  "after": after}
    if upcoming:
        times = [s for s in talk.occurrences if s.end_utc > now][:TIMES_SHOWN]
        attributes["times"] = " ".join(f"{formatting.instant(s.start_utc)}/"
                                       f"{formatting.instant(s.end_utc)}" for s in times)
        attributes["until"] = "never" if _endless(talk) else formatting.instant(
            talk.occurrences[-1].end_utc)
        if active and talk.registration_url:
            attributes["register"] = ""
            if talk.registration_closes is not None:
                attributes["closes"] = formatting.instant(talk.registration_closes)
        if active and lifecycle.online(talk):
            attributes["live"] = ""
    data = Markup("".join(f' data-{key}="{escape(value)}"' for key, value in attributes.items()))
    price = say(FREE) if talk.price == "free" else talk.price
    return Life(
        stage=attributes["stage"], after=after,
        register=pages.href(talk.registration_url) if upcoming and active else "",
        price=price if talk.registration_url else "",
        join=pages.href(talk.join_url) if upcoming and active else "",
        stream=pages.href(talk.livestream_url) if upcoming and active else "",
        lead=pages.href(lead.url) if lead is not None else "", data=data)


def _endless(talk: Talk) -> bool:
    """A series with no end that was cut short: its last date is not its last."""
    return talk.recurrence is not None and not talk.recurrence.bounded \
        and len(talk.occurrences) >= MAX_OCCURRENCES


def filters(site: SiteView) -> dict[str, Callable[..., Any]]:
    """`talk | join_link`: where a list row's "Live now · Join" leads (the meeting,
    else the stream), for a talk to come that is neither cancelled nor postponed;
    `talk | live_now`: the same, only while the talk is live at the build's time."""
    def join_link(talk: Talk) -> str:
        found = lifecycle.online(talk)
        return pages.href(found) if found and lifecycle.active(talk) else ""

    def live_now(talk: Talk) -> str:
        live = lifecycle.stage_at(talk, site.now, False) == "live"
        return join_link(talk) if live else ""

    return {"join_link": join_link, "live_now": live_now}

