"""`talkpages serve`: build, serve, watch, rebuild on change, reload open tabs.

The site is served from memory: each rebuild renders with the build's own pipeline
(build.render) into a dict of outputs, and the server swaps that dict in whole. MkDocs
builds into a temporary folder instead; memory saves writing a thousand pages per
keystroke, makes the swap atomic (a reader never sees half a site) and means the
server can only ever answer with a file the build produced: no path from a URL ever
reaches the file system. Bundle files and theme assets are read from their source
files when asked for, and only when they resolve inside the site or the built-in
theme (a symlink out is refused). `serve` writes nothing; `build` publishes.

Rebuilds are incremental through a MemoryCache (cache.py): only changed files are
parsed again and only pages whose inputs changed are rendered again.

A failed rebuild keeps the last good site. Its messages, the very lines printed in the
terminal, go to open tabs as an overlay (through the event stream), and into every
page served until a rebuild succeeds. Open tabs follow a Server-Sent Events stream
(`/__talkpages/events`): `reload` after a good rebuild, `failed` with the overlay
after a bad one. The server is the stdlib's ThreadingHTTPServer: a thread per
connection, so a slow or vanished client holds up nobody.
"""

from __future__ import annotations

import dataclasses
import html
import json
import mimetypes
import os
import signal
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from . import __version__
from .build import render
from .cache import MemoryCache, Stats
from .config import CONFIG_NAME
from .console import Console, count_problems, plural
from .diagnostics import display_path, sort_key
from .loader import TALKS_DIR, LoadOptions
from .theme import builtin_dir
from .watch import Watcher
from .writer import Output, check_outputs

LIVE = "/__talkpages/"
POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15.0
CHUNK = 64 * 1024
TYPES = {
    ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
    ".ics": "text/calendar; charset=utf-8", ".xml": "application/xml; charset=utf-8",
    ".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8",
    ".json": "application/json", ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml", ".ico": "image/x-icon", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
    ".avif": "image/avif", ".pdf": "application/pdf", ".woff2": "font/woff2",
    ".woff": "font/woff", ".mp4": "video/mp4", ".webm": "video/webm", ".mp3": "audio/mpeg",
}

LIVE_JS = b"""(function () {
  "use strict";
  var script = document.currentScript;
  var version = script ? script.getAttribute("data-version") : "";
  var source = new EventSource("/__talkpages/events?since=" + encodeURIComponent(version));
  source.addEventListener("reload", function () { source.close(); location.reload(); });
  source.addEventListener("failed", function (event) {
    var old = document.getElementById("talkpages-errors");
    if (old) { old.remove(); }
    document.body.insertAdjacentHTML("beforeend", JSON.parse(event.data).overlay);
  });
})();
"""
# A stylesheet and a script of their own, not inline: the theme's Content-Security-Policy
# allows styles and scripts from the site ('self') only.
LIVE_CSS = b"""#talkpages-errors { position: fixed; inset: 0; z-index: 2147483647; margin: 0;
  overflow: auto; padding: 2rem; background: rgba(24, 24, 24, .95); color: #f3f3f3;
  font: 14px/1.5 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; }
"""


def content_type(path: str) -> str:
    suffix = os.path.splitext(path)[1].lower()
    if suffix in TYPES:
        return TYPES[suffix]
    guessed = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return guessed + "; charset=utf-8" if guessed.startswith("text/") else guessed


def request_path(url_path: str) -> str | None:
    """The output a URL path names (`/a/` -> `a/index.html`), or None when it tries
    to leave the site: `..` or `.` segments, encoded or not, backslashes, NULs."""
    path = unquote(url_path)
    if "\x00" in path or "\\" in path:
        return None
    if any(part in (".", "..") for part in path.split("/")):
        return None
    relative = path.lstrip("/")
    return relative + "index.html" if relative == "" or relative.endswith("/") else relative


