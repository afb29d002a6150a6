"""Where a build puts what it replaces, to be deleted once the build is done: freeing a
folder of thousands of files, or a file of megabytes, takes seconds on some disks, and
the build does not wait for it. Each build has its own folder in the cache's trash
(`.talkpages-cache/trash/<pid>-<random>/`); without a cache, things go at once."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
import threading
from pathlib import Path

from .owned import exists, is_folder, open_folder

LARGE = 1 << 20  # bytes: a file this large that a build replaces goes to the trash


class Trash:
    def __init__(self, cache_dir: Path | None):
        self._path = None if cache_dir is None else \
            cache_dir / "trash" / f"{os.getpid()}-{secrets.token_hex(4)}"
        self._folder = -1
        self._count = 0

    def _fd(self) -> int:
        """The build's own folder in the trash, open (made on first use)."""
        assert self._path is not None
        if self._folder < 0:
            os.close(open_folder(self._path.parent))
            self._folder = open_folder(self._path)
        return self._folder

    def put(self, folder: int, path: str) -> None:
        """Move the file at `path` in `folder` to the trash (unlinked where it cannot)."""
        try:
            if self._path is not None:
                os.rename(path, f"{self._count}", src_dir_fd=folder, dst_dir_fd=self._fd())
                self._count += 1
                return
        except FileNotFoundError:
            return
        except OSError:  # another file system, a folder where a file was
            pass
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path, dir_fd=folder)

    def discard(self, folder: Path) -> None:
        """A whole folder goes to the trash (deleted at once where it cannot: no cache,
        or another file system)."""
        if self._path is not None and exists(folder):
            try:
                os.rename(folder, f"{folder.name}-{secrets.token_hex(4)}",
                          dst_dir_fd=self._fd())
                return
            except OSError:
                pass
        discard_folder(folder)

    def close(self) -> None:
        """The build is done: what it put in the trash is deleted, in the background."""
        if self._folder >= 0:
            os.close(self._folder)
            self._folder = -1
        if self._path is not None:
            empty_later(self._path.parent)
            self._path = None


def empty_later(trash: Path) -> None:
    """Delete what builds put in the trash, once this one is done, by a process of its
    own that outlives the command: freeing a large folder or file takes seconds on
    some disks, and the build does not wait for it. Where there is no `sh` to start
    it, a thread of this process deletes what it can before the command ends."""
    try:
        if not is_folder(trash):
            return
        folders = [str(folder) for folder in trash.iterdir()]
    except OSError:
        return
    if not folders:
        return
    shell = shutil.which("sh") if hasattr(os, "posix_spawn") else None
    if shell is not None:
        try:  # sh starts rm in the background and ends: nothing of it is left to wait for
            os.waitpid(os.posix_spawn(shell, ["sh", "-c", 'rm -rf -- "$@" </dev/null '
                                             '>/dev/null 2>&1 &', "sh", *folders],
                                      os.environ), 0)
            return
        except OSError:
            pass

    def delete() -> None:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)

    threading.Thread(target=delete, daemon=True).start()


def discard_folder(folder: Path) -> None:
    """Remove a folder: renamed aside at once, deleted after (a link: itself, at once)."""
    try:
        found = os.lstat(folder)
    except OSError:
        return
    if not stat.S_ISDIR(found.st_mode):
        os.unlink(folder)
        return
    aside = folder.with_name(f"{folder.name}.discarded-{secrets.token_hex(4)}")
    try:
        folder.rename(aside)
    except OSError:
        aside = folder
    shutil.rmtree(aside, ignore_errors=True)
