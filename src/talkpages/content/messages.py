"""What the site says to its visitors, in the site's language.

Every word of the interface (a page's labels, a feed's "CANCELLED.", a script's counts)
is written in English in the code and the templates, marked `_("…")`, and looked up
in a gettext catalogue of the site's language: `src/talkpages/locales/<locale>.po`,
managed with Babel (`talkpages.pot` is the list of every message, extracted from the
templates and the code; docs/languages.md). A site may override any message, or
speak a language no catalogue ships, in `i18n/<language>.toml` (Hugo's place for
them; sitetexts.py): the English text as the key, so that what is changed is what the
page shows.

How the templates and the scripts are given these messages: output/translated.py
(a template's written texts are translated as it is compiled).

Plural forms: a catalogue's own `Plural-Forms` rule picks among its forms; a site's
override gives CLDR's categories (`one`, `few`, `many`, `other`…), as Hugo's do, and
CLDR's rule of the language picks among them.
"""

from __future__ import annotations

import gettext
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent.parent / "locales"
ENGLISH = "en"


def N_(text: str) -> str:  # noqa: N802 - gettext's name for it
    """A text to be translated where it is shown, marked for the catalogue here."""
    return text

Override = str | Mapping[str, str]  # a text, or CLDR's plural categories to texts


@dataclass(frozen=True)
class Messages:
    """The site's language, its CLDR locale and what it says in it."""

    language: str  # the site's BCP 47 tag, as its pages' `lang`
    locale: Locale
    translations: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    plural_index: Callable[[int], int] = lambda count: int(count != 1)
    overrides: Mapping[str, Override] = field(default_factory=dict)
    digest: str = ""  # of the catalogue and the overrides: compiled templates' key

    def gettext(self, text: str) -> str:
        found = self.overrides.get(text)
        if isinstance(found, str):
            return found
        if found is not None:
            return found.get("other") or next(iter(found.values()), text)
        translated = self.translations.get(text)
        if isinstance(translated, tuple):
            translated = translated[0]
        return translated or text

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        found = self.overrides.get(singular)
        if isinstance(found, str):
            return found
        if found is not None:
            category = self.locale.plural_form(count)
            return found.get(category) or found.get("other") or plural
        forms = self.translations.get(singular)
        if isinstance(forms, tuple):
            index = self.plural_index(count)
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
        return singular if count == 1 else plural

    @property
    def direction(self) -> str:
        """`rtl` for a language written right to left (ar, he, fa, ur…), else `ltr`."""
        return "rtl" if self.locale.character_order == "right-to-left" else "ltr"


def messages_for(language: str, overrides: Mapping[str, Override] | None = None) -> Messages:
    """The messages of a site in `language` (a BCP 47 tag, already checked), with the
    site's own `overrides`. A language CLDR does not know is written in English, with
    English dates (and a warning: sitetexts.untranslated)."""
    locale = cldr_locale(language)
    name, translations, plural_expr = _catalogue(catalogue_name(language))
    overrides = dict(overrides or {})
    digest = hashlib.sha256(repr((str(locale), name, sorted(translations.items()),
                                  sorted((k, str(v)) for k, v in overrides.items())))
                            .encode("utf-8")).hexdigest()[:16]
    return Messages(language, locale, translations, _plural_rule(plural_expr), overrides,
                    digest)


_BY_SETTINGS: dict[int, tuple[Any, Messages]] = {}


def messages_of(config: Any) -> Messages:
    """The messages of a site's settings (`language`, and the site's own texts, `i18n`),
    made once for each: every talk read asks for them."""
    known = _BY_SETTINGS.get(id(config))
    if known is not None and known[0] is config:
        return known[1]
    messages = messages_for(config.language, getattr(config, "i18n", None))
    if len(_BY_SETTINGS) >= 16:
        _BY_SETTINGS.clear()
    _BY_SETTINGS[id(config)] = (config, messages)  # the settings held: ids stay theirs
    return messages


@lru_cache(maxsize=1)
def english() -> Messages:
    """The messages of a site that says nothing of its language."""
    return messages_for(ENGLISH)


