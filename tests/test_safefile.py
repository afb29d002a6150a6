"""Source files are created inside the site, whole or not at all, never over another
file and never through a link."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from talkpages.commands import safefile
from talkpages.commands.safefile import (
    Refused,
    check_folders,
    create_new,
    create_or_match,
    read_existing,
)


def test_creates_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    create_new(tmp_path, tmp_path / "talks" / "a.md", b"content")
    assert (tmp_path / "talks" / "a.md").read_bytes() == b"content"
    assert [p.name for p in (tmp_path / "talks").iterdir()] == ["a.md"]


def test_never_replaces_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"mine")
    with pytest.raises(FileExistsError):
        create_new(tmp_path, tmp_path / "a.md", b"theirs")
    assert (tmp_path / "a.md").read_bytes() == b"mine"
    assert [p.name for p in tmp_path.iterdir()] == ["a.md"]


def test_a_write_that_fails_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        create_new(tmp_path, tmp_path / "a.md", b"x" * 100)
    assert list(tmp_path.iterdir()) == []


def test_a_planted_link_at_the_temporary_name_is_not_followed(tmp_path: Path) -> None:
    """The temporary file had a name anyone could guess (the process id), opened
    following links: a link planted there had its target truncated and rewritten."""
    secret = tmp_path / "bashrc"
    secret.write_bytes(b"mine")
    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    planted = [f".a.md.{pid}.tmp" for pid in range(os.getpid() - 5, os.getpid() + 50)]
    for name in planted:
        (site / "talks" / name).symlink_to(secret)
    create_new(site, site / "talks" / "a.md", b"new")
    assert secret.read_bytes() == b"mine"
    assert (site / "talks" / "a.md").read_bytes() == b"new"
    assert not (site / "talks" / "a.md").is_symlink()
    assert sorted(p.name for p in (site / "talks").iterdir()) == sorted([*planted, "a.md"])


def test_a_link_at_the_files_own_name_is_refused_not_followed(tmp_path: Path) -> None:
    secret = tmp_path / "bashrc"
    secret.write_bytes(b"mine")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.md").symlink_to(secret)
    (tmp_path / "site" / "b.md").symlink_to(tmp_path / "nothing-yet")
    for name in ("a.md", "b.md"):
        with pytest.raises(Refused) as caught:
            create_new(tmp_path / "site", tmp_path / "site" / name, b"new")
        assert caught.value.path == tmp_path / "site" / name
        assert "link" in caught.value.diagnostic().message
    assert secret.read_bytes() == b"mine"
    assert not (tmp_path / "nothing-yet").exists()


def test_same_content_without_hard_links(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    create_new(tmp_path, tmp_path / "t" / "a.md", b"content")
    assert (tmp_path / "t" / "a.md").read_bytes() == b"content"
    assert [p.name for p in (tmp_path / "t").iterdir()] == ["a.md"]
    with pytest.raises(FileExistsError):
        create_new(tmp_path, tmp_path / "t" / "a.md", b"other")
    (tmp_path / "t" / "l.md").symlink_to(tmp_path / "nothing-yet")
    with pytest.raises(Refused):
        create_new(tmp_path, tmp_path / "t" / "l.md", b"other")
    assert not (tmp_path / "nothing-yet").exists()


@pytest.mark.parametrize("linked", ["talks", "talks/deep"])
def test_a_folder_on_the_way_that_is_a_link_is_refused(tmp_path: Path, linked: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    (site / linked).parent.mkdir(parents=True)
    (site / linked).symlink_to(outside)
    with pytest.raises(Refused) as caught:
        create_new(site, site / "talks/deep/more/a.md", b"x")
    assert caught.value.path == site / linked
    assert list(outside.iterdir()) == []
    with pytest.raises(Refused):
        check_folders(site, site / "talks/deep")


def test_a_file_where_a_folder_goes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "talks").write_bytes(b"")
    with pytest.raises(Refused) as caught:
        create_new(tmp_path, tmp_path / "talks/a.md", b"x")
    assert caught.value.path == tmp_path / "talks"
    assert "not a folder" in caught.value.reason


def test_check_folders_passes_what_is_missing(tmp_path: Path) -> None:
    check_folders(tmp_path, tmp_path / "talks")
    check_folders(tmp_path / "absent", tmp_path / "absent" / "talks")
    assert not (tmp_path / "talks").exists()


def test_create_or_match_and_read_existing_never_follow_a_link(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_bytes(b"same")
    site = tmp_path / "site"
    site.mkdir()
    assert create_or_match(site, site / "a", b"same") == "created"
    assert create_or_match(site, site / "a", b"same") == "same"
    assert create_or_match(site, site / "a", b"other") == "differs"
    (site / "link").symlink_to(secret)
    assert read_existing(site, site / "link", 100) is None
    os.mkfifo(site / "pipe")
    assert read_existing(site, site / "pipe", 100) is None  # never waits on a pipe
    assert create_or_match(site, site / "pipe", b"same") == "differs"
    assert read_existing(site, site / "a", 3) is None  # larger than asked for


def test_a_path_outside_the_site_is_a_bug(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        create_new(tmp_path / "site", tmp_path / "elsewhere.md", b"x")
    assert safefile._parts(tmp_path, tmp_path / "a" / "b") == ["a", "b"]
