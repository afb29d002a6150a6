"""The site speaks its language: the catalogue of every message a visitor sees, the
catalogues that ship, and translations compiled into the templates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from talkpages.content.messages import (
    LOCALES,
    catalogue_name,
    cldr_locale,
    messages_for,
    shipped_catalogues,
)

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _extracted() -> set[str]:
    """Every message of the code, the built-in templates and scripts, as Babel extracts them with
    the project's own mapping (src/talkpages/locales/babel.cfg)."""
    found: set[str] = set()
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    jinja = {"trim_blocks": "true", "lstrip_blocks": "true"}
    for folder, method, pattern, options in (
            (ROOT / "src" / "talkpages", "python", "**.py", {}),
            (ROOT / "layouts", "jinja2", "**.html", jinja),
            (ROOT / "layouts", "jinja2", "**.txt", jinja),  # announcements: announce/
            (ROOT / "assets", "javascript", "**.js", {})):
        for _file, _line, message, _comments, _context in extract_from_dir(
                folder, [(pattern, method)], options_map={pattern: options},
                keywords=keywords):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def _catalogue(path: Path) -> dict[str, object]:
    with open(path, "rb") as handle:
        catalog = read_po(handle)
    return {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in catalog if m.id}


def test_the_catalogue_lists_every_message_the_code_and_templates_say() -> None:
    """A text marked in a template or the code but missing from talkpages.pot is one no
    translator sees; run the extraction of docs/languages.md (*For translators*) to bring it in."""
    listed = set(_catalogue(LOCALES / "talkpages.pot"))
    extracted = _extracted()
    assert extracted - listed == set(), "not in talkpages.pot"
    assert listed - extracted == set(), "in talkpages.pot, said nowhere"


@pytest.mark.parametrize("name", shipped_catalogues())
def test_a_shipped_catalogue_translates_every_message_with_its_placeholders(name: str) -> None:
    wanted = _catalogue(LOCALES / "talkpages.pot")
    have = _catalogue(LOCALES / f"{name}.po")
    missing = [m for m in wanted if m not in have or not _strings(have[m])]
    assert not missing, f"{name}.po lacks {missing}"
    for message_id, message in have.items():
        if message_id not in wanted:
            continue
        for text in _strings(message):
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(message_id)) | \
                {"num"}, (name, message_id, text)
        assert not getattr(message, "fuzzy", False), (name, message_id)


def _strings(message: object) -> list[str]:
    string = getattr(message, "string", "")
    texts = list(string) if isinstance(string, (tuple, list)) else [string]
    return [t for t in texts if t]


def test_english_is_the_code_s_own() -> None:
    messages = messages_for("en-GB")
    assert messages.gettext("Upcoming") == "Upcoming"
    assert messages.ngettext("%(num)d talk", "%(num)d talks", 2) == "%(num)d talks"
    assert catalogue_name("en-US") is None


def test_a_tag_finds_the_most_precise_catalogue_and_cldr_locale() -> None:
    assert str(cldr_locale("de-AT")) == "de_AT"
    assert str(cldr_locale("tlh")) == "en"  # no CLDR locale: English
    assert cldr_locale("ar").character_order == "right-to-left"
    assert messages_for("he").direction == "rtl"
    assert messages_for("fr").direction == "ltr"


def test_a_site_override_wins_and_names_cldr_plural_categories() -> None:
    messages = messages_for("ru", {"Upcoming": "Скоро",
                                   "%(num)d talk": {"one": "%(num)d доклад",
                                                    "few": "%(num)d доклада",
                                                    "many": "%(num)d докладов",
                                                    "other": "%(num)d доклада"}})
    assert messages.gettext("Upcoming") == "Скоро"
    counted = {n: messages.ngettext("%(num)d talk", "%(num)d talks", n) % {"num": n}
               for n in (1, 3, 5, 21)}
    assert counted == {1: "1 доклад", 3: "3 доклада", 5: "5 докладов", 21: "21 доклад"}
