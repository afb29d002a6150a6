"""The subscribe menu of a calendar feed: one link for each kind of calendar app.

Apple Calendar and desktop Outlook subscribe to a `webcal://` address; Google Calendar,
Outlook.com and Microsoft 365 are given the feed's address in a link of their own, and
fetch the feed from their servers. So every entry but the download needs the feed's
absolute address on the public web: a site whose `base_url` is this computer (the
default, `http://localhost:1313/`, or `serve`'s address) offers the download and the
address to copy, which the page's script resolves against the address it is read at.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from ..content.config import Config

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})  # noqa: S104


@dataclass(frozen=True)
class Subscribe:
    """The entries of the menu; the app links are empty for a site with no public
    address (`public` False), and `address` is then the feed's relative path."""
    address: str  # to copy: the https address, or the relative path
    public: bool
    webcal: str = ""
    google: str = ""
    outlook: str = ""
    office: str = ""


def public(config: Config) -> bool:
    """Can a calendar service reach the site at its `base_url`?"""
    host = (urlsplit(config.base_url).hostname or "").lower()
    return bool(host) and host not in LOCAL_HOSTS and not host.endswith(".localhost")


def links(config: Config, path: str, name: str, relative: str) -> Subscribe:
    """The menu of the feed at `path` (from the site root, URL-encoded), called `name`
    in the apps; `relative` is its path from the page."""
    if not public(config):
        return Subscribe(relative, False)
    https = config.absolute_url(path)
    webcal = webcal_of(https)
    added = f"url={_value(https)}&name={_value(name)}"
    return Subscribe(
        https, True, webcal,
        google=f"https://calendar.google.com/calendar/render?cid={_value(webcal)}",
        outlook=f"https://outlook.live.com/calendar/0/addfromweb?{added}",
        office=f"https://outlook.office.com/calendar/0/addfromweb?{added}")


def webcal_of(https: str) -> str:
    """The `webcal://` address of a feed at an http(s) address."""
    return "webcal://" + https.split("://", 1)[1]


def _value(text: str) -> str:
    """A query value: every reserved character encoded (a feed's own `%` too)."""
    return quote(text, safe="")

