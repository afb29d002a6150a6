"""Notice changes to a site's files by polling their stamps (stdlib only).

A stamp is a file's size, modification time, inode and change time, from one `stat`.
The change time is set by the system whenever the file is written or its times are
set, so an edit followed by setting the modification time back (`touch -d`, some
sync tools) still changes the stamp; an editor that saves by renaming a new file over
the old one changes the inode. A file's bytes are never read to stamp it.

Polling a few thousand files every 0.2 s costs a few milliseconds a round and works
the same on Linux, macOS, Windows, network drives and containers, where inotify and
FSEvents do not always reach; a watching library (watchdog, watchfiles) would add a
compiled dependency for a saving nobody would notice at this size.

Editors save in several steps (write a temporary file, rename it over the old one), so
a change is reported only once two scans a moment apart agree.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

# size, modification time (ns), inode, change time (ns)
Stamp = tuple[int, int, int, int]
# Every file found under some folders, by path: its stamp, or the name of the error met
# stamping it (a broken link, a loop: whoever reads it says so).
Snapshot = dict[str, Stamp | str]


def stamp_of(status: os.stat_result) -> Stamp:
    return (status.st_size, status.st_mtime_ns, status.st_ino, status.st_ctime_ns)


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths added, removed or changed, sorted."""
    return sorted(path for path in before.keys() | after.keys()
                  if before.get(path) != after.get(path))


_IGNORED_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload")


def ignored(name: str) -> bool:
    """Hidden files, editor backups, swap and lock files."""
    return (name.startswith((".", "#")) or name.endswith(_IGNORED_SUFFIXES)
            or name == "4913")  # vim's test file


def scan(roots: Iterable[Path]) -> Snapshot:
    """Every file under `roots` (files or folders) with its stamp."""
    found: Snapshot = {}
    for root in roots:
        try:
            stat = root.stat()
        except OSError:
            continue
        if root.is_file():
            found[str(root)] = stamp_of(stat)
            continue
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not ignored(d)]
            for name in names:
                if ignored(name):
                    continue
                path = os.path.join(folder, name)
                try:
                    stat = os.stat(path)
                except OSError:
                    continue  # gone between listing and stat
                found[path] = stamp_of(stat)
    return found


class Watcher:
    """Call `poll()` repeatedly; it returns the changed paths once they settle.

    `roots` are files and folders, or a function giving them, asked at each scan (so
    that a config file created later is watched too)."""

    def __init__(self, roots: list[Path] | Callable[[], list[Path]],
                 settle: float = 0.05) -> None:
        self.roots = roots if callable(roots) else (lambda: list(roots))
        self.settle = settle
        self.snapshot = scan(self.roots())

    def poll(self) -> list[str]:
        current = scan(self.roots())
        if current == self.snapshot:
            return []
        for _ in range(20):  # at most a second of settling
            time.sleep(self.settle)
            later = scan(self.roots())
            if later == current:
                break
            current = later
        changed = changes(self.snapshot, current)
        self.snapshot = current
        return changed
