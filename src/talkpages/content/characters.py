"""Characters that talk text cannot hold.

TOML and YAML spell any character as an escape (`"\\u0007"`, `"\\x1b"`, `"\\0"`), and a
body may hold any character but NUL. XML 1.0 forbids the C0 control characters, so a
page or `feed.xml` holding one is no longer well-formed; DEL and the C1 controls
(U+007F to U+009F) are parse errors in HTML (the Nu checker flags them); RFC 5545
forbids all of them in calendar text. The markers the build puts into fragments of
pages and feeds, to be replaced afterwards, are spelled with NUL, so text holding them
could pass for one. U+FFFE, U+FFFF and halves of surrogate pairs (YAML's `"\\ud800"`)
are not XML characters either, and the last cannot even be written as UTF-8. Tab, line
feed and carriage return are ordinary text.

They are refused, keys included, with the field and its line, rather than dropped:
what the author meant by them cannot be guessed.

So are whole numbers beyond 64 bits, in the same walk through the values. TOML's
integers are 64-bit, but tomllib reads any length and YAML has no limit; a hex number of
5,000 digits is read fine and then cannot be written in decimal (Python refuses to
convert more than 4,300 digits), which ended the build in `talks.json` or a template.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from .frontmatter import FrontMatter

FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_SHORT_ESCAPES = {"\x00": "0", "\x07": "a", "\x08": "b", "\x0b": "v", "\x0c": "f",
                  "\x1b": "e", "\x85": "N"}

LARGEST = 2 ** 63  # whole numbers are 64-bit, as in TOML
LIMIT = 20  # messages a file, for each of its front matter and its body
Place = tuple[str | int, ...]  # keys and list positions, from the top of the data


def describe(char: str) -> str:
    """What the character is, for a message: `a control character (U+0007)`."""
    code = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return f"half of a surrogate pair ({code})"
    if char in "\ufffe\uffff":
        return f"the non-character {code}"
    return f"a control character ({code})"


def shown(text: str) -> str:
    """`text` with every forbidden character spelled as an escape, safe to print."""
    return FORBIDDEN.sub(lambda match: f"\\u{ord(match.group(0)):04x}", text)


def field_name(place: Place) -> str:
    """`links[2].name`: keys joined by dots, list items counted from 1."""
    name = ""
    for part in place:
        if isinstance(part, int):
            name += f"[{part + 1}]"
        else:
            name += ("." if name else "") + shown(part)
    return name


def find(data: Any) -> Iterator[tuple[Place, str | int, bool]]:
    """(where, the first forbidden character, whether it is in a key) for every string
    of `data` that holds one, key by key, and (where, the number, False) for every whole
    number beyond 64 bits. Without recursion: nesting as deep as a parser allows."""
    stack: list[tuple[Place, Any]] = [((), data)]
    while stack:
        place, value = stack.pop()
        if isinstance(value, str):
            match = FORBIDDEN.search(value)
            if match:
                yield place, match.group(0), False
            continue
        if isinstance(value, dict):
            items = [(key, (*place, str(key)), item) for key, item in value.items()]
            for key, where, _ in items:
                match = FORBIDDEN.search(key) if isinstance(key, str) else None
                if match:
                    yield where, match.group(0), True
            children = [(where, item) for _, where, item in items]
        elif isinstance(value, (list, tuple, set, frozenset)):
            ordered = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
            children = [((*place, number), item) for number, item in enumerate(ordered)]
        else:
            if isinstance(value, int) and not -LARGEST <= value < LARGEST:
                yield place, value, False
            continue
        stack += reversed(children)


def in_front_matter(path: Path, fm: FrontMatter) -> list[Diagnostic]:
    """Every key and value of the front matter that holds a forbidden character, at the
    line of its field."""
    found: list[Diagnostic] = []
    more = 0
    for place, char, in_key in find(fm.data):
        if len(found) == LIMIT:
            more += 1
            continue
        field = field_name(place)
        if isinstance(char, int):
            found.append(Diagnostic(
                path, f"`{field}` is a whole number of {char.bit_length()} bits, too large "
                "for pages and calendar feeds", _line(fm, place, ""), 1, hint="whole numbers "
                "have at most 19 digits (64 bits); write a longer one as text, in quotes"))
            continue
        where = f"the key `{field}`" if in_key else f"`{field}`"
        found.append(Diagnostic(
            path, f"{where} holds {describe(char)}, which pages and calendar feeds cannot "
            "carry", _line(fm, place, char), 1, hint="remove it: in the file it is an "
            f"escape such as `\\u{ord(char):04x}`"))
    return found + _more(path, more, found)


def in_toml_file(path: Path, data: dict[str, Any], text: str) -> list[Diagnostic]:
    """The same for `speakers.toml` and `talkpages.toml`, whose names, bios and titles
    reach the pages and feeds as talk text does."""
    return in_front_matter(path, FrontMatter(data, "toml", "", 0, tuple(text.split("\n"))))


def in_body(path: Path, fm: FrontMatter) -> list[Diagnostic]:
    """Every line of the body that holds a forbidden character, with its column."""
    found: list[Diagnostic] = []
    more = 0
    for number, line in enumerate(fm.body.split("\n"), fm.body_line):
        match = FORBIDDEN.search(line)
        if match is None:
            continue
        if len(found) == LIMIT:
            more += 1
            continue
        found.append(Diagnostic(
            path, f"the body holds {describe(match.group(0))}, which pages and calendar "
            "feeds cannot carry", number, match.start() + 1,
            hint="remove it: an editor may show it as a box, or as ^ and a letter"))
    return found + _more(path, more, found)


def _more(path: Path, count: int, shown_ones: list[Diagnostic]) -> list[Diagnostic]:
    """One message for what is past the first LIMIT: a file of nothing but escapes
    would otherwise bury the other files' messages."""
    if not count:
        return []
    return [Diagnostic(path, f"{count} more {'place' if count == 1 else 'places'} of the "
                       "file hold such characters", shown_ones[-1].line, 1)]


@lru_cache(maxsize=64)
def _escape(char: str) -> re.Pattern[str]:
    """`char` spelled as a TOML or YAML escape."""
    code = ord(char)
    spellings = [f"u{code:04x}", f"U{code:08x}", f"x{code:02x}"]
    if char in _SHORT_ESCAPES:
        spellings.append(_SHORT_ESCAPES[char])
    return re.compile(r"\\(?:" + "|".join(spellings) + ")", re.IGNORECASE)


def _line(fm: FrontMatter, place: Place, char: str) -> int:
    """The line of the entry of a `[[table]]`, else of the key or of the nearest table
    around it, else (a key whose own name holds the character) the first line that
    spells the character as an escape."""
    if len(place) > 1 and isinstance(place[1], int):
        headers = fm.table_lines.get(str(place[0]).lower(), [])
        if place[1] < len(headers):
            return headers[place[1]]
    keys = [part for part in place if isinstance(part, str)]
    for count in range(len(keys), 0, -1):
        line = fm.line_of(".".join(keys[:count]))
        if line is not None:
            return line
    if not char:
        return 1
    escape = _escape(char)
    return next((number for number, line in enumerate(fm.head, 1) if escape.search(line)),
                1)
