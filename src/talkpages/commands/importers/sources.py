"""The files of the old site as they are: a talk file's text and front matter, its body
byte for byte, the files of its bundle; the bytes of a calendar file to import."""

from __future__ import annotations

import os
import re
import select
import stat
from pathlib import Path

from ...content import links
from ...content.frontmatter import FrontMatter, FrontMatterError, split
from ...content.loader import MAX_FILE_BYTES
from ...diagnostics import Diagnostic

_NEWLINE = re.compile(r"\r\n|\r|\n")
MAX_CALENDAR_BYTES = 32 * 1024 * 1024
WRITER_WAIT = 3.0  # seconds a named pipe may wait for its writer


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


def _first_bytes(descriptor: int) -> bytes | None:
    """What a named pipe opened without blocking holds so far, or None when no writer
    comes within WRITER_WAIT seconds. `<(curl …)` hands over a pipe whose writer is there
    already (a read finds nothing yet, or some bytes); a program that opens a named pipe
    for writing may come a moment after the import opened it (a read finds the end). On
    Linux a pipe that never had a writer polls as not ready, so poll waits for a writer's
    first bytes or its close; a writer that came and is still silent is waited for."""
    try:
        first = os.read(descriptor, 65536)
    except BlockingIOError:  # a writer, with nothing written yet
        return b""
    if first:
        return first
    poller = select.poll()
    poller.register(descriptor, select.POLLIN | select.POLLHUP)
    events = poller.poll(int(WRITER_WAIT * 1000))
    try:
        data = os.read(descriptor, 65536)
    except BlockingIOError:  # a writer came, and has sent nothing yet
        return b""
    return data if data or events else None


def calendar_bytes(source: Path) -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of the calendar file named on the command line, else why not. A file,
    or a pipe something writes into (`talkpages import ics <(curl …)`); a folder, a
    device, a file larger than MAX_CALENDAR_BYTES or a pipe that nothing writes into is an
    error naming the path: opened without blocking, the import never waits for ever."""
    try:
        descriptor = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, Diagnostic(source, "the calendar file to import does not exist")
    except OSError as exc:  # no right to read it, a file in the place of a folder
        return None, Diagnostic(source, f"cannot read the calendar file: "
                                f"{exc.strerror or exc}")
    try:
        kind = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(kind):
            return None, Diagnostic(
                source, "the path to import is a folder, not a calendar file",
                hint="give the .ics file itself; `talkpages import hugo` or `academicpages` "
                "read a site's folder")
        first = b""
        if stat.S_ISFIFO(kind):
            joined = _first_bytes(descriptor)
            if joined is None:
                return None, Diagnostic(
                    source, f"nothing writes into this pipe (waited {WRITER_WAIT:g} s): "
                    "import ics reads a calendar file")
            first = joined
            os.set_blocking(descriptor, True)
        elif not stat.S_ISREG(kind):
            return None, Diagnostic(source, "this is not a file (a device or a socket): "
                                    "import ics reads a calendar file")
        with os.fdopen(os.dup(descriptor), "rb") as file:
            data = first + file.read(MAX_CALENDAR_BYTES + 1 - len(first))
    except OSError as exc:
        return None, Diagnostic(source, f"cannot read the calendar file: "
                                f"{exc.strerror or exc}")
    finally:
        os.close(descriptor)
    if len(data) > MAX_CALENDAR_BYTES:
        return None, Diagnostic(source, f"the calendar file is too large (more than "
                                f"{MAX_CALENDAR_BYTES // 1024 // 1024} MiB)")
    return data, None
