"""Rebuilds: nothing to do when nothing changed, and after any change exactly the bytes a
full build of the same files writes, nothing more and nothing stale."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import NOW, MakeSite, talk

NOW_ARG = NOW.isoformat()


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(run_cli, site: Path, out: Path) -> str:  # type: ignore[no-untyped-def]
    code, output, error = run_cli("build", "-s", str(site), "-o", str(out), "--now", NOW_ARG)
    assert code == 0, error
    return output


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({
        "talks/a.md": talk("A", "2019-01-01", 'tags = ["x"]\nauthors = ["Ada"]'),
        "talks/b/index.md": talk("B", "2019-02-01T10:00:00", 'tags = ["x", "y"]'),
        "talks/b/slides.pdf": "%PDF-1",
        "talks/c.md": talk("C", "2030-01-01"),
    })


def test_nothing_changed_means_nothing_to_do(site: Path, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert "Built 3 talks" in build(run_cli, site, out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert "Nothing changed" in build(run_cli, site, out)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


@pytest.mark.parametrize("change", ["edit", "new file", "delete", "rename", "bundle file",
                                    "template", "config", "output file removed", "option"])
def test_any_change_gives_a_real_build(site: Path, run_cli, tmp_path: Path,
                                       change: str) -> None:
    out = tmp_path / "out"
    build(run_cli, site, out)
    args = []
    if change == "edit":
        (site / "talks/a.md").write_text(talk("A changed", "2019-01-01"))
    elif change == "new file":
        (site / "talks/d.md").write_text(talk("D"))
    elif change == "delete":
        (site / "talks/c.md").unlink()
    elif change == "rename":
        (site / "talks/c.md").rename(site / "talks/renamed.md")
    elif change == "bundle file":
        (site / "talks/b/slides.pdf").write_text("%PDF-2")
    elif change == "template":
        (site / "layouts").mkdir()
        (site / "layouts/404.html").write_text("missing")
    elif change == "config":
        (site / "talkpages.toml").write_text('title = "Other"\n')
    elif change == "output file removed":
        (out / "a/index.html").unlink()
    elif change == "option":
        args = ["--drafts"]
    code, output, error = run_cli("build", "-s", str(site), "-o", str(out), "--now", NOW_ARG,
                                  *args)
    assert code == 0, error
    assert "Nothing changed" not in output


def test_incremental_output_equals_a_full_build_after_edits_renames_and_deletions(
        site: Path, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "incremental"
    steps = [
        lambda: (site / "talks/a.md").write_text(talk("A edited", "2019-01-01", 'tags = ["z"]')),
        lambda: (site / "talks/c.md").rename(site / "talks/c-renamed.md"),
        lambda: (site / "talks/b/slides.pdf").unlink(),
        lambda: shutil.rmtree(site / "talks/b"),
        lambda: (site / "talks/e.md").write_text(talk("E", "2018-05-05", 'authors = ["Ada"]')),
        lambda: (site / "talkpages.toml").write_text('title = "Renamed site"\n'),
        lambda: (site / "talks/a.md").unlink(),
    ]
    build(run_cli, site, out)
    for number, step in enumerate(steps):
        step()
        build(run_cli, site, out)
        fresh = tmp_path / f"full-{number}"
        build(run_cli, site, fresh)
        assert tree(out) == tree(fresh), f"after step {number}"


def test_the_twin_of_the_output_is_not_inside_it(site: Path, run_cli, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(run_cli, site, out)
    (site / "talks/a.md").write_text(talk("A2", "2019-01-01"))
    build(run_cli, site, out)
    assert sorted(os.listdir(tmp_path)) == ["out", "site"]  # the twin is in the cache
    twins = [p for p in (site / ".talkpages-cache" / "outputs").iterdir() if p.is_dir()]
    assert len(twins) == 1 and (twins[0] / "a/index.html").exists()
    assert ".talkpages-cache" not in "".join(tree(out))


def test_a_file_removed_from_the_output_by_hand_comes_back(site: Path, run_cli,
                                                            tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(run_cli, site, out)
    page = (out / "a/index.html").read_bytes()
    (out / "a/index.html").unlink()
    (out / "b/slides.pdf").unlink()
    build(run_cli, site, out)
    assert (out / "a/index.html").read_bytes() == page
    assert (out / "b/slides.pdf").read_bytes() == b"%PDF-1"
    build(run_cli, site, tmp_path / "fresh")
    assert tree(out) == tree(tmp_path / "fresh")
