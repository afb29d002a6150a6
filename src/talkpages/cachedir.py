"""The site's cache folder, `.talkpages-cache/`: made on first use, and locked so that
builds of one site take turns. Standard library only: a build that has nothing to do,
or only an output folder to restore, answers before it imports its renderer.

The folder carries its own `.gitignore` (it is never committed by accident) and a
`CACHEDIR.TAG` (https://bford.info/cachedir/: backup tools skip it). Deleting it is
always safe: the next build is a cold one, with the same output.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO

CACHE_DIR = ".talkpages-cache"
_FILES = ((".gitignore", "# made by talkpages: safe to delete\n*\n"),
          ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
           "# a cache of talkpages: safe to delete\n"))


class CacheFolder:
    def __init__(self, path: Path, lock: IO[bytes]):
        self.path = path
        self._lock = lock

    @classmethod
    def open(cls, site_dir: Path) -> CacheFolder | None:
        """The site's cache folder, locked until `close()`; None where it cannot be made
        (a read-only site folder): the build then keeps nothing for the next one."""
        import fcntl

        path = site_dir / CACHE_DIR
        try:
            path.mkdir(exist_ok=True)
            for name, text in _FILES:
                if not (path / name).exists():
                    (path / name).write_text(text, encoding="utf-8")
            lock = open(path / "lock", "wb")  # noqa: SIM115 - held until close()
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:
            return None
        return cls(path, lock)

    def close(self) -> None:
        if not self._lock.closed:
            self._lock.close()
