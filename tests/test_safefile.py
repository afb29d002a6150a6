"""Source files are created whole or not at all, and never over another file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.commands.safefile import create_new


def test_creates_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    create_new(tmp_path / "talks" / "a.md", b"content")
    assert (tmp_path / "talks" / "a.md").read_bytes() == b"content"
    assert [p.name for p in (tmp_path / "talks").iterdir()] == ["a.md"]


def test_never_replaces_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"mine")
    with pytest.raises(FileExistsError):
        create_new(tmp_path / "a.md", b"theirs")
    assert (tmp_path / "a.md").read_bytes() == b"mine"
    assert [p.name for p in tmp_path.iterdir()] == ["a.md"]


def test_a_write_that_fails_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        create_new(tmp_path / "a.md", b"x" * 100)
    assert list(tmp_path.iterdir()) == []
