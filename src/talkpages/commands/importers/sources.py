"""The files of the old site as they are: a talk file's text and front matter, its body
byte for byte, the files of its bundle."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ...content import links
from ...content.frontmatter import FrontMatter, FrontMatterError, split
from ...content.loader import MAX_FILE_BYTES
from ...diagnostics import Diagnostic

_NEWLINE = re.compile(r"\r\n|\r|\n")


def bundle_files(bundle: Path | None, root: str, problems: list[Diagnostic],
                 ) -> tuple[str, ...]:
    """The bundle's files to copy: everything but its content files (index.*). Links
    are followed while they stay inside the site imported from (`root`, its real
    path), as the build follows them (links.py); one that does not is an error."""
    if bundle is None:
        return ()
    found = links.walk(bundle, os.path.realpath(bundle), root, problems)
    return tuple(sorted((name for name in found
                         if "/" in name or not name.lower().startswith("index.")),
                        key=lambda name: name.split("/")))


def read_source(path: Path) -> tuple[str, FrontMatter] | list[Diagnostic]:
    """The text and front matter of a file, or why they cannot be read."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return [Diagnostic(path, "the file is too large to be a talk file", 1, 1)]
        raw = path.read_bytes()
    except OSError as exc:
        return [Diagnostic(path, f"cannot read the file: {exc.strerror or exc}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return [Diagnostic(path, "the file is not UTF-8 text", line, 1,
                           hint="save it as UTF-8 and import again")]
    try:
        return text, split(text)
    except FrontMatterError as exc:
        return [Diagnostic(path, exc.message, exc.line, exc.column, hint=exc.hint)]


def raw_body(text: str, body_line: int) -> str:
    """The body exactly as written (line endings included) from line `body_line` on."""
    if text.startswith("\ufeff"):
        text = text[1:]
    line = 1
    for match in _NEWLINE.finditer(text):
        line += 1
        if line == body_line:
            return text[match.end():]
    return ""
