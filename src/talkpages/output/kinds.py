"""The kinds of output a site has, each one class: how an output of the kind is made
from its recipe. The renderer looks kinds up in `KINDS`; the plan (plan.py) says which
outputs of each kind there are. Resized images and social cards also name what they
are made from (`media_key`), under which the media cache keeps them between builds."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from ..content.config import CONFIG_NAME
from ..content.imagefiles import bytes_digest
from ..diagnostics import BuildError, Diagnostic
from ..digests import digest
from . import fonts, sitefiles, social
from .outputs import Output
from .pictures import Copy, Picture, Variant
from .plan import (
    ATOM,
    CARD,
    EVENT_FILE,
    FEED,
    FEED_PATH,
    FILE,
    IMAGE,
    PAGE,
    REDIRECT,
    ROBOTS,
    SEARCH,
    SITE_FILE,
    SITEMAP,
    TALK,
    TALKS_JSON,
    WRAPPED_ASSET,
    Recipe,
)

if TYPE_CHECKING:
    from .render import Maker

T = TypeVar("T")


class Kind:
    def make(self, maker: Maker, recipe: Recipe) -> Output:
        raise NotImplementedError

    def media_key(self, maker: Maker, recipe: Recipe) -> str:
        """The digest of all an output of the media cache is made from."""
        raise NotImplementedError


class TemplatePage(Kind):
    """A page from a template and its context (a talk's page, a list page, 404)."""


    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return maker.render_page(recipe)


class CalendarFeed(Kind):
    """calendar.ics and the feeds of tags and speakers: their talks' events."""



    def make(self, maker: Maker, recipe: Recipe) -> Output:
        name, description = recipe.text
        return Output(recipe.path, chunks=maker.feeds.calendar(
            _keys(recipe), recipe.zones, name=name, path=recipe.path,
            description=description), origin=recipe.origin)



class EventFile(Kind):
    """A talk's own .ics, for "Add to calendar"."""



    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, maker.feeds.single(recipe.pieces[0][1], recipe.zones),
                      origin=recipe.origin)


class TalksJson(Kind):
    """talks.json: every talk's record."""



    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, chunks=sitefiles.talks_json(
            maker.site, _site_feeds(maker), _pieces(maker, recipe)), origin=recipe.origin)



class SearchIndex(Kind):
    """search.json: a row a talk, upcoming first."""



    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, chunks=sitefiles.search_index(_pieces(maker, recipe)),
                      origin=recipe.origin)



class AtomFeed(Kind):
    """feed.xml: the newest talks."""


    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, sitefiles.atom(maker.site, recipe.context["talks"]),
                      origin=recipe.origin)


class Sitemap(Kind):
    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, sitefiles.sitemap(maker.site, recipe.context["pages"],
                                                     recipe.context["lastmod"],
                                                     recipe.context.get("alternates")),
                      origin=recipe.origin)


class Robots(Kind):
    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, sitefiles.robots(maker.site), origin=recipe.origin)


class Redirect(Kind):
    """A page at a talk's old address (`aliases`) that sends visitors on to it."""

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        return Output(recipe.path, sitefiles.redirect(maker.site.config, recipe.path,
                                                      recipe.url, recipe.text[0]),
                      origin=recipe.origin)


class CopiedFile(Kind):
    """A file of a talk's folder or of the theme's assets, copied as it is."""

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        assert recipe.source is not None
        return Output(recipe.path, source=recipe.source, origin=recipe.origin)


class WrappedAsset(Kind):
    """A file of the theme with text of the site's before and after it (`Theme.around`:
    the accent colour's rules after style.css, a script's translations before it); the
    file itself is never changed."""

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        data = _source_bytes(recipe, "file")
        before, after = (part.encode("utf-8") for part in recipe.text)
        return Output(recipe.path, before + data + after, origin=recipe.origin)


