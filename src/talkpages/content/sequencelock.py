"""sequence.lock: each calendar event's SEQUENCE, raised by the build itself when what a
subscriber's calendar app must see change does change.

RFC 5545 clients that follow SEQUENCE (Outlook, Thunderbird, Apple Calendar in part)
keep the version of an event they hold when a feed offers the same SEQUENCE again: a
talk moved or cancelled with its SEQUENCE unchanged stays where it was in their
calendars. Few authors remember to raise `sequence` by hand, so the build raises it
when a talk's time (start, end, zone, recurrence rule and dates), its place (location,
address) or its status changes.

Raising it needs the previous state, and nothing in a static site's folder records it:
the talk files say what a talk is now, not what it was, and the feed that was deployed
cannot be read back (a build uses no network, and a CI's previous output is gone). So
the state is a file of the site, committed with it: `sequence.lock`, one entry per UID
with its SEQUENCE and a fingerprint (a digest) of what clients must see change. Each
build works SEQUENCE out from the committed file, so a CI build that throws its updated
copy away publishes the same SEQUENCE as the local build that records it:

    SEQUENCE = max(front matter `sequence`, locked + 1 if the fingerprint differs
                   else locked)

and a talk not in the file has its front matter's value (0 by default).

Entries of talks that are no longer on the site are kept: a talk that comes back (a
draft again published, a file restored, a `publishDate` reached) would otherwise start
again from its front matter's value, lower than the SEQUENCE its subscribers hold,
and they would ignore every later change. An entry is a line of about a hundred bytes;
remove the line by hand to forget a talk for good.

The file may come from a stranger's repository like any other of the site: it is read
only as a plain file (never through a link), of at most LOCK_BYTES, parsed as TOML,
and every entry checked; a bad one is an error naming the file and line. engine/
lockfile.py writes it.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import re
import stat
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..diagnostics import Diagnostic
from ..digests import digest
from .config import Config
from .frontmatter import read_toml, toml_key_lines
from .model import Site, Talk

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: the same parser, as a package
    import tomli as tomllib

LOCK_NAME = "sequence.lock"
LOCK_BYTES = 32 * 1024 * 1024  # ~250 bytes an entry at most: over 100,000 talks
LOCK_VERSION = 1
MAX_SEQUENCE = 2**31 - 1  # RFC 5545's INTEGER
MAX_UID = 1024
FINGERPRINT = re.compile(r"[0-9a-f]{32}")
UID_WORD = re.compile(rf"[^\s\x00-\x1f\x7f]{{1,{MAX_UID}}}")  # no space, no control
HEADER = f"""\
# {LOCK_NAME}: written by talkpages (`talkpages build`); commit it with the site.
# The SEQUENCE of each talk's calendar event, and a digest of its time, place and status:
# a build raises SEQUENCE by one when the digest changes, so calendar apps take the new
# version. Keep this file: without it, the next change would not raise SEQUENCE again.
"""
HINT = (f"{LOCK_NAME} is written by `talkpages build`; remove the entry (or the file) "
        "to start its count again")

# A UID's SEQUENCE and fingerprint, as the lock holds them.
Locked = Mapping[str, tuple[int, str]]


def event_uid(config: Config, talk: Talk) -> str:
    """The UID of a talk's event: its `uid` field, else `<slug>@<site host>`."""
    return talk.uid or f"{talk.slug}@{config.host}"


def fingerprint(config: Config, talk: Talk) -> str:
    """A digest of what subscribers' calendars must see change: the talk's times (and
    zone, and series), its place and its status (with how the feeds show it)."""
    s, rule = talk.schedule, talk.recurrence
    parts = [s.start.isoformat(), s.end.isoformat(), str(s.all_day), s.zone or "",
             rule.rule() if rule is not None else "",
             " ".join(t.isoformat() for t in rule.exdates) if rule is not None else "",
             talk.location, "\n".join(talk.address.lines()) if talk.address else "",
             talk.status]
    if talk.status in ("cancelled", "postponed"):
        parts.append(config.cancelled_in_feeds)
    return digest("event", *parts)


