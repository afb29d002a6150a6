"""Driving Debian's Chromium from the tests: a static server for a built site under a
sub-path, the browser itself (never `playwright install`), and axe-core.

The launch flags keep Chromium offline: every host name but 127.0.0.1 fails to
resolve, so a page that reaches for a third party shows it as a failed request.
"""

from __future__ import annotations

import mimetypes
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from conftest import ROOT, require_tool

# Chromium's headless shell (Debian's chromium-headless-shell), the browser Playwright
# itself runs headless: the same Blink, without the desktop browser around it, so a
# test's context, page and load take about half the time. Debian's full Chromium drives
# the same tests where the shell is not installed.
SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or (SHELL if Path(SHELL).exists()
                                               else "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
AXE = ROOT / "tests" / "node" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
ARTIFACTS = ROOT / "tests" / "artifacts"
# Whole-page screenshots for people to look at, kept in ARTIFACTS: taken when
# TALKPAGES_SCREENSHOTS is set (.ci/run sets it), as they take a third of the browser
# tests' time; the checks made on the same pages run always.
SCREENSHOTS = bool(os.environ.get("TALKPAGES_SCREENSHOTS"))
TYPES = {".ics": "text/calendar; charset=utf-8", ".json": "application/json",
         ".xml": "application/xml", ".html": "text/html; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8"}


def require_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
        has_playwright = True
    except ImportError:
        has_playwright = False
    require_tool(has_playwright, "playwright is not installed (pip install -e '.[test]'; "
                 "never `playwright install`: the tests use Debian's Chromium)")
    require_tool(Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None,
                 f"Chromium is not installed at {CHROMIUM} "
                 "(apt-get install chromium-headless-shell)")


def require_axe() -> None:
    require_tool(AXE.exists(), f"axe-core is not installed (cd tests/node && npm ci): {AXE}")


@contextmanager
def serve(folder: Path, prefix: str = "/") -> Iterator[str]:
    """Serve `folder` at http://127.0.0.1:<port><prefix>, as GitHub Pages would: a folder
    answers with its index.html, a missing file with 404.html and status 404."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            path = unquote(urlsplit(self.path).path)
            target: Path | None = None
            if path.startswith(prefix):
                target = (folder / path[len(prefix):]).resolve()
                if not target.is_relative_to(folder.resolve()):
                    target = None
                elif target.is_dir():
                    target = target / "index.html" if path.endswith("/") else None
                    if target is None:
                        self.send_response(301)
                        self.send_header("Location", path + "/")
                        self.end_headers()
                        return
            status = 200
            if target is None or not target.is_file():
                status, target = 404, folder / "404.html"
            data = target.read_bytes()
            kind = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
            self.send_response(status)
            self.send_header("Content-Type", kind or "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def keep_screenshot(page: Any, name: str) -> None:
    """A whole-page screenshot of `page` as ARTIFACTS/<name>.png, its images loaded,
    when SCREENSHOTS asks for them."""
    if not SCREENSHOTS:
        return
    page.wait_for_load_state("networkidle")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 5000, shot
