"""Render many pages on every core: forked workers, results back in order.

Rendering a page is pure Python (Jinja2), so threads would take turns; processes run
side by side. Workers are forked after the site is loaded, so they start with the
site, the theme and the compiled templates already in memory (copy-on-write) and
receive nothing but ranges of job numbers. A worker writes the files it makes itself
(into the new site the writer opened before the fork): what travels back is small, a
file's name or a talk's fragments for the lists and feeds.

Memory stays bounded however large the site:

- A worker does not live for the whole build: fresh ones are forked every `segment`
  jobs. Reading an object writes its reference count, so each page of the parent's
  memory that a worker reads becomes a copy of its own; workers rendering every talk
  of a 100,000-talk site ended up copying 1.3 GiB of it. Fresh workers copy only what
  their segment reads, and forking one takes milliseconds.
- The parent's objects are frozen (`gc.freeze`) before each fork, so a worker's
  garbage collector never walks them (which would copy them all).
- Workers run a few ranges ahead of the parent, no further: results it has not taken
  yet (it writes them to disk) would wait in its memory.

Used only where it pays and is safe: large sites, a system that can fork, more than
one core, and a process without threads of its own (`talkpages serve` builds from a
thread, and forking a process with threads is not safe). Anything else renders in the
calling process, with the same results.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from .diagnostics import BuildError, Diagnostic

MIN_PAGES = 400  # below this, starting workers costs more than it saves
CHUNK = 64  # jobs sent to a worker at a time
SEGMENT = 64 * CHUNK  # jobs the workers of one pool render before fresh ones take over
AHEAD = 3  # ranges per worker sent before their results are taken

Job = TypeVar("Job")
Result = TypeVar("Result")

# What the forked workers render: set in the parent just before the fork.
_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None
# What writes the outputs a process has queued (writer.NewSite.flush): called in the
# parent before a fork, so that no worker inherits them, and in a worker before the
# results of its range go back.
_flushes: list[Callable[[], None]] = []


@contextmanager
def flushed(flush: Callable[[], None]) -> Iterator[None]:
    """`flush` called wherever a process's queued outputs must be written first."""
    _flushes.append(flush)
    try:
        yield
    finally:
        _flushes.remove(flush)


def _flush() -> None:
    for flush in _flushes:
        flush()


def workers() -> int:
    """The number of processes: every core, at most 8; TALKPAGES_WORKERS sets it (1:
    render in the calling process only)."""
    wanted = os.environ.get("TALKPAGES_WORKERS", "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(cores, 8)


def forks(jobs: int, allowed: bool = True, least: int = MIN_PAGES) -> bool:
    """Does render_all run this many jobs in worker processes?"""
    if not allowed or jobs < least or workers() < 2:
        return False
    try:
        multiprocessing_fork()
    except ValueError:  # no fork on this system
        return False
    return True


def render_all(render: Callable[[Job], Result], jobs: Sequence[Job],
               allowed: bool = True, segment: int = SEGMENT, chunk: int = CHUNK,
               least: int = MIN_PAGES) -> Iterator[Result]:
    """`render(job)` for every job, in order; in parallel when it pays. Also used to
    read the talk files of a large site (the Talks come back pickled). `segment`: the
    jobs of one set of workers (fewer where each job reads many talks); `chunk`: the
    jobs sent to a worker at a time, and `least`, the fewest jobs worth forking for
    (both smaller where a job takes long: resizing an image takes 50 ms or more)."""
    global _work
    if not forks(len(jobs), allowed, least):  # in this process
        yield from (render(job) for job in jobs)
        return
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    processes = workers()
    _work = (render, jobs)
    context = multiprocessing_fork()
    try:
        for first in range(0, len(jobs), segment):
            last = min(first + segment, len(jobs))
            ranges = [(start, min(start + chunk, last)) for start in range(first, last, chunk)]
            _flush()
            gc.freeze()  # a worker's collector never walks (and so copies) the parent's objects
            pool = ProcessPoolExecutor(min(processes, len(ranges)), context,
                                       initializer=_start_worker, initargs=(os.getpid(),))
            try:
                # A few ranges ahead, no more: results the parent has not taken yet
                # (it writes them) wait in its memory.
                ahead = iter(ranges)
                sent = deque(pool.submit(_render_range, bounds)
                             for bounds in islice(ahead, AHEAD * processes))
                while sent:
                    outcome = sent.popleft().result()
                    following = next(ahead, None)
                    if following is not None:
                        sent.append(pool.submit(_render_range, following))
                    if isinstance(outcome, _Failure):
                        raise BuildError(outcome.diagnostics)
                    yield from outcome
            except BrokenProcessPool:
                raise BuildError([_DIED]) from None
            finally:  # also when the pages are not all wanted: no worker outlives the build
                pool.shutdown(wait=True, cancel_futures=True)
    finally:
        _work = None


def multiprocessing_fork() -> Any:
    import multiprocessing  # 10 ms to import: only for the builds that fork

    return multiprocessing.get_context("fork")


# A worker killed (the kernel's out-of-memory killer is the likely one) or crashed in C
# code: the build stops with this rather than waiting forever for its pages.
_DIED = Diagnostic(None, "a worker process of the build stopped abruptly (killed, "
                   "perhaps for want of memory, or crashed)",
                   hint="build in one process to use less memory: TALKPAGES_WORKERS=1")


def _start_worker(parent: int) -> None:
    """Ctrl-C is the parent's to handle: it stops the workers itself. A parent killed
    outright (SIGKILL) cannot: on Linux the kernel then ends its workers too, which
    would otherwise wait forever, holding the lock of the site's cache."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


_PR_SET_PDEATHSIG = 1


class _Failure:
    """A BuildError met in a worker, as plain data (the exception itself does not pickle
    with its diagnostics)."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics


def _render_range(bounds: tuple[int, int]) -> list[Any] | _Failure:
    assert _work is not None
    render, jobs = _work
    try:
        results = [render(jobs[number]) for number in range(*bounds)]
        _flush()
        return results
    except BuildError as exc:
        return _Failure(exc.diagnostics)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a site is read or planned: that makes millions
    of objects that live for the build and no garbage, and Python's collector would
    scan them again and again as they grow (two thirds of the time of reading a large
    site, half of planning it). What was made is then frozen: never scanned again, and
    the pages of memory that forked workers share stay shared. The build unfreezes all
    at its end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