def current(config: Config, talks: Iterable[Talk], locked: Locked,
            ) -> dict[str, tuple[int, str]]:
    """The SEQUENCE and fingerprint of each UID of `talks` (the versions of a talk in
    several languages share its UID: one fingerprint of them all, one SEQUENCE)."""
    groups: dict[str, list[Talk]] = {}
    host = config.host  # event_uid's, worked out once
    for talk in talks:
        groups.setdefault(talk.uid or f"{talk.slug}@{host}", []).append(talk)
    found = {}
    for uid, group in groups.items():
        if len(group) == 1:  # most talks: one language
            mark, sequence = fingerprint(config, group[0]), group[0].sequence
        else:
            group.sort(key=lambda talk: talk.written_in)
            mark = digest("versions", *(fingerprint(config, talk) for talk in group))
            sequence = max(talk.sequence for talk in group)
        if uid in locked:
            was, seen = locked[uid]
            sequence = max(sequence, was if seen == mark else min(was + 1, MAX_SEQUENCE))
        found[uid] = (sequence, mark)
    return found


def sequenced(config: Config, talks: list[Talk], locked: Locked,
              entries: Locked | None = None) -> list[Talk]:
    """The talks with the SEQUENCE their events carry (`entries`: `current`'s, when
    worked out already)."""
    now, host = entries or current(config, talks, locked), config.host
    return [talk if talk.sequence == (n := now[talk.uid or f"{talk.slug}@{host}"][0])
            else dataclasses.replace(talk, sequence=n) for talk in talks]


def updated(site: Site) -> dict[str, tuple[int, str]]:
    """The lock a build of `site` leaves: its talks as they are now, and the entries of
    talks no longer on it, kept (see the module's docstring)."""
    return dict(sorted({**site.locked, **_current(site)}.items()))


def stale(site: Site) -> list[str]:
    """The UIDs of the talks the lock does not hold as they are now."""
    return [uid for uid, entry in _current(site).items() if site.locked.get(uid) != entry]


def _current(site: Site) -> Locked:
    """`current` for the site's talks: as the loader worked it out, else now."""
    return site.sequences or current(site.config, site.talks, site.locked)


def stale_note(site: Site) -> list[Diagnostic]:
    """`check`'s note when talks changed since the lock was written (or are not in it).
    None for a site without the file: the first build writes it and says so, and every
    check of a site of a few files would say it."""
    changed = stale(site) if os.path.lexists(site.root / LOCK_NAME) else []
    if not changed:
        return []
    count = f"{len(changed)} talk{'s' * (len(changed) != 1)}"
    return [Diagnostic(site.root / LOCK_NAME, f"{count} changed since {LOCK_NAME} was "
                       f"written, or {'are' if len(changed) != 1 else 'is'} not in it "
                       f"(such as {changed[0]!r})", severity="note",
                       hint=f"run `talkpages build` and commit {LOCK_NAME}, or the next "
                       "change will not raise SEQUENCE again")]


def lock_text(entries: Locked) -> str:
    """The file's text: the header, then one line an entry, by UID."""
    lines = [HEADER, f"version = {LOCK_VERSION}\n", "\n[events]\n"]
    lines += [f"{_key(uid)} = {{ sequence = {sequence}, fingerprint = \"{mark}\" }}\n"
              for uid, (sequence, mark) in sorted(entries.items())]
    return "".join(lines)


