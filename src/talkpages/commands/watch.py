"""Notice changes to a site's files by polling their stamps (stdlib only).

A stamp is a file's size, modification time, inode and change time, from one `stat`.
The change time is set by the system whenever the file is written or its times are
set, so an edit followed by setting the modification time back (`touch -d`, some
sync tools) still changes the stamp; an editor that saves by renaming a new file over
the old one changes the inode. A file's bytes are never read to stamp it.

Looking at a few thousand files costs a few milliseconds a round and works the same on
Linux, macOS, Windows, network drives and containers, where inotify and FSEvents do not
always reach. At 10,000 talks a round takes some 60 ms, so on Linux the system's
notices (notices.py, inotify through the C library) say which paths changed, at once,
and only those are looked at again; where the system gives none, or loses some, every
file is, and every file is looked at every few seconds all the same (a network drive
or a container's shared folder may change unnoticed). A watching library (watchdog,
watchfiles) would add a compiled dependency for what some lines of ctypes do.

Editors save in several steps (write a temporary file, rename it over the old one), so
a change is reported only once two scans a moment apart agree.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from .notices import Lost, Notices

# Every file is looked at this often even with the system's notices: a network drive or
# a container's shared folder may change without the system noticing.
EVERY_FILE_SECONDS = 2.0
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
    that a config file created later is watched too). On Linux the system tells which
    paths changed (notices.py), and only those are looked at again; elsewhere, or when
    it cannot, every file is looked at each round."""

    def __init__(self, roots: list[Path] | Callable[[], list[Path]],
                 settle: float = 0.05) -> None:
        self.roots = roots if callable(roots) else (lambda: list(roots))
        self.settle = settle
        self.notices = Notices.open()
        self.noticed: list[Path] | None = None  # the roots the notices cover
        self.scanned = time.monotonic()  # when every file was last looked at
        roots_now = self.roots()
        self.snapshot = scan(roots_now)
        self._watch(roots_now)

    def poll(self) -> list[str]:
        roots = self.roots()
        if self.notices is not None and self.noticed == roots \
                and time.monotonic() < self.scanned + EVERY_FILE_SECONDS:
            try:
                return self._noticed(roots)
            except Lost:
                self.noticed = None  # look at everything, and watch again
        self.scanned = time.monotonic()
        current = scan(roots)
        if current == self.snapshot:
            self._watch(roots)
            return []
        for _ in range(20):  # at most a second of settling
            time.sleep(self.settle)
            later = scan(roots)
            if later == current:
                break
            current = later
        changed = changes(self.snapshot, current)
        self.snapshot = current
        self._watch(roots)
        return changed

    def wait(self, seconds: float) -> None:
        """Until the system notices a change (at most `seconds`), or `seconds`."""
        if self.notices is None or self.noticed is None:
            time.sleep(seconds)
            return
        with contextlib.suppress(OSError, ValueError):
            select.select([self.notices.fd], [], [], seconds)

    def close(self) -> None:
        if self.notices is not None:
            self.notices.close()

    def _noticed(self, roots: list[Path]) -> list[str]:
        """The changes among the paths the system named, once they settle."""
        assert self.notices is not None
        paths = self.notices.read()
        if not paths:
            return []
        for _ in range(20):  # at most a second of settling
            time.sleep(self.settle)
            more = self.notices.read()
            if not more:
                break
            paths |= more
        current = dict(self.snapshot)
        for path in sorted(p for p in paths if _covered(p, roots)):
            inside = path + os.sep
            for known in [k for k in current if k == path or k.startswith(inside)]:
                del current[known]
            current.update(scan([Path(path)]))
            if os.path.isdir(path):
                self.notices.watch(_folders([Path(path)]))
        changed = changes(self.snapshot, current)
        self.snapshot = current
        return changed

    def _watch(self, roots: list[Path]) -> None:
        if self.notices is None:
            return
        try:
            self.notices.read()  # what came before this look at every file
            self.notices.watch(_folders(roots))
            self.noticed = list(roots)
        except Lost:  # the system's limit: look at every file each round
            self.notices.close()
            self.notices = None
            self.noticed = None


def _folders(roots: Iterable[Path]) -> list[str]:
    """The folders to watch for `roots`: each one's parent (where it may appear or go)
    and every folder of those that are folders, as `scan` walks them."""
    found = []
    for root in roots:
        found.append(str(root.parent))
        if root.is_dir():
            for folder, dirs, _ in os.walk(root):
                dirs[:] = [d for d in dirs if not ignored(d)]
                found.append(folder)
    return found


def _covered(path: str, roots: list[Path]) -> bool:
    """Is `path` a root, or a file or folder that `scan` finds under one?"""
    for root in map(str, roots):
        if path == root:
            return True
        if path.startswith(root + os.sep):
            return not any(ignored(part) for part in path[len(root) + 1:].split(os.sep))
    return False
