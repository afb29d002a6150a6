"""Notice changes to a site's files by polling their stamps (stamps.py; stdlib only).

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

from ..stamps import Snapshot, changes, stamp_of

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
