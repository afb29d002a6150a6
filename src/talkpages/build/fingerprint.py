"""Is the output already what a build would write? Answered in a few milliseconds.

A build records a fingerprint of everything it read, in the output's marker and in the
signed record of the output (outfolder.py): the size, modification time and inode of
every file under talks/, layouts/ and assets/ (the site's and the built-in theme's), of
talkpages.toml and speakers.toml (and the logo, favicon and speakers' photos they name),
of talkpages' own code, and the options (`--now`, `--drafts`, `--future`,
`--base-url`). When the next build finds the same fingerprint, and every file of the
output as that build left it, it has nothing to do, as make decides from file times
(outfolder.up_to_date); when the output folder is gone, it makes it again from the twin
that build left (outfolder.restore). Any change to a file, a new or removed file, another option or
another version of talkpages gives another fingerprint, and a real build. Without
`--now` (or SOURCE_DATE_EPOCH) the build time is the clock's, which changes the feeds'
DTSTAMP, so every build is a real one.

Standard library only: `talkpages build` answers before it imports its renderer.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..content.links import inside_path, read_settings
from ..stamps import Snapshot, Stamp, stamp_of

PACKAGE = Path(__file__).resolve().parent.parent  # talkpages/


@dataclass(frozen=True)
class Inputs:
    """What a build reads, by file times: the files under talks/, one by one (a build
    that finds only talk files changed redoes only their outputs: delta.py), and a
    digest of all the rest."""

    talks: Snapshot
    rest: str

    @property
    def fingerprint(self) -> str:
        digest = hashlib.blake2b(self.rest.encode(), digest_size=16)
        digest.update(repr(self.talks).encode("utf-8", "surrogateescape"))  # ordered: sorted
        return digest.hexdigest()


def read_inputs(site_dir: Path, options: dict[str, object]) -> Inputs:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(repr(sorted(options.items())).encode())
    for name in ("talkpages.toml", "speakers.toml", *_photos(site_dir),
                 *site_images(site_dir)):
        _add_file(digest, site_dir, name)
    for folder in (site_dir / "layouts", site_dir / "assets", PACKAGE, PACKAGE / "theme",
                   PACKAGE.parent.parent / "layouts", PACKAGE.parent.parent / "assets"):
        listing = _tree(folder, code=folder is PACKAGE, hidden=folder is not PACKAGE)
        digest.update(f"[{folder}]\n".encode("utf-8", "surrogateescape"))
        for path, stat in listing.items():
            digest.update(f"{path}\0{stat}\n".encode("utf-8", "surrogateescape"))
    return Inputs(_tree(site_dir / "talks"), digest.hexdigest())


def _photos(site_dir: Path) -> list[str]:
    """The photos speakers.toml names (any value of a `photo` key: a wrong one only
    adds a stamp), read only when the file mentions one."""
    tables = _toml(site_dir, "speakers.toml", ("photo",))
    return sorted({str(table["photo"]) for table in tables.values()
                   if isinstance(table, dict) and isinstance(table.get("photo"), str)})


def site_images(site_dir: Path) -> list[str]:
    """The logo and favicon talkpages.toml names, read only when it mentions one."""
    found = _toml(site_dir, "talkpages.toml", ("logo", "favicon"))
    return sorted(str(found[key]) for key in ("logo", "favicon")
                  if isinstance(found.get(key), str))


def _toml(site_dir: Path, name: str, words: tuple[str, ...]) -> dict[str, object]:
    """The tables of a settings file of the site that holds one of `words`, else none.
    Read as the loader reads it (links.read_settings: no link out of the site, no pipe,
    a limit on the size); what it cannot read, the loader reports."""
    text, _ = read_settings(site_dir / name, site_dir)
    if text is None or not any(word in text for word in words):
        return {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    try:
        tables: dict[str, object] = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    return tables


def _add_file(digest: hashlib.blake2b, site_dir: Path, name: str) -> None:
    """The stamp of the file `name` of the site, as a setting gives it, or the error met
    stamping it (a name longer than the system takes). A name that is no path inside
    the site (absolute, "..", a NUL) is not looked for: the loader reports it, and its
    text alone goes into the digest."""
    found: Stamp | str = "not a path inside the site"
    if "\0" not in name and inside_path(name):
        try:
            found = stamp_of(site_dir.joinpath(*name.split("/")).stat())
        except (OSError, ValueError) as exc:
            found = type(exc).__name__
    digest.update(f"{name}\0{found}\n".encode("utf-8", "surrogateescape"))


def _tree(folder: Path, code: bool = False, hidden: bool = False) -> Snapshot:
    """Every file under `folder` (skipping __pycache__, hidden folders unless `hidden`:
    a theme publishes those too, and for talkpages' own `code` its installed theme, listed
    on its own), by path, with its stamp, or the error met reading it. Links are
    followed as the loader follows them, each folder once: a link that loops is walked
    no further."""
    found: Snapshot = {}
    stack = [str(folder)]
    seen: set[tuple[int, int]] = set()
    while stack:
        current = stack.pop()
        try:
            status = os.stat(current)
        except OSError as exc:
            found[current] = type(exc).__name__
            continue
        if (status.st_dev, status.st_ino) in seen:
            found[current] = "loop"
            continue
        seen.add((status.st_dev, status.st_ino))
        try:
            entries = sorted(os.scandir(current), key=lambda e: e.name)
        except OSError as exc:
            found[current] = type(exc).__name__
            continue
        for entry in entries:
            try:
                if entry.is_dir():
                    if not (code and entry.name == "theme") and entry.name != "__pycache__" \
                            and (hidden or not entry.name.startswith(".")):
                        stack.append(entry.path)
                    continue
                found[entry.path] = stamp_of(entry.stat())
            except OSError as exc:  # a broken link or a loop: the build will say so
                found[entry.path] = type(exc).__name__
    return found
