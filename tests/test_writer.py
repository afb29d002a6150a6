"""The writer: the only code that touches the output folder. Every build writes the
whole site beside the output and puts it in place in one step."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.diagnostics import BuildError
from talkpages.engine.writer import MARKER, NEW, QUEUED, new_site, write_site
from talkpages.output.outputs import Output, check_outputs


@pytest.mark.parametrize("path", ["../escape.html", "/etc/passwd", "a/../../b", "a\\b", "",
                                  "nul\x00.html", ".talkpages-output"])
def test_paths_outside_the_output_folder_are_refused(path: str) -> None:
    problems = check_outputs([Output(path, b"x", origin="test")])
    assert problems and "outside the output folder" in problems[0].message


def test_two_outputs_for_one_path_name_both() -> None:
    problems = check_outputs([Output("a/index.html", b"1", origin="talks/a.md"),
                              Output("A/index.html", b"2", origin="talks/A.md")])
    assert "talks/a.md and talks/A.md" in problems[0].message


def site_folder(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    return site


def test_the_new_site_takes_the_place_of_the_old_whole(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    out = site / "public"
    source = tmp_path / "file.bin"
    source.write_bytes(b"\x00\x01")
    stats = write_site([Output("index.html", b"<html>"), Output("x/y.bin", source=source),
                        Output("z.txt", chunks=iter([b"a", b"b"]))], out, site)
    assert (out / "index.html").read_bytes() == b"<html>"
    assert (out / "x/y.bin").read_bytes() == b"\x00\x01"
    assert (out / "z.txt").read_bytes() == b"ab"
    assert (out / MARKER).exists()
    assert sorted(stats.paths) == ["index.html", "x/y.bin", "z.txt"]
    inode = out.stat().st_ino
    write_site([Output("index.html", b"new")], out, site)
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, "index.html"])
    assert (out / "index.html").read_bytes() == b"new"
    assert out.stat().st_ino != inode  # another folder, put in place
    assert sorted(p.name for p in site.iterdir()) == ["public"]  # nothing left beside it


def test_small_outputs_are_written_a_batch_at_a_time_and_all_before_the_site_is_in_place(
        tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    out = site / "public"
    with new_site(out, site) as writer:
        for n in range(QUEUED - 1):
            writer.receive(writer.store(Output(f"p{n}/index.html", f"page {n}".encode())))
        writer.receive(writer.store(Output("big.json", chunks=iter([b"{}"]))))
        assert sorted(p.name for p in writer.path.iterdir()) == ["big.json"]  # streamed: now
        writer.receive(writer.store(Output("last.html", b"last")))  # the queue is full
        assert len(list(writer.path.iterdir())) == QUEUED + 1
        writer.receive(writer.store(Output("after.html", b"after")))
        assert not (writer.path / "after.html").exists()
    assert (out / "after.html").read_bytes() == b"after"
    assert (out / "p7/index.html").read_bytes() == b"page 7"
    assert len(writer.stats.paths) == QUEUED + 2


def test_an_error_while_writing_leaves_the_old_site(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    out = site / "public"
    write_site([Output("index.html", b"old")], out, site)
    for outputs in ([Output("index.html", b"new"), Output("copy.bin", source=tmp_path / "gone")],
                    [Output("index.html", b"new"), Output("../escape", b"x")],
                    [Output("a", b"file"), Output("a/b", b"under a file")]):
        with pytest.raises(BuildError):
            write_site(outputs, out, site)
        assert (out / "index.html").read_bytes() == b"old"
        assert sorted(p.name for p in site.iterdir()) == ["public"]
    assert not (tmp_path / "escape").exists()


def test_an_error_met_while_rendering_leaves_the_old_site(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    out = site / "public"
    write_site([Output("index.html", b"old")], out, site)

    def outputs():  # type: ignore[no-untyped-def]
        yield Output("index.html", b"new")
        raise BuildError([])

    with pytest.raises(BuildError):
        write_site(outputs(), out, site)
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in site.iterdir()) == ["public"]


def test_what_a_killed_build_left_beside_the_output_goes(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    out = site / "public"
    left = site / f".public{NEW}abcdef"
    (left / "deep").mkdir(parents=True)
    (left / "deep" / "x.html").write_bytes(b"half")
    (site / f".public{NEW}link").symlink_to(tmp_path, target_is_directory=True)
    write_site([Output("index.html", b"x")], out, site)
    assert sorted(p.name for p in site.iterdir()) == ["public"]
    assert tmp_path.is_dir()  # the link went, not what it led to


def test_an_empty_folder_without_marker_may_be_used(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    (site / "public").mkdir()
    write_site([Output("index.html", b"x")], site / "public", site)
    assert (site / "public/index.html").exists()


def test_a_folder_of_someone_elses_is_never_replaced(tmp_path: Path) -> None:
    site = site_folder(tmp_path)
    (site / "public").mkdir()
    (site / "public" / "thesis.tex").write_bytes(b"years of work")
    with pytest.raises(BuildError, match="did not create"):
        write_site([Output("index.html", b"x")], site / "public", site)
    assert (site / "public" / "thesis.tex").read_bytes() == b"years of work"


@pytest.mark.parametrize("out", ["site", "site/talks", "."])
def test_the_site_or_a_folder_above_it_is_never_the_output(tmp_path: Path, out: str) -> None:
    site = site_folder(tmp_path)
    (site / "talks").mkdir()
    with pytest.raises(BuildError, match="refusing"):
        write_site([Output("index.html", b"x")], tmp_path / out, site)


def test_a_build_killed_midway_leaves_the_previous_output_intact(tmp_path: Path) -> None:
    """SIGKILL a real build while it writes; the old site must be untouched, and the
    next build is whole."""
    import signal
    import subprocess
    import sys
    import time

    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    body = "Body text. " * 400
    for number in range(1000):
        (site / "talks" / f"t{number}.md").write_text(
            f'+++\ntitle = "Talk {number}"\ndate = 2019-05-22T14:50:00\n+++\n{body}\n')
    command = [sys.executable, "-m", "talkpages", "build", "-q", "-s", str(site),
               "--now", "2026-01-01T00:00:00Z"]
    subprocess.run(command, check=True)
    out = site / "public"
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for number in range(1000):
        (site / "talks" / f"t{number}.md").write_text(
            f'+++\ntitle = "Changed {number}"\ndate = 2019-05-22T14:50:00\n+++\n{body}\n')
    killed_while_writing = False
    for _attempt in range(5):
        process = subprocess.Popen(command)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if any(site.glob(f".public{NEW}*/t1*")):  # the new site is being written
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
    subprocess.run(command, check=True)
    assert not list(site.glob(f".public{NEW}*"))
    assert b"Changed 0" in (out / "t0/index.html").read_bytes()
    assert b"Changed 999" in (out / "t999/index.html").read_bytes()


def test_files_are_created_never_opened_over_another(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file of the new site is made with O_EXCL and O_NOFOLLOW, relative to the
    new folder: nothing is ever written through a link."""
    made: list[int] = []
    real_open = os.open

    def recording(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if flags & os.O_WRONLY:
            made.append(flags)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording)
    site = site_folder(tmp_path)
    write_site([Output("a/index.html", b"x"), Output("b.txt", b"y")], site / "public", site)
    assert made and all(flags & os.O_EXCL and flags & os.O_NOFOLLOW for flags in made)
