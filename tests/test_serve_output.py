"""`talkpages serve` whose output nobody reads any more (`talkpages serve | head -1`,
a closed terminal): the server goes on serving and rebuilding, and stops cleanly."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from io import StringIO

import pytest

from talkpages.commands.console import Console
from talkpages.commands.serve import DevServer

from conftest import NOW, MakeSite, talk

WAIT = 30.0


def page(port: int, path: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    try:
        connection.request("GET", path)
        return connection.getresponse().read().decode("utf-8")
    finally:
        connection.close()


def wait_for(port: int, path: str, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while text not in page(port, path):
        assert time.monotonic() < deadline, f"{text!r} never shows at {path}"
        time.sleep(0.1)


@pytest.mark.parametrize("closed", ["stdout", "stdout and stderr"])
def test_serve_with_a_broken_pipe_keeps_serving_and_rebuilding(
        make_site: MakeSite, closed: str) -> None:
    site = make_site({"talks/one.md": talk("First title")})
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    process = subprocess.Popen([sys.executable, "-m", "talkpages", "serve", "-s", str(site),
                                "--port", "0", "--now", NOW.isoformat()],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stderr is not None
    try:
        port = 0
        while not port:  # `| head -2`: the reader takes what it wants and goes away
            match = re.search(rb"Serving http://127\.0\.0\.1:(\d+)/", process.stdout.readline())
            port = int(match.group(1)) if match else 0
        process.stdout.close()
        if closed == "stdout and stderr":
            process.stderr.close()
        for number in range(3):  # each rebuild prints a line to the closed pipe
            (site / "talks/one.md").write_text(talk(f"Edited title {number}"))
            wait_for(port, "/one/", f"Edited title {number}")
        (site / "talks/one.md").write_text(talk("Broken", date='"not a date"'))
        time.sleep(1)  # a failed rebuild prints its errors: on stderr
        assert process.poll() is None, "the server stopped"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=WAIT) == 0
        if closed == "stdout":
            errors = process.stderr.read().decode()
            assert "internal error" not in errors and "Traceback" not in errors, errors
            assert "rebuild failed" in errors
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


class Gone(StringIO):
    """A stream whose reader went away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_rebuild_publishes_the_site_when_its_messages_cannot_be_written(
        make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One")})
    server = DevServer(site, port=0, now=lambda: NOW, console=Console(Gone(), Gone()))
    first = server.rebuild([])
    (site / "talks/one.md").write_text(talk("Two"))
    second = server.rebuild([str(site / "talks/one.md")])
    assert second.version == first.version + 1 and second.site is not None
    assert b"Two" in (second.site["one/index.html"].data or b"")
