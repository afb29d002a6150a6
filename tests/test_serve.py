"""`talkpages serve`: live reload, the error overlay, what it serves and refuses, load.

Each server binds 127.0.0.1 on a free port and is stopped at the end of its test.
Waits are generous (a loaded CI machine), but the reload event must reach the browser
within a second of the rebuild finishing; the edit-to-reload time is printed.
"""

from __future__ import annotations

import html
import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from io import StringIO
from pathlib import Path

import pytest

from talkpages.commands.console import Console
from talkpages.commands.devhttp import inject, request_path
from talkpages.commands.hosts import HostPolicy
from talkpages.commands.serve import DevServer

from conftest import NOW, MakeSite, talk

WAIT = 30.0  # seconds: only a broken server takes this long


@contextmanager
def serving(site: Path) -> Iterator[DevServer]:
    console = Console(StringIO(), StringIO())
    server = DevServer(site, port=0, now=lambda: NOW, console=console)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def terminal(server: DevServer) -> str:
    return server.console.err.getvalue()  # type: ignore[attr-defined]


def get(server: DevServer, path: str, method: str = "GET",
        ) -> tuple[int, dict[str, str], bytes]:
    """One request with `path` sent as it is (no client-side normalising)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@dataclass
class Event:
    name: str
    data: str
    received: float  # time.monotonic()


class EventStream:
    """A browser tab's EventSource, reduced to a socket and a queue of events."""

    def __init__(self, server: DevServer, since: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.socket.sendall(f"GET /__talkpages/events?since={since} HTTP/1.1\r\n"
                            f"Host: 127.0.0.1:{server.port}\r\nAccept: text/event-stream\r\n\r\n"
                            .encode())
        self.events: queue.Queue[Event] = queue.Queue()
        self.headers = ""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b"\n\n" in buffer or b"\r\n\r\n" in buffer:
                    block, _, buffer = buffer.partition(b"\n\n") if b"\n\n" in buffer \
                        else buffer.partition(b"\r\n\r\n")
                    text = block.decode()
                    if text.startswith("HTTP/"):
                        self.headers = text
                        continue
                    fields = dict(line.split(": ", 1) for line in text.splitlines()
                                  if ": " in line and not line.startswith(":"))
                    if "event" in fields:
                        self.events.put(Event(fields["event"], fields.get("data", ""),
                                              time.monotonic()))
        except OSError:
            return

    def next(self) -> Event:
        return self.events.get(timeout=WAIT)

    def close(self) -> None:
        self.socket.close()


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_edit_reloads_break_shows_the_overlay_fix_clears_it(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One", body="First version."),
                      "talks/two.md": talk("Two", "2019-06-01")})
    with serving(site) as server:
        status, headers, page = get(server, "/one/")
        assert status == 200 and b"First version." in page
        assert b'<script src="/__talkpages/live.js"' in page
        stream = EventStream(server, since=server.live.state.version)
        try:
            edited = time.monotonic()
            write(site / "talks/one.md", talk("One", body="Second version."))
            event = stream.next()
            state = server.live.state
            assert event.name == "reload" and state.failure is None
            after_build = event.received - state.finished
            print(f"\nedit-to-reload: {event.received - edited:.3f} s (the reload event came "
                  f"{after_build * 1000:.1f} ms after the rebuild finished)")
            assert after_build < 1.0
            assert b"Second version." in get(server, "/one/")[2]

            write(site / "talks/one.md", '+++\ntitle = "One\ndate = 2019-05-22\n+++\n')
            event = stream.next()
            assert event.name == "failed"
            overlay_text = html.unescape(json.loads(event.data)["overlay"])
            printed = [line for line in terminal(server).splitlines() if line.strip()]
            message = next(line for line in printed if "one.md:2:" in line)
            assert re.search(r"talks/one\.md:2:\d+: error: invalid TOML", message)
            for line in printed[printed.index(message):]:
                assert line in overlay_text  # the terminal's very lines
            status, _, page = get(server, "/one/")
            assert status == 200 and b"Second version." in page  # the last good site
            assert b'id="talkpages-errors"' in page and b"invalid TOML" in page
            assert b'id="talkpages-errors"' in get(server, "/two/")[2]

            write(site / "talks/one.md", talk("One", body="Third version."))
            event = stream.next()
            assert event.name == "reload"
            page = get(server, "/one/")[2]
            assert b"Third version." in page and b"talkpages-errors" not in page
        finally:
            stream.close()


