"""`talkpages serve`: build, serve, watch, rebuild on change, reload open tabs.

The site is served from memory: each rebuild runs the build's own pipeline into a
memory sink (pipeline.run), and the server swaps the dict of outputs in whole. MkDocs
builds into a temporary folder instead; memory saves writing a thousand pages per
keystroke, makes the swap atomic (a reader never sees half a site) and means the
server can only ever answer with a file the build produced: no path from a URL ever
reaches the file system. Bundle files and theme assets are read from their source
files when asked for, and only when they resolve inside the site or the built-in
theme (a symlink out is refused). `serve` writes nothing; `build` publishes.

An edit to talk files is made in the site kept in memory: the talks read again and
only the outputs that show them made again (live.py), in milliseconds however large
the site. Any other change (a new or removed file, the settings, the theme, a talk
moved to other lists) is a whole build, as `build` makes it. Resized images and social
cards come from the media cache (media.py), shared with `build` and `check`.

A failed rebuild keeps the last good site. Its messages, the very lines printed in the
terminal, go to open tabs as an overlay (through the event stream), and into every
page served until a rebuild succeeds. Open tabs follow a Server-Sent Events stream
(`/__talkpages/events`): `reload` after a good rebuild, `failed` with the overlay
after a bad one. What the server answers, and to whom, is devhttp.py's.

What `serve` prints is a log; the site is what it is for. A reader of that log that
goes away (`talkpages serve | head -2`, a closed terminal, a full disk under a log
file) does not stop the server, and no rebuild fails for it: open tabs go on being
reloaded, and what would be printed from then on is dropped (LogStream). Ctrl-C or
SIGTERM stop the server as ever, with status 0.
"""

from __future__ import annotations

import dataclasses
import errno
import io
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

from ..content.config import CONFIG_NAME
from ..content.loader import STATIC_DIR, TALKS_DIR, LoadOptions
from ..content.model import Site
from ..content.sitetexts import TEXTS_DIR
from ..diagnostics import Diagnostic, display_path, sort_key
from ..engine.cachedir import media_folder
from ..engine.live import LiveSite
from ..engine.media import MediaCache
from ..engine.pipeline import BuildRequest, MemorySink, run
from ..output.outputs import Output, check_outputs
from ..output.theme import builtin_dir
from .console import Console, count_problems, plural
from .devhttp import HTTPServer, HTTPServer6
from .watch import Watcher

POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Stats:
    """What the build behind a state made."""
    talks: int = 0
    outputs: int = 0

@dataclass(frozen=True)
class State:
    version: int
    site: dict[str, Output] | None  # the last good site
    failure: str | None  # the messages of the failed rebuild, if the last one failed
    finished: float  # time.monotonic() when this state was published
    stats: Stats = field(default_factory=Stats)  # the work of the build behind it


