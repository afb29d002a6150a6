"""What the commands print: messages, colours, a progress line, grouped diagnostics.

Colours only when the stream is a terminal, `NO_COLOR` is unset or empty
(https://no-color.org) and TERM is not `dumb`. The progress line appears only on a
terminal, outside CI, and only once a build has taken more than a second: short builds
and logs stay clean. `--quiet` keeps only problems; `--verbose` adds details.

Whatever a command prints goes through `printable` before the console adds its own
colours: text of the site quoted in a message (a title, a key, a file name) never
reaches the terminal as a control character, whichever code wrote the message.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import groupby
from typing import TextIO

from ..diagnostics import Diagnostic, printable, sort_key

PROGRESS_AFTER = 1.0  # seconds before a progress line appears
REPEATED_SHOWN = 3  # files a warning said of many files alike is shown for in full
REPEATED_NAMED = 10  # the other files named on its summary line
_STYLES = {"error": "1;31", "warning": "1;33", "note": "1;36", "hint": "36", "caused by": "2",
           "path": "1", "ok": "32", "dim": "2"}
_LAYOUT = "\n\t"  # kept in what info() prints: a report's own line breaks and indents
_SEVERITY = re.compile(r"^(?P<place>.*?): (?P<severity>error|warning|note): ")


def wants_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _isatty(stream)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def in_ci() -> bool:
    return bool(os.environ.get("CI")) and os.environ.get("CI", "").lower() != "false"


class Console:
    """Where a command's output goes; thread-safe, since `serve` prints from threads."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None, *,
                 quiet: bool = False, verbose: bool = False) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.quiet = quiet
        self.verbose = verbose and not quiet
        self._color_out = wants_color(self.out)
        self._color_err = wants_color(self.err)
        self._lock = threading.RLock()
        self._status = ""  # the progress line currently drawn on err, if any

    def style(self, text: str, kind: str, *, err: bool = False) -> str:
        if not (self._color_err if err else self._color_out):
            return text
        return f"\x1b[{_STYLES[kind]}m{text}\x1b[0m"

    def info(self, text: str = "") -> None:
        """Normal output, on stdout; nothing with --quiet."""
        if not self.quiet:
            self._write(self.out, printable(text, keep=_LAYOUT))

    def notice(self, text: str) -> None:
        """On stdout even with --quiet: what the command cannot be used without, such as
        the address `serve` took (with `--port 0`, any free port)."""
        self._write(self.out, printable(text, keep=_LAYOUT))

    def detail(self, text: str) -> None:
        """Only with --verbose."""
        if self.verbose:
            self._write(self.out, self.style(printable(text, keep=_LAYOUT), "dim"))

    def error(self, text: str, hint: str | None = None) -> None:
        """A problem of the command itself, on stderr, always: one line, and one for the
        hint. Neither breaks a line of its own, so that what a message quotes (an
        exception's text, a file name) cannot forge a line that looks like another."""
        text = printable(text) + (f"\n  hint: {printable(hint)}" if hint else "")
        self._write(self.err, self._color_line(text))

    def diagnostics(self, diagnostics: Iterable[Diagnostic], *, grouped: bool = False) -> None:
        """Every diagnostic in compiler form, sorted by place; `grouped` puts a blank
        line between files, so each file's messages read as one block. A warning said
        of many files alike (44 imported talks with "no slides or video") is shown for
        the first few, then once with the count and the other files (`repeated`)."""
        ordered, repeated = _first_of_repeated(sorted(diagnostics, key=sort_key))
        if not grouped:
            for diagnostic in ordered:
                self._diagnostic(diagnostic)
        else:
            for index, (_, group) in enumerate(groupby(ordered,
                                                       key=lambda d: str(d.path or ""))):
                if index:
                    self._write(self.err, "")
                for diagnostic in group:
                    self._diagnostic(diagnostic)
        for message, others in repeated.items():
            places = ", ".join(printable(str(d.path)) for d in others[:REPEATED_NAMED])
            more = len(others) - REPEATED_NAMED
            self._write(self.err, self._color_line(
                f"{len(others)} more files: {others[0].severity}: {printable(message)} "
                f"({places}{f', and {more} more' if more > 0 else ''})"))

    def _diagnostic(self, diagnostic: Diagnostic) -> None:
        """Its lines as `format` makes them, with the text of the site escaped there."""
        self._write(self.err, self._color_line(diagnostic.format()))

    def _color_line(self, text: str) -> str:
        if not self._color_err:
            return text
        lines = []
        for line in text.split("\n"):
            match = _SEVERITY.match(line)
            if match:
                line = (self.style(match["place"], "path", err=True) + ": "
                        + self.style(match["severity"], match["severity"], err=True) + ": "
                        + line[match.end():])
            elif line.startswith("  hint: "):
                line = "  " + self.style("hint:", "hint", err=True) + line[7:]
            elif line.startswith("  caused by: "):
                line = self.style(line, "caused by", err=True)
            lines.append(line)
        return "\n".join(lines)

    def _write(self, stream: TextIO, text: str) -> None:
        with self._lock:
            if self._status:
                self._clear_status()
            stream.write(text + "\n")
            stream.flush()

    # The progress line -------------------------------------------------------------

    def shows_progress(self) -> bool:
        return not self.quiet and _isatty(self.err) and not in_ci()

    @contextmanager
    def progress(self, status: Callable[[], str]) -> Iterator[None]:
        """Redraw `status()` on one line of stderr while the block runs, from its
        second second on; the line is erased at the end."""
        if not self.shows_progress():
            yield
            return
        done = threading.Event()
        started = time.monotonic()

        def draw() -> None:
            if done.wait(PROGRESS_AFTER):
                return
            while not done.is_set():
                text = f"{printable(status())} · {time.monotonic() - started:.1f} s"
                with self._lock:
                    if not done.is_set():
                        self._status = text
                        self.err.write("\r\x1b[K" + self.style(text, "dim", err=True))
                        self.err.flush()
                done.wait(0.1)

        thread = threading.Thread(target=draw, name="talkpages-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()
            with self._lock:
                if self._status:
                    self._clear_status()

    def _clear_status(self) -> None:
        self.err.write("\r\x1b[K")
        self.err.flush()
        self._status = ""


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def count_problems(diagnostics: Iterable[Diagnostic]) -> str:
    """"2 errors and 1 warning", "1 error"."""
    items = list(diagnostics)
    errors = sum(d.is_error for d in items)
    warnings = sum(d.severity == "warning" for d in items)
    parts = [plural(errors, "error")]
    if warnings:
        parts.append(plural(warnings, "warning"))
    return " and ".join(parts)


def _first_of_repeated(ordered: list[Diagnostic]) -> tuple[list[Diagnostic],
                                                            dict[str, list[Diagnostic]]]:
    """The diagnostics to show one by one, and by message those of a warning said of
    more than a few files alike beyond the first few (their summary line). Errors are
    always shown one by one: each must be fixed where it is."""
    counts: dict[str, int] = {}
    for diagnostic in ordered:
        if not diagnostic.is_error:
            counts[diagnostic.message] = counts.get(diagnostic.message, 0) + 1
    shown: list[Diagnostic] = []
    repeated: dict[str, list[Diagnostic]] = {}
    seen: dict[str, int] = {}
    for diagnostic in ordered:
        message = diagnostic.message
        if not diagnostic.is_error and counts[message] > REPEATED_SHOWN + 1:
            seen[message] = seen.get(message, 0) + 1
            if seen[message] > REPEATED_SHOWN:
                repeated.setdefault(message, []).append(diagnostic)
                continue
        shown.append(diagnostic)
    return shown, repeated
