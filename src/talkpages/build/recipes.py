"""Recipes (plan.py) as the cache keeps them, with their talks named by file, not whole:
the plan of a large site stays small, and a recipe read back gets the talks of this
build. The fastest form for each of a large site's tens of thousands: a talk page's is
its talk, neighbours and the other talks of its speakers, one of plain values (feeds,
site files) is written with marshal, any other is pickled."""

from __future__ import annotations

import dataclasses
import io
import marshal
import pickle
from collections.abc import Callable
from typing import Any

from ..content.model import Talk
from ..output.plan import TALK, Recipe


def recipe_bytes(recipe: Recipe) -> bytes:
    if recipe.kind == TALK:
        context = recipe.context
        also = tuple((author, tuple(str(t.source) for t in others))
                     for author, others in context["also"].items())
        return b"t" + marshal.dumps((tuple(
            None if t is None else str(t.source)
            for t in (context["talk"], context["previous"], context["next"])), also))
    if not recipe.context and recipe.source is None:
        return b"m" + marshal.dumps(tuple(getattr(recipe, f.name)
                                          for f in dataclasses.fields(Recipe)))
    blob = io.BytesIO()
    _RecipePickler(blob).dump(recipe)
    return b"p" + blob.getvalue()


def recipe_from(data: bytes, talk: Callable[[str], Talk]) -> Recipe:
    """The recipe of `recipe_bytes`, its talks given by `talk(file)`."""
    if data[:1] == b"t":
        shown, also = marshal.loads(data[1:])
        found = [None if path is None else talk(path) for path in shown]
        page = found[0]
        assert page is not None
        return Recipe(f"{page.url}index.html", TALK, str(page.source), "talk.html", page.url,
                      {"talk": page, "previous": found[1], "next": found[2],
                       "also": {author: tuple(talk(path) for path in others)
                                for author, others in also}})
    if data[:1] == b"m":
        return Recipe(*marshal.loads(data[1:]))
    unpickler = _RecipeUnpickler(io.BytesIO(data[1:]))
    unpickler.talk = talk
    return unpickler.load()  # type: ignore[no-any-return]


class _RecipePickler(pickle.Pickler):
    """Recipes with their talks by file, not whole: the plan of a large site stays small."""

    def persistent_id(self, obj: Any) -> str | None:
        return str(obj.source) if isinstance(obj, Talk) else None


class _RecipeUnpickler(pickle.Unpickler):
    talk: Callable[[str], Talk]

    def persistent_load(self, pid: Any) -> Talk:
        return self.talk(str(pid))
