"""Large sites are read and rendered on every core; the result is the same bytes as in
one process, and an error in a worker is reported like any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages import parallel
from talkpages.build import build, render
from talkpages.loader import LoadOptions

from conftest import NOW, MakeSite, talk


@pytest.fixture
def big_site(make_site: MakeSite) -> Path:
    files = {f"talks/t{n:04d}.md": talk(f"Talk {n}", f"20{10 + n % 15}-0{1 + n % 9}-1{n % 9}"
                                        "T10:00:00", f'tags = ["t{n % 7}"]\n'
                                        f'authors = ["Speaker {n % 11}"]\ntimezone = "Asia/Tokyo"')
             for n in range(450)}
    return make_site(files)


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file()}


def test_parallel_and_serial_builds_write_the_same_bytes(big_site: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if parallel.workers() < 2:
        pytest.skip("one core: the parallel path is not taken")
    options = LoadOptions(now=NOW)
    assert build(big_site, tmp_path / "parallel", options).ok
    monkeypatch.setattr(parallel, "MIN_PAGES", 10**9)
    assert build(big_site, tmp_path / "serial", options).ok
    assert tree(tmp_path / "parallel") == tree(tmp_path / "serial")


def test_parallel_path_uses_other_processes() -> None:
    import os

    if parallel.workers() < 2:
        pytest.skip("one core: the parallel path is not taken")
    pids = set(parallel.render_all(lambda _job: os.getpid(), list(range(parallel.MIN_PAGES))))
    assert os.getpid() not in pids and len(pids) >= 1
    assert set(parallel.render_all(lambda _job: os.getpid(), [1, 2, 3])) == {os.getpid()}


def test_a_template_error_in_a_worker_is_reported(big_site: Path, tmp_path: Path) -> None:
    if parallel.workers() < 2:
        pytest.skip("one core: the parallel path is not taken")
    (big_site / "layouts").mkdir()
    (big_site / "layouts/talk.html").write_text("{{ talk.title }}\n{{ talk.nothing.here }}\n")
    result = build(big_site, tmp_path / "out", LoadOptions(now=NOW))
    assert not result.ok
    assert "layouts/talk.html:2" in result.diagnostics[0].format()
    assert not (tmp_path / "out").exists()


def test_broken_files_are_all_reported_from_the_workers(big_site: Path) -> None:
    for n in (3, 200, 401):
        (big_site / f"talks/t{n:04d}.md").write_text("+++\ntitle = 'x\n+++\n")
    result = render(big_site, LoadOptions(now=NOW))
    assert not result.ok
    assert sorted(d.path.name for d in result.diagnostics if d.is_error) == [
        "t0003.md", "t0200.md", "t0401.md"]
