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
"""

from __future__ import annotations

import re
from typing import Any

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