class Live:
    """The current state, and a way to wait for the next one."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self.state = State(0, None, None, time.monotonic(), Stats())
        self.closed = False

    def publish(self, site: dict[str, Output] | None, failure: str | None,
                stats: Stats) -> State:
        with self._changed:
            kept = site if site is not None else self.state.site
            self.state = State(self.state.version + 1, kept, failure, time.monotonic(),
                               stats)
            self._changed.notify_all()
            return self.state

    def refresh(self, site: dict[str, Output]) -> None:
        """The same state with more of its outputs made: no tab reloads for it."""
        with self._changed:
            self.state = dataclasses.replace(self.state, site=site)

    def wait(self, since: int, timeout: float) -> State:
        with self._changed:
            self._changed.wait_for(lambda: self.closed or self.state.version != since,
                                   timeout)
            return self.state

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


class DevServer:
    """One `serve` session: `start()`, then `stop()`; or `run()` until Ctrl-C."""

    def __init__(self, site_dir: Path, *, bind: str = "127.0.0.1", port: int = 1313,
                 now: Callable[[], Any], drafts: bool = False, future: bool = False,
                 console: Console | None = None, poll: float = POLL_SECONDS) -> None:
        self.site_dir = site_dir
        self.bind = bind
        self.port = port
        self.now = now
        self.drafts = drafts
        self.future = future
        self.console = console or Console()
        self.console.out = LogStream.around(self.console.out)
        self.console.err = LogStream.around(self.console.err)
        self.poll = poll
        self.live = Live()
        self.media: MediaCache | None = None
        self.kept: LiveSite | None = None  # the last good site, while no build has failed
        self.images: list[Path] = []  # the logo, favicon and photos the last site showed
        self.roots = [site_dir.resolve(), builtin_dir("assets").resolve()]
        self._stopping = threading.Event()
        self._building = threading.Lock()  # one build at a time: the media cache is shared
        self._threads: list[threading.Thread] = []
        self._httpd: HTTPServer | None = None
        self._watcher: Watcher | None = None

    @property
    def url(self) -> str:
        host = self.bind if self.bind not in ("0.0.0.0", "::", "") else "localhost"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/"

    def watched(self) -> list[Path]:
        """talks/, layouts/, assets/, static/ (files published as they are), i18n/ (the
        site's own texts), the site's config files (talkpages.toml, speakers.toml, …) and
        the logo, favicon and speakers' photos the site last built showed."""
        site = self.site_dir
        tomls = sorted(p for p in site.glob("*.toml") if p.is_file())
        return [site / TALKS_DIR, site / "layouts", site / "assets", site / STATIC_DIR,
                site / TEXTS_DIR, site / CONFIG_NAME,
                *[p for p in tomls if p.name != CONFIG_NAME], *self.images]

    def start(self) -> None:
        """Listen (raises OSError when the port is taken), build, then serve and watch."""
        server_class = HTTPServer6 if ":" in self.bind else HTTPServer
        self._httpd = server_class((self.bind, self.port), self)
        self.port = self._httpd.server_address[1]
        watcher = self._watcher = Watcher(self.watched)
        self.rebuild([])
        for thread in (
                threading.Thread(target=self._httpd.serve_forever, name="talkpages-http",
                                 kwargs={"poll_interval": 0.1}, daemon=True),
                threading.Thread(target=self._watch, args=(watcher,), name="talkpages-watch",
                                 daemon=True)):
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stopping.set()
        self.live.close()
        if self._httpd is not None:
            if self._threads:  # shutdown() waits for serve_forever: only once it runs
                self._httpd.shutdown()
            self._httpd.server_close()
        for thread in self._threads:
            thread.join(timeout=10)
        if self._watcher is not None:
            self._watcher.close()
        if self.media is not None:
            with self._building:
                self.media.close()

    def run(self) -> int:
        """The command: serve until Ctrl-C (or SIGTERM), then stop cleanly."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _interrupt) if main else None  # as Ctrl-C
        try:
            if not self.site_dir.is_dir():
                self.console.diagnostics([_no_site(self.site_dir)])
                self.console.error("talkpages: nothing to serve")
                return 1
            try:
                self.start()
            except OSError as exc:
                message, hint, code = _cannot_listen(self.bind, self.port, exc)
                self.console.error(message, hint)
                return code
            shown = ", ".join(display_path(p) for p in self.watched()[:4])
            self.console.info(f"Watching {shown} for changes")
            self.console.notice(f"Serving {self.url} (Ctrl-C to stop)")
            while not self._stopping.is_set():
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()
            if main:
                signal.signal(signal.SIGTERM, previous)
        self.console.info("Stopped.")
        return 0

    def _watch(self, watcher: Watcher) -> None:
        while not self._stopping.is_set():
            watcher.wait(self.poll)
            try:
                changed = watcher.poll()
                if changed and not self._stopping.is_set():
                    self.rebuild(changed)
            except Exception as exc:  # keep serving: report and watch on
                self.console.error(f"talkpages: internal error during a rebuild: "
                                   f"{type(exc).__name__}: {exc}")

    def rebuild(self, changed: list[str]) -> State:
        """Build now; publish the site, or the failure while keeping the last good site."""
        with self._building:
            return self._rebuild(changed)

    def _rebuild(self, changed: list[str]) -> State:
        started = time.perf_counter()
        options = LoadOptions(now=self.now(), drafts=self.drafts, future=self.future,
                              overrides={"base_url": self.url})
        if self.media is None:  # once a session: the folder stays open while serving
            self.media = MediaCache(media_folder(self.site_dir))
        what = self._what(changed)
        if changed and self.kept is not None:
            talks = len(self.kept.site.talks)

            def pages_made(outputs: dict[str, Output]) -> None:  # tabs reload now
                self.live.publish(outputs, None, Stats(talks, len(outputs)))

            edit = self.kept.edited([Path(path) for path in changed], options, pages_made)
            if edit is not None:  # made in place: live.py
                self.kept, problems, made = edit
                self.live.refresh(self.kept.outputs)  # the feeds and files made since
                self.console.diagnostics(problems)
                seconds = time.perf_counter() - started
                self.console.info(f"{what}Made {plural(made, 'file')} again in "
                                  f"{seconds * 1000:.0f} ms")
                return self.live.state
        self.kept = None
        # Workers are forked only while this is the process's one thread (the first
        # build, before the server's threads start): forking a process with threads is
        # not safe.
        sink = MemorySink(workers=threading.active_count() == 1)
        result = run(BuildRequest(self.site_dir, options, self.media), sink)
        problems = list(result.diagnostics)
        if result.ok:
            problems += check_outputs(result.outputs)
        seconds = time.perf_counter() - started
        if any(p.is_error for p in problems):
            lines = [d.format() for d in sorted(problems, key=sort_key)]
            summary = (f"talkpages: rebuild failed with {count_problems(problems)}; serving "
                       "the last good site" if self.live.state.site is not None else
                       f"talkpages: build failed with {count_problems(problems)}; open tabs "
                       "show the errors until they are fixed")
            self.console.diagnostics(problems)
            self.console.error(summary)
            return self.live.publish(None, "\n".join([*lines, summary]), Stats())
        self.console.diagnostics(problems)
        talks = len(result.site.talks) if result.site else 0
        if result.site is not None and result.maker is not None:
            self.images = _images(result.site)
            self.kept = LiveSite.of(result.site, result.maker, result.recipes,
                                    result.outputs)
        self.console.info(f"{what}Built {plural(talks, 'talk')} in {seconds * 1000:.0f} ms "
                          f"({plural(len(result.outputs), 'file')})")
        return self.live.publish({o.path: o for o in result.outputs}, None,
                                 Stats(talks, len(result.outputs)))

    @staticmethod
    def _what(changed: list[str]) -> str:
        if not changed:
            return ""
        first = display_path(Path(changed[0]))
        more = f" and {plural(len(changed) - 1, 'other')}" if len(changed) > 1 else ""
        return f"Changed: {first}{more}. "

    def readable(self, source: Path) -> bool:
        """A source file may be served: it resolves inside the site or the theme."""
        try:
            real = source.resolve(strict=True)
        except (OSError, RuntimeError):
            return False
        return real.is_file() and any(real.is_relative_to(root) for root in self.roots)


class LogStream(io.TextIOBase):
    """A stream of the server's log that outlives its reader: once a write or a flush
    fails (a broken pipe, a closed terminal, a full disk), the stream is gone, what is
    written to it is dropped, and its file descriptor leads to /dev/null, so that
    nothing buffered fails again when the command ends."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    @classmethod
    def around(cls, stream: TextIO) -> TextIO:
        return stream if isinstance(stream, cls) else cast(TextIO, cls(stream))

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except (OSError, ValueError):  # ValueError: a stream closed underneath
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self._lost()

    def isatty(self) -> bool:
        try:
            return not self.gone and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def __getattr__(self, name: str) -> Any:  # getvalue() of a test's StringIO
        return getattr(self.stream, name)

    def _lost(self) -> None:
        self.gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return
        try:
            os.dup2(devnull, self.stream.fileno())
        except (OSError, ValueError, AttributeError):  # not a file (a test's StringIO)
            pass
        finally:
            os.close(devnull)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _no_site(site_dir: Path) -> Diagnostic:
    """The one failure of a first build that no edit under watch can fix."""
    what = "is a file, not a folder" if site_dir.exists() else "does not exist"
    return Diagnostic(site_dir, f"the site folder {what}",
                      hint="pass the folder that holds talks/ with -s (or start a site in it "
                      "with `talkpages new`)")


def _cannot_listen(bind: str, port: int, exc: OSError) -> tuple[str, str, int]:
    """The message, hint and exit status for a socket that cannot be bound: the hint
    names the option at fault, --bind or --port."""
    reason = exc.strerror or str(exc)
    message = f"talkpages: cannot listen on {bind} port {port}: {reason}"
    if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL:
        return (message, f"--bind {bind} is not an address of this computer; pass one "
                "that is, such as --bind 127.0.0.1 (this computer only, the default) or "
                "--bind 0.0.0.0 (every network)", 2)
    if exc.errno == errno.EACCES and 0 < port < 1024:
        return (message, "ports below 1024 need the system's permission; pass one from "
                "1024 on, such as --port 1313, or --port 0 for any free one", 1)
    other = port + 1 if 0 < port < 65535 else 1313
    return (message, f"pass another --port, such as --port {other}, or --port 0 for any "
            "free one", 1)


def _images(site: Site) -> list[Path]:
    """The logo, favicon and speakers' photos of a site that loaded (so found inside it)."""
    config = site.config
    names = [image.path for image in (config.logo, config.favicon) if image is not None]
    names += [speaker.photo.path for speaker in site.speakers.values()
              if speaker.photo is not None]
    return [site.root.joinpath(*name.split("/")) for name in names]
