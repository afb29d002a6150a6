"""The media cache: resized images and social cards kept between builds, in
`.talkpages-cache/media/`, as Hugo keeps its processed images in `resources/_gen/`.

They are the only outputs that cost real time (a card takes milliseconds to draw, a
photo's copies tens of them) and that depend on nothing but a few inputs: the bytes of
one file, what is done to it, and what draws it. Each is kept under a name that is the
digest of all of those (kinds.ResizedImage.key, kinds.SocialCardImage.key), so an
entry is right for as long as it exists, whatever the files' times (a fresh clone, CI
that restores the folder); `build`, `check` and `serve` share it. Entries that a build
did not plan are removed at its end.

The folder may have come with a stranger's repository. An entry holds image bytes
only: nothing is unpickled or executed, so nothing needs signing. It is opened without
following a link, only when it is a plain file of this user's of at most `MAX_BYTES`;
at worst a planted entry shows a wrong picture on the pages of that same site. Entries
are written whole under a random name and renamed into place, which replaces what
stood there (a link included) without following it; two processes that make the same
entry write the same bytes.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from .owned import mine, open_folder, replace_file, tidy

MEDIA_DIR = "media"
MAX_BYTES = 64 * 1024 * 1024  # a card is ~100 KB, the largest copy of a photo a few MB
_NAME = re.compile(r"[0-9a-f]{16,64}")  # what a key looks like: a digest in hex

Make = Callable[[], bytes]


class MediaCache:
    """The media of one site. `get(key, make)`: the bytes kept under `key`, else `make()`
    kept there. Without a folder (a read-only site) everything is made each time."""

    def __init__(self, path: Path | None):
        self.path = path
        self.planned: set[str] = set()  # the keys of the build's images and cards
        self._folder = -1
        if path is not None:
            try:
                self._folder = open_folder(path)
                tidy(path, self._folder)
            except OSError:
                self.close()

    def get(self, key: str, make: Make) -> bytes:
        if self._folder < 0 or not _NAME.fullmatch(key):
            return make()
        data = self._read(key)
        if data is not None:
            return data
        data = make()
        self._write(key, data)
        return data

    def plan(self, key: str) -> None:
        self.planned.add(key)

    def prune(self) -> None:
        """Remove every entry the build did not plan (after a build of the whole site)."""
        if self._folder < 0:
            return
        wanted = self.planned
        try:
            names = os.listdir(self._folder)
        except OSError:
            return
        for name in names:
            if name not in wanted:
                try:
                    os.unlink(name, dir_fd=self._folder)
                except IsADirectoryError:
                    pass  # tidy() allowed a folder; talkpages never makes one here
                except OSError:
                    continue

    def close(self) -> None:
        if self._folder >= 0:
            os.close(self._folder)
        self._folder = -1

    def _read(self, key: str) -> bytes | None:
        try:
            descriptor = os.open(key, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                                 | os.O_CLOEXEC, dir_fd=self._folder)
        except OSError:
            return None
        try:
            status = os.fstat(descriptor)
            if not mine(status, stat.S_IFREG) or not 0 < status.st_size <= MAX_BYTES:
                return None
            chunks, size = [], 0
            while size < status.st_size:
                chunk = os.read(descriptor, status.st_size - size)
                if not chunk:
                    return None  # shorter than it was a moment ago
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks)
        except OSError:
            return None
        finally:
            os.close(descriptor)

    def _write(self, key: str, data: bytes) -> None:
        """Kept whole or not at all; a cache that cannot be written costs the next build
        its time, never this build its output."""
        with contextlib.suppress(OSError):
            replace_file(key, data, self._folder)
