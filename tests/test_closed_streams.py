"""A command started with stdout or stderr closed (`talkpages build >&-`, a service
manager that gives it none): it does its work and ends with its own status, as with
the output sent to /dev/null."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import NOW, MakeSite, talk

CLOSE = {"stdout": (1,), "stderr": (2,), "stdout and stderr": (1, 2)}


def started_without(descriptors: tuple[int, ...], *args: str) -> subprocess.CompletedProcess[bytes]:
    def close() -> None:
        for descriptor in descriptors:
            os.close(descriptor)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    return subprocess.run([sys.executable, "-m", "talkpages", *args], env=env,
                          preexec_fn=close, capture_output=2 not in descriptors
                          and 1 not in descriptors, timeout=120)


@pytest.mark.parametrize("closed", list(CLOSE))
def test_commands_with_stdout_or_stderr_closed_are_no_internal_error(
        make_site: MakeSite, tmp_path: Path, closed: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    now = ("--now", NOW.isoformat())
    assert started_without(CLOSE[closed], "check", "-s", str(site), *now).returncode == 0
    assert started_without(CLOSE[closed], "check", "-s", str(site), "--format", "json",
                           *now).returncode == 0
    assert started_without(CLOSE[closed], "build", "-s", str(site), *now).returncode == 0
    assert (site / "public/one/index.html").is_file()
    assert started_without(CLOSE[closed], "new", "Two", "--date", "2019-05-22T14:50",
                           "-s", str(site)).returncode == 0
    assert (site / "talks/two.md").is_file()
    broken = make_site({"talks/bad.md": talk("Bad", '"not a date"')}, tmp_path / "broken")
    assert started_without(CLOSE[closed], "check", "-s", str(broken), *now).returncode == 1
    assert started_without(CLOSE[closed], "build", "-s", str(broken), "--now",
                           "0001-01-01T00:00:00+14:00").returncode == 2
