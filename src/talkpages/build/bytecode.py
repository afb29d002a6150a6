"""Compiled templates kept between builds, signed like everything talkpages keeps:
loading a template's code runs it. Imported only by a build that renders (a build with
nothing to do never imports Jinja)."""

from __future__ import annotations

from pathlib import Path

import jinja2
import jinja2.bccache

from .signed import read, user_cache, write


def compiled_templates(kind: str) -> jinja2.BytecodeCache:
    """Where templates compiled for an environment of `kind` are kept, signed, for every
    site built by this user (theme.py)."""
    return SignedBytecode(user_cache() / f"templates-{kind}")


class SignedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept between builds, as Jinja's own FileSystemBytecodeCache
    does (a template's key is its name and file, checked against its source), but signed
    like everything talkpages keeps: loading a template's code runs it."""

    def __init__(self, folder: Path):
        self.folder = folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = read(self.folder / bucket.key)
        if isinstance(data, bytes):
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write(self.folder / bucket.key, bucket.bytecode_to_string())
        except OSError:
            pass  # compiled again next time
