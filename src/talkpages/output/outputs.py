"""Outputs: what a build makes, a path in the site and its bytes, and the rules every
output path keeps, checked before anything is written (by the writer) or instead of
writing (by `check` and `serve`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..content.addresses import MAX_NAME
from ..content.model import Talk
from ..diagnostics import Diagnostic


@dataclass(frozen=True)
class Output:
    path: str  # POSIX, relative to the output folder
    data: bytes | None = None
    source: Path | None = None  # a file to copy when there are no bytes
    origin: str = ""  # what made it, for messages
    chunks: Iterable[bytes] | None = field(default=None, compare=False)  # streamed bytes


def fragment_key(kind: str, talk: Talk) -> str:
    """The name of a fragment of a talk (its "item", "event", "record" or "row"), made
    with its page and kept for the build: a talk's file is the talk."""
    return f"{kind}:{talk.file}"


# Where an output goes once it is made, in the process that made it: the writer
# (engine/writer.py) writes it and returns it without its bytes; in memory, it is kept.
Store = Callable[[Output], Output]


class Media(Protocol):
    """Where resized images and social cards are kept between builds (engine/media.py):
    `get(key, make)` gives the bytes kept under `key`, else `make()`'s, kept; `plan(key)`
    says the build has such an output, so its entry stays."""

    def get(self, key: str, make: Callable[[], bytes]) -> bytes: ...

    def plan(self, key: str) -> None: ...


class NoMedia:
    """Nothing kept: every image and card is made again."""

    def get(self, key: str, make: Callable[[], bytes]) -> bytes:
        return make()

    def plan(self, key: str) -> None:
        pass


def whole(output: Output) -> Output:
    """An output with its bytes in `data`, however it was made."""
    if output.chunks is None:
        return output
    return Output(output.path, b"".join(output.chunks), origin=output.origin)


def check_outputs(outputs: Iterable[Output]) -> list[Diagnostic]:
    """What the writer would refuse of these outputs, found without writing them."""
    checker = OutputChecker()
    for output in outputs:
        checker.check(output)
    return checker.problems


def refused(output: Output) -> Diagnostic | None:
    """Why the path of `output` is never written, if it is not: outside the folder, or a
    part of it longer than a file system takes."""
    path = output.path
    if (not path or path.startswith(("/", ".talkpages")) or "\\" in path or "\x00" in path
            or (".." in path and ".." in path.split("/"))):
        return Diagnostic(None, f"refusing to write {output.path!r} (from {output.origin}): "
                          "outside the output folder")
    if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME for part in path.split("/")):
        return Diagnostic(None, f"cannot write {output.path!r} (from {output.origin}): a "
                          f"part of it is longer than {MAX_NAME} bytes")
    return None


class OutputChecker:
    """Every output path relative, inside the folder, written once, and with no part
    longer than a file system takes (which the loader reports at the place that names
    it: here it is the last guard)."""

    def __init__(self) -> None:
        self.problems: list[Diagnostic] = []
        self.seen: dict[str, str] = {}

    def check(self, output: Output) -> bool:
        problem = refused(output)
        if problem is not None:
            self.problems.append(problem)
            return False
        key = output.path.lower()
        if key in self.seen:
            self.problems.append(Diagnostic(None, f"two outputs write {output.path!r}: "
                                            f"{self.seen[key]} and {output.origin}"))
            return False
        self.seen[key] = output.origin
        return True
