"""`check --format github` (annotations on the files of a pull request) and the warning
that keeps a site from being published with this machine's address as its base_url."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.diagnostics import Diagnostic

from conftest import NOW, MakeSite, RunCli, talk

PUBLISHED = 'base_url = "https://talks.example.org/"\n'


def _check(run_cli: RunCli, site: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli("check", "-s", str(site), "--now", NOW.isoformat(), *extra)  # type: ignore[no-any-return]


def test_github_format_annotates_each_problem_at_its_line(make_site: MakeSite,
                                                          run_cli: RunCli) -> None:
    site = make_site({"talkpages.toml": PUBLISHED,
                      "talks/typo.md": talk("Typo", extra="date_ned = 2019-05-22T15:00:00")})
    code, out, _ = _check(run_cli, site, "--format", "github")
    assert code == 0
    typo = next(line for line in out.splitlines() if "date_ned" in line)
    assert typo.startswith("::warning file=") and ",line=4,col=1,title=talkpages warning::" \
        in typo
    assert "%0Ahint: " in typo
    (site / "talks" / "bad.md").write_text('+++\ntitle = "Bad"\ndate = 2019-13-01\n+++\n')
    code, out, err = _check(run_cli, site, "--format", "github")
    assert code == 1 and "talkpages: 1 error" in err  # the summary stays on stderr
    assert any(line.startswith("::error file=") and "bad.md,line=3" in line
               for line in out.splitlines())


def test_github_values_are_escaped_as_the_runner_reads_them() -> None:
    diagnostic = Diagnostic(Path("talks/a,b:c%.md"), "50% done, a: b", 2, 3, "note",
                            hint="x", causes=("y",))
    assert diagnostic.to_github() == ("::notice file=talks/a%2Cb%3Ac%25.md,line=2,col=3,"
                                      "title=talkpages note::50%25 done, a: b%0Acaused by: y"
                                      "%0Ahint: x")


@pytest.mark.parametrize("base_url", [None, "http://localhost:8000/", "http://127.0.0.1/",
                                      "http://[::1]:1313/", "http://talks.localhost/"])
def test_strict_fails_on_a_base_url_of_this_machine(make_site: MakeSite, run_cli: RunCli,
                                                    base_url: str | None) -> None:
    config = f'base_url = "{base_url}"\n' if base_url else 'title = "T"\n'
    site = make_site({"talkpages.toml": config, "talks/a.md": talk(
        "A", "2019-05-22T14:50:00", 'url_slides = "https://example.org/s"')})
    code, _, err = _check(run_cli, site)
    assert code == 0 and "this machine's address" in err
    code, _, err = _check(run_cli, site, "--strict")
    assert code == 1 and "talkpages.toml: warning: base_url is" in err
    code, _, err = _check(run_cli, site, "--strict", "--base-url", "https://example.org/t/")
    assert code == 0, err


def test_a_published_base_url_passes_strict(make_site: MakeSite, run_cli: RunCli) -> None:
    site = make_site({"talkpages.toml": PUBLISHED, "talks/a.md": talk(
        "A", "2019-05-22T14:50:00", 'url_slides = "https://example.org/s"')})
    code, out, err = _check(run_cli, site, "--strict", "--format", "github")
    assert code == 0 and "::" not in out, err
