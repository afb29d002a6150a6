"""The registry of output kinds (output/kinds.py): every output the plan has is of a
registered kind, and each image and card names what it is made from for the media
cache."""

from __future__ import annotations

from talkpages.content.loader import LoadOptions, load_site
from talkpages.output.kinds import KINDS
from talkpages.output.outputs import whole
from talkpages.output.plan import make_plan
from talkpages.output.render import Maker
from talkpages.output.theme import Theme

from conftest import NOW, ROOT


def example_plan():  # type: ignore[no-untyped-def]
    site, problems = load_site(ROOT, LoadOptions(now=NOW))
    assert site is not None, problems
    maker = Maker(site, Theme.for_site(ROOT), whole)
    return maker, make_plan(site, maker.theme)


def test_every_output_of_the_plan_is_of_a_registered_kind() -> None:
    _, recipes = example_plan()
    kinds = {recipe.kind for recipe in recipes}
    assert kinds <= set(KINDS), kinds - set(KINDS)
    assert len(kinds) >= 9  # talk and list pages, feeds, .ics, JSON, atom, sitemap, files