def overlay(text: str) -> str:
    return ('<div id="talkpages-errors" role="alert">'
            '<strong>talkpages: the last change does not build; this is the last good '
            f'site.</strong>\n\n{html.escape(text)}\n\n'
            "Fix the file and save: this page reloads by itself.</div>")


def inject(page: bytes, version: int, failure: str | None) -> bytes:
    """The live-reload script (and the overlay) before `</body>`."""
    snippet = f'<link rel="stylesheet" href="{LIVE}live.css">'
    if failure is not None:
        snippet += overlay(failure)
    snippet += f'<script src="{LIVE}live.js" data-version="{version}"></script>'
    data = snippet.encode("utf-8")
    end = page.lower().rfind(b"</body>")
    return page + data if end < 0 else page[:end] + data + page[end:]


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
                               dataclasses.replace(stats))
            self._changed.notify_all()
            return self.state

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
        self.poll = poll
        self.live = Live()
        self.cache = MemoryCache()
        self.roots = [site_dir.resolve(), builtin_dir("assets").resolve()]
        self._stopping = threading.Event()
        self._building = threading.Lock()  # one build at a time: the cache is shared
        self._threads: list[threading.Thread] = []
        self._httpd: _HTTPServer | None = None

    @property
    def url(self) -> str:
        host = self.bind if self.bind not in ("0.0.0.0", "::", "") else "localhost"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/"

    def watched(self) -> list[Path]:
        """talks/, layouts/, assets/ and the site's config files (talkpages.toml, …)."""
        site = self.site_dir
        tomls = sorted(p for p in site.glob("*.toml") if p.is_file())
        return [site / TALKS_DIR, site / "layouts", site / "assets", site / CONFIG_NAME,
                *[p for p in tomls if p.name != CONFIG_NAME]]

    def start(self) -> None:
        """Listen (raises OSError when the port is taken), build, then serve and watch."""
        server_class = _HTTPServer6 if ":" in self.bind else _HTTPServer
        self._httpd = server_class((self.bind, self.port), self)
        self.port = self._httpd.server_address[1]
        watcher = Watcher(self.watched)
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

    def run(self) -> int:
        """The command: serve until Ctrl-C (or SIGTERM), then stop cleanly."""
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _interrupt) if main else None  # as Ctrl-C
        try:
            try:
                self.start()
            except OSError as exc:
                self.console.error(f"talkpages: cannot listen on {self.bind}:{self.port}: "
                                   f"{exc.strerror or exc}\n  hint: pass another --port, such "
                                   f"as --port {self.port + 1}, or --port 0 for any free one")
                return 1
            shown = ", ".join(display_path(p) for p in self.watched()[:4])
            self.console.info(f"Watching {shown} for changes")
            self.console.info(f"Serving {self.url} (Ctrl-C to stop)")
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
        while not self._stopping.wait(self.poll):
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
        result = render(self.site_dir, options, self.cache)
        problems = list(result.diagnostics)
        if result.ok:
            problems += check_outputs(result.outputs)
        seconds = time.perf_counter() - started
        what = self._what(changed)
        if any(p.is_error for p in problems):
            lines = [d.format() for d in sorted(problems, key=sort_key)]
            summary = (f"talkpages: rebuild failed with {count_problems(problems)}; serving "
                       "the last good site")
            self.console.diagnostics(problems)
            self.console.error(summary)
            return self.live.publish(None, "\n".join([*lines, summary]), self.cache.stats)
        self.cache.prune()
        self.console.diagnostics(problems)
        stats = self.cache.stats
        talks = len(result.site.talks) if result.site else 0
        self.console.info(f"{what}Built {plural(talks, 'talk')} in {seconds * 1000:.0f} ms "
                          f"({plural(stats.talks_read, 'file')} read, "
                          f"{plural(stats.pages_rendered, 'page')} rendered, "
                          f"{stats.pages_reused} reused)")
        return self.live.publish({o.path: o for o in result.outputs}, None, stats)

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


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    server_version = f"talkpages/{__version__}"
    timeout = 60  # an idle connection does not hold a thread for ever

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client went away: nothing to answer

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        self.server.dev.console.detail(f"{self.address_string()} {format % args}")

    def _answer(self, body: bool) -> None:
        dev = self.server.dev
        url = urlsplit(self.path)
        if url.path.startswith(LIVE):
            self._live(url.path[len(LIVE):], url.query, body)
            return
        state = dev.live.state
        if state.site is None:
            text = state.failure or "the site is being built"
            page = b"<!DOCTYPE html><title>talkpages</title><body></body>"
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/html; charset=utf-8",
                       inject(page, state.version, text), body)
            return
        path = request_path(url.path)
        output = state.site.get(path) if path is not None else None
        if output is None and path is not None and f"{path}/index.html" in state.site:
            location = url.path + "/" + (f"?{url.query}" if url.query else "")
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status = HTTPStatus.OK
        if output is None:
            status, output = HTTPStatus.NOT_FOUND, state.site.get("404.html")
            if output is None:
                self._send(status, "text/plain; charset=utf-8", b"not found\n", body)
                return
        self._send_output(status, output, state, body)

    def _send_output(self, status: HTTPStatus, output: Output, state: State,
                     body: bool) -> None:
        kind = content_type(output.path)
        if output.data is not None:
            data = output.data
            if output.path.endswith(".html"):
                data = inject(data, state.version, state.failure)
            self._send(status, kind, data, body)
            return
        source = output.source
        if source is None or not self.server.dev.readable(source):
            if source is not None:
                self.server.dev.console.error(
                    f"talkpages: not serving {output.path}: {display_path(source)} resolves "
                    "outside the site")
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n", body)
            return
        with open(source, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if output.path.endswith(".html"):
                self._send(status, kind, inject(file.read(), state.version, state.failure),
                           body)
                return
            self._headers(status, kind, size)
            if body:
                while chunk := file.read(CHUNK):
                    self.wfile.write(chunk)

    def _send(self, status: HTTPStatus, kind: str, data: bytes, body: bool) -> None:
        self._headers(status, kind, len(data))
        if body:
            self.wfile.write(data)

    def _headers(self, status: HTTPStatus, kind: str, length: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(length))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()

    def _live(self, name: str, query: str, body: bool) -> None:
        if name == "live.js":
            self._send(HTTPStatus.OK, TYPES[".js"], LIVE_JS, body)
        elif name == "live.css":
            self._send(HTTPStatus.OK, TYPES[".css"], LIVE_CSS, body)
        elif name == "events" and body:
            self._events(query)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n", body)

    def _events(self, query: str) -> None:
        """The event stream of one tab: `reload` or `failed` when the site changes."""
        live = self.server.dev.live
        try:
            since = int(parse_qs(query).get("since", [""])[0])
        except ValueError:
            since = live.state.version
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(b"retry: 1000\n\n")
        self.wfile.flush()
        while True:
            state = live.wait(since, KEEPALIVE_SECONDS)
            if live.closed:
                return
            if state.version == since:
                self.wfile.write(b": keep-alive\n\n")
            elif state.failure is not None:
                data = json.dumps({"version": state.version, "overlay": overlay(state.failure)})
                self.wfile.write(f"event: failed\ndata: {data}\n\n".encode())
            else:
                self.wfile.write(f"event: reload\ndata: {state.version}\n\n".encode())
            since = state.version
            self.wfile.flush()


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256  # the listen backlog: a burst of connections waits, not fails

    def __init__(self, address: tuple[str, int], dev: DevServer) -> None:
        self.dev = dev
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind asks DNS for the host's name (socket.getfqdn), which
        # can take seconds on a machine without a resolver; nothing here needs it.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return  # a client that went away mid-answer
        self.dev.console.error(f"talkpages: error while answering {client_address[0]}: "
                               f"{type(error).__name__}: {error}")


class _HTTPServer6(_HTTPServer):
    address_family = socket.AF_INET6
