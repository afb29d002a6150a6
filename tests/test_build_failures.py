"""Ordinary failures of the machine (a full disk, an output folder that cannot be
replaced) are clear errors with exit status 1, never "internal error", and lose
nothing: the previous site stays, and the next build works."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from talkpages.engine import owned, writer

from conftest import MakeSite, talk
from conftest import cli_build as build
from conftest import fresh_build_files as clean
from conftest import output_files as files

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


def make(make_site: MakeSite) -> Path:
    return make_site({"talks/one.md": talk("One", extra='tags = ["a"]'),
                      "talks/two.md": talk("Two", "2027-02-03T10:00:00")})


def full_disk(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_while_writing_the_site_is_an_error_that_loses_nothing(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    before, lock = files(site / "public"), (site / "sequence.lock").read_bytes()
    (site / "talks/three.md").write_text(talk("Three", "2020-01-01T10:00:00"))
    monkeypatch.setattr(writer.NewSite, "_create", full_disk)
    code, err = build(run_cli, site)
    assert code == 1 and "internal error" not in err, err
    assert "cannot write" in err and "No space left on device" in err
    assert files(site / "public") == before  # nothing lost
    assert (site / "sequence.lock").read_bytes() == lock  # a failed build: not written
    assert sorted(p.name for p in site.iterdir()) == [".talkpages-cache", "public",
                                                      "sequence.lock", "talks"]
    monkeypatch.undo()
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_a_media_cache_that_cannot_be_written_costs_the_next_build_its_time_only(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    site = make(make_site)

    class FullDisk:
        """The os module, on a disk with no room left."""
        write = staticmethod(full_disk)

        def __getattr__(self, name: str) -> object:
            return getattr(os, name)

    monkeypatch.setattr(owned, "os", FullDisk())
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert files(site / "public") == clean(run_cli, site, tmp_path)
    assert not [p for p in (site / ".talkpages-cache" / "media").iterdir()]


def test_an_output_folder_that_cannot_be_replaced_is_an_error(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only output folder (its own permissions, or a read-only mount): it cannot
    be exchanged with the new site. Seen as a user other than root; here the refusal
    is made by hand, since root may write anywhere."""
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    before = files(site / "public")

    def refused(new: Path, out_dir: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(out_dir))

    monkeypatch.setattr(writer, "_exchange", refused)
    for edit in ("a", "b"):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["{edit}"]'))
        code, err = build(run_cli, site)
        assert code == 1 and "internal error" not in err, err
        assert "cannot write the site" in err and "Permission denied" in err
        assert files(site / "public") == before
        assert sorted(p.name for p in site.iterdir()) == [".talkpages-cache", "public",
                                                          "sequence.lock", "talks"]
    monkeypatch.undo()
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)
