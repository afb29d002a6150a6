"""Polling for changes: additions, edits, removals; editor litter ignored."""

from __future__ import annotations

import os
from pathlib import Path

from talkpages.commands.watch import Watcher, ignored, scan


def test_editor_litter_is_ignored() -> None:
    for name in (".one.md.swp", "one.md~", "#one.md#", ".#one.md", "4913", "x.tmp",
                 ".DS_Store"):
        assert ignored(name), name
    for name in ("one.md", "index.md", "style.css", "talkpages.toml"):
        assert not ignored(name), name


def test_poll_reports_additions_edits_and_removals(tmp_path: Path) -> None:
    talks = tmp_path / "talks"
    (talks / "bundle").mkdir(parents=True)
    (talks / "a.md").write_text("a")
    (talks / "bundle/index.md").write_text("b")
    config = tmp_path / "talkpages.toml"
    watcher = Watcher([talks, config, tmp_path / "layouts"], settle=0.01)
    assert watcher.poll() == []
    (talks / "a.md").write_text("a, longer")
    (talks / "bundle/slides.pdf").write_bytes(b"%PDF")
    (talks / ".a.md.swp").write_text("swap")
    config.write_text('title = "x"\n')
    assert watcher.poll() == sorted([str(talks / "a.md"), str(talks / "bundle/slides.pdf"),
                                     str(config)])
    assert watcher.poll() == []
    (talks / "bundle/index.md").unlink()
    assert watcher.poll() == [str(talks / "bundle/index.md")]


def test_same_size_edit_is_seen_by_its_mtime(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("aaaa")
    watcher = Watcher([tmp_path], settle=0.01)
    path.write_text("bbbb")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert watcher.poll() == [str(path)]


def test_scan_of_missing_roots_is_empty(tmp_path: Path) -> None:
    assert scan([tmp_path / "nope", tmp_path / "nope.toml"]) == {}


def test_roots_can_be_asked_again_at_each_scan(tmp_path: Path) -> None:
    watcher = Watcher(lambda: sorted(tmp_path.glob("*.toml")), settle=0.01)
    (tmp_path / "speakers.toml").write_text("")
    (tmp_path / "other.txt").write_text("")
    assert watcher.poll() == [str(tmp_path / "speakers.toml")]
