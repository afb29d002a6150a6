"""The writer: the only code that touches the output folder."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from talkpages.build.outfolder import MARKER, digest_bytes
from talkpages.build.trash import LARGE
from talkpages.build.writer import Staging, WriteStats
from talkpages.diagnostics import BuildError
from talkpages.output.outputs import Output, check_outputs


def write_site(outputs: list[Output], out: Path, site: Path, fingerprint: str = "",
               cache_dir: Path | None = None) -> WriteStats:
    return Staging(out, site, cache_dir).write(outputs, fingerprint)


@pytest.mark.parametrize("path", ["../escape.html", "/etc/passwd", "a/../../b", "a\\b", "",
                                  "nul\x00.html"])
def test_paths_outside_the_output_folder_are_refused(path: str) -> None:
    problems = check_outputs([Output(path, b"x", origin="test")])
    assert problems and "outside the output folder" in problems[0].message


def test_two_outputs_for_one_path_name_both() -> None:
    problems = check_outputs([Output("a/index.html", b"1", origin="talks/a.md"),
                              Output("A/index.html", b"2", origin="talks/A.md")])
    assert "talks/a.md and talks/A.md" in problems[0].message


def test_only_changed_files_are_written_and_stale_ones_removed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out = site / "public"
    cache = site / ".talkpages-cache"
    first = [Output("a/index.html", b"a"), Output("b/index.html", b"b"), Output("c.txt", b"c")]
    write_site(first, out, site, cache_dir=cache)
    stats = write_site([Output("a/index.html", b"a"), Output("b/index.html", b"B")], out, site,
                       cache_dir=cache)
    assert (stats.written, stats.removed) == (1, 1)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        MARKER, "a/index.html", "b/index.html"]
    assert (out / "b/index.html").read_bytes() == b"B"
    # a third build against a twin two builds behind still ends exactly right
    stats = write_site([Output("a/index.html", b"a2"), Output("b/index.html", b"B"),
                        Output("d/e/f.txt", b"f")], out, site, cache_dir=cache)
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and p.name != MARKER} == {
        "a/index.html": b"a2", "b/index.html": b"B", "d/e/f.txt": b"f"}
    assert not (out / "c.txt").exists()


def test_the_twin_never_shares_a_changed_file_with_the_output(tmp_path: Path) -> None:
    """Files are hard-linked between the output and its twin: a change must replace the
    twin's file, never write into the shared one."""
    site = tmp_path / "site"
    site.mkdir()
    out = site / "public"
    for content in (b"one", b"two", b"three", b"four", b"four", b"five"):
        write_site([Output("x.html", content)], out, site, cache_dir=site / "cache")
        assert (out / "x.html").read_bytes() == content


def test_a_file_edited_in_place_in_the_output_is_written_again(tmp_path: Path) -> None:
    """The twin shares the output's files: one edited in the output (in place, the
    inode kept) is edited in the twin too, and must not be taken for the built one."""
    site = tmp_path / "site"
    site.mkdir()
    out, cache = site / "public", site / "cache"
    for _ in range(2):  # the twin now shares x.html with the output
        write_site([Output("x.html", b"built")], out, site, cache_dir=cache)
    with open(out / "x.html", "r+b") as handle:
        handle.write(b"EDITED")
    for _ in range(3):
        stats = write_site([Output("x.html", b"built")], out, site, cache_dir=cache)
        assert (out / "x.html").read_bytes() == b"built"
    assert stats.written == 0  # once written again, it is kept again


def test_a_twin_or_record_from_elsewhere_is_not_trusted(tmp_path: Path) -> None:
    """A cache folder committed to a repository: its files are never taken as built."""
    site = tmp_path / "site"
    site.mkdir()
    out, cache = site / "public", site / "cache"
    write_site([Output("x.html", b"built")], out, site, cache_dir=cache)
    write_site([Output("x.html", b"built")], out, site, cache_dir=cache)
    record = next((cache / "outputs").glob("*.record"))
    record.write_bytes(record.read_bytes()[:-1] + b"!")  # not signed by this user's key
    twin = next(p for p in (cache / "outputs").iterdir() if p.is_dir())
    (twin / "x.html").unlink()
    (twin / "x.html").write_bytes(b"planted")
    (out / "x.html").unlink()
    (out / "x.html").write_bytes(b"planted")
    stats = write_site([Output("x.html", b"built")], out, site, cache_dir=cache)
    assert (out / "x.html").read_bytes() == b"built" and stats.written == 1


