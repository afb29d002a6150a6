"""sequence.lock: SEQUENCE raised by the build when a talk's time, place or status
changes, kept in a committed file that is read as hostile input and written safely."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import tomllib

from talkpages.content.config import Config
from talkpages.content.loader import LoadOptions, load_site
from talkpages.content.sequencelock import (
    LOCK_BYTES,
    LOCK_NAME,
    current,
    fingerprint,
    lock_text,
    read_lock,
)
from talkpages.engine import lockfile

from conftest import NOW, MakeSite, RunCli, cli_build, outputs, render_site, talk

CONFIG = 'base_url = "https://talks.example.org/"\ntitle = "Example"\n'
MOVED = talk("Moved", "2027-03-10T18:00:00", 'timezone = "Europe/Madrid"\nlocation = "Room 1"')
KEPT = talk("Kept", "2027-04-10T18:00:00", 'timezone = "Europe/Madrid"')


def sequences(site: Path) -> dict[str, int]:
    """The SEQUENCE of each event of the built calendar.ics, by UID."""
    text = (site / "public" / "calendar.ics").read_bytes().decode("utf-8")
    uids = re.findall(r"^UID:(.*)\r$", text, re.M)
    numbers = re.findall(r"^SEQUENCE:(\d+)\r$", text, re.M)
    return dict(zip(uids, map(int, numbers), strict=True))


def locked(site: Path) -> dict[str, int]:
    events = tomllib.loads((site / LOCK_NAME).read_text(encoding="utf-8"))["events"]
    return {uid: entry["sequence"] for uid, entry in events.items()}


def edit(site: Path, name: str, old: str, new: str) -> None:
    path = site / "talks" / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({"talkpages.toml": CONFIG, "talks/moved.md": MOVED,
                      "talks/cancelled.md": KEPT.replace("Kept", "Cancelled"),
                      "talks/kept.md": KEPT})


def test_a_moved_and_a_cancelled_talk_raise_sequence_once(site: Path,
                                                          run_cli: RunCli) -> None:
    assert cli_build(run_cli, site) == (0, "")
    first = {"moved@talks.example.org": 0, "cancelled@talks.example.org": 0,
             "kept@talks.example.org": 0}
    assert sequences(site) == locked(site) == first
    edit(site, "moved.md", "18:00", "19:30")
    edit(site, "cancelled.md", "+++\nBody", 'status = "cancelled"\n+++\nBody')
    lock = (site / LOCK_NAME).read_bytes()
    # A build that does not keep its copy of the lock (a CI): the same SEQUENCE each time.
    for _ in range(2):
        code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW.isoformat(),
                               "-o", str(site / "ci"))
        assert (code, err) == (0, "")
        ci = (site / "ci" / "calendar.ics").read_bytes().decode("utf-8")
        assert ci.count("SEQUENCE:1\r\n") == 2
        (site / LOCK_NAME).write_bytes(lock)
    assert cli_build(run_cli, site) == (0, "")
    second = {**first, "moved@talks.example.org": 1, "cancelled@talks.example.org": 1}
    assert sequences(site) == locked(site) == second
    assert "STATUS:CANCELLED" in (site / "public" / "calendar.ics").read_text(encoding="utf-8")
    rewritten = (site / LOCK_NAME).read_bytes()
    assert cli_build(run_cli, site) == (0, "")  # a third build: nothing changed
    assert sequences(site) == second and (site / LOCK_NAME).read_bytes() == rewritten
    edit(site, "moved.md", "19:30", "20:00")  # moved again: raised again, once
    assert cli_build(run_cli, site) == (0, "")
    assert sequences(site)["moved@talks.example.org"] == 2
    assert cli_build(run_cli, site) == (0, "")
    assert sequences(site)["moved@talks.example.org"] == 2


def test_what_raises_sequence_and_what_does_not(make_site: MakeSite) -> None:
    config = Config(base_url="https://t.example.org/")
    base = make_site({"talks/a.md": talk("A", "2027-03-10T18:00:00")})

    def mark(extra: str = "", date: str = "2027-03-10T18:00:00", title: str = "A",
             zone: str = "UTC") -> str:
        (base / "talks/a.md").write_text(talk(title, date, f'timezone = "{zone}"\n{extra}'),
                                         encoding="utf-8")
        site, problems = load_site(base, LoadOptions(now=NOW))
        assert site is not None, problems
        return fingerprint(config, site.talks[0])

    same = mark()
    assert mark(title="A new title") == mark('abstract = "Words"\ntags = ["x"]') == same
    assert mark("sequence = 3") == same  # the front matter's own number is not a change
    changed = [mark(date="2027-03-10T18:30:00"), mark("date_end = 2027-03-10T20:00:00"),
               mark(zone="Europe/Madrid"), mark('location = "Room 2"'),
               mark('address = { city = "Madrid" }'), mark('status = "postponed"'),
               mark('status = "cancelled"'), mark('recurrence = "FREQ=WEEKLY;COUNT=3"'),
               mark('recurrence = "FREQ=WEEKLY;COUNT=3"\nexdates = [2027-03-17]')]
    assert same not in changed and len(set(changed)) == len(changed)
    mark('status = "cancelled"')  # shown as a title instead: clients must see it
    site, _ = load_site(base, LoadOptions(now=NOW))
    assert site is not None
    titled = Config(base_url="https://t.example.org/", cancelled_in_feeds="title")
    assert fingerprint(titled, site.talks[0]) != fingerprint(config, site.talks[0])


def test_the_front_matter_sequence_wins_when_higher(make_site: MakeSite) -> None:
    config = Config(base_url="https://t.example.org/")
    site_dir = make_site({"talks/a.md": talk("A", "2027-03-10T18:00:00", "sequence = 5")})
    site, _ = load_site(site_dir, LoadOptions(now=NOW))
    assert site is not None
    (a,) = site.talks
    uid, mark = "a@t.example.org", fingerprint(config, a)
    assert current(config, [a], {})[uid] == (5, mark)  # not in the lock: its own
    assert current(config, [a], {uid: (2, mark)})[uid] == (5, mark)
    assert current(config, [a], {uid: (7, mark)})[uid] == (7, mark)  # never lower
    assert current(config, [a], {uid: (7, "0" * 32)})[uid] == (8, mark)
    assert current(config, [a], {uid: (2**31 - 1, "0" * 32)})[uid] == (2**31 - 1, mark)


def test_entries_of_removed_talks_are_kept(site: Path, run_cli: RunCli) -> None:
    assert cli_build(run_cli, site) == (0, "")
    edit(site, "moved.md", "18:00", "19:00")
    assert cli_build(run_cli, site) == (0, "")
    (site / "talks" / "moved.md").unlink()
    assert cli_build(run_cli, site) == (0, "")
    assert locked(site)["moved@talks.example.org"] == 1
    (site / "talks" / "moved.md").write_text(MOVED, encoding="utf-8")  # back, at 18:00
    assert cli_build(run_cli, site) == (0, "")
    assert sequences(site)["moved@talks.example.org"] == 2  # never back to 0


def test_serve_and_check_work_sequence_out_and_write_nothing(site: Path,
                                                             run_cli: RunCli) -> None:
    assert cli_build(run_cli, site) == (0, "")
    edit(site, "moved.md", "18:00", "19:00")
    before = (site / LOCK_NAME).read_bytes()
    result = render_site(site)  # as check and serve build it
    assert b"SEQUENCE:1\r\n" in outputs(result)["calendar.ics"]
    code, out, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and (site / LOCK_NAME).read_bytes() == before
    assert f"{LOCK_NAME}: note: 1 talk changed since {LOCK_NAME} was written" in err
    assert "commit sequence.lock, or the next change will not raise SEQUENCE again" in err
    assert cli_build(run_cli, site) == (0, "")
    code, out, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and "note" not in err


def test_a_failed_build_writes_no_lock(site: Path, run_cli: RunCli) -> None:
    (site / "talks" / "broken.md").write_text("+++\ntitle = 3\n+++\n", encoding="utf-8")
    assert cli_build(run_cli, site)[0] == 1
    assert not (site / LOCK_NAME).exists()


def test_the_lock_is_written_whole_in_the_site_and_never_through_a_link(
        site: Path, run_cli: RunCli, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n", encoding="utf-8")
    (site / LOCK_NAME).symlink_to(outside)
    code, err = cli_build(run_cli, site)
    assert code == 1 and "it is a link" in err
    assert outside.read_text(encoding="utf-8") == "mine\n"
    (site / LOCK_NAME).unlink()
    assert cli_build(run_cli, site) == (0, "")
    assert not (site / LOCK_NAME).is_symlink()
    assert (site / LOCK_NAME).read_text(encoding="utf-8").startswith(
        "# sequence.lock: written by talkpages")
    assert [p.name for p in site.iterdir() if p.name.startswith(".sequence")] == []


def test_a_lock_that_cannot_be_written_is_a_warning_after_the_build(
        site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(lockfile, "replace_file", read_only)
    code, err = cli_build(run_cli, site)
    assert code == 0 and "warning: cannot write sequence.lock: Permission denied" in err
    assert (site / "public" / "calendar.ics").is_file()


def test_the_lock_round_trips_and_odd_uids_are_escaped(tmp_path: Path) -> None:
    entries = {'a"b\\c@x': (3, "a" * 32), "é@x": (0, "b" * 32)}
    (tmp_path / LOCK_NAME).write_text(lock_text(entries), encoding="utf-8")
    assert read_lock(tmp_path) == (entries, [])
    assert read_lock(tmp_path / "nowhere") == ({}, [])


HOSTILE = {
    "not TOML": ("[events\n", "invalid TOML"),
    "a huge number": ('[events]\n"a@x" = { sequence = 99999999999999999999, '
                      'fingerprint = "' + "a" * 32 + '" }\n',
                      "`sequence` must be a whole number from 0 to"),
    "a number past SEQUENCE's range": ('[events]\n"a@x" = { sequence = 4294967296, '
                                       'fingerprint = "' + "a" * 32 + '" }\n',
                                       "`sequence` must be a whole number from 0 to"),
    "a negative number": ('\n[events]\n"a@x" = { sequence = -1, fingerprint = "'
                          + "a" * 32 + '" }\n', "`sequence` must be a whole number"),
    "a text for a number": ('[events]\n"a@x" = { sequence = "1", fingerprint = "'
                            + "a" * 32 + '" }\n', "`sequence` must be a whole number"),
    "a bad fingerprint": ('[events]\n"a@x" = { sequence = 1, fingerprint = "xyz" }\n',
                          "`fingerprint` must be 32 hexadecimal digits"),
    "another key": ('[events]\n"a@x" = { sequence = 1, fingerprint = "' + "a" * 32
                    + '", run = "rm" }\n', "expected { sequence"),
    "a UID with a space": ('[events]\n"a x" = { sequence = 1, fingerprint = "'
                           + "a" * 32 + '" }\n', "a UID is one word"),
    "events not a table": ("events = 3\n", "`events` must be a table"),
    "a future version": ("version = 2\n[events]\n", "this talkpages reads version 1"),
    "deep nesting": ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "invalid TOML"),
    "not UTF-8": ("\udcff", "not UTF-8"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_lock_is_an_error_naming_the_file_and_line(name: str, tmp_path: Path
                                                             ) -> None:
    text, expected = HOSTILE[name]
    (tmp_path / LOCK_NAME).write_bytes(text.encode("utf-8", "surrogateescape"))
    entries, problems = read_lock(tmp_path)
    assert entries == {} and problems and all(p.is_error for p in problems)
    assert expected in problems[0].message and problems[0].path == tmp_path / LOCK_NAME
    if text.startswith("\n[events]"):
        assert problems[0].line == 3


def test_a_lock_that_is_not_a_file_or_too_large_is_refused(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).mkdir()
    assert "not a file" in read_lock(tmp_path)[1][0].message
    (tmp_path / LOCK_NAME).rmdir()
    os.mkfifo(tmp_path / LOCK_NAME)  # a pipe would block a reader forever
    assert "not a file" in read_lock(tmp_path)[1][0].message
    (tmp_path / LOCK_NAME).unlink()
    with open(tmp_path / LOCK_NAME, "wb") as handle:
        handle.truncate(LOCK_BYTES + 1)  # sparse: nothing of it is read
    assert "larger than" in read_lock(tmp_path)[1][0].message


def test_a_bad_lock_fails_the_build_naming_it(site: Path, run_cli: RunCli) -> None:
    (site / LOCK_NAME).write_text('version = 1\n[events]\n"a@x" = { sequence = -1, '
                                  'fingerprint = "' + "a" * 32 + '" }\n', encoding="utf-8")
    code, err = cli_build(run_cli, site)
    assert code == 1 and f"{LOCK_NAME}:3: error: the entry 'a@x'" in err
