"""A talk page's share row: the address copied, the phone's share sheet, Mastodon,
Bluesky, LinkedIn and e-mail.

Bluesky, LinkedIn and e-mail are plain links, made here at build time: a click leaves
the page for the network's own form, and until then nothing is loaded from it (no
button script, no counter, no request the page's CSP would have to allow).

Mastodon has no central host: a post is written on the visitor's own server. A share
service that asks for it (mastodonshare.com and its kind) is a third party that sees
every click, so the page carries its own small form instead, shown by share.js: the
visitor names their server once (kept in localStorage) and the post opens at
`https://<server>/share?text=…`. The copy button and the share sheet need a script
too; without one, all three stay hidden and the plain links remain.
"""

from __future__ import annotations

from dataclasses import dataclass

from .percent import percent_encoded

BLUESKY = "https://bsky.app/intent/compose?text="
LINKEDIN = "https://www.linkedin.com/sharing/share-offsite/?url="


@dataclass(frozen=True)
class Share:
    url: str  # the page's absolute address
    bluesky: str
    linkedin: str
    email: str


def share_row(title: str, url: str) -> Share:
    """The share row of a page titled `title` at `url`. Every value is percent-encoded
    whole, as `quote(safe="")` would (output/percent.py): a `&` or `#` of a title stays
    in the text, and a space is %20, as a `mailto:` link needs (RFC 6068), where `+`
    would stay a plus."""
    text = f"{title} {url}"
    encoded_url = percent_encoded(url)
    return Share(url, BLUESKY + percent_encoded(text), LINKEDIN + encoded_url,
                 f"mailto:?subject={percent_encoded(title)}&body={encoded_url}")