def _key(uid: str) -> str:
    """A UID as a TOML key: a basic string, its quote and backslash escaped."""
    return '"' + uid.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_lock(site_dir: Path) -> tuple[dict[str, tuple[int, str]], list[Diagnostic]]:
    """The entries of the site's lock (none when there is no file), or its problems."""
    path = site_dir / LOCK_NAME
    try:
        data = _read(path)
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        why = ("it is a link: talkpages reads and writes this file only as a file of the "
               "site" if exc.errno == errno.ELOOP else exc.strerror or str(exc))
        return {}, [Diagnostic(path, f"cannot read {LOCK_NAME}: {why}", hint=HINT)]
    try:
        text = data.decode("utf-8")
        raw = read_toml(text)
    except UnicodeDecodeError:
        return {}, [Diagnostic(path, "the file is not UTF-8 text", hint=HINT)]
    except tomllib.TOMLDecodeError as exc:
        return {}, [Diagnostic(path, f"invalid TOML: {exc}", hint=HINT)]
    except RecursionError:
        return {}, [Diagnostic(path, "invalid TOML: values nest too deep", hint=HINT)]
    return _entries(path, raw, text)


def _read(path: Path) -> bytes:
    """The file's bytes: a plain file, reached without a link, of at most LOCK_BYTES (a
    pipe would block the read, a link could read any file of the machine)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise OSError(errno.EINVAL, "it is not a file (a folder, a pipe or a device)")
    with os.fdopen(descriptor, "rb") as file:
        if status.st_size > LOCK_BYTES:
            raise OSError(errno.EFBIG, f"it is larger than {LOCK_BYTES // 1024 // 1024} MiB")
        data = file.read(LOCK_BYTES + 1)
        if len(data) > LOCK_BYTES:
            raise OSError(errno.EFBIG, f"it is larger than {LOCK_BYTES // 1024 // 1024} MiB")
        return data


def _entries(path: Path, raw: dict[str, object], text: str,
             ) -> tuple[dict[str, tuple[int, str]], list[Diagnostic]]:
    problems: list[Diagnostic] = []
    lines = _KeyLines(text)
    unknown = sorted(set(raw) - {"version", "events"})
    for key in unknown:
        problems.append(Diagnostic(path, f"unknown key {key!r}", lines.get(key.lower()),
                                   hint="the file has `version` and an [events] table"))
    if raw.get("version", LOCK_VERSION) != LOCK_VERSION:
        problems.append(Diagnostic(path, f"`version` is {raw.get('version')!r}: this "
                                   f"talkpages reads version {LOCK_VERSION}",
                                   lines.get("version"), hint=HINT))
    events = raw.get("events", {})
    if not isinstance(events, dict):
        problems.append(Diagnostic(path, "`events` must be a table", lines.get("events"),
                                   hint=HINT))
        return {}, problems
    found: dict[str, tuple[int, str]] = {}
    for uid, entry in events.items():
        why = _entry_problem(uid, entry)
        if why is not None:
            problems.append(Diagnostic(path, f"the entry {uid[:80]!r}: {why}",
                                       lines.get(f"events.{uid.lower()}"), hint=HINT))
            continue
        assert isinstance(entry, dict)
        found[uid] = (entry["sequence"], entry["fingerprint"])
    return (found, problems) if not problems else ({}, problems)


def _entry_problem(uid: str, entry: object) -> str | None:
    """Why an entry of [events] is not one talkpages wrote, if it is not."""
    if not UID_WORD.fullmatch(uid):
        return f"a UID is one word of at most {MAX_UID} characters"
    if not isinstance(entry, dict) or set(entry) != {"sequence", "fingerprint"}:
        return "expected { sequence = <number>, fingerprint = \"<32 hex digits>\" }"
    sequence, mark = entry["sequence"], entry["fingerprint"]
    if isinstance(sequence, bool) or not isinstance(sequence, int) \
            or not 0 <= sequence <= MAX_SEQUENCE:
        return f"`sequence` must be a whole number from 0 to {MAX_SEQUENCE}"
    if not isinstance(mark, str) or not FINGERPRINT.fullmatch(mark):
        return "`fingerprint` must be 32 hexadecimal digits"
    return None


class _KeyLines:
    """The line of each key, found only when a problem is reported (10,000 entries take
    50 ms to index, and a good file needs none)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, int] | None = None

    def get(self, key: str) -> int | None:
        if self.found is None:
            self.found = toml_key_lines(self.text.split("\n"))
        return self.found.get(key)
