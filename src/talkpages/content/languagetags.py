"""Language tags (BCP 47, RFC 5646) as browsers read them: the site's `language` is the
pages' `lang` and the locale site.js gives `Intl`, which throws on every page for a tag
it cannot read (`en_US`). Read subtag by subtag, in time linear in the tag's length,
which is bounded before it is read."""

from __future__ import annotations

import re
from typing import Any


class Invalid(ValueError):
    """A value that is wrong, with the value it was probably meant to be."""

    def __init__(self, message: str, hint: str | None = None) -> None:  # hint: the value meant
        super().__init__(message)
        self.hint = hint


MAX_LANGUAGE = 100
_SUBTAG = re.compile(r"[a-z0-9]{1,8}")
_VARIANT = re.compile(r"[a-z0-9]{5,8}|[0-9][a-z0-9]{3}")


def language_tag(value: Any) -> str:
    """A BCP 47 language tag (RFC 5646) as browsers read it (UTS #35: no extended language
    subtag like `zh-yue`, no private use alone, no irregular `i-klingon`): the pages'
    `lang`, and the locale site.js gives `Intl`, which throws on every page for `en_US`."""
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    text = value.strip()
    if (why := _language_problem(text)) is None:
        return text
    better, shown = _language_suggestion(text), text if len(text) <= 40 else text[:40] + "…"
    raise Invalid(f"{shown!r} is not a BCP 47 language tag" + (f": {why}" if why else ""),
                   f"did you mean {better!r}?" if better else
                   "a tag such as \"en\", \"en-US\", \"pt-BR\" or \"zh-Hant-TW\"")


def _language_problem(tag: str) -> str | None:
    """None for a tag browsers read; else why not ("": the syntax says it all). Read
    subtag by subtag: language[-script][-region][-variant]*[-extension]*[-x-private]."""
    if len(tag) > MAX_LANGUAGE:
        return f"it is longer than {MAX_LANGUAGE} characters"
    tags = tag.lower().split("-")
    if not tag.isascii() or not all(_SUBTAG.fullmatch(t) for t in tags) \
            or not tags[0].isalpha() or len(tags[0]) in (1, 4):
        return ""
    tags.append("")  # the end, which no subtag matches
    if len(tags[1]) == 3 and tags[1].isalpha():
        return (f"{tags[1]!r} after {tags[0]!r} is an extended language subtag, which "
                "browsers do not read")
    at = 2 if len(tags[1]) == 4 and tags[1].isalpha() else 1  # a script
    if len(tags[at]) == 2 and tags[at].isalpha() or len(tags[at]) == 3 and tags[at].isdigit():
        at += 1  # a region
    seen: set[str] = set()  # variants, then the singletons of extensions
    while _VARIANT.fullmatch(tags[at]) or len(tags[at]) == 1 and tags[at] != "x":
        end = at + 1
        while len(tags[at]) == 1 and len(tags[end]) > 1:
            end += 1
        if tags[at] in seen:
            return f"{tags[at]!r} is given twice"
        seen.add(tags[at])
        if len(tags[at]) == 1 and (end == at + 1 or not _extension_fits(tags[at],
                                                                       tags[at + 1:end])):
            return ""
        at = end
    if tags[at] == "x" and tags[at + 1]:
        at = len(tags) - 1  # private use: any subtags
    return None if at == len(tags) - 1 else ""


def _extension_fits(singleton: str, tags: list[str]) -> bool:
    """`u` (attributes, then keys of two characters, the second a letter, with values) and
    `t` (a language, then fields: a letter and a digit, and values) as UTS #35 has them."""
    if singleton == "u":
        return all(len(t) > 2 or t[1].isalpha() for t in tags)
    at = 0
    if singleton == "t" and tags[0].isalpha():  # its language, up to the first field
        while at < len(tags) and not (len(tags[at]) == 2 and tags[at][1].isdigit()):
            at += 1
        if _language_problem("-".join(tags[:at])) is not None:
            return False
    while singleton == "t" and at < len(tags):
        if not (len(tags[at]) == 2 and tags[at][0].isalpha() and tags[at][1].isdigit()):
            return False
        end = at + 1
        while end < len(tags) and len(tags[end]) > 2:
            end += 1
        if end == at + 1:
            return False
        at = end
    return True


def _language_suggestion(text: str) -> str | None:
    """`en_US` -> `en-US`, `EN-us.UTF-8` (a POSIX locale) -> `en-US`, `zh-yue` -> `yue`,
    in the usual case, when that gives a tag browsers read."""
    parts = re.sub(r"[.@].*", "", text[:MAX_LANGUAGE]).replace("_", "-").split("-")
    if len(parts) > 1 and len(parts[0]) in (2, 3) and len(parts[1]) == 3 and \
            (parts[0] + parts[1]).isalpha():
        parts = parts[1:]  # an extended language subtag is the language itself
    if _language_problem("-".join(parts)) is not None:
        return None
    cased = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 1 or len(cased) > 2:
            cased += [p.lower() for p in parts[len(cased):]]
            break
        cased.append(part.title() if len(cased) == 1 and len(part) == 4 and part.isalpha()
                     else part.upper() if len(part) == 2 else part.lower())  # script, region
    return "-".join(cased) if "-".join(cased) != text else None
