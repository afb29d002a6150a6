"""The old site's settings that a new `talkpages.toml` carries over.

From a Hugo config: `title` (the default language's, else the site's), `baseURL` ->
`base_url`, and the language of the pages (`languageCode` of the default language,
else the site's `languageCode` if it is that language, else `defaultContentLanguage`:
the talks imported are in that language) -> `language`, so a Russian site's pages say
`lang="ru"`; with talks of several languages, `language` and `[languages]` as
translations.py makes them.
From academicpages' `_config.yml`: `title`, `url` + `baseurl` -> `base_url`, `locale`
-> `language`. Then the zone of naive times (`timezone`) and, with `--unsafe-html`,
`unsafe_html = true`; without it, `embed_videos = true` when a talk's video player
became its recording (embedded.py), which the page then plays as the old site did, and
`embed_slides = true` when a deck's player became its slides.

A new site gets them in a new talkpages.toml. An existing one is never changed (the
report names what it lacks), but for one an earlier import wrote and no one has added
to since, which `--replace` writes again with the new options.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...content.config import CONFIG_NAME, OPTIONS, Config
from ...content.frontmatter import FrontMatterError, parse_toml
from ...diagnostics import Diagnostic
from ..safefile import Refused, read_existing
from ..scaffold import toml
from .languages import site_languages
from .writing import write_or_replace

ORDER = ("title", "base_url", "language", "timezone", "unsafe_html", "embed_videos",
         "embed_slides", "default_language_in_subdir", "languages")
HEADER = "# Written by `talkpages import` from the old site's settings."
MAX_CONFIG = 1024 * 1024
_LANGUAGE = re.compile(r"^([A-Za-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))?$")


def carried(kind: str, config: dict[str, Any], where: Path | None,
            problems: list[Diagnostic]) -> dict[str, Any]:
    """The settings of the old site's config (its keys lower-cased) in ours."""
    found: dict[str, Any] = {"title": config.get("title")}
    if kind == "hugo":
        languages = site_languages(config)
        found["title"] = languages.table(languages.default).get("title") or found["title"]
        found["base_url"] = config.get("baseurl")
        found["language"] = _hugo_language(config)
    else:
        url, base = config.get("url"), config.get("baseurl")
        if isinstance(url, str) and url.strip():
            found["base_url"] = url.strip().rstrip("/") + "/" + (
                base.strip().strip("/") + "/" if isinstance(base, str) and base.strip("/ ")
                else "")
        found["language"] = config.get("locale")
    settings = {}
    for key, value in found.items():
        if value in (None, "", "/"):
            continue
        if key == "language":
            value = language_tag(value)
            if value is None:
                continue
        try:
            settings[key] = OPTIONS[key](value)
        except ValueError as exc:
            problems.append(Diagnostic(where, f"the old site's {key} is not carried over: "
                                       f"{exc}", severity="warning"))
    return settings


def _hugo_language(config: dict[str, Any]) -> Any:
    """The language of the talks imported, which are the default language's: the
    `languageCode` of that language, or the site's when it is that language (`ru-ru`
    for `ru`), else `defaultContentLanguage` itself."""
    default = str(config.get("defaultcontentlanguage") or "").strip().lower()
    languages = config.get("languages")
    if isinstance(languages, dict):  # Hugo's default language is "en"
        own = next((v for k, v in languages.items() if str(k).lower() == (default or "en")),
                   None)
        if isinstance(own, dict):
            code = next((v for k, v in own.items() if str(k).lower() == "languagecode"), None)
            if code:
                return code
    code = config.get("languagecode")
    tag = language_tag(code)
    if not default or (tag is not None and tag.split("-")[0] == default.split("-")[0]):
        return code
    return default


def language_tag(value: Any) -> str | None:
    """`ru`, `en-us`, `pt_BR` -> `ru`, `en-US`, `pt-BR`; None for what is no language."""
    match = _LANGUAGE.match(value.strip()) if isinstance(value, str) else None
    if match is None:
        return None
    language, region = match.group(1).lower(), match.group(2)
    if region is None:
        return language
    return f"{language}-{region.upper() if len(region) == 2 else region}"


def stated(site_dir: Path) -> tuple[set[str], bool] | None:
    """The keys the site's talkpages.toml sets, and whether an import wrote it and
    nothing else was added since (its first line, and only keys an import writes);
    None when it cannot be read as a plain TOML file of the site."""
    raw = read_existing(site_dir, site_dir / CONFIG_NAME, MAX_CONFIG)
    try:
        data = parse_toml(raw.decode("utf-8-sig")) if raw is not None else None
    except (UnicodeDecodeError, FrontMatterError):
        data = None
    if data is None or raw is None:
        return None
    ours = raw.decode("utf-8-sig").startswith(HEADER) and set(data) <= set(ORDER)
    return set(data), ours


def write_new(site_dir: Path, settings: dict[str, Any], problems: list[Diagnostic],
              replace: bool = False) -> bool:
    """A new talkpages.toml with `settings`; False if one exists (it is left alone),
    but with `replace`, which writes over one an import wrote (`stated`)."""
    path = site_dir / CONFIG_NAME
    ordered = {key: settings[key] for key in ORDER if key in settings}
    lines = [HEADER]
    if "timezone" in ordered:
        lines.append("# timezone: the zone of the talks' times written without one.")
    if ordered.get("languages"):
        lines.append("# languages: those of the talks; a translation is talks/<slug>.<tag>.md "
                     "(or index.<tag>.md).")
    if ordered.get("unsafe_html"):
        lines.append("# unsafe_html: raw HTML of the talks is let through; keep it only "
                     "while every author of a talk file is trusted.")
    if ordered.get("embed_videos") or ordered.get("embed_slides"):
        lines.append("# embed_videos, embed_slides: the talks' recordings and slides show in "
                     "the page, as the old site's players did (loaded on a click).")
    try:
        state = write_or_replace(site_dir, path, ("\n".join(lines) + "\n"
                                                  + toml(ordered)).encode("utf-8"), replace)
    except Refused as exc:
        problems.append(exc.diagnostic())
        return False
    except OSError as exc:
        problems.append(Diagnostic(path, f"cannot write the site config: {exc}"))
        return False
    return state in ("created", "replaced")


def lacking(existing: Config, settings: dict[str, Any]) -> dict[str, Any]:
    """What of `settings` an existing config has not set (it keeps its defaults), and
    the `[languages]` tables of the talks' languages it has not."""
    default = Config()
    found = {key: value for key, value in settings.items()
             if key not in ("timezone", "languages")
             and getattr(existing, key) == getattr(default, key)
             and getattr(existing, key) != value}
    have = {lang.tag.lower() for lang in existing.languages}
    tables = {tag: table for tag, table in settings.get("languages", {}).items()
              if tag.lower() not in have}
    if tables:
        found["languages"] = tables
    return found
