"""The only code that touches the output folder.

The new site is prepared beside the output and swapped in only when every file is
written, so a failed or interrupted build leaves the previous site as it was (see
`write_site`). The output folder is talkpages' own: it carries a marker file, and a
folder without one is replaced only when it is empty. Every output path is checked:
relative, no `..`, nothing written twice.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .diagnostics import BuildError, Diagnostic

MARKER = ".talkpages-output"


@dataclass(frozen=True)
class Output:
    path: str  # POSIX, relative to the output folder
    data: bytes | None = None
    source: Path | None = None  # a file to copy when there are no bytes
    origin: str = ""  # what made it, for messages
    digest: str = ""  # of the bytes, when the renderer knows it already (from its cache)


def check_outputs(outputs: Iterable[Output]) -> list[Diagnostic]:
    checker = _Checker()
    for output in outputs:
        checker.check(output)
    return checker.problems


class _Checker:
    """Every output path relative, inside the folder, and written once."""

    def __init__(self) -> None:
        self.problems: list[Diagnostic] = []
        self.seen: dict[str, str] = {}

    def check(self, output: Output) -> bool:
        path = PurePosixPath(output.path)
        if (not output.path or path.is_absolute() or ".." in path.parts
                or "\\" in output.path or "\x00" in output.path):
            self.problems.append(Diagnostic(None, f"refusing to write {output.path!r} (from "
                                            f"{output.origin}): outside the output folder"))
            return False
        key = output.path.lower()
        if key in self.seen:
            self.problems.append(Diagnostic(None, f"two outputs write {output.path!r}: "
                                            f"{self.seen[key]} and {output.origin}"))
            return False
        self.seen[key] = output.origin
        return True


def check_out_dir(out_dir: Path, site_dir: Path) -> list[Diagnostic]:
    """Refuse output folders whose contents are not ours to replace."""
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
    if out_dir.is_dir() and not (out_dir / MARKER).exists() and any(out_dir.iterdir()):
        return [Diagnostic(out_dir, "refusing to replace a folder that talkpages did not "
                           "create (it has files and no marker)",
                           hint=f"empty it or pass another folder with -o; talkpages marks "
                           f"its own output folders with a {MARKER} file")]
    return []


def write_site(outputs: Iterable[Output], out_dir: Path, site_dir: Path,
               fingerprint: str = "") -> WriteStats:
    """Make `out_dir` hold exactly `outputs`, in one atomic step.

    The new site is prepared in a private twin of the output folder, `.<name>.talkpages-
    previous` beside it, which holds the site of the build before. Only what differs
    from it is written: a file the current output already has with the same bytes is
    hard-linked from there, a file neither has is written, a file no output names is
    removed. Then the twin and the output are exchanged (renameat2 RENAME_EXCHANGE on
    Linux): the output is the new site, whole, and the twin the previous one, ready for
    the next build. A build that fails or is killed before the exchange leaves the
    output as it was; a twin left half-prepared is marked dirty and rebuilt next time.
    `outputs` may be a generator: each output is written as it comes, and none is kept.
    """
    problems = check_out_dir(out_dir, site_dir)
    if problems:
        raise BuildError(problems)
    parent = out_dir.resolve().parent
    stats = WriteStats()
    checker = _Checker()
    try:
        parent.mkdir(parents=True, exist_ok=True)
        _remove_leftovers(parent, out_dir.name)
        twin = parent / f".{out_dir.name}{TWIN_SUFFIX}"
        current = read_manifest(out_dir)
        base = None if (twin / DIRTY).exists() else read_manifest(twin, strict=True)
        if base is None:
            base = _fresh_twin(twin, out_dir, current)
        (twin / DIRTY).touch()
        files: dict[str, str] = {}
        made: set[Path] = set()
        for output in outputs:
            if not checker.check(output):
                continue
            digest = files[output.path] = output.digest or _digest(output)
            stats.paths.append(output.path)
            if base.get(output.path) == digest:
                stats.kept += 1
                continue
            target = twin / output.path
            _unlink(target)
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            if current.get(output.path) == digest and _link(out_dir / output.path, target):
                stats.kept += 1
            elif output.data is not None:
                target.write_bytes(output.data)
                stats.written += 1
            elif output.source is not None:
                shutil.copyfile(output.source, target)
                stats.written += 1
        if checker.problems:
            raise BuildError(checker.problems)
        for gone in sorted(base.keys() - files.keys()):
            _unlink(twin / gone)
            _prune(twin, PurePosixPath(gone).parent)
            stats.removed += 1
        _write_manifest(twin, files, fingerprint)
        (twin / DIRTY).unlink()
        if out_dir.exists():
            _exchange_or_rename(twin, out_dir)
        else:  # the next build makes a new twin, if it needs one
            twin.rename(out_dir)
    except OSError as exc:
        raise BuildError([Diagnostic(out_dir, f"cannot write the site: {exc}")]) from None
    return stats


@dataclass
class WriteStats:
    written: int = 0  # files whose bytes were written
    kept: int = 0  # files that were already right
    removed: int = 0  # files of the previous build no output names any more
    paths: list[str] = field(default_factory=list)  # every file of the site


TWIN_SUFFIX = ".talkpages-previous"
DIRTY = ".talkpages-dirty"


def read_manifest(folder: Path, strict: bool = False) -> dict[str, str]:
    """Path -> digest of the files a build wrote into `folder`; {} if unknown
    (None with `strict`, so that a twin of unknown content is rebuilt)."""
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        files = data["files"]
        if isinstance(files, dict):
            return {str(k): str(v) for k, v in files.items()}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None if strict else {}  # type: ignore[return-value]


def read_fingerprint(folder: Path) -> str:
    """The inputs' fingerprint the build that wrote `folder` recorded ("" if none)."""
    try:
        with open(folder / MARKER, encoding="utf-8") as handle:
            head = handle.read(4096)
        start = head.index('"fingerprint": "') + len('"fingerprint": "')
        return head[start:head.index('"', start)]
    except (OSError, ValueError):
        return ""


