"""Creating source files (`new`, `import`): inside the site, all or nothing, and never
over another file.

A site folder may come from a stranger's repository, with links where talkpages would
write: `talks -> ~/`, `speakers -> /etc`, `talks/x/index.md -> ~/.bashrc`. So every
folder on the way to a new file is opened one step at a time from the site folder,
without following a link (O_NOFOLLOW, relative to the folder above: nothing can swap a
folder for a link between the check and the write), and made where it is missing; a
link or a file where a folder should be is refused, naming its path. The site folder
itself is the one the user named, and is taken as it is.

The content is written to a temporary file of a name no one can guess beside the
target, created with O_EXCL and O_NOFOLLOW (never through a link planted in advance),
and then hard-linked to the target's name, which fails if anything stands there, a
link included: a file that appears meanwhile is never replaced, and a process killed
halfway leaves either no file or the whole file, never half of one. Where hard links
are not supported, exclusive creation (O_EXCL) of the target itself keeps the "never
replace" half of the promise.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from ..diagnostics import Diagnostic

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_LINK_HINT = "make it a folder of the site, or remove the link"

Created = Literal["created", "same", "differs"]


class Refused(OSError):
    """A link, or something that is not a folder, where a new file or its folder goes:
    nothing is written through it."""

    def __init__(self, path: Path, reason: str, hint: str = _LINK_HINT) -> None:
        super().__init__(errno.ELOOP, reason, str(path))
        self.path = path
        self.reason = reason
        self.hint = hint

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.path, self.reason, hint=self.hint)


def create_new(site: Path, path: Path, data: bytes) -> None:
    """Write `data` to `path` in the site folder `site`; `path` must not exist (else
    FileExistsError), and no folder on the way may be a link (else Refused)."""
    *folders, name = _parts(site, path)
    with _folder(site, folders, make=True) as folder:
        temporary = f".{name}.{secrets.token_hex(8)}.tmp"
        _write(folder, temporary, data)
        try:
            try:
                os.link(temporary, name, src_dir_fd=folder, dst_dir_fd=folder,
                        follow_symlinks=False)
            except FileExistsError:
                raise
            except (OSError, NotImplementedError):  # no hard links here: O_EXCL instead
                _write(folder, name, data)
        except FileExistsError:
            raise _taken(folder, name, path) from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder)


def create_or_match(site: Path, path: Path, data: bytes) -> Created:
    """`create_new`, where a plain file that holds `data` already counts as written
    before ("same"); anything else at `path` is left as it is ("differs")."""
    try:
        create_new(site, path, data)
    except FileExistsError:
        return "same" if read_existing(site, path, len(data)) == data else "differs"
    return "created"


def read_existing(site: Path, path: Path, limit: int) -> bytes | None:
    """The bytes of the plain file at `path` in the site, reached without a link; None
    when what stands there is anything else (a link, a folder, a pipe, which would
    block) or is larger than `limit` bytes."""
    *folders, name = _parts(site, path)
    try:
        with _folder(site, folders, make=False) as folder:
            descriptor = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                                 | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            return None
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(descriptor, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size <= limit else None
    except OSError:
        return None
    finally:
        os.close(descriptor)


def check_folders(site: Path, path: Path) -> None:
    """Refused when a folder of `path` in the site (`path` itself included) is a link
    or not a folder; the part that does not exist yet is fine. For a caller that reads
    a folder it will write into (the talks already there) before it writes."""
    with contextlib.suppress(FileNotFoundError), _folder(site, _parts(site, path),
                                                         make=False):
        pass


def _parts(site: Path, path: Path) -> list[str]:
    parts = list(path.relative_to(site).parts)
    if not parts or any(part in (".", "..") for part in parts):
        raise ValueError(f"{path} is no file of the site folder {site}")
    return parts


@contextlib.contextmanager
def _folder(site: Path, parts: list[str], make: bool) -> Iterator[int]:
    """The folder `site`/`parts` open, reached from `site` one step at a time without
    following a link; its missing folders made when `make` (else FileNotFoundError)."""
    if make:
        os.makedirs(site, exist_ok=True)
    folder = os.open(site, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for depth, name in enumerate(parts):
            inner = _step(folder, name, site.joinpath(*parts[: depth + 1]), make)
            os.close(folder)
            folder = inner
        yield folder
    finally:
        os.close(folder)


def _step(folder: int, name: str, path: Path, make: bool) -> int:
    """The folder `name` in `folder` open; made when missing and `make`."""
    try:
        return os.open(name, _FOLDER, dir_fd=folder)
    except FileNotFoundError:
        if not make:
            raise
    except OSError as exc:
        raise _refusal(folder, name, path) or exc from None
    with contextlib.suppress(FileExistsError):  # made meanwhile: checked as any other
        os.mkdir(name, 0o777, dir_fd=folder)
    try:
        return os.open(name, _FOLDER, dir_fd=folder)
    except OSError as exc:
        raise _refusal(folder, name, path) or exc from None


def _refusal(folder: int, name: str, path: Path) -> Refused | None:
    """Why `name` in `folder` cannot be a folder to write into: a link, or no folder."""
    try:
        mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return Refused(path, "this folder is a link; talkpages writes nothing through a "
                       "link, so nothing reaches outside the site")
    if not stat.S_ISDIR(mode):
        return Refused(path, "this is not a folder, so nothing can be written into it",
                       hint="move it aside")
    return None


def _taken(folder: int, name: str, path: Path) -> OSError:
    """The error for a name that something stands at already: a link is refused, not
    taken for a file written before."""
    try:
        mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        mode = 0
    if stat.S_ISLNK(mode):
        return Refused(path, "a link stands where this file goes; talkpages writes nothing "
                       "through a link, so nothing reaches outside the site",
                       hint="remove the link")
    return FileExistsError(errno.EEXIST, "a file of this name exists", str(path))


def _write(folder: int, name: str, data: bytes) -> None:
    """Create `name` in `folder` with `data`, never through a link or over a file; a
    write that fails leaves no file."""
    descriptor = os.open(name, _NEW, 0o666, dir_fd=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
        os.fsync(descriptor)
    except BaseException:
        os.close(descriptor)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=folder)
        raise
    os.close(descriptor)
