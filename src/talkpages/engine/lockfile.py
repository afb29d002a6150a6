"""sequence.lock written after a successful `talkpages build` (content/sequencelock.py
says what it holds and why it is a file of the site).

The file is in the site folder, a folder that may have come from a stranger's
repository: it is written whole, to a new file of a name no one can guess (created
with O_EXCL and O_NOFOLLOW, never through a link planted in advance) renamed over
`sequence.lock` in the open site folder, so a link standing there is replaced itself,
never written through, and nothing is written anywhere but in the site folder. A
process killed halfway leaves the old file or the new one, never half of one. Only a
build writes it: `serve` and `check` work SEQUENCE out the same way and leave it as it
is, and a failed build writes nothing.
"""

from __future__ import annotations

import os

from ..content.model import Site
from ..content.sequencelock import LOCK_NAME, lock_text, updated
from ..diagnostics import Diagnostic
from .owned import replace_file


def record(site: Site) -> tuple[bool, Diagnostic | None]:
    """Write the site's lock when its entries changed: whether it was written, and a
    warning when it could not be (the site is built and its feeds are right; only the
    next build would not know what they said)."""
    entries = updated(site)
    if entries == dict(site.locked):
        return False, None
    try:
        folder = os.open(site.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            replace_file(LOCK_NAME, lock_text(entries).encode("utf-8"), folder)
        finally:
            os.close(folder)
    except OSError as exc:
        return False, Diagnostic(site.root / LOCK_NAME, f"cannot write {LOCK_NAME}: "
                                 f"{exc.strerror or exc}", severity="warning",
                                 hint="the feeds are right; without the file the next "
                                 "change to a talk will not raise its SEQUENCE again")
    return True, None