def cldr_locale(language: str) -> Locale:
    """CLDR's locale for a tag: `de-AT` is Austrian German; one CLDR lacks, English."""
    parts = language.split("-x-")[0].replace("-", "_")
    while parts:
        try:
            return Locale.parse(parts)
        except (UnknownLocaleError, ValueError):
            parts = parts.rpartition("_")[0]
    return Locale.parse(ENGLISH)


def catalogue_name(language: str) -> str | None:
    """Which shipped catalogue speaks `language`: the most precise of its tag's locale
    (`pt_BR` for pt-BR, `zh_Hant` for zh-TW, `de` for de-AT); None for English, whose
    messages are the code's own, and for a language none speaks."""
    locale = cldr_locale(language)
    if locale.language == ENGLISH:
        return None
    script = locale.script or _likely_script(locale)
    candidates = [f"{locale.language}_{script}_{locale.territory}" if script and locale.territory
                  else "", f"{locale.language}_{script}" if script else "",
                  f"{locale.language}_{locale.territory}" if locale.territory else "",
                  locale.language]
    return next((name for name in candidates if name and (LOCALES / f"{name}.po").is_file()),
                None)


def shipped_catalogues() -> list[str]:
    """The locales a catalogue ships for, `de`, `pt_BR`, `zh_Hans`…"""
    return sorted(path.stem for path in LOCALES.glob("*.po"))


def _likely_script(locale: Locale) -> str | None:
    """The script a tag without one is written in (CLDR's likely subtags): zh-TW is
    Traditional Chinese, zh-CN Simplified."""
    try:
        likely = Locale.parse(f"{locale.language}_{locale.territory}" if locale.territory
                              else locale.language, resolve_likely_subtags=True)
        full = Locale.parse(str(likely))
        return full.script or _LIKELY.get(str(likely))
    except (UnknownLocaleError, ValueError):
        return None


# Chinese is the language whose catalogues differ by script; Babel resolves `zh_TW` to
# `zh_TW` (no script), so the script of the territories that write it is named here.
_LIKELY = {"zh_TW": "Hant", "zh_HK": "Hant", "zh_MO": "Hant", "zh_CN": "Hans",
           "zh_SG": "Hans", "zh": "Hans"}


@lru_cache(maxsize=8)
def _catalogue(name: str | None) -> tuple[str | None, dict[str, Any], str]:
    """A shipped catalogue's translations (a text, or a tuple of plural forms) and its
    `Plural-Forms` rule; English (None): none, and English's rule."""
    if name is None:
        return None, {}, "(n != 1)"
    with open(LOCALES / f"{name}.po", "rb") as handle:
        catalog = read_po(handle, locale=name)
    translations: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = tuple(message.string) if isinstance(message.string, (tuple, list)) else ()
            if any(forms):
                translations[message.id[0]] = forms
        elif isinstance(message.id, str) and message.string:
            translations[message.id] = message.string
    return name, translations, catalog.plural_expr


@lru_cache(maxsize=16)
def _plural_rule(expression: str) -> Callable[[int], int]:
    """A catalogue's Plural-Forms rule as a function. Only shipped catalogues have one
    (a site's overrides name CLDR's categories instead), and the standard library's
    reader checks the rule's tokens before it makes it a function."""
    return gettext.c2py(expression)  # type: ignore[attr-defined, no-any-return]


def language_name(tag: str, in_language: str) -> str:
    """A language's name in another (`es` in German: "Spanisch"), or in itself for a
    language switcher (`de` in `de`: "Deutsch"), first letter capitalised as a label."""
    name = cldr_locale(tag).get_display_name(cldr_locale(in_language)) or tag
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=1)
def _named() -> dict[str, str]:
    """Language codes by their English name, lower case (`spanish` -> `es`)."""
    names = Locale.parse(ENGLISH).languages
    return {name.lower(): code.replace("_", "-") for code, name in names.items()
            if "_" not in code}


def language_named(text: str) -> str:
    """The tag of a language written by its English name (`Spanish`), or ""."""
    return _named().get(text.strip().lower()[:40], "")