class SiteFile(Kind):
    """A file talkpages.toml names, published as it is (an SVG logo or favicon): the
    bytes whose digest the config holds, or an error."""

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        data = _source_bytes(recipe, "file")
        if bytes_digest(data) != recipe.text[0]:
            raise BuildError([Diagnostic(recipe.source, "the file changed while the site "
                                         "was built; build again")])
        return Output(recipe.path, data, origin=recipe.origin)


class ResizedImage(Kind):
    """A copy of a featured image or a speaker's photo, made for the screen (images.py).
    Its key is the original's digest and how it is cut and sized, so it is kept while
    the file's bytes are the same, whatever its times (a fresh clone of the site)."""

    VERSION = "1"  # of the way copies are made: another makes every copy again

    def media_key(self, maker: Maker, recipe: Recipe) -> str:
        picture, copy = _picture(recipe)
        return digest("resized image", self.VERSION, _pillow(), picture.digest,
                      repr(copy.variant), repr(picture.aspect), picture.focal_point)

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        from . import images  # Pillow: only for a site with images to make

        picture, copy = _picture(recipe)
        assert recipe.source is not None
        made = maker.media.get(self.media_key(maker, recipe), lambda: _from_image(
            recipe, picture.digest, f"make {copy.path!r} of this image",
            lambda data: images.resize(data, copy.variant, picture.aspect,
                                       picture.focal_point)))
        return Output(recipe.path, made, origin=recipe.origin)


class SocialCardImage(Kind):
    """A social card (social.py, drawn by cards.py; a speaker's or a tag's by
    groupcards.py): its key is the card's every word and its background's (or photo's)
    digest, the fonts its text is drawn with (fonts.py) and how Pillow lays text out;
    so it is kept while they are the same."""

    VERSION = "3"  # of the way cards are drawn: another draws every card again

    def media_key(self, maker: Maker, recipe: Recipe) -> str:
        card = _card(maker, recipe)
        return digest("social card", self.VERSION, _pillow(), fonts.layout(), repr(card),
                      fonts.book().key(card.texts))

    def make(self, maker: Maker, recipe: Recipe) -> Output:
        from . import cards, groupcards, images  # Pillow: only for a site with cards to draw

        card = _card(maker, recipe)

        def draw() -> bytes:
            if isinstance(card, social.GroupCard):
                photo = None
                if card.photo and recipe.source is not None:
                    photo = _from_image(
                        recipe, card.photo, f"draw {recipe.path!r} with this photo",
                        lambda data: images.open_image(data, Variant(
                            groupcards.PHOTO, groupcards.PHOTO, "jpeg"), 1.0))
                return groupcards.draw(card, fonts.book(), photo)
            background = None
            if card.background and recipe.source is not None:
                background = _from_image(
                    recipe, card.background, f"draw {recipe.path!r} over this image",
                    lambda data: images.open_image(data, Variant(*social.SIZE, "jpeg"),
                                                   social.SIZE[0] / social.SIZE[1]))
            return cards.draw(card, fonts.book(), background, card.focal_point)

        return Output(recipe.path, maker.media.get(self.media_key(maker, recipe), draw),
                      origin=recipe.origin)


def _source_bytes(recipe: Recipe, what: str) -> bytes:
    """The bytes of the recipe's source, `what` ("file", "image") named in the error."""
    assert recipe.source is not None
    try:
        return recipe.source.read_bytes()
    except OSError as exc:
        raise BuildError([Diagnostic(recipe.source, f"cannot read the {what} "
                                     f"({exc.strerror or exc})")]) from None


def _from_image(recipe: Recipe, expected: str, doing: str, use: Callable[[bytes], T]) -> T:
    """`use` of the bytes of the recipe's source, an image whose digest is `expected`;
    a problem is an error naming the file and what was being done with it."""
    from . import images

    data = _source_bytes(recipe, "image")
    assert recipe.source is not None
    try:
        if bytes_digest(data) != expected:
            raise images.ImageError("the file changed while the site was built; build again")
        return use(data)
    except images.ImageError as exc:
        raise BuildError([Diagnostic(recipe.source, f"cannot {doing} (for {recipe.origin}): "
                                     f"{exc}")]) from None


