"""Large sites are read and rendered on every core; the result is the same bytes as in
one process, and an error in a worker is reported like any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages import parallel
from talkpages.content.loader import LoadOptions
from talkpages.diagnostics import BuildError

from conftest import NOW, MakeSite, build, render, talk


@pytest.fixture(autouse=True)
def two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers, whatever the machine (conftest.py has the other tests build in
    their own process): forking is what these tests are about."""
    monkeypatch.setenv("TALKPAGES_WORKERS", "2")


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
    options = LoadOptions(now=NOW)
    assert build(big_site, tmp_path / "parallel", options).ok
    monkeypatch.setattr(parallel, "MIN_PAGES", 10**9)
    assert build(big_site, tmp_path / "serial", options).ok
    assert tree(tmp_path / "parallel") == tree(tmp_path / "serial")


def test_cards_drawn_by_workers_are_the_bytes_of_one_process(
        make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Images go to workers from four on (render.py): six upcoming talks' cards, drawn
    by each build (no media cache here)."""
    site = make_site({f"talks/u{n}.md": talk(f"Upcoming {n}", f"2027-0{n + 1}-10T18:00:00",
                                             f'tags = ["t{n % 2}"]') for n in range(6)})
    assert parallel.forks(6, least=4)
    assert build(site, tmp_path / "parallel", LoadOptions(now=NOW)).ok
    monkeypatch.setenv("TALKPAGES_WORKERS", "1")
    assert build(site, tmp_path / "serial", LoadOptions(now=NOW)).ok
    parallel_tree, serial_tree = tree(tmp_path / "parallel"), tree(tmp_path / "serial")
    assert sum(name.endswith((".png", ".jpg")) for name in serial_tree) >= 6
    assert parallel_tree == serial_tree


def test_parallel_path_uses_other_processes() -> None:
    import os

    pids = set(parallel.render_all(lambda _job: os.getpid(), list(range(parallel.MIN_PAGES))))
    assert os.getpid() not in pids and len(pids) >= 1
    assert set(parallel.render_all(lambda _job: os.getpid(), [1, 2, 3])) == {os.getpid()}


def test_what_a_process_queued_is_written_by_it_before_a_fork_and_before_results_go_back(
        tmp_path: Path) -> None:
    """A writer's queue (writer.NewSite.flush) is emptied by the parent before it forks,
    so that no worker writes it again, and by each worker before its range's results go
    back, so that nothing it rendered is left unwritten when it ends."""
    import os

    log = tmp_path / "flushes"

    def flush() -> None:
        with open(log, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")

    jobs = list(range(parallel.MIN_PAGES))
    with parallel.flushed(flush):
        assert len(list(parallel.render_all(lambda job: job, jobs))) == len(jobs)
    calls = [int(pid) for pid in log.read_text(encoding="utf-8").split()]
    assert calls[0] == os.getpid()  # the parent's, before the fork
    ranges = -(-len(jobs) // parallel.CHUNK)
    assert len(calls) == 1 + ranges and os.getpid() not in calls[1:]
    with parallel.flushed(flush):
        list(parallel.render_all(lambda job: job, [1, 2, 3]))  # in this process: no flush
    assert len(log.read_text(encoding="utf-8").split()) == 1 + ranges


def test_a_template_error_in_a_worker_is_reported(big_site: Path, tmp_path: Path) -> None:
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


def test_fresh_workers_take_over_every_segment() -> None:
    """A worker copies the parent's memory it reads: fresh ones every SEGMENT jobs keep
    that bounded, and the results still come in order."""
    import os

    segment = 2 * parallel.CHUNK
    jobs = list(range(parallel.MIN_PAGES + 50))
    made = list(parallel.render_all(lambda job: (job, os.getpid()), jobs, segment=segment))
    assert [job for job, _ in made] == jobs
    by_segment: dict[int, set[int]] = {}
    for job, pid in made:
        by_segment.setdefault(job // segment, set()).add(pid)
    segments = list(by_segment.values())
    assert len(segments) == 4
    assert all(a.isdisjoint(b) for n, a in enumerate(segments) for b in segments[n + 1:])


def test_workers_never_collect_the_parents_objects() -> None:
    """The collector of a worker walking the parent's objects would write to (and so
    copy) every page of memory holding them: they are frozen before the fork."""
    import gc

    gc.unfreeze()
    made_here = [["the parent's"]]
    try:
        seen = set(parallel.render_all(
            lambda _job: any(obj is made_here for obj in gc.get_objects()),
            list(range(parallel.MIN_PAGES))))
    finally:
        gc.unfreeze()
    assert seen == {False}
    assert any(obj is made_here for obj in gc.get_objects())


def test_workers_stay_a_few_ranges_ahead_of_the_parent() -> None:
    """Results the parent has not taken yet wait in its memory: a parent slower than its
    workers (it writes what they make) must not let them render far ahead."""
    import multiprocessing
    import time

    started = multiprocessing.get_context("fork").Value("i", 0)

    def render(job: int) -> int:
        with started.get_lock():
            started.value += 1
        return job

    jobs = list(range(40 * parallel.CHUNK))
    made = parallel.render_all(render, jobs)
    assert next(made) == 0
    time.sleep(1)  # the workers would render every job meanwhile, were they let
    assert started.value <= (4 * parallel.workers() + 1) * parallel.CHUNK  # a few each
    assert list(made) == jobs[1:]


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    """A worker killed (out of memory) or crashed in C code: a clear error, not a build
    that waits forever for its pages."""
    import os

    def render(job: int) -> int:
        if job == 300:
            os._exit(3)
        return job

    with pytest.raises(BuildError, match="worker process of the build stopped abruptly"):
        list(parallel.render_all(render, list(range(parallel.MIN_PAGES))))


def test_a_bug_in_a_worker_is_raised_with_its_traceback() -> None:
    def render(job: int) -> float:
        return 1 / (job - 300)

    with pytest.raises(ZeroDivisionError) as raised:
        list(parallel.render_all(render, list(range(parallel.MIN_PAGES))))
    assert "return 1 / (job - 300)" in str(raised.value.__cause__)


def test_no_worker_is_left_behind() -> None:
    """Workers end with the build, also when its pages are not all wanted."""
    import os

    tasks = Path(f"/proc/{os.getpid()}/task")
    if not tasks.is_dir():
        pytest.skip("needs Linux's /proc to list a process's children")

    def children() -> set[int]:  # running or not reaped (the test process may have
        return {int(pid) for task in tasks.iterdir()  # others: a browser's driver)
                for pid in (task / "children").read_text().split()}

    before = children()
    made = parallel.render_all(lambda job: job, list(range(parallel.MIN_PAGES * 4)))
    assert next(made) == 0
    assert children() - before  # the workers run
    made.close()
    assert children() <= before
