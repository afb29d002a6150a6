"""A site in several languages, as Hugo has them: `[languages.<tag>]` in talkpages.toml
(a title and description each), talks translated file by file (`my-talk.de.md`, or
`index.de.md` in a bundle; files of one slug are translations of one talk), and a whole
tree of pages, lists and feeds for each language: the default language's at the site's
root, the others' under `/<tag>/` (so a German feed is `de/calendar.ics`), or every
language under its own folder with `default_language_in_subdir = true`.

A tree is a whole site in its own right (`Tree.site`): its own settings (title,
`language`, a `base_url` that ends in its folder), messages and talks; the build makes
each one as it makes a site of one language. A talk not translated into a language is
shown in that language's tree all the same, in the language it is written in and marked
so, unless `untranslated = "omit"`: a visitor who reads German finds every talk of the
site in the German lists, as Indico and pretalx list a talk whatever its language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, display_path
from .languagetags import Invalid, language_tag

if TYPE_CHECKING:
    from .config import Config
    from .model import Site, Talk

LANGUAGE_KEYS = ("title", "description", "calendar_name", "name", "weight", "series")
SERIES_KEYS = ("title", "description")  # of `[languages.<tag>.series.<key>]`
UNTRANSLATED = ("list", "omit")


@dataclass(frozen=True)
class Language:
    """One language of a site (`[languages.<tag>]`); "" for what the site's own setting
    gives (title, description), or CLDR (`name`, the language's name in itself)."""

    tag: str
    title: str = ""
    description: str = ""
    calendar_name: str = ""
    name: str = ""  # as the language switcher shows it
    weight: int = 0  # the switcher's order: lower first, then by tag
    texts: Mapping[str, Any] = field(default_factory=dict)  # i18n/<tag>.toml: sitetexts.py
    # [languages.<tag>.series.<key>]: a series' title and description in this language
    series: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def folder(self) -> str:
        """The tree's folder from the site root, lower case as Hugo has it (`pt-br/`)."""
        return self.tag.lower() + "/"


def languages_table(value: Any) -> tuple[Language, ...]:
    """`[languages.<tag>]` tables, each a BCP 47 tag with its settings, in the switcher's
    order. Raises ValueError naming the table and what is wrong."""
    if not isinstance(value, dict):
        raise ValueError("expected tables such as [languages.de], each with a title")
    found: dict[str, Language] = {}
    for tag, settings in value.items():
        try:
            clean_tag = language_tag(tag)
        except Invalid as exc:
            raise Invalid(f"[languages.{tag}]: {exc}", exc.hint) from None
        if clean_tag.lower() in found:
            raise ValueError(f"[languages.{tag}] is given twice (tags are read without "
                             "regard to case)")
        if not isinstance(settings, dict):
            raise ValueError(f"languages.{tag} must be a table, such as "
                             f"[languages.{tag}] with title = \"…\"")
        found[clean_tag.lower()] = _language(clean_tag, settings)
    return tuple(sorted(found.values(), key=lambda lang: (lang.weight, lang.tag.lower())))


def _language(tag: str, settings: dict[str, Any]) -> Language:
    values: dict[str, Any] = {}
    for key, item in settings.items():
        if key not in LANGUAGE_KEYS:
            raise ValueError(f"[languages.{tag}] has no setting {key!r}: the settings of a "
                             f"language are {', '.join(LANGUAGE_KEYS)}")
        if key == "weight":
            if isinstance(item, bool) or not isinstance(item, int):
                raise ValueError(f"languages.{tag}.weight must be a whole number")
        elif key == "series":
            item = _series_texts(tag, item)
        elif not isinstance(item, str):
            raise ValueError(f"languages.{tag}.{key} must be text")
        values[key] = item.strip() if isinstance(item, str) else item
    return Language(tag, **values)


class SettingError(ValueError):
    """A problem of one setting below `[languages]`: `at` is its dotted key, whose line
    the message is given at."""

    def __init__(self, message: str, at: str) -> None:
        super().__init__(message)
        self.at = at


def _series_texts(tag: str, value: Any) -> dict[str, dict[str, str]]:
    """`[languages.<tag>.series.<key>]` tables: a title and a description each."""
    if not isinstance(value, dict):
        raise SettingError(f"languages.{tag}.series must hold tables such as "
                           f"[languages.{tag}.series.colloquium] with title = \"…\"",
                           f"languages.{tag}.series")
    texts: dict[str, dict[str, str]] = {}
    for key, table in value.items():
        name = f"languages.{tag}.series.{key}"
        if not isinstance(table, dict):
            raise SettingError(f"{name} must be a table with a title, a description or "
                               "both", name)
        for setting, text in table.items():
            if setting not in SERIES_KEYS:
                raise SettingError(f"[{name}] has no setting {setting!r}: a series is "
                                   f"given its {' and '.join(SERIES_KEYS)} in each language",
                                   f"{name}.{setting}")
            if not isinstance(text, str):
                raise SettingError(f"{name}.{setting} must be text", f"{name}.{setting}")
        texts[key] = {setting: text.strip() for setting, text in table.items()
                      if text.strip()}
    return texts


def untranslated_choice(value: Any) -> str:
    if value not in UNTRANSLATED:
        raise ValueError(f"expected \"list\" (a talk not translated into a language is "
                         f"listed in it, in its own language) or \"omit\", got {value!r}")
    return str(value)


def with_default(languages: tuple[Language, ...], default: str) -> tuple[Language, ...]:
    """The site's languages, the default one (`language`) among them: a site that lists
    others but not its own gets it, with the site's own settings, first."""
    if not languages or any(lang.tag.lower() == default.lower() for lang in languages):
        return languages
    return (Language(default, weight=min(lang.weight for lang in languages) - 1), *languages)


def file_language(name: str, config: Config) -> tuple[str, str]:
    """(name without its language, tag) of a talk file's name without `.md`
    (`my-talk.de` -> `my-talk`, "de"); a name that ends in no language of the site is
    itself, in the default language."""
    stem, dot, code = name.rpartition(".")
    if dot and config.languages:
        for lang in config.languages:
            if lang.tag.lower() == code.lower():
                return stem, lang.tag
    return name, config.language


@dataclass(frozen=True)
class Tree:
    """The pages and feeds of one language, under `folder` ("" at the site root)."""

    language: Language
    folder: str
    site: Site
    copies: frozenset[int] = frozenset()  # ids of its talks written in another language


def versions(talks: tuple[Talk, ...]) -> dict[str, dict[str, Talk]]:
    """The talks of each slug (one talk), by the language each file is written in."""
    groups: dict[str, dict[str, Talk]] = {}
    for talk in talks:
        groups.setdefault(talk.slug.lower(), {})[talk.written_in.lower()] = talk
    return groups


def trees(site: Site) -> list[Tree]:
    """The site's trees, the default language's first: one, at the root, for a site in
    one language."""
    from .messages import messages_of
    from .model import Site

    config = site.config
    if not config.languages:
        return [Tree(Language(config.language), "", site)]
    groups = versions(site.talks)
    order = [lang.tag.lower() for lang in config.languages]
    default = config.language.lower()
    made = []
    for lang in sorted(config.languages, key=lambda lang: lang.tag.lower() != default):
        tag = lang.tag.lower()
        mine = {id(group[tag]) for group in groups.values() if tag in group}
        shown = [talk for talk in site.talks if id(talk) in mine or (
            config.untranslated == "list" and tag not in groups[talk.slug.lower()]
            and talk is _original(groups[talk.slug.lower()], default, order))]
        folder = "" if tag == default and not config.default_language_in_subdir \
            else lang.folder
        settings = tree_config(config, lang, folder)
        made.append(Tree(lang, folder, Site(
            root=site.root, config=settings, talks=tuple(shown), now=site.now,
            speakers=site.speakers, messages=messages_of(settings)),
            frozenset(id(t) for t in shown if id(t) not in mine)))
    return made


def _original(group: dict[str, Talk], default: str, order: list[str]) -> Talk:
    """The one version of an untranslated talk other languages show: the default
    language's, else the first in the languages' order."""
    return group.get(default) or next(group[tag] for tag in order if tag in group)


def tree_config(config: Config, lang: Language, folder: str) -> Config:
    """The settings of a language's tree: its title and texts, its series' titles and
    descriptions, and the base URL of its folder (canonical links, feeds and the sitemap
    name its pages there)."""
    series = {}
    for key, one in config.series.items():
        texts = lang.series.get(key, {})
        series[key] = dataclasses.replace(one, title=texts.get("title", one.title),
                                          description=texts.get("description",
                                                                one.description))
    return dataclasses.replace(
        config, language=lang.tag, title=lang.title or config.title,
        description=lang.description or config.description,
        calendar_name=lang.calendar_name or config.calendar_name,
        base_url=config.base_url + folder, i18n=dict(lang.texts), series=series)


def other_language(tag: str, site_language: str) -> str:
    """`tag` when it is another language than the site's (`en-GB` is not, on an `en`
    site), else ""."""
    if not tag or tag.split("-")[0].lower() == site_language.split("-")[0].lower():
        return ""
    return tag


def key(tag: str) -> str:
    """A language as the index's filter groups talks by it: its primary subtag (`en` for
    `en-GB`), lower case."""
    return tag.split("-")[0].lower()


def given_in(talk: Talk, site_language: str) -> str:
    """The language a talk is given in, when a visitor of the site is to be told: the
    one it says (`language`), else the one its page is written in, when it is not the
    site's (a talk shown in a language it has no translation into)."""
    return other_language(talk.given_in or talk.written_in, site_language)


def untranslated_notes(site: Site) -> list[Diagnostic]:
    """On a site in several languages, a note for each talk that some of them lack:
    information for the translators, never a failure (a talk is shown in its own
    language there, or left out with `untranslated = "omit"`)."""
    languages = site.config.languages
    if not languages:
        return []
    notes = []
    for group in versions(site.talks).values():
        missing = [lang.tag for lang in languages if lang.tag.lower() not in group]
        if not missing:
            continue
        talk = group.get(site.config.language.lower()) or next(iter(group.values()))
        shown = "listed in its own language" if site.config.untranslated == "list" \
            else "left out"
        notes.append(Diagnostic(talk.source, f"no translation into {', '.join(missing)}: "
                                f"{shown} there", severity="note",
                                hint="write it in " + display_path(
                                    _translation_path(talk, missing[0]))))
    return notes


def _translation_path(talk: Talk, tag: str) -> Path:
    """Where a talk's translation into `tag` goes: beside it, named as Hugo names it."""
    base = talk.source.name[:-3]  # `my-talk`, `my-talk.de`, `index`, `index.de`
    stem, dot, code = base.rpartition(".")
    if dot and code.lower() == talk.written_in.lower():
        base = stem
    return talk.source.with_name(f"{base}.{tag.lower()}.md")
