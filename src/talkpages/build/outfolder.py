"""The output folder and its twin, as a build finds and leaves them: which folder may be
used as an output (`check_out_dir`), its marker, the signed record of both folders'
files, and the two questions a build asks before it renders anything: is the output
already what this build would write (`up_to_date`), or can it be made again from the
twin without a build (`restore`)? The writer (writer.py) assembles the new site; the
two folders are exchanged here.

What may be reused is decided by the record, signed with the user's key (signed.py),
never by what happens to be on disk: it lists every file of both folders with its
digest, size, modification time and inode, and a file is reused only while all four
still hold: a file of the output edited in place, or checked out again by git, is
written anew. Nothing found in these folders is followed: a twin or a marker that is a
link is removed where it stands. The output folder is talkpages' own: it carries a
marker, and a folder without one is replaced only when it is empty. The twin lives in
the site's cache folder (`.talkpages-cache/outputs/<id>/`), or beside the output when
that is on another file system; the folders are exchanged with Linux's renameat2
(RENAME_EXCHANGE), by three renames elsewhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from . import signed
from .owned import (
    FolderStamp,
    discard,
    exists,
    folder_stamps,
    folders_of,
    is_file,
    is_folder,
    make_folders,
    mine,
    open_folder,
    read_file,
    replace_marker,
)
from .trash import discard_folder

MARKER = ".talkpages-output"
DIRTY = ".talkpages-dirty"
NEW_SUFFIX = ".talkpages-new"
TWIN_SUFFIX = ".talkpages-previous"
RECORD_FORMAT = 3  # 3: with the stamps of the folders

Entry = tuple[str, int, int, int]  # digest, size, mtime_ns, inode


def digest_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def digest_file(path: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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


@dataclass
class Folders:
    """Where a build assembles its site, and what it may reuse from where.
    - exchange: the output exists; the twin is brought to the new site (`in_place`: its
      files as recorded), hard-linking the output's files (`lendable`), then the two
      folders are exchanged;
    - beside: the output is gone; the site is assembled beside it, lending the twin's;
    - copy: no usable twin; the site is assembled as the twin, the output made of links
      (a first build too: CI that keeps the cache between runs, not the output, then
      reuses its pages; the links cost 0.1 s of a 3.7 s first build at 2,000 talks);
    - replace: no cache; assembled beside, nothing kept for the next build."""
    mode: str
    target: Path
    source: Path
    twin: Path
    record_path: Path | None
    fingerprints: dict[str, str]
    in_place: dict[str, Entry] = field(default_factory=dict)
    lendable: dict[str, Entry] = field(default_factory=dict)
    next_twin: dict[str, Entry] = field(default_factory=dict)  # after this build
    next_twin_fingerprint: str = ""
    in_place_folders: dict[str, FolderStamp] = field(default_factory=dict)  # see prune;
    # once the twin is pruned, only those of its folders found unchanged
    next_twin_folders: dict[str, FolderStamp] = field(default_factory=dict)


def choose_folders(out: Path, cache_dir: Path | None) -> Folders:
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    for leftover in parent.glob(f".{out.name}{NEW_SUFFIX}*"):  # of a killed build
        with contextlib.suppress(OSError):
            discard(leftover, os.lstat(leftover))
    record_path, twin, record = read_record(out, cache_dir)
    twin_files = record.get("twin") if is_folder(twin) and not exists(twin / DIRTY) else None
    out_files = record.get("output", {}) if is_file(out / MARKER) else {}
    fingerprints = record.get("fingerprints", {})
    stamps = record.get("folders", {"output": {}, "twin": {}})
    beside = parent / f".{out.name}{NEW_SUFFIX}-{secrets.token_hex(4)}"
    if record_path is None:
        return Folders("replace", beside, out, twin, None, fingerprints)
    if out.is_dir():
        # The output's folders as the record stamped them, if it is still that very
        # folder (not one made again from the twin): else none is known, and the next
        # build lists them all. Stamps are only ever taken of folders just checked or
        # written: a folder stamped as found could hold what a git pull planted there.
        top = os.lstat(out)
        lent = stamps["output"] if stamps["output"].get("") == (top.st_ino, top.st_ctime_ns) \
            else {}
        return Folders("exchange", twin, out, twin, record_path, fingerprints,
                       twin_files or {}, out_files, out_files, fingerprints.get("output", ""),
                       stamps["twin"] if twin_files else {}, lent)
    if twin_files:
        return Folders("beside", beside, twin, twin, record_path, fingerprints, {},
                       twin_files, twin_files, fingerprints.get("twin", ""), {},
                       stamps["twin"])
    return Folders("copy", twin, twin, twin, record_path, fingerprints)


def read_record(out: Path, cache_dir: Path | None) -> tuple[Path | None, Path, dict[str, Any]]:
    """Where the record of an output folder and its twin are kept, and the record if it
    is this user's and about this very output and twin ({} if not)."""
    twin = out.parent / f".{out.name}{TWIN_SUFFIX}"
    if cache_dir is None:
        return None, twin, {}
    outputs = cache_dir / "outputs"
    os.close(open_folder(cache_dir))
    os.close(open_folder(outputs))
    name = hashlib.blake2b(str(out).encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    if os.lstat(outputs).st_dev == out.parent.stat().st_dev:
        twin = outputs / name
    with contextlib.suppress(OSError):  # a link or a file where the twin goes: not ours
        there = os.lstat(twin)
        if not mine(there, stat.S_IFDIR):
            discard(twin, there)
    path = outputs / f"{name}.record"
    found = signed.read(path)
    if isinstance(found, dict) and found.get("format") == RECORD_FORMAT \
            and found.get("out") == str(out) and found.get("twin_path") == str(twin):
        files = dict(found["output"])
        for lacking in found["twin_lacks"]:
            del files[lacking]
        files.update(found["twin_differs"])
        found["twin"] = files
        return path, twin, found
    return path, twin, {}


def link_copy(folder: Path, entries: dict[str, Entry], out: Path, fingerprint: str) -> Path:
    """A new folder beside `out` of hard links to the files of `folder` (with its marker):
    raise OSError if one of them is not as `entries` has it."""
    copy = out.parent / f".{out.name}{NEW_SUFFIX}-{secrets.token_hex(4)}"
    copy.mkdir()
    try:
        source = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        target = os.open(copy, os.O_RDONLY | os.O_DIRECTORY)
        try:
            made = {""}
            for path, entry in entries.items():
                make_folders(path, made, target)
                stat = os.stat(path, dir_fd=source, follow_symlinks=False)
                if (stat.st_size, stat.st_mtime_ns, stat.st_ino) != entry[1:]:
                    raise OSError(f"{path} changed in {folder}")
                os.link(path, path, src_dir_fd=source, dst_dir_fd=target, follow_symlinks=False)
            write_manifest(target, fingerprint)
        finally:
            os.close(source)
            os.close(target)
    except OSError:
        discard_folder(copy)
        raise
    return copy


def up_to_date(out_dir: Path, cache_dir: Path, fingerprint: str) -> int | None:
    """The output folder holds what a build of inputs with this fingerprint writes, every
    file as that build left it: the number of files; None if a build is needed."""
    out = Path(os.path.abspath(out_dir))
    if not fingerprint or read_fingerprint(out) != fingerprint:
        return None  # known from the marker, before the record is read
    try:
        _, _, record = read_record(out, cache_dir)
        files = record.get("output")
        if not files or record["fingerprints"].get("output") != fingerprint:
            return None
        folder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except (OSError, KeyError, AttributeError):
        return None
    try:
        for path, entry in files.items():
            stat = os.stat(path, dir_fd=folder, follow_symlinks=False)
            if (stat.st_size, stat.st_mtime_ns, stat.st_ino) != entry[1:]:
                return None
    except OSError:
        return None
    finally:
        os.close(folder)
    return len(files)


def restore(out_dir: Path, site_dir: Path, cache_dir: Path, fingerprint: str) -> int | None:
    """The output folder is gone, and its twin was built from inputs with this very
    fingerprint: make the output again of hard links to the twin, with no build at all.
    The number of files, or None when that cannot be (a build is needed)."""
    out = Path(os.path.abspath(out_dir))
    if not fingerprint or out.exists() or check_out_dir(out_dir, site_dir):
        return None
    try:
        _, twin, record = read_record(out, cache_dir)
        files = record.get("twin")
        if not files or record["fingerprints"].get("twin") != fingerprint \
                or exists(twin / DIRTY) or not is_folder(twin):
            return None
        link_copy(twin, files, out, fingerprint).rename(out)
    except (OSError, KeyError, AttributeError):
        return None
    return len(files)


def save_record(path: Path, out: Path, twin: Path, output: dict[str, Entry],
                next_twin: dict[str, Entry], fingerprints: dict[str, str],
                twin_folders: dict[str, FolderStamp],
                known: dict[str, FolderStamp] | None = None) -> None:
    """The record of the output folder and its twin, the twin as it differs from the
    output, and the stamps of the output's folders as the build leaves them (see
    owned.prune; `known`: those of folders the build found unchanged and left alone,
    not looked at again); raise OSError if it cannot be saved (the old record is then
    removed)."""
    try:
        signed.write(path, {
            "format": RECORD_FORMAT, "out": str(out), "twin_path": str(twin),
            "output": output, "fingerprints": fingerprints,
            "folders": {"output": _stamps(out, output, known or {}), "twin": twin_folders},
            "twin_differs": {p: e for p, e in next_twin.items() if output.get(p) != e},
            "twin_lacks": [p for p in output if p not in next_twin]}, plain=True)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


def _stamps(out: Path, files: dict[str, Entry], known: dict[str, FolderStamp],
            ) -> dict[str, FolderStamp]:
    folders = folders_of(files)
    folder = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        found = folder_stamps(folder, folders - known.keys())
    finally:
        os.close(folder)
    return found | {name: stamp for name, stamp in known.items() if name in folders}


def read_fingerprint(folder: Path) -> str:
    """The inputs' fingerprint the build that wrote `folder` recorded ("" if none)."""
    try:
        head = read_file(folder / MARKER, 4096).decode("utf-8", "replace")
        start = head.index('"fingerprint": "') + len('"fingerprint": "')
        return head[start:head.index('"', start)]
    except (OSError, ValueError):
        return ""


def write_manifest(folder: int, fingerprint: str) -> None:
    """The marker of an output folder: whose it is, and the fingerprint of the inputs it
    was built from (the list of its files is in the signed record, in the cache)."""
    text = json.dumps({"talkpages": "This folder is written by talkpages; each build "
                       "makes it match the site exactly.", "fingerprint": fingerprint},
                      indent=0)
    replace_marker(folder, MARKER, (text + "\n").encode())


def exchange_or_rename(twin: Path, out_dir: Path) -> None:
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
