"""A pipe, a socket or a folder named like a talk file is an error at its path.

Reading a pipe waits for a writer forever, and a talk left out without a word is
missing from the site and its feed: neither may happen, in `check`, `build` (whole,
or again with only the changed files read) or `serve`'s rebuilds.
"""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from talkpages.content.config import Config
from talkpages.content.loader import LoadOptions, load_talk

from conftest import NOW, MakeSite, RunCli, cli_build, render, talk

SECONDS = 10
NOT_A_FILE = "error: this is not a regular file (a pipe, a socket or a device)"


@pytest.fixture(autouse=True)
def deadline() -> Iterator[None]:
    """Fail, rather than wait for ever, when something opens a pipe to read it."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still waiting after {SECONDS} s: a pipe was opened to read")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def make_special(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(path))
    elif kind == "folder":
        path.mkdir()
    else:  # a link, inside the site, to a pipe
        os.mkfifo(path.with_name("target.pipe"))
        path.symlink_to("target.pipe")


CASES = [("talks/x.md", "pipe"), ("talks/b/index.md", "pipe"), ("talks/x.md", "socket"),
         ("talks/b/index.md", "socket"), ("talks/x.md", "link"), ("talks/b/index.md", "link"),
         ("talks/b/index.md", "folder")]


@pytest.mark.parametrize(("name", "kind"), CASES)
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_talk_file_that_is_no_file_is_an_error_at_its_path(make_site: MakeSite,
                                                            run_cli: RunCli, name: str,
                                                            kind: str, command: str) -> None:
    site = make_site({"talks/a.md": talk()})
    make_special(site / name, kind)
    quiet = ["-q"] if command == "build" else []
    code, _, err = run_cli(command, *quiet, "-s", str(site), "--now", NOW.isoformat())
    assert code == 1, err
    what = "error: this is a folder, not a talk file" if kind == "folder" else NOT_A_FILE
    assert f"{name}: {what}" in err
    assert "hint: remove it, or put the talk in a plain file of that name" in err


def test_a_pipe_or_a_device_given_to_load_talk_is_refused_unopened_for_reading(
        tmp_path: Path) -> None:
    """The way a build that reads only changed files and the importers read a talk."""
    pipe = tmp_path / "talks" / "x.md"
    make_special(pipe, "pipe")
    for path in (pipe, Path(os.devnull)):
        found, [problem] = load_talk(path, "x", Config())
        assert found is None
        assert problem.path == path
        assert problem.message.startswith("this is not a regular file")


def test_a_socket_given_to_load_talk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    make_special(path, "socket")
    found, [problem] = load_talk(path, "x", Config())
    assert found is None and problem.message.startswith("this is not a regular file")


def test_a_talk_file_replaced_by_a_pipe_is_an_error_in_the_next_build(
        make_site: MakeSite, run_cli: RunCli) -> None:
    """The second build finds one changed file and reads only it."""
    site = make_site({"talks/a.md": talk(), "talks/b.md": talk("B")})
    assert cli_build(run_cli, site)[0] == 0
    (site / "talks" / "b.md").unlink()
    make_special(site / "talks" / "b.md", "pipe")
    code, err = cli_build(run_cli, site)
    assert code == 1
    assert f"talks/b.md: {NOT_A_FILE}" in err


def test_serve_reports_a_talk_file_replaced_by_a_pipe(make_site: MakeSite) -> None:
    """serve rebuilds into memory."""
    site = make_site({"talks/a.md": talk(), "talks/b/index.md": talk("B")})
    assert render(site, LoadOptions(now=NOW)).ok
    (site / "talks" / "b" / "index.md").unlink()
    make_special(site / "talks" / "b" / "index.md", "pipe")
    result = render(site, LoadOptions(now=NOW))
    assert not result.ok
    assert [(d.path, d.message.split(" (")[0]) for d in result.diagnostics if d.is_error] == [
        (site / "talks" / "b" / "index.md", "this is not a regular file")]
