"""Problems found in a site, with the place they were found.

Every stage reports problems as `Diagnostic` values instead of raising, so that
one build can report all of them at once. The text form is the one compilers use,
`path:line:col: error: message`, because editors and CI logs already know how to
turn it into a link to the spot.

Messages quote what the site holds (keys, values, file names), and the site may be a
stranger's: a key holding ESC would reach the terminal as a command to it (colours, a
cleared screen, a changed title), a newline could forge a message of its own line, and
half of a surrogate pair (a file name that is not UTF-8) cannot be printed at all.
`printable` spells such characters as Python's repr does; every message, hint, cause
and path goes through it here, and the console passes everything it prints through it
once more.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning", "note"]  # a note: information, never a failure

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, keep: str = "") -> str:
    """`text` with control characters (C0, DEL, C1) and halves of surrogate pairs spelled
    as escapes (`\\x1b`, `\\n`, `\\ud800`), but those in `keep`."""
    def spell(match: re.Match[str]) -> str:
        char = match.group(0)
        if char in keep:
            return char
        code = ord(char)
        return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")

    return _UNPRINTABLE.sub(spell, text)


@dataclass(frozen=True)
class Diagnostic:
    path: Path | None
    message: str
    line: int | None = None
    column: int | None = None
    severity: Severity = "error"
    hint: str | None = None
    causes: tuple[str, ...] = field(default=())

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def location(self) -> str:
        if self.path is None:
            return "talkpages"
        text = display_path(self.path)
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        return text

    def format(self) -> str:
        """One line for the problem, one for each cause and the hint; no text of the site
        can break a line or reach the terminal as a control character."""
        lines = [f"{self.location()}: {self.severity}: {printable(self.message)}"]
        lines += [f"  caused by: {printable(cause)}" for cause in self.causes]
        if self.hint:
            lines.append(f"  hint: {printable(self.hint)}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "path": display_path(self.path) if self.path else None,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "message": printable(self.message),
            "hint": printable(self.hint) if self.hint else self.hint,
            "causes": [printable(cause) for cause in self.causes],
        }


    def to_github(self) -> str:
        """A GitHub Actions workflow command that annotates the file at the line: the
        message, then the hint and causes on lines of their own. Values are escaped as
        the runner reads them (`%`, line breaks; `,` and `:` in properties too)."""
        kind = {"error": "error", "warning": "warning"}.get(self.severity, "notice")
        place = []
        if self.path is not None:
            place.append(f"file={_github(display_path(self.path), True)}")
            if self.line is not None:
                place.append(f"line={self.line}")
                if self.column is not None:
                    place.append(f"col={self.column}")
        place.append(f"title={_github('talkpages ' + self.severity, True)}")
        text = "\n".join([printable(self.message),
                          *(f"caused by: {printable(c)}" for c in self.causes),
                          *([f"hint: {printable(self.hint)}"] if self.hint else [])])
        return f"::{kind} {','.join(place)}::{_github(text, False)}"


def _github(text: str, property_value: bool) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(",", "%2C").replace(":", "%3A") if property_value else text


def display_path(path: Path) -> str:
    """The path relative to the working folder when it is below it, else as it is; for
    showing only (a file name may hold any character but `/` and NUL)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return printable(str(path))
    return printable(str(path) if relative.startswith("..") else relative)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int]:
    return (str(d.path or ""), d.line or 0, d.column or 0)


class BuildError(Exception):
    """Raised by a stage that cannot go on; carries every problem found so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics
