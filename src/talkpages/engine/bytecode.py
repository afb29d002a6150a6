"""Compiled templates kept between builds, in the user's cache (never the site's), and
signed: loading a template's code runs it.

Compiling the built-in templates takes about 0.2 s, which is most of a small site's
build; loading them compiled takes a few milliseconds. Jinja's own
FileSystemBytecodeCache keeps such code in a shared folder without checking who wrote
it; here each file carries a keyed BLAKE2b MAC, with a key of the user's in
`~/.cache/talkpages/cache-key` (the folder 0700, the file 0600; a key that is not the
user's own, or that others may read or write, is refused and replaced), and code that
does not verify is compiled again. Nothing is unpickled: the file holds Jinja's
marshalled code and nothing else.

Kept per version of talkpages' own code, not only per template source: Jinja compiles a
filter it does not know yet (one used only in a branch, `x if c else t | f`) into a call
without the template's context, so code compiled by another version, whose filters
differ, would call this one's filters wrongly."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import shutil
import stat
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.bccache

from ..digests import code_digest
from .owned import mine, read_file, replace_file

MAGIC = b"talkpages-code-1\n"
_MAC_SIZE = 32


def user_cache() -> Path:
    """talkpages' folder in the user's cache: the key, and compiled templates."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(home) / "talkpages"


def compiled_templates(kind: str, messages: str = "") -> jinja2.BytecodeCache:
    """Where templates compiled for an environment of `kind` (and a language) are kept,
    signed, for every site built by this user (theme.py). `messages`: the digest of the
    messages compiled into them (output/messages.py): others, others' code."""
    return SignedBytecode(user_cache() / f"templates-{kind}",
                          code_digest()[:16] + (f"-{messages}" if messages else ""))


class SignedBytecode(jinja2.BytecodeCache):
    """A template's key is its name and file, checked against its source by Jinja."""

    def __init__(self, folder: Path, code: str):
        self.folder, self.code = folder, code

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            blob = read_file(self.folder / self.code / bucket.key, start=MAGIC)
        except OSError:
            return
        start = len(MAGIC) + _MAC_SIZE
        data = blob[start:]
        if hmac.compare_digest(blob[len(MAGIC):start], _mac(data)):
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
            data = bucket.bytecode_to_string()
            replace_file(here / bucket.key, MAGIC + _mac(data) + data)
        except OSError:
            pass  # compiled again next time


def _mac(data: bytes) -> bytes:
    return hashlib.blake2b(data, key=_key(), digest_size=_MAC_SIZE).digest()


@lru_cache(maxsize=1)
def _key() -> bytes:
    """The user's key; one for this process alone where none can be kept safely."""
    folder = user_cache()
    path = folder / "cache-key"
    try:  # the folder may be a link of the user's own (to another disk): followed
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            if mine(os.fstat(descriptor), stat.S_IFDIR):
                os.fchmod(descriptor, 0o700)
            if not _private(os.fstat(descriptor), stat.S_IFDIR):
                return secrets.token_bytes(32)
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