def test_a_deleted_output_folder_is_made_again_from_the_twin(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out, cache = site / "public", site / "cache"
    pages = [Output(f"p{n}/index.html", f"page {n}".encode()) for n in range(5)]
    write_site(pages, out, site, cache_dir=cache)
    shutil.rmtree(out)
    stats = write_site([Output(p.path, digest=digest_bytes(p.data or b"")) for p in pages[:4]]
                       + [Output("new.html", b"new")], out, site, cache_dir=cache)
    assert (stats.kept, stats.written) == (4, 1)  # the four given by their digest alone
    assert (out / "p3/index.html").read_bytes() == b"page 3"
    assert not (out / "p4").exists()


def test_write_site_swaps_in_a_complete_folder(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out = site / "public"
    source = tmp_path / "file.bin"
    source.write_bytes(b"\x00\x01")
    write_site([Output("index.html", b"<html>"), Output("x/y.bin", source=source)], out, site)
    assert (out / "index.html").read_bytes() == b"<html>"
    assert (out / "x/y.bin").read_bytes() == b"\x00\x01"
    assert (out / MARKER).exists()
    write_site([Output("index.html", b"new")], out, site, cache_dir=site / ".talkpages-cache")
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, "index.html"])
    assert [p.name for p in site.iterdir() if p.name.startswith(".")] == [".talkpages-cache"]


def test_an_error_while_writing_leaves_the_old_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out = site / "public"
    cache = site / ".talkpages-cache"
    write_site([Output("index.html", b"old")], out, site, cache_dir=cache)
    with pytest.raises(BuildError):
        write_site([Output("index.html", b"new"),
                    Output("copy.bin", source=tmp_path / "missing.bin")], out, site,
                   cache_dir=cache)
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in site.iterdir()) == [".talkpages-cache", "public"]
    with pytest.raises(BuildError):  # and without a cache folder
        write_site([Output("index.html", b"new"),
                    Output("copy.bin", source=tmp_path / "missing.bin")], out, site)
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in site.iterdir()) == [".talkpages-cache", "public"]


def test_an_empty_folder_without_marker_may_be_used(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "public").mkdir(parents=True)
    write_site([Output("index.html", b"x")], site / "public", site)
    assert (site / "public/index.html").exists()


def test_a_build_killed_midway_leaves_the_previous_output_intact(tmp_path: Path) -> None:
    """SIGKILL a real build while it writes; the old site must be untouched."""
    import signal
    import subprocess
    import sys
    import time

    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    body = "Body text. " * 400
    for number in range(1500):
        (site / "talks" / f"t{number}.md").write_text(
            f'+++\ntitle = "Talk {number}"\ndate = 2019-05-22T14:50:00\n+++\n{body}\n')
    command = [sys.executable, "-m", "talkpages", "build", "-q", "-s", str(site),
               "--now", "2026-01-01T00:00:00Z"]
    subprocess.run(command, check=True)
    out = site / "public"
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for number in range(1500):  # every page changes: a long write to kill
        (site / "talks" / f"t{number}.md").write_text(
            f'+++\ntitle = "Changed {number}"\ndate = 2019-05-22T14:50:00\n+++\n{body}\n')
    twins = site / ".talkpages-cache" / "outputs"
    killed_while_writing = False
    for _attempt in range(5):
        process = subprocess.Popen(command)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if any(twins.glob("*/.talkpages-dirty")):  # the new site is being written
                time.sleep(0.02)
                process.send_signal(signal.SIGKILL)
                killed_while_writing = True
                break
            time.sleep(0.002)
        process.wait()
        if killed_while_writing:
            break
    assert killed_while_writing, "the build finished before it could be killed"
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    # The next build rebuilds the half-written twin and writes every change.
    subprocess.run(command, check=True)
    assert not any(twins.glob("*/.talkpages-dirty"))
    assert b"Changed 0" in (out / "t0/index.html").read_bytes()
    assert b"Changed 1499" in (out / "t1499/index.html").read_bytes()


def _trash_is_emptied(cache: Path) -> bool:
    """The trash is emptied by a process of its own once a build is done: give it time."""
    for _ in range(200):
        if not any((cache / "trash").glob("*")):
            return True
        time.sleep(0.05)
    return False


def test_what_a_build_replaces_goes_to_the_trash_and_is_freed_after_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out, cache = site / "public", site / ".talkpages-cache"
    big = [b"a" * (LARGE + 1), b"b" * (LARGE + 1), b"c" * (LARGE + 1)]
    for number, data in enumerate(big):  # the third build replaces the twin's large file
        write_site([Output("calendar.ics", data), Output("x.html", b"%d" % number)], out,
                   site, cache_dir=cache)
        assert (out / "calendar.ics").read_bytes() == data
    assert _trash_is_emptied(cache)
    # a twin whose files are unknown (its record lost) goes to the trash whole
    for record in (cache / "outputs").glob("*.record"):
        record.unlink()
    twins = [folder for folder in (cache / "outputs").iterdir() if folder.is_dir()]
    assert twins and any(twin.iterdir() for twin in twins)
    write_site([Output("x.html", b"new")], out, site, cache_dir=cache)
    assert (out / "x.html").read_bytes() == b"new" and not (out / "calendar.ics").exists()
    assert _trash_is_emptied(cache)
