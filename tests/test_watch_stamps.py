"""An edit that keeps the size and sets the modification time back (as `touch -d`,
`rsync -t` or an editor restoring times do) is still a change, for serve's watcher and
for a build."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from talkpages.commands.watch import changes, scan

from conftest import MakeSite, talk

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


def edit_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    assert len(old) == len(new)
    status = path.stat()
    path.write_text(path.read_text().replace(old, new))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert path.stat().st_size == status.st_size
    assert path.stat().st_mtime_ns == status.st_mtime_ns


def test_the_watcher_sees_an_edit_whose_time_was_set_back(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("first")
    before = scan([tmp_path])
    edit_keeping_size_and_time(path, "first", "sixth")
    assert changes(before, scan([tmp_path])) == [str(path)]


def test_a_build_after_an_edit_whose_time_was_set_back_is_not_a_no_op(
        make_site: MakeSite, run_cli: RunCli) -> None:
    """Regression: a check of what changed compared size, modification time and inode
    only, so the build said nothing had changed and kept the old page."""
    site = make_site({"talks/one.md": talk("Alpha talk"), "talks/two.md": talk("Two")})
    assert run_cli("build", "-q", "-s", str(site), "--now", NOW)[0] == 0
    edit_keeping_size_and_time(site / "talks" / "one.md", "Alpha talk", "Omega talk")
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW)
    assert code == 0, err
    page = (site / "public" / "one" / "index.html").read_text()
    assert "Omega talk" in page and "Alpha talk" not in page
