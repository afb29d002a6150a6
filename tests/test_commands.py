"""The command line's own failures: a wrong option, a file where a folder should be, a
reader that goes away. Each is a message that names the option or the file, with exit 1
(2 for a wrong command line), never "internal error" (exit 3, kept for bugs).
"""

from __future__ import annotations

import os
import re
import select
import signal
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
    assert code == 1 and "site/talks: error: this is not a folder, so nothing can be " \
        "written into it" in err


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


def test_serve_bind_999_no_longer_suggests_another_port(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One")})
    code, _, err = run_cli("serve", "-s", str(site), "--bind", "999.1.1.1", "--port", "0")
    no_internal_error(code, err)
    assert code == 2 and "--bind 999.1.1.1 is not an address of this computer" in err
    assert "another --port" not in err


def test_serve_missing_site_folder_no_longer_claims_a_last_good_site(tmp_path: Path) -> None:
    """It used to keep running, serving an overlay no edit under watch could clear."""
    missing = tmp_path / "missing-dir"
    done = subprocess.run([sys.executable, "-m", "talkpages", "serve", "-s", str(missing),
                           "--port", "0"], capture_output=True, text=True, env=ENV, timeout=60)
    no_internal_error(done.returncode, done.stderr)
    assert done.returncode == 1
    assert f"{missing}: error: the site folder does not exist" in done.stderr
    assert "last good site" not in done.stderr and "Serving" not in done.stdout


def test_build_base_url_notaurl_no_longer_blames_talkpages_toml(make_site: MakeSite,
                                                                run_cli) -> None:
    site = make_site({"talks/one.md": talk("One"),
                      "talkpages.toml": 'base_url = "https://example.org/"\n'})
    code, _, err = run_cli("build", "-s", str(site), "--base-url", "notaurl")
    no_internal_error(code, err)
    assert code == 2 and "argument --base-url: 'notaurl'" in err
    assert "talkpages.toml" not in err and not (site / "public").exists()


def test_base_url_override_is_not_blamed_on_talkpages_toml(make_site: MakeSite) -> None:
    from talkpages.content.config import load_config

    site = make_site({"talkpages.toml": 'title = "T"\nbase_url = "https://example.org/"\n'})
    config, problems = load_config(site, {"base_url": "notaurl"})
    assert [(p.path, p.line) for p in problems] == [(None, None)]
    assert "'base_url'" in problems[0].message


def test_import_hugo_a_file_no_longer_says_the_folder_does_not_exist(tmp_path: Path,
                                                                     run_cli) -> None:
    file = tmp_path / "a-file.txt"
    file.write_text("hello\n")
    code, _, err = run_cli("import", "hugo", str(file), "-s", str(tmp_path / "site"))
    no_internal_error(code, err)
    assert code == 1 and "is a file, not a folder" in err and "does not exist" not in err


def test_serve_port_0_quiet_now_says_which_port(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One")})
    process = subprocess.Popen([sys.executable, "-m", "talkpages", "serve", "-s", str(site),
                                "--port", "0", "-q"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               env={**ENV, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, "serve -q printed nothing in a minute"
        line = process.stdout.readline()  # the first line: a quiet serve prints no other
        assert re.fullmatch(r"Serving http://127\.0\.0\.1:[1-9]\d*/ \(Ctrl-C to stop\)\n",
                            line), line
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.parametrize("epoch", ["abc", "99999999999999", "1.5e9"])
def test_source_date_epoch_not_a_time_is_not_an_internal_error(
        make_site: MakeSite, run_cli, monkeypatch: pytest.MonkeyPatch, epoch: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    for command in ("check", "build", "serve"):
        code, _, err = run_cli(command, "-s", str(site))
        no_internal_error(code, err)
        assert code == 2 and f"SOURCE_DATE_EPOCH={epoch!r} is not a time" in err
    assert not (site / "public").exists()


def test_now_after_year_9999_is_not_a_traceback(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One")})
    code, _, err = run_cli("check", "-s", str(site), "--now", "9999-12-31T23:59:59-01:00")
    no_internal_error(code, err)
    assert code == 2 and "argument --now" in err and "after the year 9999" in err
