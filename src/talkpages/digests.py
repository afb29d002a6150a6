"""Digests that name what a result was made from: the keys of the media cache, and
the version of talkpages' own code that compiled templates are kept for."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from . import __version__


def digest(*parts: str) -> str:
    """128 bits of BLAKE2b over the parts, each ended by a NUL (so that ("ab", "c") and
    ("a", "bc") differ), as 32 hex digits."""
    joined = "\0".join(parts) + "\0"
    return hashlib.blake2b(joined.encode("utf-8", "surrogateescape"),
                           digest_size=16).hexdigest()



@lru_cache(maxsize=1)
def code_digest() -> str:
    """talkpages' own code: another version reads and renders differently."""
    package = Path(__file__).resolve().parent  # talkpages/
    hashed = hashlib.blake2b(__version__.encode(), digest_size=16)
    for path in sorted(package.rglob("*.py")):
        hashed.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()
