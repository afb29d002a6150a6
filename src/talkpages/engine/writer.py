"""The writer: the only code that writes into the output folder. It is given every
output in turn and decides nothing about their bytes.

Every build writes the whole site into a new folder beside the output
(`.public.talkpages-new-<random>`), and only when every file is written are the two
folders exchanged in one step (Linux's renameat2 with RENAME_EXCHANGE; three renames
elsewhere), and the previous site removed. A build that fails, or is killed, leaves
the previous site as it was; what a killed build left beside it is removed by the
next. Writing only the files that changed, in place, was the other way measured: it
needs a record of the output's files kept between builds and trusted, and that record
and the folder it describes are where this project's worst defects lived; writing
everything costs about 1.1 s of kernel time at 10,000 talks, and is always right.

Every output path is checked before it is written: relative, no `..`, nothing written
twice, no part longer than a file system takes (outputs.OutputChecker). Files and
folders are created relative to the new folder, opened without following links,
and never over another file (O_EXCL), so nothing is ever written through a link.
The output folder is talkpages' own: it carries a marker, and a folder without one is
replaced only when it is empty.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import BuildError, Diagnostic
from ..output.outputs import Output, OutputChecker, refused
from .owned import discard, is_file

MARKER = ".talkpages-output"
NEW = ".talkpages-new-"  # a site being written, beside the output
QUEUED, QUEUED_BYTES = 64, 1 << 20  # outputs written at a time (NewSite.flush)
MARKER_TEXT = json.dumps({"talkpages": "This folder is written by talkpages; each build "
                          "replaces it whole."}, indent=0) + "\n"


@dataclass
class WriteStats:
    written: int = 0  # files written
    paths: list[str] = field(default_factory=list)  # every file of the site


def write_site(outputs: Iterable[Output], out_dir: Path, site_dir: Path) -> WriteStats:
    """Write every output into a new folder, then put it in place of `out_dir`: the
    output folder changes only when all are written, and not at all when one fails."""
    with new_site(out_dir, site_dir) as writer:
        for output in outputs:
            writer.receive(writer.store(output))
    return writer.stats


@contextmanager
def new_site(out_dir: Path, site_dir: Path) -> Iterator[NewSite]:
    """The new site, written while the block runs (from this process and from workers
    forked inside it) and put in place of `out_dir` when the block ends without an
    error; removed, and the output left as it was, when it does not."""
    problems = check_out_dir(out_dir, site_dir)
    if problems:
        raise BuildError(problems)
    out = Path(os.path.abspath(out_dir))
    try:
        writer = NewSite(out)
    except OSError as exc:
        raise BuildError([Diagnostic(out_dir, f"cannot write the site: {exc}")]) from None
    try:
        yield writer
        if writer.checker.problems:
            raise BuildError(writer.checker.problems)
        writer.commit()
    except OSError as exc:
        raise BuildError([Diagnostic(out_dir, f"cannot write the site: {exc}")]) from None
    finally:
        writer.close()


def check_out_dir(out_dir: Path, site_dir: Path) -> list[Diagnostic]:
    """Refuse output folders whose contents are not ours to replace, and a link: the
    folder is replaced by renaming, which would replace the link, never what it points
    to (and a link that leads nowhere would fail every build)."""
    if os.path.islink(out_dir):
        return [Diagnostic(out_dir, f"the output folder is a symbolic link (to "
                           f"{os.readlink(out_dir)}): talkpages replaces the folder itself",
                           hint="pass the folder the link points to with -o, or remove the "
                           "link")]
    out = out_dir.resolve()
    site = site_dir.resolve()
    forbidden = {site: "the site folder itself", site / "talks": "the talks folder",
                 Path.home().resolve(): "your home folder", Path(out.anchor): "the root folder"}
    if out in forbidden:
        return [Diagnostic(out_dir, f"refusing to use {forbidden[out]} as the output folder",
                           hint="pass another folder with -o, such as public/")]
    if site.is_relative_to(out):
        return [Diagnostic(out_dir, "refusing to use a parent of the site as the output folder",
                           hint="pass another folder with -o, such as public/")]
    if out_dir.exists() and not out_dir.is_dir():
        return [Diagnostic(out_dir, "the output path exists and is not a folder")]
    if out_dir.is_dir() and not is_file(out_dir / MARKER) and any(out_dir.iterdir()):
        return [Diagnostic(out_dir, "refusing to replace a folder that talkpages did not "
                           "create (it has files and no marker)",
                           hint=f"empty it or pass another folder with -o; talkpages marks "
                           f"its own output folders with a {MARKER} file")]
    return []


class NewSite:
    """The new site, assembled in a folder of its own beside the output. `store` writes
    an output, in this process or in a worker forked from it (which shares the open
    folder); `receive`, in this process, takes what `store` returned: every path of the
    site passes through it, so that no two outputs write one file."""

    def __init__(self, out: Path):
        self.out = out
        self.stats = WriteStats()
        self.checker = OutputChecker()
        out.parent.mkdir(parents=True, exist_ok=True)
        for leftover in out.parent.glob(f".{out.name}{NEW}*"):  # of a killed build
            try:
                discard(leftover, os.lstat(leftover))
            except OSError:
                continue
        self.path = out.parent / f".{out.name}{NEW}{secrets.token_hex(6)}"
        os.mkdir(self.path, 0o755)
        self.folder = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                              | os.O_CLOEXEC)
        self.made = {""}  # folders made, relative to the new site
        self.queued: list[Output] = []  # stored, not written yet (see flush)
        self.queued_bytes = 0

    def store(self, output: Output) -> Output:
        """Write `output` (unless its path is refused, which `receive` reports); what
        comes back names it without its bytes. A small output in memory waits in a
        queue, written with the others when the queue is full or `flush` is called."""
        receipt = Output(output.path, origin=output.origin)
        if refused(output) is not None:
            return receipt
        if output.data is not None and output.chunks is None:
            self.queued.append(output)
            self.queued_bytes += len(output.data)
            if len(self.queued) >= QUEUED or self.queued_bytes >= QUEUED_BYTES:
                self.flush()
        else:
            self._write(output)
        return receipt

    def flush(self) -> None:
        """Write the outputs waiting in the queue. Writing pages as they are rendered,
        one at a time, runs a file's creation in the kernel between every two pages, and
        each evicts the other's data from the processor's caches; 64 at a time, a
        10,000-talk build on one core took 5 % less time (3 % less of its own, 13 % less
        in the kernel). Called before the site is put in place, before workers are forked
        (which would inherit the queue) and by a worker before it returns its results."""
        queued, self.queued, self.queued_bytes = self.queued, [], 0
        for output in queued:
            self._write(output)

    def _write(self, output: Output) -> None:
        path = output.path
        self._folders(path)
        try:
            if output.chunks is not None:
                self._create(path, output.chunks)
            elif output.data is not None:
                self._create(path, (output.data,))
            elif output.source is not None:
                with open(output.source, "rb") as handle:
                    self._create(path, iter(lambda: handle.read(1 << 20), b""))
        except FileExistsError:
            if os.path.isdir(os.path.join(self.path, path)):
                raise BuildError([Diagnostic(None, f"cannot write {path} (from "
                                             f"{output.origin}): a folder of the site has "
                                             "that name")]) from None
            return  # written by another output: `receive` says which two
        except OSError as exc:
            raise BuildError([Diagnostic(self.out, f"cannot write {path} (from "
                                         f"{output.origin}): {exc}")]) from None

    def receive(self, receipt: Output) -> None:
        if self.checker.check(receipt):
            self.stats.paths.append(receipt.path)
            self.stats.written += 1

    def commit(self) -> None:
        self.flush()
        self._create(MARKER, (MARKER_TEXT.encode(),))
        if not os.path.lexists(self.out):
            os.rename(self.path, self.out)
            return
        _exchange(self.path, self.out)  # self.path now holds the previous site
        shutil.rmtree(self.path)  # never follows links (shutil.rmtree.avoids_symlink_attacks)

    def close(self) -> None:
        if self.folder >= 0:
            os.close(self.folder)
            self.folder = -1
        if os.path.lexists(self.path):  # not committed, or the previous site's rest
            shutil.rmtree(self.path, ignore_errors=True)

    def _folders(self, path: str) -> None:
        """The folders of `path` in the new site (made here: nothing else is there)."""
        parent = path.rpartition("/")[0]
        if parent in self.made:
            return
        parts = parent.split("/")
        for end in range(1, len(parts) + 1):
            sub = "/".join(parts[:end])
            if sub not in self.made:
                try:
                    os.mkdir(sub, 0o755, dir_fd=self.folder)
                except FileExistsError:  # a file of that name was written first
                    found = os.stat(sub, dir_fd=self.folder, follow_symlinks=False)
                    if not stat.S_ISDIR(found.st_mode):
                        raise BuildError([Diagnostic(None, f"cannot write {path}: {sub} is "
                                                     "a file of the site")]) from None
                self.made.add(sub)

    def _create(self, path: str, chunks: Iterable[bytes]) -> None:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                             | os.O_CLOEXEC, 0o644, dir_fd=self.folder)
        try:
            for chunk in chunks:
                view = memoryview(chunk)
                while view:
                    view = view[os.write(descriptor, view):]
        finally:
            os.close(descriptor)


def _exchange(new: Path, out: Path) -> None:
    """Swap the two folders: atomically where the system can, else by three renames."""
    if _renameat2_exchange(new, out):
        return
    aside = new.with_name(new.name + ".swap")
    os.rename(out, aside)
    try:
        os.rename(new, out)
    except OSError:
        os.rename(aside, out)
        raise
    os.rename(aside, new)


def _renameat2_exchange(first: Path, second: Path) -> bool:
    if sys.platform != "linux":
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second),
                       rename_exchange)
    return bool(result == 0)
