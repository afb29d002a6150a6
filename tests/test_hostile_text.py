"""Hostile talk text, end to end: `check` and `build` refuse it with file and line, fast,
and what they build stays well-formed.

Each test is named after the payload it feeds in.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import talkpages
from test_frontmatter import yaml_alias_bomb

from conftest import MakeSite


def command_line(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m talkpages` on the talkpages under test, in 2 GiB at most."""
    source = str(Path(talkpages.__file__).parents[1])
    path = os.pathsep.join(filter(None, (source, os.environ.get("PYTHONPATH"))))
    return subprocess.run([sys.executable, "-m", "talkpages", *args], capture_output=True,
                          text=True, timeout=60, cwd=cwd, preexec_fn=limited_memory,
                          env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": path})


def limited_memory() -> None:
    """Run in the child: 2 GiB of address space, so a regression fails instead of
    taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_check_refuses_a_yaml_alias_bomb_fast_with_path_and_line(make_site: MakeSite) -> None:
    site = make_site({"talks/bomb.md": yaml_alias_bomb()})
    started = time.monotonic()
    done = command_line("check", cwd=site)
    assert time.monotonic() - started < 10
    assert done.returncode == 1, done.stderr
    assert "talks/bomb.md:5:10: error: invalid YAML front matter: the alias `*a0`" \
        in done.stderr
    assert "internal error" not in done.stderr


def test_build_refuses_a_self_referencing_yaml_alias(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/self.md": "---\ntitle: Self\ndate: 2019-05-22\n"
                                       "x: &x [*x]\n---\nBody\n"})
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / "public"))
    assert code == 1, err
    assert "self.md:4:8: error:" in err and "alias `*x`" in err
    assert not (site / "public").exists()