def _write_manifest(folder: Path, files: dict[str, str], fingerprint: str) -> None:
    text = json.dumps({"talkpages": "This folder is written by talkpages; each build "
                       "makes it match the site exactly.", "fingerprint": fingerprint,
                       "files": files}, ensure_ascii=False, indent=0, sort_keys=False)
    (folder / MARKER).write_text(text, encoding="utf-8")


def _digest(output: Output) -> str:
    if output.data is not None:
        return hashlib.blake2b(output.data, digest_size=16).hexdigest()
    assert output.source is not None
    digest = hashlib.blake2b(digest_size=16)
    with open(output.source, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fresh_twin(twin: Path, out_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """A twin that holds what `out_dir` holds, as hard links; its manifest."""
    shutil.rmtree(twin, ignore_errors=True)
    twin.mkdir()
    if not out_dir.is_dir():
        return {}
    (twin / DIRTY).touch()
    made: set[Path] = set()
    for path in files:
        target = twin / path
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        try:
            os.link(out_dir / path, target)
        except FileNotFoundError:  # removed from the output by hand: rewrite it
            files = {k: v for k, v in files.items() if k != path}
    _write_manifest(twin, files, "")
    (twin / DIRTY).unlink()
    return dict(files)


def _link(source: Path, target: Path) -> bool:
    """Hard-link `source` as `target`; False if it is gone (removed from the output by
    hand), so that the caller writes the file instead."""
    try:
        os.link(source, target)
    except FileNotFoundError:
        return False
    return True


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        shutil.rmtree(path)


def _prune(root: Path, folder: PurePosixPath) -> None:
    """Remove folders left empty, from `folder` up to (not including) `root`."""
    while folder.parts:
        try:
            (root / folder).rmdir()
        except OSError:
            return
        folder = folder.parent


def _remove_leftovers(parent: Path, name: str) -> None:
    """Staging folders left by builds of older versions that were killed."""
    for leftover in parent.glob(f".{name}.staging-*"):
        pid = leftover.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but is not ours
        return True
    return True


def _exchange_or_rename(twin: Path, out_dir: Path) -> None:
    """Swap the two folders: atomically where the system can, else by three renames."""
    if _exchange(twin, out_dir):
        return
    aside = twin.with_name(twin.name + ".swap")
    out_dir.rename(aside)
    try:
        twin.rename(out_dir)
    except OSError:
        aside.rename(out_dir)
        raise
    aside.rename(twin)


def _exchange(first: Path, second: Path) -> bool:
    if sys.platform != "linux":
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second),
                       rename_exchange)
    return bool(result == 0)
