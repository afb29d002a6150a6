"""Digests that name what a result was made from: the keys a build compares to tell
whether something kept from a previous build may be used again."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__


def digest(*parts: str) -> str:
    """128 bits of BLAKE2b over the parts, each ended by a NUL (so that ("ab", "c") and
    ("a", "bc") differ), as 32 hex digits."""
    joined = "\0".join(parts) + "\0"
    return hashlib.blake2b(joined.encode("utf-8", "surrogateescape"),
                           digest_size=16).hexdigest()


def config_key(config: Any) -> str:
    """What a Talk is read with besides its file: the config, and talkpages' own code
    (a Talk read by another version is never taken for this one's)."""
    return digest(repr(config), code_digest())


@lru_cache(maxsize=1)
def code_digest() -> str:
    """talkpages' own code: another version reads and renders differently."""
    package = Path(__file__).resolve().parent  # talkpages/
    hashed = hashlib.blake2b(__version__.encode(), digest_size=16)
    for path in sorted(package.rglob("*.py")):
        hashed.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()
