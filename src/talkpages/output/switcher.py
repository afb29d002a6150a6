"""What ties together the trees of a site in several languages (content/languages.py):
the language switcher of every page, the `hreflang` alternates of pages and sitemaps,
the canonical address of a talk shown in a language it is not written in, and the files
at the site's root (robots.txt naming every tree's sitemap; with every language in its
own folder, a root page that leads to the default one).

The same page in two languages has the same address in each tree (`my-talk/`,
`tags/python/`), so a page's versions are found by its address: the switcher leads to
the same page in each language that has it, else to that language's index."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..content.languages import Tree
from ..content.loader import STATIC_DIR
from ..content.messages import language_name
from .outputs import Output
from .plan import PAGE, ROBOTS, SITEMAP, TALK, Recipe, static_files
from .sitefiles import escape, quoteattr, url_path


@dataclass(frozen=True)
class Choice:
    """One language of a page's switcher."""

    tag: str
    name: str  # the language's name in itself: "Deutsch"
    path: str  # from the page's tree root: "../de/my-talk/"
    absolute: str
    current: bool
    alternate: bool  # the same page in that language (an `hreflang` alternate)


@dataclass(frozen=True)
class Alternates:
    choices: tuple[Choice, ...] = ()
    canonical: str = ""  # a talk shown in a language it is not written in: the original
    default: str = ""  # the default language's version: `hreflang="x-default"`

    @property
    def hreflang(self) -> list[Choice]:
        return [choice for choice in self.choices if choice.alternate]


NONE = Alternates()


class Versions:
    """The pages of every tree, by address: each page's versions in the others."""

    def __init__(self, trees: Sequence[Tree], plans: Sequence[list[Recipe]]) -> None:
        self.trees = trees
        # per tree: each page's address, and the language it is written in when it is a
        # talk shown there from another language ("": the tree's own)
        self.pages: list[dict[str, str]] = []
        for tree, recipes in zip(trees, plans, strict=True):
            pages = {}
            for recipe in recipes:
                if recipe.kind == TALK:
                    talk = recipe.context["talk"]
                    pages[recipe.url] = talk.written_in if id(talk) in tree.copies else ""
                elif recipe.kind == PAGE and not recipe.url.endswith(".html"):
                    pages[recipe.url] = ""
            self.pages.append(pages)

    def of(self, at: int) -> Callable[[str], Alternates]:
        """`alternates(page_url)` for the pages of tree `at`."""
        if len(self.trees) < 2:
            return lambda url: NONE
        up = "../" * self.trees[at].folder.count("/")
        names = [lang_name(tree) for tree in self.trees]

        def alternates(url: str) -> Alternates:
            written = self.pages[at].get(url)
            if written is None:  # the 404 page: each language's index
                url, written = "", ""
            choices = []
            for number, tree in enumerate(self.trees):
                has = url in self.pages[number]
                own = has and self.pages[number][url] == ""
                target = url if has else ""
                choices.append(Choice(
                    tree.language.tag, names[number], up + tree.folder + target,
                    tree.site.config.absolute_url(url_path(target)), number == at,
                    own and not written))
            canonical = next((choice.absolute for number, choice in enumerate(choices)
                              if written and choice.tag.lower() == written.lower()
                              and self.pages[number].get(url) == ""), "")
            default = choices[0].absolute if choices[0].alternate else ""
            return Alternates(tuple(choices), canonical, default)

        return alternates

    def sitemap_links(self, at: int) -> dict[str, list[tuple[str, str]]]:
        """For each page of tree `at` that has versions in other languages: (tag,
        absolute URL) of every version, its own included, as sitemaps give them."""
        links: dict[str, list[tuple[str, str]]] = {}
        for url, written in self.pages[at].items():
            if written:
                continue
            found = [(tree.language.tag, tree.site.config.absolute_url(url_path(url)))
                     for number, tree in enumerate(self.trees)
                     if self.pages[number].get(url) == ""]
            if len(found) > 1:
                links[url] = found
        return links

    def listed(self, at: int) -> set[str]:
        """The pages of tree `at` a sitemap lists: not the talks shown from another
        language (their canonical address is the original's)."""
        return {url for url, written in self.pages[at].items() if not written}


def lang_name(tree: Tree) -> str:
    return tree.language.name or language_name(tree.language.tag, tree.language.tag)


def tree_plan(recipes: list[Recipe], versions: Versions, at: int) -> list[Recipe]:
    """A tree's recipes as a site in several languages has them: robots.txt only at
    the root (root_files), and a sitemap of the tree's own pages with their versions."""
    made = []
    for recipe in recipes:
        if recipe.kind == ROBOTS:
            continue
        if recipe.kind == SITEMAP:
            listed = versions.listed(at)
            context = dict(recipe.context)
            context["pages"] = [page for page in context["pages"] if page in listed]
            context["alternates"] = versions.sitemap_links(at)
            recipe = Recipe(recipe.path, recipe.kind, recipe.origin, context=context)
        made.append(recipe)
    return made


def root_files(trees: Sequence[Tree]) -> list[Output]:
    """robots.txt, naming each language's sitemap; the site's static/ files, once for
    every language; and, when no language's tree is at the root, an index that leads to
    the default language's (as Hugo makes one)."""
    robots = "User-agent: *\nAllow: /\n" + "".join(
        f"Sitemap: {tree.site.config.absolute_url('sitemap.xml')}\n" for tree in trees)
    outputs = [Output("robots.txt", robots.encode(), origin="robots.txt")]
    outputs += [Output(name, source=path, origin=f"{STATIC_DIR}/{name}")
                for name, path in static_files(trees[0].site).items()]
    if all(tree.folder for tree in trees):
        default = trees[0]
        links = " · ".join(f'<a href={quoteattr(tree.folder)} hreflang={quoteattr(tag)} '
                           f'lang={quoteattr(tag)}>{escape(lang_name(tree))}</a>'
                           for tree in trees for tag in [tree.language.tag])
        page = (f'<!DOCTYPE html>\n<html lang={quoteattr(default.language.tag)}>\n<head>\n'
                f'<meta charset="utf-8">\n<title>{escape(default.site.config.title)}</title>\n'
                f'<link rel="canonical" href='
                f'{quoteattr(default.site.config.absolute_url(""))}>\n'
                f'<meta http-equiv="refresh" content={quoteattr("0; url=" + default.folder)}>\n'
                f'</head>\n<body>\n<p>{links}</p>\n</body>\n</html>\n')
        outputs.append(Output("index.html", page.encode(), origin="talkpages.toml"))
    return outputs
