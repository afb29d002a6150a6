"""The only code that touches the output folder.

The whole site is written to a staging folder beside the output and swapped in only
when every file is written, so a failed or interrupted build leaves the previous
site as it was. The output folder is talkpages' own: it carries a marker file, and a
folder without one is replaced only when it is empty. Every output path is checked:
relative, no `..`, nothing written twice.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .diagnostics import BuildError, Diagnostic

MARKER = ".talkpages-output"


@dataclass(frozen=True)
class Output:
    path: str  # POSIX, relative to the output folder
    data: bytes | None = None
    source: Path | None = None  # a file to copy when there are no bytes
    origin: str = ""  # what made it, for messages


def check_outputs(outputs: Iterable[Output]) -> list[Diagnostic]:
    problems = []
    seen: dict[str, Output] = {}
    for output in outputs:
        path = PurePosixPath(output.path)
        if (not output.path or path.is_absolute() or ".." in path.parts
                or "\\" in output.path or "\x00" in output.path):
            problems.append(Diagnostic(None, f"refusing to write {output.path!r} (from "
                                       f"{output.origin}): outside the output folder"))
        elif output.path.lower() in seen:
            other = seen[output.path.lower()]
            problems.append(Diagnostic(None, f"two outputs write {output.path!r}: "
                                       f"{other.origin} and {output.origin}"))
        else:
            seen[output.path.lower()] = output
    return problems


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


def write_site(outputs: list[Output], out_dir: Path, site_dir: Path) -> None:
    problems = check_out_dir(out_dir, site_dir) + check_outputs(outputs)
    if problems:
        raise BuildError(problems)
    parent = out_dir.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(parent, out_dir.name)
    staging = parent / f".{out_dir.name}.staging-{os.getpid()}"
    try:
        staging.mkdir()
        for output in outputs:
            target = staging / output.path
            target.parent.mkdir(parents=True, exist_ok=True)
            if output.data is not None:
                target.write_bytes(output.data)
            elif output.source is not None:
                shutil.copyfile(output.source, target)
        (staging / MARKER).write_text("This folder is written by talkpages; each build "
                                      "replaces it whole.\n", encoding="utf-8")
        _swap_in(staging, out_dir)
    except OSError as exc:
        raise BuildError([Diagnostic(out_dir, f"cannot write the site: {exc}")]) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _remove_leftovers(parent: Path, name: str) -> None:
    """Staging folders left by builds that were killed (their process is gone)."""
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


def _swap_in(staging: Path, out_dir: Path) -> None:
    """Make `staging` the output in one step, so no moment is without a whole site.

    On Linux, renameat2(RENAME_EXCHANGE) swaps the two folders atomically: a build
    killed at any point leaves either the old site or the new one. Elsewhere, two
    renames: killed between them, the old site is left beside the output.
    """
    if not out_dir.exists():
        staging.rename(out_dir)
        return
    if _exchange(staging, out_dir):
        return  # `staging` now holds the old site; the caller removes it
    retired = staging.with_name(staging.name.replace(".staging-", ".staging-old-"))
    out_dir.rename(retired)
    try:
        staging.rename(out_dir)
    except OSError:
        retired.rename(out_dir)
        raise
    shutil.rmtree(retired, ignore_errors=True)


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
