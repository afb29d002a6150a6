"""Problems found in a site, with the place they were found.

Every stage reports problems as `Diagnostic` values instead of raising, so that
one build can report all of them at once. The text form is the one compilers use,
`path:line:col: error: message`, because editors and CI logs already know how to
turn it into a link to the spot.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning"]


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
        lines = [f"{self.location()}: {self.severity}: {self.message}"]
        lines += [f"  caused by: {cause}" for cause in self.causes]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "path": display_path(self.path) if self.path else None,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "causes": list(self.causes),
        }


def display_path(path: Path) -> str:
    """The path relative to the working folder when it is below it, else as it is."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int]:
    return (str(d.path or ""), d.line or 0, d.column or 0)


class BuildError(Exception):
    """Raised by a stage that cannot go on; carries every problem found so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics
