"""The command line's own failures: a wrong option, a file where a folder should be, a
reader that goes away. Each is a message that names the option or the file, with exit 1
(2 for a wrong command line), never "internal error" (exit 3, kept for bugs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MakeSite, talk

ENV = {**os.environ, "NO_COLOR": "1"}


def no_internal_error(code: int, err: str) -> None:
    assert code in (1, 2), err
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_serve_port_out_of_range_is_not_an_internal_error(make_site: MakeSite, run_cli,
                                                      port: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    code, _, err = run_cli("serve", "-s", str(site), "--port", port)
    no_internal_error(code, err)
    assert code == 2 and "--port" in err and "0 to 65535" in err


def test_new_into_a_file_is_not_an_internal_error(tmp_path: Path, run_cli) -> None:
    file = tmp_path / "a-file.txt"
    file.write_text("not a site\n")
    code, _, err = run_cli("new", "X", "-s", str(file), "--date", "2019-05-22")
    no_internal_error(code, err)
    assert code == 1 and f"{file}: error: the site folder is a file, not a folder" in err
    assert file.read_text() == "not a site\n"


def test_import_into_a_file_is_not_an_internal_error(tmp_path: Path, run_cli) -> None:
    source = tmp_path / "old/content/talk"
    source.mkdir(parents=True)
    (source / "one.md").write_text(talk("One"))
    file = tmp_path / "a-file.txt"
    file.write_text("not a site\n")
    code, _, err = run_cli("import", "hugo", str(tmp_path / "old"), "-s", str(file))
    no_internal_error(code, err)
    assert code == 1 and "is a file, not a folder" in err


def test_import_that_cannot_write_is_not_an_internal_error(tmp_path: Path, run_cli) -> None:
    bundle = tmp_path / "old/content/talk/one"
    bundle.mkdir(parents=True)
    (bundle / "index.md").write_text(talk("One"))
    site = tmp_path / "site"
    site.mkdir()
    (site / "talks").write_text("a file where the talks folder should be\n")
    code, _, err = run_cli("import", "hugo", str(tmp_path / "old"), "-s", str(site))
    no_internal_error(code, err)
    assert code == 1 and "index.md: error: not imported: Not a directory" in err


@pytest.mark.parametrize("command", [["check", "--format", "json"], ["build", "-v"]],
                         ids=["check-json", "build"])
def test_closed_pipe_is_not_an_internal_error(make_site: MakeSite, command: list[str]) -> None:
    """`talkpages check --format json | head`: the reader went away; the command ends
    quietly with 141, as `cat` or `grep` would, and a build still writes the site."""
    files = {f"talks/t{i:03d}.md": talk(f"Talk {i}", f"2019-05-{i % 28 + 1:02d}")
             for i in range(40)}
    site = make_site(files)
    process = subprocess.Popen([sys.executable, "-m", "talkpages", *command, "-s", str(site)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `head` does once it has what it wants
    code = process.wait(timeout=120)
    err = process.stderr.read().decode()
    process.stderr.close()
    assert code == 141, err
    assert err == ""
    if command[0] == "build":
        assert (site / "public/t000/index.html").is_file()
