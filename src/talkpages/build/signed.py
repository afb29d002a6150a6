"""Pickles signed with a key of the user's: what talkpages keeps between builds.

A site's `.talkpages-cache/` holds parsed talks and the record of the previous build as
pickles, which are fast to read back, and unpickling runs code. A cache folder that
came with a cloned repository or a pull request must never be read: every pickle is
signed with a keyed BLAKE2b MAC, and one that does not verify is ignored (the build is
then a cold one, with the same output).

Blobs that are read back one by one (the talks and fragments of the cache's pack) carry
a MAC of their own (`seal`/`unseal`): the signed index says where a blob is, the blob's
MAC that it is what this user's talkpages wrote there. A blob that does not verify
raises `Damaged`, and the build starts again from nothing; nothing unverified is ever
unpickled or copied into the output.

The key is 32 random bytes in `$XDG_CACHE_HOME/talkpages/cache-key` (or
`~/.cache/talkpages/cache-key`), made on first use. Its folder is made readable by its
owner only, and a key file that is not a plain file of the user's, or that others may
read or write, is refused and replaced: anyone who knows the key can make talkpages
unpickle what they wrote. `TALKPAGES_CACHE_KEY` (any text) is used instead when set:
CI that restores a site's cache between runs keeps it as a secret. Without either, a
key lives for one process, and caches are written but never reused.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import pickle
import secrets
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any

from .owned import mine, read_file, replace_file

MAGIC = b"talkpages-signed-2\n"
_MAC_SIZE = 32


def user_cache() -> Path:
    """talkpages' folder in the user's cache: the key, and compiled built-in templates."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home) / "talkpages"


class Damaged(Exception):
    """A blob of the cache is not what this user's talkpages wrote (edited, damaged,
    or of a cache that came from elsewhere)."""


@lru_cache(maxsize=1)
def _key() -> bytes:
    given = os.environ.get("TALKPAGES_CACHE_KEY")
    if given:
        return hashlib.blake2b(given.encode("utf-8", "surrogateescape"),
                               digest_size=32).digest()
    folder = user_cache()
    path = folder / "cache-key"
    try:  # the folder may be a link of the user's own (to another disk): followed
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            if mine(os.fstat(descriptor), stat.S_IFDIR):
                os.fchmod(descriptor, 0o700)
            if not _private(os.fstat(descriptor), stat.S_IFDIR):
                return secrets.token_bytes(32)  # not a folder of ours: a key for this process
        finally:
            os.close(descriptor)
    except OSError:
        return secrets.token_bytes(32)
    try:
        if _private(os.lstat(path), stat.S_IFREG):
            key = read_file(path, 1024)
            if len(key) == 32:
                return key
        path.unlink()  # another's, others may read it, a link, damaged: never used
    except OSError:
        pass
    key = secrets.token_bytes(32)
    temporary = path.with_name(f".cache-key.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(key)
        try:
            os.link(temporary, path)  # whole or not at all; never over another's key
        finally:
            os.unlink(temporary)
    except FileExistsError:  # another process made one first: theirs, if it is whole
        try:
            theirs = read_file(path, 1024)
        except OSError:
            return key
        return theirs if len(theirs) == 32 else key
    except OSError:
        pass  # no place for a key: this process's own
    return key


def _private(status: os.stat_result, kind: int) -> bool:
    """Of this user's, of that kind, and neither readable nor writable by others."""
    return mine(status, kind) and not status.st_mode & 0o077


def _mac(data: bytes | memoryview) -> bytes:
    return hashlib.blake2b(data, key=_key(), digest_size=_MAC_SIZE).digest()


def dumps(value: Any, plain: bool = False) -> bytes:
    """`plain`: a value of built-in types only (dicts, lists, tuples, strings, numbers),
    written with marshal, which reads and writes them two to three times faster."""
    data = b"m" + marshal.dumps(value) if plain else \
        b"p" + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return MAGIC + _mac(data) + data


def loads(blob: bytes) -> Any | None:
    """The value, or None when the blob is not one this user's talkpages signed."""
    if not blob.startswith(MAGIC):
        return None
    start = len(MAGIC) + _MAC_SIZE
    mac, data = blob[len(MAGIC):start], memoryview(blob)[start:]  # states run to megabytes
    if not hmac.compare_digest(mac, _mac(data)):
        return None
    try:  # signed by this user's key above: made by this user's talkpages
        if data[0] == ord("m"):
            return marshal.loads(data[1:])
        return pickle.loads(data[1:])  # noqa: S301
    except Exception:  # noqa: BLE001 - written by another version of talkpages
        return None


def read(path: Path) -> Any | None:
    try:
        return loads(read_file(path, start=MAGIC))
    except OSError:
        return None


def write(path: Path, value: Any, plain: bool = False) -> None:
    """Whole or not at all: a new file renamed over the old one."""
    replace_file(path, dumps(value, plain))


SEAL = _MAC_SIZE  # bytes a sealed blob is longer than its data


def seal(data: bytes) -> bytes:
    """`data` with its MAC in front, as the cache's pack keeps it."""
    return _mac(data) + data


def unseal(blob: bytes) -> bytes:
    """The data of a sealed blob; raise Damaged if it is not what this user sealed."""
    data = memoryview(blob)[SEAL:]
    if len(blob) < SEAL or not hmac.compare_digest(blob[:SEAL], _mac(data)):
        raise Damaged("a blob of the cache does not verify")
    return bytes(data)
