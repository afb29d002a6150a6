"""Ordinary failures of the machine (a full disk, an output folder that cannot be
replaced) are clear errors with exit status 1, never "internal error", and lose
nothing: the previous site stays, and the next build works."""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from talkpages.build import pack, signed, writer

from conftest import MakeSite, talk
from conftest import cli_build as build
from conftest import fresh_build_files as clean
from conftest import output_files as files

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


def make(make_site: MakeSite) -> Path:
    return make_site({"talks/one.md": talk("One", extra='tags = ["a"]'),
                      "talks/two.md": talk("Two", "2027-02-03T10:00:00")})








class _FullDisk:
    """A pack file on a disk with no room left."""

    def __init__(self, pack: Any):
        self._pack = pack

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pack, name)


def test_a_full_disk_while_writing_the_cache_is_an_error_not_a_bug(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    before = files(site / "public")
    (site / "talks/three.md").write_text(talk("Three", "2020-01-01T10:00:00"))
    new_pack = pack.Pack._new

    def full(self: pack.Pack) -> None:
        new_pack(self)
        self._file = _FullDisk(self._file)  # type: ignore[assignment]

    monkeypatch.setattr(pack.Pack, "_new", full)
    packed = sum(p.stat().st_size for p in (site / ".talkpages-cache").glob("fragments-*"))
    (site / ".talkpages-cache" / "state").unlink()  # a cold build: a new pack
    code, err = build(run_cli, site)
    assert code == 1 and "internal error" not in err, err
    assert "cannot write the build cache" in err and "No space left on device" in err
    assert files(site / "public") == before  # nothing lost
    packs = list((site / ".talkpages-cache").glob("fragments-*.pack"))
    assert sum(pack.stat().st_size for pack in packs) <= packed  # the disk no fuller
    monkeypatch.undo()
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_a_cache_that_cannot_be_saved_after_a_good_build_is_a_warning(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = make(make_site)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(signed, "write", full)
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert "the build cache could not be saved" in err and "warning" in err
    assert files(site / "public") == clean(run_cli, site, tmp_path)
    monkeypatch.undo()
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["b"]'))
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_an_output_folder_that_cannot_be_replaced_on_an_incremental_build_is_an_error(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only output folder (its own permissions, or a read-only mount): it cannot
    be exchanged with the new site. Seen as a user other than root; here the refusal
    is made by hand, since root may write anywhere."""
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    before = files(site / "public")

    def refused(twin: Path, out_dir: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(out_dir))

    monkeypatch.setattr(writer, "exchange_or_rename", refused)
    for edit in ("a", "b"):  # a build that changes one talk, then another
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["{edit}"]'))
        code, err = build(run_cli, site)
        assert code == 1 and "internal error" not in err, err
        assert "cannot write the site" in err and "Permission denied" in err
        assert files(site / "public") == before
    monkeypatch.undo()
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)
