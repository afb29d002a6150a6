"""A budget of time and memory for each output a site's own templates render.

The sandbox (theme.Sandbox) keeps a template from reaching Python, but a template is
still a program: `{% for a in range(99999) %}{% for b in range(99999) %}…` never ends
in any useful time, and `{% set s = s ~ s %}` in a loop doubles a string until the
machine's memory is gone. No check of the template's text can tell such loops from
ordinary ones, so the render itself is watched: a thread of this process looks at the
rendering thread every `POLL` seconds and, once it has run longer than `SECONDS` or the
process has grown by more than `GROWTH` bytes since the render began, raises
`TooSlow` or `TooLarge` in it. Python delivers such an exception between two steps of
the template's code, so the template stops at the line it had reached, and the build
reports that line (exit 1) instead of hanging or dying of an internal error. The
exception can be lost: Python code that runs inside C code which ignores errors (a
finalizer or a generator closed by the garbage collector, frequent while memory grows)
may be the step that receives it. A render still under way `AGAIN` seconds after its
exception was raised gets it again.

The built-in templates are part of talkpages and render unwatched. A budget is far
above what a page needs: the largest page of a 100,000-talk site renders in well under
a second and a few MiB.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import jinja2
from jinja2.exceptions import SecurityError

from ..diagnostics import BuildError, Diagnostic
from .theme import Sandbox, builtin_dir

SECONDS = 20.0  # one output, rendered by a site's own templates
GROWTH = 512 * 1024 * 1024  # bytes the process may grow by while one output renders
POLL = 0.05
AGAIN = 1.0  # seconds before an exception that did not stop a render is raised again


class TooSlow(SecurityError):
    def __str__(self) -> str:
        return (f"the template ran for more than {SECONDS:.0f} seconds for one output "
                "(a loop that does not end soon enough?)")


class TooLarge(SecurityError):
    def __str__(self) -> str:
        return (f"the template took more than {GROWTH // 1024 // 1024} MiB of memory for "
                "one output (text or a list that keeps growing?)")


def _resident_bytes() -> int:
    """This process's resident memory (Linux), or 0 where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Watch:
    """The renders under way in this process, by thread, and the thread that watches
    them (started when first needed, and again in a forked child, which has none)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.renders: dict[int, tuple[float, int]] = {}  # thread -> deadline, memory limit
        self.fired: dict[int, float] = {}  # thread -> when its exception was raised
        self.pid = 0
        self.wake = threading.Event()

    def start(self, thread: int) -> None:
        with self.lock:
            if self.pid != os.getpid():
                self.pid = os.getpid()
                self.renders.clear()
                self.fired.clear()
                self.wake = threading.Event()
                threading.Thread(target=self._watch, args=(self.wake,), daemon=True,
                                 name="talkpages-template-budget").start()
            if thread in self.fired:  # one raised after its render was left
                del self.fired[thread]
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None)
            memory = _resident_bytes()
            self.renders[thread] = (time.monotonic() + SECONDS,
                                    memory + GROWTH if memory else 0)
            self.wake.set()

    def stop(self, thread: int) -> None:
        with self.lock:
            self.renders.pop(thread, None)
            if thread in self.fired:  # raised too late to be seen: take it back
                del self.fired[thread]
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None)

    def _watch(self, wake: threading.Event) -> None:
        while True:
            wake.wait()
            time.sleep(POLL)
            with self.lock:
                if not self.renders:
                    wake.clear()
                    continue
                now, memory = time.monotonic(), _resident_bytes()
                for thread, (deadline, limit) in list(self.renders.items()):
                    over = TooSlow if now > deadline else \
                        TooLarge if limit and memory > limit else None
                    if over is not None and now - self.fired.get(thread, -AGAIN) >= AGAIN:
                        self.fired[thread] = now
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(thread), ctypes.py_object(over))

    def forked(self) -> None:
        """In a forked child: no thread watches yet, and the lock may have been held by
        the parent's watch at the moment of the fork (it would never be let go)."""
        self.lock = threading.Lock()
        self.pid = 0


_WATCH = _Watch()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WATCH.forked)


@contextmanager
def budget() -> Iterator[None]:
    """Render one output within the budget: TooSlow or TooLarge is raised in the
    rendering code when it runs over."""
    thread = threading.get_ident()
    _WATCH.start(thread)
    try:
        yield
    finally:
        _WATCH.stop(thread)


@contextmanager
def rendering(env: jinja2.Environment, origin: str) -> Iterator[None]:
    """One render of `env`'s templates for `origin` (a talk file, "the 404 page"): within
    the budget when the templates are the site's own, and a template's error raised as
    a BuildError at its file and line. A site's template may also recurse without end
    or exhaust memory by itself: errors of the template there, bugs in talkpages'
    own templates."""
    own = isinstance(env, Sandbox)
    try:
        with budget() if own else nullcontext():
            yield
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError([Diagnostic(Path(exc.filename or exc.name or "template"),
                                     exc.message or "template syntax error",
                                     exc.lineno)]) from None
    except jinja2.TemplateError as exc:
        raise BuildError([template_error(exc, origin)]) from None
    except (RecursionError, MemoryError) as exc:
        if not own:
            raise
        what = "calls itself without end" if isinstance(exc, RecursionError) \
            else "took more memory than the machine has"
        raise BuildError([template_error(exc, origin, f"the template {what}")]) from None
    except Exception as exc:  # a site's template that fails as it runs: `1 // 0`, `"a" + 1`
        if not own or _in_builtin_template(exc):
            raise  # talkpages' own templates: a bug of talkpages, reported as one
        raise BuildError([template_error(exc, origin, f"{type(exc).__name__}: {exc}")]) from None


def _in_builtin_template(exc: BaseException) -> bool:
    """Whether the innermost template line `exc` passed through is one of talkpages' own
    (or none is: nothing of the site's to point at)."""
    line = _template_line(exc)
    return line is None or Path(line.filename).is_relative_to(builtin_dir("layouts"))


def _template_line(exc: BaseException) -> traceback.FrameSummary | None:
    """The innermost line of a template in the traceback Jinja leaves behind."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.endswith((".html", ".xml", ".txt", ".ics"))]
    return frames[-1] if frames else None


SANDBOX_HINT = ("templates run in a sandbox: they read the talks and the site's settings, "
                "never Python's internals, files or paths")
BUDGET_HINT = (f"a template has at most {SECONDS:.0f} seconds and {GROWTH // 1024 // 1024} "
               "MiB for one output; look for a loop or a value that grows without end")


def template_error(exc: BaseException, origin: str, message: str = "") -> Diagnostic:
    """Name the template file and line from the traceback Jinja leaves behind."""
    line = _template_line(exc)
    hint = BUDGET_HINT if isinstance(exc, (TooSlow, TooLarge, RecursionError, MemoryError)) \
        else SANDBOX_HINT if isinstance(exc, SecurityError) else None
    text = f"template error while rendering {origin}: {message or exc}"
    if line is not None:
        return Diagnostic(Path(line.filename), text, line.lineno, hint=hint)
    return Diagnostic(None, text, hint=hint)
