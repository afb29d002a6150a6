"""Where Markdown's inline code is, found in time linear in the text.

CommonMark's rule: a code span opens at a run of backticks (all of the run; a
backslash before it escapes its first backtick only) and closes at the next run of
exactly as many; a run that no such run follows is text, and the scan goes on after
it. A span stays within its paragraph: no blank line inside. Finding the closer by
looking at every character after each opener, as a regular expression does, costs
the square of the text or worse on a body of backtick runs of many lengths; here each
run is read once, and the next run of a length is looked up in a list of runs.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

_RUN = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")  # its end is the second newline


def code_spans(text: str, also: re.Pattern[str] | None = None) -> Iterator[tuple[int, int]]:
    """The (start, end) of each code span of `text`, in order, backticks included;
    with `also`, that pattern's matches too where no code span began before them
    (autolinks, which stand level with code spans: the one that starts first wins)."""
    runs = [(m.start(), m.end()) for m in _RUN.finditer(text)]
    if not runs and also is None:
        return
    by_length: dict[int, list[int]] = {}  # run length -> indexes into runs, ascending
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    blanks = [(m.start(), m.end()) for m in _BLANK_LINE.finditer(text)]
    blank_starts = [start for start, _ in blanks]
    other = also.search(text) if also is not None else None
    position = 0
    index = 0
    opener: tuple[int, int] | None = None
    opened = -1  # the index of the run `opener` was read from
    while True:
        while index < len(runs) and runs[index][0] < position:
            index += 1
        if other is not None and other.start() < position:
            other = also.search(text, position) if also is not None else None
        if index < len(runs) and opened != index:
            opener, opened = _opener(text, runs[index]), index
        starts = opener[0] if index < len(runs) and opener is not None else len(text) + 1
        if other is not None and other.start() < starts:
            yield other.start(), other.end()
            position = other.end()
            continue
        if index >= len(runs):
            return
        if opener is not None:
            start, end = opener
            closer = _closer(runs, by_length.get(end - start, []), index)
            if closer is not None and closer[0] < _paragraph_end(blanks, blank_starts, end):
                yield start, closer[1]
                position = closer[1]
                continue
        position = runs[index][1]


def _opener(text: str, run: tuple[int, int]) -> tuple[int, int] | None:
    """The part of a run that may open a span: all of it, or all but a first backtick
    escaped by an odd number of backslashes before it."""
    start, end = run
    slashes = 0
    while start - slashes > 0 and text[start - slashes - 1] == "\\":
        slashes += 1
    if slashes % 2:
        start += 1
    return (start, end) if start < end else None


def _closer(runs: list[tuple[int, int]], same: list[int],
            index: int) -> tuple[int, int] | None:
    """The first run after runs[index] of the length of the list `same` holds."""
    after = bisect_left(same, index + 1)
    return runs[same[after]] if after < len(same) else None


def _paragraph_end(blanks: list[tuple[int, int]], blank_starts: list[int],
                   position: int) -> int:
    """Where the first blank line at or after `position` ends (its second newline), or
    the end of the text: a span that opened before it must close before it."""
    after = bisect_left(blank_starts, position)
    return blanks[after][1] if after < len(blanks) else 1 << 62
