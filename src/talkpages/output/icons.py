"""The icons of a page's buttons, and the sprite that holds their drawings.

`icon(name)` places one (`"map" | icon` in a template): an `<svg>` that uses `#i-<name>`
of the page's sprite (`partials/icons.html`). The sprite comes last in the page and
holds the icons the page placed and no others: a talk page places 7 to 12 of the
theme's 18, and the whole sprite was a sixth of its bytes. A `<use>` finds its symbol
anywhere in the page, so the sprite may follow the buttons.

An icon is counted as placed when it is written into the page (its `__html__`, which
Jinja calls to escape it), not when it is made: a talk's view (talkview.py) makes its
buttons' icons once. A partial made once a build (`partial_once`) is written into
each page as it is: the icons it placed are counted for each page that shows it
(`place`). The page being rendered is a context variable (`placing`), so a build in a
thread (`talkpages serve`) counts its own pages.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from markupsafe import Markup

_placed: ContextVar[set[str] | None] = ContextVar("talkpages_icons_placed", default=None)


class Icon:
    """An icon as a page shows it: its markup, counted as placed when written."""

    __slots__ = ("name", "markup")

    def __init__(self, name: str):
        self.name = name
        self.markup = Markup('<svg class="icon" aria-hidden="true" focusable="false">'
                             '<use href="#i-{}"></use></svg>').format(name)

    def __html__(self) -> Markup:
        placed = _placed.get()
        if placed is not None:
            placed.add(self.name)
        return self.markup

    def __str__(self) -> str:  # a Markup: `icon ~ "text"` stays markup, as it did
        return self.__html__()


@functools.lru_cache(maxsize=64)
def icon(name: str) -> Icon:
    """The icon `#i-<name>` of the sprite. A filter, not a macro: a talk page places
    several, and a macro call costs a Jinja context each."""
    return Icon(name)


@contextmanager
def placing() -> Iterator[set[str]]:
    """The render of one page (or of a partial kept for many): the icons written
    within it are its own, in the set it gives."""
    names: set[str] = set()
    token = _placed.set(names)
    try:
        yield names
    finally:
        _placed.reset(token)


def place(names: frozenset[str]) -> None:
    """Count icons as placed in the page being rendered: those of a partial made once
    a build (render.py `partial_once`), which the page shows without writing them."""
    placed = _placed.get()
    if placed is not None:
        placed.update(names)


def placed() -> str | None:
    """The names of the icons the page being rendered has placed so far, sorted and
    separated by spaces (what `partials/icons.html` takes as `names`); None outside a
    page's render, where the sprite holds every icon."""
    names = _placed.get()
    return None if names is None else " ".join(sorted(names))
