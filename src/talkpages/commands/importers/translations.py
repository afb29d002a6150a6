"""A Hugo site in several languages, imported whole: every language's talks, each
version of a talk a translation of it on the new site.

- **File names.** A talk of the default language becomes `talks/<name>.md` (or
  `talks/<name>/index.md`), one of another language `talks/<name>.<tag>.md` (or
  `index.<tag>.md` beside the default's in its folder), `<tag>` being the BCP 47 tag
  of Hugo's key (`zh-cn` -> `zh-CN`: languages.py). All versions of a talk have one
  name (names.py) and one slug: a version whose front matter gives another `slug`
  (or whose first version's does) takes the first version's (`SharedSlug`), since
  talkpages knows a talk's translations by their slug. Its old address stays an alias.
- **Disabled languages.** The talks of a language in `disableLanguages`, which Hugo
  did not publish, are not imported; the report counts them.
- **`[languages]`.** When talks of a language other than the default are imported,
  the new talkpages.toml gets `language` (the default's tag) and a `[languages.<tag>]`
  table for the default language and for each language with a talk imported, with its
  `title`, `name` (`languageName`), `description` (its `params.description`) and
  `weight`, and `default_language_in_subdir = true` for a Hugo site that put the
  default language's pages under its folder too. A language of the old site with no
  talk is left out, and the report names it: its tree would hold nothing of its own,
  only the other languages' talks. A site whose talks are all in its default language
  stays a site of one language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...content import links
from ...content.model import slugify
from .convert import Adapted, Candidate
from .languages import SiteLanguages
from .sources import read_source


@dataclass
class Tagged:
    """The talk files of the languages imported, and those of the others."""

    kept: list[Candidate] = field(default_factory=list)  # each with its tag
    disabled: dict[str, int] = field(default_factory=dict)  # Hugo's key -> files
    untagged: list[tuple[Path, str]] = field(default_factory=list)  # file, why not


def tagged(candidates: list[Candidate], languages: SiteLanguages) -> Tagged:
    """Each file with the tag its new name takes ("" for the default language); the
    files of disabled languages, and of a language no tag is made of, left out."""
    result = Tagged()
    for candidate in candidates:
        key = (candidate.language or languages.default).lower()
        if key in languages.disabled:
            result.disabled[key] = result.disabled.get(key, 0) + 1
            continue
        tag = languages.tag(candidate.language)
        if tag is None:
            result.untagged.append((candidate.path, f"its language, {key!r}, is no BCP 47 "
                                    "language tag to name its file by (give the language a "
                                    "languageCode such as \"de\" in the old site's config)"))
            continue
        result.kept.append(replace(candidate, tag=tag))
    return result


def translation_key(source: Path) -> Callable[[Candidate], str | None]:
    """The `translationKey` of a talk file: files that share one are translations of one
    talk whatever their names. A file reached through a link out of the old site is
    not read (the conversion reports it)."""
    root = links.real(source)

    def key(candidate: Candidate) -> str | None:
        if links.on_the_way(candidate.path, source, root) is not None:
            return None
        read = read_source(candidate.path)
        if isinstance(read, list):
            return None
        value = next((v for k, v in read[1].data.items() if k.lower() == "translationkey"),
                     None)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            return str(value).strip()
        return None

    return key


class SharedSlug:
    """Adjuster: a version of a talk imported after its first one takes the slug that
    one was imported with (`slugs`, filled as the first versions are imported)."""

    def __init__(self, first: Mapping[Path, Candidate], default_tag: str) -> None:
        self.first = first  # a later version's path -> the talk's first version
        self.default_tag = default_tag
        self.slugs: dict[Path, str] = {}  # a first version's path -> its slug

    def __call__(self, candidate: Candidate, adapted: Adapted,
                 files: tuple[str, ...]) -> list[str]:
        first = self.first.get(candidate.path)
        slug = self.slugs.get(first.path) if first is not None else None
        if first is None or not slug:
            return []
        data = adapted.data
        key = next((k for k in data if k.lower() == "slug"), None)
        value = data.get(key) if key else None
        own = value.strip() if isinstance(value, str) and value.strip() else \
            slugify(candidate.name)
        if own.lower() == slug.lower():
            return []
        language = first.tag or self.default_tag
        if slug == slugify(candidate.name):
            data.pop(key or "slug", None)
            adapted.changes.append(f"`slug` {own!r} left out: a talk's translations share "
                                   f"one slug, {slug!r} as in {language} (the old address "
                                   "stays an alias)")
        else:
            data[key or "slug"] = slug
            adapted.changes.append(f"slug = {slug!r}, as in {language}: a talk's "
                                   "translations share one slug (the old address stays "
                                   "an alias)")
        return []


def language_settings(languages: SiteLanguages, used: set[str]) -> dict[str, Any]:
    """`language`, `[languages]` and `default_language_in_subdir` of the new
    talkpages.toml for talks imported in the tags of `used` ("" the default's);
    nothing when they are all in the default language."""
    if not used - {""}:
        return {}
    default = languages.default_tag()
    keys = {tag.lower(): key for key, tag in languages.tags.items()}
    tags = [default, *(tag for tag in used if tag and tag.lower() != default.lower())]
    tables = {tag: languages.table(keys.get(tag.lower(), tag.lower())) for tag in tags}
    ordered = sorted(tables, key=lambda tag: (tables[tag].get("weight", 0), tag.lower()))
    settings: dict[str, Any] = {"language": default}
    if languages.in_subdir:
        settings["default_language_in_subdir"] = True
    settings["languages"] = {tag: tables[tag] for tag in ordered}
    return settings


def left_out(languages: SiteLanguages, used: set[str]) -> list[str]:
    """The tags of the old site's languages (its config's) that no imported talk is
    in, and that it does not disable: not in the new `[languages]`."""
    have = {tag.lower() for tag in used if tag} | {languages.default_tag().lower()}
    return sorted(tag for key, tag in languages.tags.items()
                  if tag.lower() not in have and key not in languages.disabled)
