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


def _notices_or_skip(watcher: Watcher) -> None:
    if watcher.notices is None:
        import pytest

        pytest.skip("the system gives no notices of changed files (Linux's inotify)")


def test_notices_name_the_changed_files_without_a_look_at_every_file(
        tmp_path: Path, monkeypatch: object) -> None:
    """At 10,000 talks a look at every file takes some 60 ms a round: with the system's
    notices only the named paths are looked at again, and at once."""
    import talkpages.commands.watch as watch

    talks = tmp_path / "talks"
    talks.mkdir()
    for number in range(5):
        (talks / f"t{number}.md").write_text("x")
    watcher = Watcher([talks, tmp_path / "talkpages.toml"], settle=0.01)
    _notices_or_skip(watcher)
    looked: list[list[Path]] = []
    original = watch.scan

    def counted(roots: list[Path]) -> dict[str, object]:
        looked.append(list(roots))
        return original(roots)

    monkeypatch.setattr(watch, "scan", counted)  # type: ignore[attr-defined]
    monkeypatch.setattr(watch, "EVERY_FILE_SECONDS", 3600.0)  # type: ignore[attr-defined]
    (talks / "t3.md").write_text("edited")
    assert watcher.poll() == [str(talks / "t3.md")]
    assert looked == [[talks / "t3.md"]]
    (talks / "bundle").mkdir()  # a new folder is watched from then on
    (talks / "bundle/index.md").write_text("b")
    assert watcher.poll() == [str(talks / "bundle/index.md")]
    (talks / "bundle/index.md").write_text("b, edited")
    (talks / "bundle/.index.md.swp").write_text("litter")
    (tmp_path / "talkpages.toml").write_text("")
    (tmp_path / "public").mkdir()
    assert watcher.poll() == sorted([str(talks / "bundle/index.md"),
                                     str(tmp_path / "talkpages.toml")])
    os.remove(talks / "t0.md")
    os.rename(talks / "bundle", talks / "moved")
    assert watcher.poll() == sorted([str(talks / "bundle/index.md"), str(talks / "t0.md"),
                                     str(talks / "moved/index.md")])
    assert [roots for roots in looked if roots == [talks, tmp_path / "talkpages.toml"]] == []
    watcher.close()


def test_lost_notices_fall_back_to_a_look_at_every_file(tmp_path: Path) -> None:
    from talkpages.commands.notices import Lost

    (tmp_path / "a.md").write_text("a")
    watcher = Watcher([tmp_path], settle=0.01)
    _notices_or_skip(watcher)
    assert watcher.notices is not None

    def lost() -> set[str]:
        raise Lost("the system's queue of notices overflowed")

    watcher.notices.read = lost  # type: ignore[method-assign]
    (tmp_path / "a.md").write_text("a, edited")
    assert watcher.poll() == [str(tmp_path / "a.md")]
    watcher.close()


def test_every_file_is_looked_at_now_and_then_with_notices_too(
        tmp_path: Path, monkeypatch: object) -> None:
    """A network drive may change without the system noticing."""
    import talkpages.commands.watch as watch

    (tmp_path / "a.md").write_text("a")
    watcher = Watcher([tmp_path], settle=0.01)
    _notices_or_skip(watcher)
    assert watcher.notices is not None
    watcher.notices.read = lambda: set()  # type: ignore[method-assign]
    (tmp_path / "a.md").write_text("a, edited where nobody noticed")
    monkeypatch.setattr(watch, "EVERY_FILE_SECONDS", 3600.0)  # type: ignore[attr-defined]
    assert watcher.poll() == []
    monkeypatch.setattr(watch, "EVERY_FILE_SECONDS", 0.0)  # type: ignore[attr-defined]
    assert watcher.poll() == [str(tmp_path / "a.md")]
    watcher.close()
