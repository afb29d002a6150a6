"""The site's own texts: `i18n/<language>.toml`, where Hugo keeps a site's translations.

A site changes what its pages say, or speaks a language no catalogue of talkpages
ships, with a file named after its language: `i18n/de.toml`, `i18n/pt-br.toml` (a
file of the language alone, `i18n/pt.toml`, is read too, the closer one winning). A
key is the English text as talkpages writes it, so that what is changed is what the
page shows, with no list of names to learn:

    "Upcoming" = "Demnächst"
    "%(num)d talk" = { one = "%(num)d Vortrag", other = "%(num)d Vorträge" }

A text with a count gives CLDR's plural categories (zero, one, two, few, many,
other), as Hugo's files do. A key that is no text of talkpages is a warning, with the
text it was probably meant to be."""

from __future__ import annotations

import difflib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from ..diagnostics import Diagnostic
from .characters import in_toml_file
from .frontmatter import FrontMatterError, parse_toml, toml_key_lines
from .links import read_settings
from .messages import (
    ENGLISH,
    LOCALES,
    Override,
    catalogue_name,
    cldr_locale,
    shipped_catalogues,
)

TEXTS_DIR = "i18n"
CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def read_site_texts(site_dir: Path, language: str) -> tuple[dict[str, Override], list[Diagnostic]]:
    """The site's texts for `language` (a checked BCP 47 tag), from its least to its
    most precise file, and every problem found in them."""
    texts: dict[str, Override] = {}
    problems: list[Diagnostic] = []
    for name in reversed(_file_names(language)):
        path = site_dir / TEXTS_DIR / f"{name}.toml"
        if not os.path.lexists(path):
            continue
        text, problem = read_settings(path, site_dir)  # never through a link out of the site
        if problem is not None:
            problems.append(problem)
        if text is None:
            continue
        try:
            data = parse_toml(text)
        except FrontMatterError as exc:
            problems.append(Diagnostic(path, exc.message.replace("TOML front matter", "TOML"),
                                       exc.line, exc.column, hint=exc.hint))
            continue
        problems += in_toml_file(path, data, text)
        texts.update(_checked(path, data, toml_key_lines(text.split("\n")), problems))
    return texts, problems


def untranslated(path: Path, language: str, texts: dict[str, Override],
                 line: int | None) -> list[Diagnostic]:
    """A warning for a language talkpages ships no catalogue for, unless the site's own
    texts say everything: its pages speak English where they do not."""
    if cldr_locale(language).language == ENGLISH or catalogue_name(language) is not None:
        return []
    missing = known_messages() - set(texts)
    if not missing:
        return []
    return [Diagnostic(
        path, f"talkpages has no translation of its pages into {language!r}: "
        f"{len(missing)} of its {len(known_messages())} texts stay English "
        f"(dates are written as {cldr_locale(language).english_name or language} writes them)",
        line, severity="warning",
        hint=f"translate them in {TEXTS_DIR}/{language.lower()}.toml (talkpages' "
        "documentation, *Languages*), "
        f"or choose one of: {', '.join(shipped_languages())}")]


def shipped_languages() -> list[str]:
    """The languages whose catalogues ship, as tags: en, de, pt-BR, zh-Hans…"""
    return ["en"] + [name.replace("_", "-") for name in shipped_catalogues()]


def _file_names(language: str) -> list[str]:
    """`de-AT` -> ["de-at", "de"]: the tag, then each shorter form of it, lowercase."""
    parts = language.lower().split("-")
    return ["-".join(parts[:end]) for end in range(len(parts), 0, -1)]


def _checked(path: Path, data: dict[str, Any], lines: dict[str, int],
             problems: list[Diagnostic]) -> dict[str, Override]:
    known = known_messages()
    clean: dict[str, Override] = {}
    for key, value in data.items():
        line = lines.get(key.lower())
        if isinstance(value, dict):
            wrong = [k for k, v in value.items() if k not in CATEGORIES or not isinstance(v, str)]
            if wrong or not value:
                problems.append(Diagnostic(
                    path, f"the text for {_shown(key)} is a table, but not one of plural "
                    f"forms ({', '.join(CATEGORIES)}) with a text each", line,
                    hint="give a text, or a table such as { one = \"…\", other = \"…\" }"))
                continue
            clean[key] = {k: v for k, v in value.items()}
        elif isinstance(value, str):
            clean[key] = value
        else:
            problems.append(Diagnostic(path, f"the text for {_shown(key)} is not a text", line,
                                       hint="write it in quotes"))
            continue
        if key not in known:
            close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.75)
            problems.append(Diagnostic(
                path, f"{_shown(key)} is no text of talkpages' pages: nothing shows it", line,
                severity="warning", hint=f"did you mean {close[0]!r}?" if close else
                "a key is the English text as the page writes it (talkpages' documentation, "
                "*Languages*)"))
    return clean


def _shown(key: str) -> str:
    return repr(key if len(key) <= 60 else key[:60] + "…")


@lru_cache(maxsize=1)
def known_messages() -> frozenset[str]:
    """Every text talkpages' pages, feeds and scripts say: the msgids of talkpages.pot."""
    with open(LOCALES / "talkpages.pot", "rb") as handle:
        catalog = read_po(handle)
    return frozenset(m.id[0] if isinstance(m.id, (tuple, list)) else m.id
                     for m in catalog if m.id)
