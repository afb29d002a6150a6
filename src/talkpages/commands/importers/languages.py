"""Which folder and file names of a Hugo site are languages (`content/de/`,
`index.de.md`), and which only look like one: a section or a bundle may well be
called `ai`, `iot` or `ml`.

The config decides when it has a `languages` table: its keys (and
`defaultContentLanguage`) are the languages, and nothing else is, as in Hugo itself.
Without one (no config found, or a site of one language), a name is a language only
when it is a language code: two letters of ISO 639-1, then perhaps a script and a
region (`zh-hans`, `pt-br`, `es-419`). Three-letter codes are left out there: they
would take `iot` or `web` for a language, and a site that writes in one names it
in its config.

The config's table also gives each language's tag, title, name and weight for the new
site's `[languages]` (`site_languages`), and says which languages the old site
disables: their talks are not imported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...content.languagetags import language_tag

ISO_639_1 = frozenset("""
aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu
cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi
ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks
ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl
nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl
sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve
vi vo wa wo xh yi yo za zh zu""".split())
_CODE = re.compile(r"^(?P<language>[a-z]{2})(?:[-_][a-z]{4})?(?:[-_](?:[a-z]{2}|[0-9]{3}))?$",
                   re.IGNORECASE)


def declared(config: dict[str, Any]) -> frozenset[str] | None:
    """The languages the config names, lower-cased; None when it has no `languages`
    table, and names are then judged by `looks_like`."""
    table = config.get("languages")
    if not isinstance(table, dict) or not table:
        return None
    names = {str(name).lower() for name in table}
    default = config.get("defaultcontentlanguage")
    if isinstance(default, str) and default.strip():
        names.add(default.strip().lower())
    return frozenset(names)


def is_language(name: str, languages: frozenset[str] | None) -> bool:
    """`name` (a folder, or the last part of a file's stem) is one of `languages`,
    or, when the config names none, a language code."""
    if languages is not None:
        return name.lower() in languages
    match = _CODE.match(name)
    return match is not None and match["language"].lower() in ISO_639_1


@dataclass(frozen=True)
class SiteLanguages:
    """The languages of a Hugo site as talkpages names them. Hugo's key of a language
    (`zh-cn`, the name of its folder and files) becomes a BCP 47 tag in its usual case
    (`zh-CN`), which the imported files are named by (`index.zh-CN.md`) and which is the
    key of its `[languages.<tag>]` table in talkpages.toml."""

    default: str  # Hugo's key of the default language, lower case
    tags: Mapping[str, str]  # Hugo's key, lower case -> the tag; for the config's table
    tables: Mapping[str, dict[str, Any]]  # Hugo's key -> its title, name, description, weight
    disabled: frozenset[str]  # disableLanguages, lower case: not imported
    in_subdir: bool  # defaultContentLanguageInSubdir: the default's pages under /en/ too

    def tag(self, key: str | None) -> str | None:
        """The tag of a file of language `key` (None: a file with none), "" for the
        default language, None for a name no BCP 47 tag can be made of."""
        if key is None or key.lower() == self.default:
            return ""
        return self.tags.get(key.lower()) or bcp47(key)

    def default_tag(self) -> str:
        return self.tags.get(self.default) or bcp47(self.default) or "en"

    def table(self, key: str) -> dict[str, Any]:
        return dict(self.tables.get(key.lower(), {}))


def site_languages(config: dict[str, Any]) -> SiteLanguages:
    """The `languages` table of a Hugo config (its keys lower-cased at the top), with
    `defaultContentLanguage` (Hugo's default: "en") and `disableLanguages`."""
    default = config.get("defaultcontentlanguage")
    default = default.strip().lower() if isinstance(default, str) and default.strip() else "en"
    tags: dict[str, str] = {}
    tables: dict[str, dict[str, Any]] = {}
    table = config.get("languages")
    for key, settings in table.items() if isinstance(table, dict) else ():
        lower = {str(k).lower(): v for k, v in settings.items()} \
            if isinstance(settings, dict) else {}
        code = lower.get("languagecode")
        tag = bcp47(str(key)) or (bcp47(code) if isinstance(code, str) else None)
        if tag is not None:
            tags[str(key).lower()] = tag
        tables[str(key).lower()] = _table(lower)
    disabled = config.get("disablelanguages")
    names = disabled if isinstance(disabled, list) else []
    subdir = config.get("defaultcontentlanguageinsubdir")
    return SiteLanguages(default, tags, tables,
                         frozenset(str(n).strip().lower() for n in names) - {default},
                         subdir is True or str(subdir).lower() == "true")


def _table(settings: dict[str, Any]) -> dict[str, Any]:
    """A language's settings in talkpages' names: `title`, `languageName` -> `name`,
    `params.description` (or a `description` of its own) -> `description`, `weight`."""
    params = settings.get("params")
    params = {str(k).lower(): v for k, v in params.items()} if isinstance(params, dict) else {}
    found = {"title": settings.get("title"), "name": settings.get("languagename"),
             "description": params.get("description", settings.get("description")),
             "weight": settings.get("weight")}
    table: dict[str, Any] = {}
    for key, value in found.items():
        if key == "weight":
            if isinstance(value, int) and not isinstance(value, bool):
                table[key] = value
        elif isinstance(value, str) and value.strip():
            table[key] = value.strip()
    return table


def bcp47(name: str) -> str | None:
    """A language's name as Hugo's keys and folders have it (`zh-cn`, `pt_BR`,
    `zh-hant-tw`) as a BCP 47 tag in its usual case (`zh-CN`, `pt-BR`, `zh-Hant-TW`):
    the script in title case, a region in capitals, the rest in small letters. None
    when that is no tag a browser reads."""
    parts = name.strip().replace("_", "-").split("-")
    cased = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 1:  # an extension or private use: small letters to the end
            cased += [p.lower() for p in parts[len(cased):]]
            break
        if len(cased) == 1 and len(part) == 4 and part.isalpha():
            cased.append(part.title())
        elif len(part) == 2 and part.isalpha() or len(part) == 3 and part.isdigit():
            cased.append(part.upper())
        else:
            cased.append(part.lower())
    tag = "-".join(cased)
    try:
        return language_tag(tag)
    except ValueError:
        return None
