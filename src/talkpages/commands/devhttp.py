"""The dev server's HTTP side: what `talkpages serve` answers, and how.

Every answer comes from the state the rebuild loop published last (serve.py): pages
from memory with the live-reload script and, after a failed rebuild, the overlay put
in; bundle files and theme assets from their source files, only when they resolve
inside the site or the built-in theme. The server is the stdlib's ThreadingHTTPServer:
a thread per connection, so a slow or vanished client holds up nobody.
"""

from __future__ import annotations

import html
import json
import mimetypes
import os
import socket
import socketserver
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from .. import __version__
from ..diagnostics import display_path
from ..output.outputs import Output
from .hosts import HostPolicy

if TYPE_CHECKING:
    from .serve import DevServer, State
LIVE = "/__talkpages/"
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


def overlay(text: str, kept: bool = True) -> str:
    """The messages over the page; `kept`: the page behind is the last good site's,
    else there has been none yet."""
    headline = ("the last change does not build; this is the last good site." if kept
                else "the site does not build yet.")
    return ('<div id="talkpages-errors" role="alert">'
            f'<strong>talkpages: {headline}</strong>\n\n{html.escape(text)}\n\n'
            "Fix the file and save: this page reloads by itself.</div>")


def inject(page: bytes, version: int, failure: str | None, kept: bool = True) -> bytes:
    """The live-reload script (and the overlay) before `</body>`."""
    snippet = f'<link rel="stylesheet" href="{LIVE}live.css">'
    if failure is not None:
        snippet += overlay(failure, kept)
    snippet += f'<script src="{LIVE}live.js" data-version="{version}"></script>'
    data = snippet.encode("utf-8")
    end = page.lower().rfind(b"</body>")
    return page + data if end < 0 else page[:end] + data + page[end:]


class _Handler(BaseHTTPRequestHandler):
    server: HTTPServer
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
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1 or not self.server.hosts.allows_host(hosts[0] if hosts else None):
            self._refuse("Host", ", ".join(hosts), body)
            return
        url = urlsplit(self.path)
        if url.path.startswith(LIVE):
            self._live(url.path[len(LIVE):], url.query, body)
            return
        state = dev.live.state
        if state.site is None:
            text = state.failure or "the site is being built"
            page = b"<!DOCTYPE html><title>talkpages</title><body></body>"
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/html; charset=utf-8",
                       inject(page, state.version, text, kept=False), body)
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

    def _refuse(self, header: str, value: str, body: bool) -> None:
        """403 to a request for another name than the server's (see hosts.py)."""
        dev = self.server.dev
        dev.console.detail(f"{self.address_string()} refused: {header}: {value[:200]!r}")
        text = (f"talkpages serve answers only at {dev.url} (or localhost, 127.0.0.1, "
                f"[::1] and the --bind address, port {dev.port}); {header} was {value[:200]!r}\n")
        self._send(HTTPStatus.FORBIDDEN, "text/plain; charset=utf-8", text.encode(), body)

    def _live(self, name: str, query: str, body: bool) -> None:
        if name == "live.js":
            self._send(HTTPStatus.OK, TYPES[".js"], LIVE_JS, body)
        elif name == "live.css":
            self._send(HTTPStatus.OK, TYPES[".css"], LIVE_CSS, body)
        elif name == "events" and body:
            origins = self.headers.get_all("Origin") or []
            if len(origins) > 1 or not self.server.hosts.allows_origin(
                    origins[0] if origins else None):
                self._refuse("Origin", ", ".join(origins), body)
                return
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
                data = json.dumps({"version": state.version,
                                   "overlay": overlay(state.failure, state.site is not None)})
                self.wfile.write(f"event: failed\ndata: {data}\n\n".encode())
            else:
                self.wfile.write(f"event: reload\ndata: {state.version}\n\n".encode())
            since = state.version
            self.wfile.flush()


class HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256  # the listen backlog: a burst of connections waits, not fails
    hosts: HostPolicy  # known once bound: the port may be any free one

    def __init__(self, address: tuple[str, int], dev: DevServer) -> None:
        self.dev = dev
        super().__init__(address, _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind asks DNS for the host's name (socket.getfqdn), which
        # can take seconds on a machine without a resolver; nothing here needs it.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)
        self.hosts = HostPolicy(self.dev.bind, self.server_port)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return  # a client that went away mid-answer
        self.dev.console.error(f"talkpages: error while answering {client_address[0]}: "
                               f"{type(error).__name__}: {error}")


class HTTPServer6(HTTPServer):
    address_family = socket.AF_INET6
