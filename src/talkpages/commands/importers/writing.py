"""Writing an imported talk, its bundle's files and the settings: never through a link,
and never over a file, unless the import was asked to replace an earlier import's
(`--replace`, to import again with other options).

A file replaced is first written whole beside its target under a name no one can guess
(safefile.py's `create_new`, through folders reached without a link), then renamed
over it: a process killed halfway leaves the old file or the new one, never half of
one. Only a plain file is replaced; a link, a folder or a pipe where the file goes is
left as it is and reported.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ...diagnostics import Diagnostic
from ..safefile import Refused, create_new, create_or_match, read_existing

MAX_REPLACED = 64 * 1024 * 1024  # a bundle's file replaced is read to compare it first
State = Literal["created", "same", "replaced", "differs"]
REPLACE_HINT = "import with --replace to write it again with these options"


def write_or_replace(site: Path, path: Path, data: bytes, replace: bool) -> State:
    """`create_or_match`, and with `replace` a plain file that differs is replaced."""
    state = create_or_match(site, path, data)
    if state != "differs" or not replace:
        return state
    if read_existing(site, path, MAX_REPLACED) is None:  # a link, a folder, a pipe
        raise Refused(path, "not replaced: a link, a folder or a file too large to be "
                      "an import's stands here",
                      hint="move it aside and import again")
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.new")
    create_new(site, temporary, data)
    try:
        os.replace(temporary, path)
    except OSError:
        os.unlink(temporary)
        raise
    return "replaced"


@dataclass
class Written:
    """What became of one talk's files."""

    state: State | None = None  # of the talk file; None when it was not written
    copied: int = 0  # bundle files created or replaced
    problems: list[Diagnostic] = field(default_factory=list)


def write_talk(site: Path, source: Path, bundle: Path | None, target: Path, document: bytes,
               files: tuple[str, ...], replace: bool,
               extra: Mapping[str, bytes] | None = None, tag: str = "",
               shared: bool = False) -> Written:
    """The talk file converted from `source` at `target` (a translation into `tag`:
    `x.de.md`, `x/index.de.md`), the files of its bundle, and `extra` files for its
    folder (images the old site kept elsewhere: name -> bytes). `shared`: the folder's
    files are another version's of the talk, which its translations share: one there
    is never replaced, and one that differs is named in a warning."""
    written = Written()
    ending = f".{tag}.md" if tag else ".md"
    other = (target.parent.parent / f"{target.parent.name}{ending}" if bundle else
             target.parent / target.name[:-len(ending)] / f"index{ending}")
    if os.path.lexists(other):
        written.problems.append(Diagnostic(
            source, f"not imported: {other} is the same talk in the other form; it was "
            "left as it is", 1, 1, severity="warning"))
        return written
    try:
        state = write_or_replace(site, target, document, replace)
        if state == "differs":
            written.problems.append(Diagnostic(
                source, f"not imported: {target} exists and differs; it was left as it is",
                1, 1, severity="warning", hint=REPLACE_HINT))
            return written
        written.state = state
        assert bundle is not None or not files
        copies: list[tuple[Path, str, bytes | None]] = [
            (bundle / name, name, None) for name in files]  # type: ignore[operator]
        copies += [(target.parent / name, name, data) for name, data in (extra or {}).items()]
        for path, name, data in copies:
            copy = write_or_replace(site, target.parent / name,
                                    path.read_bytes() if data is None else data,
                                    replace and not shared)
            if copy in ("created", "replaced"):
                written.copied += 1
            elif copy == "differs" and shared:
                written.problems.append(Diagnostic(
                    path, f"not copied: {target.parent / name} is there already and "
                    "differs: the talk's versions in each language share the files of "
                    "its folder, and the one there is kept", severity="warning",
                    hint=f"copy it under a name of its own and link that from {target.name}"))
            elif copy == "differs":
                written.problems.append(Diagnostic(
                    path, f"not copied: {target.parent / name} exists and differs",
                    severity="warning", hint=REPLACE_HINT))
    except Refused as exc:  # a link where the talk goes: nothing through it
        written.problems.append(exc.diagnostic())
    return written
