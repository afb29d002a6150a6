"""Compiled templates kept between builds, signed like everything talkpages keeps:
loading a template's code runs it. Imported only by a build that renders (a build with
nothing to do never imports Jinja).

Kept per version of talkpages' own code, not only per template source: Jinja compiles a
filter it does not know yet (one used only in a branch, `x if c else t | f`) into a call
without the template's context, so code compiled by another version, whose filters
differ, would call this one's filters wrongly."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import jinja2.bccache

from ..digests import code_digest
from .signed import read, user_cache, write


def compiled_templates(kind: str) -> jinja2.BytecodeCache:
    """Where templates compiled for an environment of `kind` are kept, signed, for every
    site built by this user (theme.py)."""
    return SignedBytecode(user_cache() / f"templates-{kind}", code_digest()[:16])


class SignedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept between builds, as Jinja's own FileSystemBytecodeCache
    does (a template's key is its name and file, checked against its source), but signed
    like everything talkpages keeps: loading a template's code runs it."""

    def __init__(self, folder: Path, code: str):
        self.folder, self.code = folder, code

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = read(self.folder / self.code / bucket.key)
        if isinstance(data, bytes):
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            here = self.folder / self.code
            if not here.is_dir():  # this version's first: the others' go
                if self.folder.is_dir():
                    for other in self.folder.iterdir():
                        if other.name != self.code:
                            shutil.rmtree(other, ignore_errors=True) if other.is_dir() \
                                else other.unlink(missing_ok=True)
                here.mkdir(parents=True, exist_ok=True)
            write(here / bucket.key, bucket.bytecode_to_string())
        except OSError:
            pass  # compiled again next time
