"""Symbolic links in a site folder: followed only while they stay inside it.

A site folder may come from anyone's repository, and a link in it can name any file
of the machine that builds it (`talks/x/slides.pdf -> ~/.ssh/id_ed25519`); what a
build reads, it publishes. So talkpages reads a site as `serve` serves it: a link
whose target is inside the site folder is followed, and one that leads out of it, to
nothing (broken, or a loop) or into a hidden folder of the site (`.git/config` may
hold a token of the machine that cloned it) is an error at the link's own path. The
same rule holds for `import`, with the folder imported from as the site.

A file that is not a link is where it is, inside, and needs no check: `os.scandir`
tells links apart without a system call, so a site pays one `realpath` per link and
nothing for its other files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..diagnostics import Diagnostic

HINT = "copy the file into the site folder, or remove the link"


def real(folder: Path) -> str:
    """The real path of a site folder, as links are judged against it."""
    return os.path.realpath(folder)


def follow(path: Path, root: str) -> tuple[str | None, Diagnostic | None]:
    """Where the link at `path` leads, when it may be followed; else why not."""
    target = os.path.realpath(path)
    if not os.path.exists(target):
        return None, Diagnostic(path, "this link is broken or part of a loop of links",
                                hint="remove it, or point it at a real file")
    if target != root and not target.startswith(root.rstrip(os.sep) + os.sep):
        return None, Diagnostic(path, f"this link leads out of the site folder, to {target}: "
                                "talkpages reads nothing outside the site", hint=HINT)
    inside = os.path.relpath(target, root).split(os.sep)
    if any(part.startswith(".") and part != "." for part in inside):
        return None, Diagnostic(path, f"this link leads into a hidden part of the site "
                                f"({'/'.join(inside)}), which talkpages never reads",
                                hint=HINT)
    return target, None


def inside_path(name: str) -> bool:
    """Is `name`, as a setting gives it, a relative path of a file in the site folder: no
    leading "/", no backslash, no empty, ".." or hidden part (a speaker's photo, the logo)?"""
    return not (name.startswith("/") or "\\" in name or any(
        part in ("", "..") or part.startswith(".") for part in name.split("/")))


def check(path: Path, site_dir: Path) -> Diagnostic | None:
    """A file of the site read on its own (talkpages.toml, speakers.toml, a folder such
    as talks/): None when it may be read, or is absent."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except OSError:
        return None  # absent: whoever reads it says so
    return follow(path, real(site_dir))[1]


def walk(folder: Path, here: str, root: str, problems: list[Diagnostic], skip: str = "",
         hidden: bool = False) -> list[str]:
    """The files under `folder`, whose real path is `here` (the caller has checked the
    folder itself), as POSIX paths relative to it: each folder's files by name, then its
    folders'. Hidden files and folders are left out unless `hidden` (a theme reads and
    publishes them too), and so is `skip` (a file of the top folder). Links are followed
    by the rule above; one that leads to a folder holding it would never end, and is an
    error."""
    found: list[str] = []
    _walk(folder, "", here, root, problems, (skip, hidden), found, [])
    return found


def _walk(folder: Path, prefix: str, here: str, root: str, problems: list[Diagnostic],
          leave: tuple[str, bool], found: list[str], above: list[str]) -> None:
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        problems.append(Diagnostic(folder, f"cannot list the folder: {exc.strerror}"))
        return
    skip, hidden = leave
    folders = []
    for entry in entries:
        if (entry.name.startswith(".") and not hidden) or (not prefix and entry.name == skip):
            continue
        path = folder / entry.name
        target: str | None = os.path.join(here, entry.name)
        if entry.is_symlink():
            target, problem = follow(path, root)
            if problem is not None:
                problems.append(problem)
                continue
        assert target is not None
        if os.path.isdir(target) if entry.is_symlink() else entry.is_dir(follow_symlinks=False):
            chain = [*above, here]
            if any(target == seen or seen.startswith(target + os.sep) for seen in chain):
                problems.append(Diagnostic(path, "this link leads to a folder that holds it: "
                                           "a loop of links", hint="remove the link"))
            else:
                folders.append((path, f"{prefix}{entry.name}/", target, chain))
        elif os.path.isfile(target) if entry.is_symlink() else entry.is_file(
                follow_symlinks=False):
            found.append(f"{prefix}{entry.name}")
        else:
            problems.append(Diagnostic(path, "this is not a regular file (a device, a pipe "
                                       "or a socket); talkpages copies only files",
                                       hint="remove it"))
    for path, inner, target, chain in folders:
        _walk(path, inner, target, root, problems, ("", hidden), found, chain)


def check_tree(folder: Path, root: str, problems: list[Diagnostic]) -> list[str]:
    """A folder of the site read whole (layouts/, assets/): itself and its links, and
    the files found in it (`walk`, hidden ones included)."""
    try:
        mode = os.lstat(folder).st_mode
    except OSError:
        return []  # absent: nothing to read
    here: str | None = None
    if stat.S_ISLNK(mode):
        here, problem = follow(folder, root)
        if problem is not None:
            problems.append(problem)
    elif stat.S_ISDIR(mode):
        here = real(folder)
    if here is None or not os.path.isdir(here):
        return []
    return walk(folder, here, root, problems, hidden=True)


def on_the_way(path: Path, top: Path, root: str) -> Diagnostic | None:
    """The first link from `top` down to `path` (itself included) that may not be
    followed: for files found by tools that follow every link (`import`'s finders)."""
    try:
        parts = path.relative_to(top).parts
    except ValueError:
        return None
    for count in range(1, len(parts) + 1):
        step = top.joinpath(*parts[:count])
        if step.is_symlink():
            problem = follow(step, root)[1]
            if problem is not None:
                return problem
    return None


def read(path: Path, top: Path, limit: int) -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of a file found below the site folder `top` by name rather than by a
    walk (an importer's config, `config/_default/params.toml`), read as talk files are:
    not through a link that leads out of the site (`on_the_way`), only a plain file (a
    pipe would block the read forever, a device never end it: opened without blocking,
    its kind is asked of the open file) and at most `limit` bytes; else why not."""
    problem = on_the_way(path, top, real(top))
    if problem is not None:
        return None, problem
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                return None, Diagnostic(path, "this is not a file (a pipe, a device or a "
                                        "folder): talkpages reads only files",
                                        hint="remove it, or put a file in its place")
            if status.st_size > limit:
                return None, Diagnostic(path, f"the file is too large "
                                        f"({status.st_size // 1024} KiB)")
            with os.fdopen(os.dup(descriptor), "rb") as file:
                return file.read(limit), None
        finally:
            os.close(descriptor)
    except OSError as exc:
        return None, Diagnostic(path, f"cannot read the file: {exc.strerror or exc}")


SETTINGS_BYTES = 4 * 1024 * 1024  # talkpages.toml, speakers.toml: text of a few KiB


def read_settings(path: Path, site_dir: Path) -> tuple[str | None, Diagnostic | None]:
    """A settings file of the site (talkpages.toml, speakers.toml) read as `read` reads,
    as text (a BOM dropped): None and no problem when there is no such file."""
    if not os.path.lexists(path):
        return None, None
    data, problem = read(path, site_dir, SETTINGS_BYTES)
    if data is None:
        return None, problem
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, Diagnostic(path, "the file is not UTF-8 text", line,
                                hint="save it as UTF-8 in your editor")
