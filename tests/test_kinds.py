"""The registry of output kinds (output/kinds.py): every output the plan has is of a
registered kind, and what a kind's bytes are made of is in its key: a fragment of a
talk that a feed or a site file shows, replaced, gives that output another key."""

from __future__ import annotations

from dataclasses import replace

from talkpages.build.cache import BuildCache
from talkpages.content.loader import LoadOptions, load_site
from talkpages.output.kinds import KINDS
from talkpages.output.plan import make_plan
from talkpages.output.render import Maker
from talkpages.output.theme import Theme

from conftest import NOW, ROOT


def example_plan():  # type: ignore[no-untyped-def]
    site, problems = load_site(ROOT, LoadOptions(now=NOW))
    assert site is not None, problems
    maker = Maker(site, Theme.for_site(ROOT), BuildCache())
    return maker, make_plan(site, maker.theme, maker.keys)


def test_every_output_of_the_plan_is_of_a_registered_kind() -> None:
    _, recipes = example_plan()
    kinds = {recipe.kind for recipe in recipes}
    assert kinds <= set(KINDS), kinds - set(KINDS)
    assert len(kinds) >= 9  # talk and list pages, feeds, .ics, JSON, atom, sitemap, files


def test_a_changed_fragment_changes_the_key_of_every_output_made_of_it() -> None:
    maker, recipes = example_plan()
    pieced = [recipe for recipe in recipes if recipe.pieces]
    assert {recipe.kind for recipe in pieced} == {kind for kind, made in KINDS.items()
                                                  if made.piece}
    for recipe in pieced:
        key = maker.key(recipe)
        assert key is not None, recipe.kind
        for number, (source, _) in enumerate(recipe.pieces):
            pieces = list(recipe.pieces)
            pieces[number] = (source, "another fragment")
            assert maker.key(replace(recipe, pieces=tuple(pieces))) != key, recipe.path


def test_a_filter_that_reads_every_talk_fails_instead_of_going_stale(make_site,  # type: ignore[no-untyped-def]
                                                                     monkeypatch) -> None:
    """Regression: a filter `len(site.talks)` used in a template made cached builds keep
    pages with the old count, with no error. Filters are given the site's settings,
    speakers and time (SiteView), never its talks."""
    import pytest

    from talkpages.output import pages

    from conftest import render, talk

    made_by = pages.filters

    def with_count(site, *args):  # type: ignore[no-untyped-def]
        made = made_by(site, *args)
        made["talk_count"] = lambda _: len(site.talks)
        return made

    monkeypatch.setattr(pages, "filters", with_count)
    site = make_site({"talks/a.md": talk("A"), "layouts/404.html": "{{ 1 | talk_count }}"})
    with pytest.raises(AttributeError, match="talks"):
        render(site, LoadOptions(now=NOW))
