"""When a file of the site changed: one stamp and one comparison for every question a
command asks of the files it reads (has anything changed since the last build, which
talk files, may a talk read earlier be used again, what did `serve` see change).

A stamp is a file's size, modification time, inode and change time, from one `stat`.
The change time is set by the system whenever the file is written or its times are
set, so an edit followed by setting the modification time back (`touch -d`, some
sync tools) still changes the stamp; an editor that saves by renaming a new file over
the old one changes the inode. A file's bytes are never read to stamp it.

The output's own files are not stamped this way: the writer shares them between two
folders by hard links, which changes their change time (outfolder.py records size,
modification time and inode).

Standard library only: `talkpages build` answers "nothing changed" before it imports
its renderer.
"""

from __future__ import annotations

import os
from pathlib import Path

# size, modification time (ns), inode, change time (ns): a plain tuple, as the cache
# keeps it (marshal writes plain values only)
Stamp = tuple[int, int, int, int]


# Every file found under some folders, by path: its stamp, or the name of the error met
# stamping it (a broken link, a loop: whoever reads it says so).
Snapshot = dict[str, Stamp | str]


def stamp_of(status: os.stat_result) -> Stamp:
    return (status.st_size, status.st_mtime_ns, status.st_ino, status.st_ctime_ns)


def stamp(path: Path | str) -> Stamp | None:
    """The stamp of the file at `path` (links followed), or None when it cannot be had."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths added, removed or changed, sorted."""
    return sorted(path for path in before.keys() | after.keys()
                  if before.get(path) != after.get(path))