def test_a_tab_that_missed_a_rebuild_reloads_at_once(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        stream = EventStream(server, since=server.live.state.version - 1)
        try:
            assert stream.next().name == "reload"
            assert "text/event-stream" in stream.headers
        finally:
            stream.close()


def test_a_rebuild_shows_an_edit_everywhere_it_appears(make_site: MakeSite) -> None:
    files = {f"talks/t{i:02d}.md": talk(f"Talk {i}", f"2019-05-{i + 1:02d}") for i in range(20)}
    site = make_site(files)
    with serving(site) as server:
        write(site / "talks/t10.md", talk("Talk ten", "2019-05-11"))
        state = server.rebuild([str(site / "talks/t10.md")])
        assert state.failure is None
        assert (state.stats.talks, state.stats.outputs) == (20, len(state.site or {}))
        assert b"Talk ten" in get(server, "/t10/")[2]
        assert b"Talk ten" in get(server, "/t09/")[2]  # the neighbour links to it


def test_template_and_config_changes_rebuild_every_page(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One"), "talks/two.md": talk("Two", "2019-06-01")})
    with serving(site) as server:
        (site / "layouts").mkdir()
        own = ("<!DOCTYPE html><title>{{{{ config.title }}}}</title>"
               "<body>{} {{{{ talk.title }}}}</body>")
        write(site / "layouts/talk.html", own.format("v1"))
        server.rebuild(["layouts/talk.html"])
        assert b"v1 Two" in get(server, "/two/")[2]
        write(site / "layouts/talk.html", own.format("v2"))
        server.rebuild(["layouts/talk.html"])
        assert b"v2 Two" in get(server, "/two/")[2] and b"v2 One" in get(server, "/one/")[2]
        write(site / "talkpages.toml", 'title = "Renamed site"\n')
        server.rebuild(["talkpages.toml"])
        assert b"Renamed site" in get(server, "/one/")[2]


def test_content_types(make_site: MakeSite) -> None:
    site = make_site({"talks/one/index.md": talk("One", extra='url_slides = "slides.pdf"'),
                      "talks/one/slides.pdf": b"%PDF-1.4"})
    with serving(site) as server:
        expected = {"/": "text/html; charset=utf-8", "/one/": "text/html; charset=utf-8",
                    "/calendar.ics": "text/calendar; charset=utf-8",
                    "/sitemap.xml": "application/xml; charset=utf-8",
                    "/robots.txt": "text/plain; charset=utf-8",
                    "/favicon.svg": "image/svg+xml", "/one/slides.pdf": "application/pdf",
                    "/__talkpages/live.js": "text/javascript; charset=utf-8"}
        for path, kind in expected.items():
            status, headers, body = get(server, path)
            assert (status, headers["Content-Type"]) == (200, kind), path
            assert int(headers["Content-Length"]) == len(body)
        css = [p for p in server.live.state.site or {} if p.endswith(".css")]
        assert css and get(server, "/" + css[0])[1]["Content-Type"] == "text/css; charset=utf-8"
        assert get(server, "/one/slides.pdf")[2] == b"%PDF-1.4"
        status, headers, body = get(server, "/calendar.ics", "HEAD")
        assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_unknown_paths_get_the_sites_404_page(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        status, headers, body = get(server, "/no/such/page/")
        assert status == 404 and headers["Content-Type"] == "text/html; charset=utf-8"
        page = (server.live.state.site or {})["404.html"].data or b""
        assert page and page.split(b"</body>")[0] in body
        status, headers, _ = get(server, "/one?x=1")
        assert status == 301 and headers["Location"] == "/one/?x=1"


@pytest.mark.parametrize("path", [
    "/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc/passwd",
    "/%2E%2E/%2E%2E/etc/passwd", "/one/..%5c..%5c..%5cetc%5cpasswd", "/%252e%252e/etc/passwd",
    "/one/%2e%2e/%2e%2e/talks/one.md", "/talks/one.md", "/./index.html", "/one/%00",
    "/..", "//etc/passwd"])
def test_nothing_outside_the_site_is_served(make_site: MakeSite, path: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        status, _, body = get(server, path)
        assert status == 404
        assert b"root:" not in body and b"+++" not in body


def test_request_path_rules() -> None:
    assert request_path("/") == "index.html"
    assert request_path("/a%20b/") == "a b/index.html"
    assert request_path("/x/../y") is None and request_path("/x/%2E%2e/y") is None
    assert request_path("/a\\b") is None and request_path("/%5c") is None


def test_symlinks_out_of_the_site_are_not_served(make_site: MakeSite, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    site = make_site({"talks/one/index.md": talk("One")})
    (site / "assets").mkdir()
    (site / "assets/leak.txt").symlink_to(secret)
    (site / "talks/one/leak.txt").symlink_to(secret)
    with serving(site) as server:  # the build refuses them: the error is shown instead
        for path in ("/assets/leak.txt", "/one/leak.txt"):
            status, _, body = get(server, path)
            assert status in (404, 500) and b"TOP SECRET" not in body, path
            assert status == 404 or b"leads out of the site" in body


def test_survives_clients_that_disconnect_mid_response(make_site: MakeSite) -> None:
    site = make_site({"talks/one/index.md": talk("One"),
                      "talks/one/big.bin": os.urandom(8 * 1024 * 1024)})
    with serving(site) as server:
        for _ in range(5):
            client = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
            client.sendall(b"GET /one/big.bin HTTP/1.0\r\n\r\n")
            assert client.recv(1024).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00"
                              b"\x00\x00\x00\x00")  # close with a reset
            client.close()
        stream = EventStream(server, since=server.live.state.version)
        stream.close()
        half = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        half.sendall(b"GET /one/ HT")  # a request cut short
        half.close()
        status, _, body = get(server, "/one/big.bin")
        assert status == 200 and len(body) == 8 * 1024 * 1024
        time.sleep(0.2)
        assert "Traceback" not in terminal(server)
        assert "error while answering" not in terminal(server)


def test_two_hundred_concurrent_connections(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        clients = [socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
                   for _ in range(200)]  # all open at once
        try:
            for client in clients:
                client.sendall(f"GET /one/ HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
                               .encode())
            answers = []
            for client in clients:
                data = b""
                while chunk := client.recv(65536):
                    data += chunk
                answers.append(data)
        finally:
            for client in clients:
                client.close()
        assert all(a.startswith(b"HTTP/1.0 200") and b"One" in a for a in answers)
        assert len(answers) == 200


def test_a_site_that_does_not_build_at_first_shows_the_overlay(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": '+++\ntitle = "One\n+++\n'})
    with serving(site) as server:
        status, _, page = get(server, "/")
        assert status == 500 and b"talkpages-errors" in page and b"one.md:2" in page
        stream = EventStream(server, since=server.live.state.version)
        try:
            write(site / "talks/one.md", talk("One"))
            assert stream.next().name == "reload"
        finally:
            stream.close()
        assert get(server, "/one/")[0] == 200


def raw(server: DevServer, request: str) -> tuple[int, bytes]:
    """The status and body of one request written by hand (headers as the test gives)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as client:
        client.sendall(request.encode())
        data = b""
        while chunk := client.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@pytest.mark.parametrize("host", [
    "evil.example:{port}", "evil.example", "localhost.evil.example:{port}",
    "127.0.0.1.nip.io:{port}", "localhost:{other}", "127.0.0.1", "localhost:{port}@evil",
    "[::1]:{other}", "localhost:{port}\r\nHost: evil.example:{port}", ""])
def test_serve_no_longer_answers_any_host_dns_rebinding(make_site: MakeSite, host: str) -> None:
    """A page on another domain that rebinds its name to 127.0.0.1 reads nothing: not
    the site, not a draft, not the overlay with the site's files in it."""
    site = make_site({"talks/one.md": talk("One", body="Secret draft."),
                      "talks/two.md": '+++\ntitle = "Two\n+++\n'})  # the overlay is up
    with serving(site) as server:
        value = host.format(port=server.port, other=server.port + 1)
        for path in ("/one/", "/", "/__talkpages/events?since=0", "/__talkpages/live.js"):
            status, body = raw(server, f"GET {path} HTTP/1.1\r\nHost: {value}\r\n"
                                       "Connection: close\r\n\r\n")
            assert status == 403, (path, value)
            assert b"Secret" not in body and b"two.md" not in body
            assert f"http://127.0.0.1:{server.port}/".encode() in body  # what to use


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}",
                                  "LocalHost:{port}", None])
def test_serve_answers_its_own_names(make_site: MakeSite, host: str | None) -> None:
    site = make_site({"talks/one.md": talk("One", body="Body here.")})
    with serving(site) as server:
        header = "" if host is None else f"Host: {host.format(port=server.port)}\r\n"
        status, body = raw(server, f"GET /one/ HTTP/1.0\r\n{header}\r\n")
        assert status == 200 and b"Body here." in body


@pytest.mark.parametrize("origin, allowed", [
    ("http://evil.example", False), ("http://evil.example:{port}", False), ("null", False),
    ("https://localhost:{port}", False), ("http://localhost:{other}", False),
    ("http://localhost:{port}", True), ("http://127.0.0.1:{port}", True),
    ("http://[::1]:{port}", True), (None, True)])
def test_serve_live_reload_stream_checks_the_origin(make_site: MakeSite, origin: str | None,
                                                    allowed: bool) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        header = "" if origin is None else \
            f"Origin: {origin.format(port=server.port, other=server.port + 1)}\r\n"
        with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as client:
            client.sendall(f"GET /__talkpages/events?since=0 HTTP/1.1\r\nHost: "
                           f"localhost:{server.port}\r\n{header}\r\n".encode())
            head = client.recv(65536)
        assert head.startswith(b"HTTP/1.0 200" if allowed else b"HTTP/1.0 403"), head


def test_host_policy() -> None:
    local = HostPolicy("127.0.0.1", 1313)
    assert local.allows_host("localhost:1313") and local.allows_host("[::1]:1313")
    assert not local.allows_host("192.168.1.5:1313") and not local.allows_host("localhost")
    assert not local.allows_host("a.localhost:1313") and not local.allows_host("[::1")
    assert HostPolicy("127.0.0.1", 80).allows_host("localhost")  # the default port
    named = HostPolicy("laptop.lan", 8000)
    assert named.allows_host("laptop.lan:8000") and not named.allows_host("other.lan:8000")
    everywhere = HostPolicy("0.0.0.0", 1313)
    assert everywhere.allows_host("192.168.1.5:1313") and everywhere.allows_host("[fe80::1]:1313")
    assert not everywhere.allows_host("laptop.lan:1313")  # a name can be rebound
    assert everywhere.allows_origin("http://192.168.1.5:1313")
    assert not everywhere.allows_origin("http://192.168.1.5:1313/path")
    assert not local.allows_origin("http://localhost:99999")


def test_first_build_with_errors_no_longer_claims_a_last_good_site(
        make_site: MakeSite) -> None:
    """There is no good site yet: the terminal and the overlay say the site does not
    build, and serve keeps watching (the file can be fixed)."""
    site = make_site({"talks/one.md": '+++\ntitle = "One\n+++\n'})
    with serving(site) as server:
        _, _, page = get(server, "/")
        assert b"the site does not build yet" in page and b"last good site" not in page
        assert "last good site" not in terminal(server)
        assert "build failed with 1 error; open tabs show the errors" in terminal(server)
        write(site / "talks/one.md", talk("One"))
        server.rebuild([str(site / "talks/one.md")])
        write(site / "talks/one.md", '+++\ntitle = "One\n+++\n')
        state = server.rebuild([str(site / "talks/one.md")])
        assert state.site is not None and state.failure is not None  # now there is one
        assert terminal(server).rstrip().endswith("serving the last good site")
        assert b"this is the last good site" in get(server, "/one/")[2]


def test_inject_puts_the_script_before_the_end_of_body() -> None:
    page = inject(b"<html><body><p>x</p></BODY></html>", 7, "a < b")
    assert page.endswith(b'data-version="7"></script></BODY></html>')
    assert b"a &lt; b" in page
    assert inject(b"no body", 1, None).startswith(b'no body<link rel="stylesheet"')
    assert b"style=" not in page and b"<script>" not in page  # nothing inline: the CSP


def test_port_in_use_is_an_error_with_a_hint(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One")})
    with serving(site) as server:
        code, _, err = run_cli("serve", "-s", str(site), "--port", str(server.port))
    assert code == 1 and "cannot listen" in err and "--port" in err


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_stops_the_command_cleanly(make_site: MakeSite, stop: signal.Signals) -> None:
    site = make_site({"talks/one.md": talk("One")})
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
    # As from a terminal: SIGINT not ignored. Tests run in the background (`cmd &` in
    # a script) inherit it ignored, and so would the server; a handled signal is
    # reset to its default in the child.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen([sys.executable, "-m", "talkpages", "serve", "-s", str(site),
                                    "--port", "0"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
    finally:
        signal.signal(signal.SIGINT, inherited)
    try:
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout],  # type: ignore[union-attr]
                         daemon=True).start()
        url = ""
        while not url:
            match = re.search(r"Serving (http://127\.0\.0\.1:\d+/)", lines.get(timeout=WAIT))
            url = match.group(1) if match else ""
        host, port = url[7:-1].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=WAIT)
        connection.request("GET", "/one/")
        assert connection.getresponse().status == 200
        connection.close()
        process.send_signal(stop)
        code = process.wait(timeout=WAIT)
        stderr = process.stderr.read()  # type: ignore[union-attr]
        assert code == 0, stderr
        assert "Traceback" not in stderr
        rest = []
        while not lines.empty():
            rest.append(lines.get())
        assert "Stopped." in "".join(rest)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_watches_the_speakers_photos_and_the_logo(make_site: MakeSite) -> None:
    """Regression: a speaker's photo (speakers/ada.jpg) was read by the build but not
    watched, so replacing it changed nothing until another file changed."""
    from conftest import photo

    site = make_site({"talks/one.md": talk("One", extra='authors = ["ada"]'),
                      "speakers.toml": '[ada]\nname = "Ada"\nphoto = "speakers/ada.jpg"\n',
                      "speakers/ada.jpg": photo(200, 200),
                      "talkpages.toml": 'title = "T"\nlogo = "logo.png"\n',
                      "logo.png": photo(120, 40, "PNG")})
    with serving(site) as server:
        watched = server.watched()
        assert site / "speakers" / "ada.jpg" in watched and site / "logo.png" in watched
        # and the folders of files published as they are and of the site's own texts
        assert site / "static" in watched and site / "i18n" in watched
