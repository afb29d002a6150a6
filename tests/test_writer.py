"""The writer: the only code that touches the output folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.diagnostics import BuildError
from talkpages.writer import MARKER, Output, check_outputs, write_site


@pytest.mark.parametrize("path", ["../escape.html", "/etc/passwd", "a/../../b", "a\\b", "",
                                  "nul\x00.html"])
def test_paths_outside_the_output_folder_are_refused(path: str) -> None:
    problems = check_outputs([Output(path, b"x", origin="test")])
    assert problems and "outside the output folder" in problems[0].message


def test_two_outputs_for_one_path_name_both() -> None:
    problems = check_outputs([Output("a/index.html", b"1", origin="talks/a.md"),
                              Output("A/index.html", b"2", origin="talks/A.md")])
    assert "talks/a.md and talks/A.md" in problems[0].message


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
    write_site([Output("index.html", b"new")], out, site)
    assert sorted(p.name for p in out.iterdir()) == sorted([MARKER, "index.html"])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_error_while_writing_leaves_the_old_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    out = site / "public"
    write_site([Output("index.html", b"old")], out, site)
    with pytest.raises(BuildError):
        write_site([Output("index.html", b"new"),
                    Output("copy.bin", source=tmp_path / "missing.bin")], out, site)
    assert (out / "index.html").read_bytes() == b"old"
    assert [p.name for p in site.iterdir()] == ["public"]


def test_an_empty_folder_without_marker_may_be_used(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "public").mkdir(parents=True)
    write_site([Output("index.html", b"x")], site / "public", site)
    assert (site / "public/index.html").exists()