@functools.lru_cache(maxsize=1)
def _pillow() -> str:
    """Pillow's version: another may resize, encode or draw otherwise."""
    from PIL import __version__ as version

    return version


def card_warnings(made: Iterable[tuple[Maker, list[Recipe]]]) -> list[Diagnostic]:
    """A warning for each card (once a talk file, or talkpages.toml for the site's) with
    characters no font of this machine has, naming the package that has them; and one
    for the build when Pillow lays text out without libraqm and a card has a script
    that needs it. Worked out before any card is drawn: cards are drawn by workers,
    and a card kept by the media cache is not drawn at all."""
    book = fonts.book()
    found: dict[Diagnostic, None] = {}
    unshaped: dict[str, None] = {}
    for maker, recipes in made:
        for recipe in recipes:
            if recipe.kind != CARD:
                continue
            card = _card(maker, recipe)
            if all(text.isascii() for text in card.texts):
                continue
            talk = recipe.context["talk"]
            missing = book.missing(card.texts)
            where = talk.source if talk is not None else maker.site.root / (
                recipe.origin if isinstance(card, social.GroupCard) else CONFIG_NAME)
            if missing:
                packages = " ".join(dict.fromkeys(script.package for script in missing))
                found[Diagnostic(
                    where,
                    f"no font installed here has the {_names(missing)} characters of its "
                    f"social card: they are drawn as boxes (Debian, Ubuntu: apt-get "
                    f"install {packages})", severity="warning",
                    hint="the card is drawn again once a font that has them is installed")] = None
            if fonts.layout() == "basic":
                unshaped.update((script.name, None) for text in card.texts
                                for script in map(fonts.script_of, text)
                                if script is not None and script.shaped)
    problems = list(found)
    if unshaped:
        problems.append(Diagnostic(
            None, f"Pillow here lays text out without libraqm: the {_names(list(unshaped))} "
            "characters of social cards are drawn unshaped (Arabic unjoined, right to left "
            "drawn left to right)", severity="warning",
            hint="Pillow's wheels use libraqm where FriBiDi is installed (Debian, Ubuntu: "
            "apt-get install libfribidi0)"))
    return problems


def _names(scripts: list[fonts.Script] | list[str]) -> str:
    """"Arabic", "Han and Kana", "Arabic, Hebrew and Thai"."""
    names = [script if isinstance(script, str) else script.name for script in scripts]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _card(maker: Maker, recipe: Recipe) -> social.Card | social.GroupCard:
    made: social.GroupCard | None = recipe.context.get("card")  # worked out in the plan
    if made is not None:
        return made
    talk = recipe.context["talk"]
    card = social.site_card(maker.site.view) if talk is None \
        else social.talk_card(maker.site.view, talk)
    assert card is not None
    return card


KINDS: dict[str, Kind] = {
    TALK: TemplatePage(), PAGE: TemplatePage(), FEED: CalendarFeed(), EVENT_FILE: EventFile(),
    TALKS_JSON: TalksJson(), SEARCH: SearchIndex(), ATOM: AtomFeed(), SITEMAP: Sitemap(),
    ROBOTS: Robots(), FILE: CopiedFile(), REDIRECT: Redirect(), IMAGE: ResizedImage(),
    CARD: SocialCardImage(), WRAPPED_ASSET: WrappedAsset(), SITE_FILE: SiteFile()}


def _picture(recipe: Recipe) -> tuple[Picture, Copy]:
    return recipe.context["picture"], recipe.context["copy"]


def _keys(recipe: Recipe) -> list[str]:
    return [key for _, key in recipe.pieces]


def _pieces(maker: Maker, recipe: Recipe) -> Iterable[bytes]:
    return (maker.piece(key) for _, key in recipe.pieces)


def _site_feeds(maker: Maker) -> dict[str, str]:
    """The site's feeds, as talks.json names them."""
    config = maker.site.config
    return {"calendar": config.absolute_url(FEED_PATH), "atom": config.absolute_url("feed.xml")}
