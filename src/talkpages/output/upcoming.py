"""embed/upcoming.html: the next talks, as a small page another site frames (a
department's page, a group's wiki). It is a list page of the site's own (its
stylesheet, site.js keeping it true to the clock, the pages' CSP), with no header or
footer, and a script (embed.js) that tells the page framing it its height, so that
the frame fits it. Each language's tree has its own."""

from __future__ import annotations

from ..content.model import Site
from .pages import PageSpec

EMBED_PATH = "embed/upcoming.html"
EMBED_TALKS = 8  # a frame's worth: the site's index lists the rest


def page(site: Site) -> PageSpec:
    return PageSpec("embed/upcoming.html", EMBED_PATH, "the embeddable list of upcoming talks",
                    {"upcoming": site.upcoming[:EMBED_TALKS]})
