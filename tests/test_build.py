"""The build command end to end: what it writes, what it refuses, what it keeps."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.engine.writer import MARKER

from conftest import NOW, ROOT, MakeSite, talk

NOW_ARG = NOW.isoformat()


def test_build_writes_pages_index_feed_and_site_files(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One"),
                      "talks/two/index.md": talk("Two", "2019-06-01"),
                      "talks/two/slides.pdf": b"%PDF-1.4"})
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW_ARG)
    assert code == 0, err
    public = site / "public"
    for name in ["index.html", "one/index.html", "two/index.html", "two/slides.pdf",
                 "calendar.ics", "404.html", "sitemap.xml", "robots.txt", "favicon.ico",
                 "feed.xml", "talks.json", "search.json", "tags/index.html",
                 "speakers/index.html", "years/2019/index.html", MARKER]:
        assert (public / name).is_file(), name
    assert len(list(public.glob("assets/style.*.css"))) == 1
    assert len(list(public.glob("assets/site.*.js"))) == 1
    assert "Built 2 talks" in out


def test_output_folder_option_and_base_url_override(make_site: MakeSite, run_cli,
                                                    tmp_path: Path) -> None:
    site = make_site({"talks/one.md": talk("One")})
    out_dir = tmp_path / "elsewhere"
    code, _, err = run_cli("build", "-s", str(site), "-o", str(out_dir), "--now", NOW_ARG,
                           "--base-url", "https://talks.example.org/sub")
    assert code == 0, err
    feed = (out_dir / "calendar.ics").read_text()
    assert "UID:one@talks.example.org" in feed
    assert "URL:https://talks.example.org/sub/one/" in feed


def test_a_failed_build_keeps_the_previous_output(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One")})
    assert run_cli("build", "-s", str(site), "--now", NOW_ARG)[0] == 0
    before = {p: p.read_bytes() for p in (site / "public").rglob("*") if p.is_file()}
    (site / "talks/two.md").write_text('+++\ntitle = "Broken\n+++\n')
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW_ARG)
    assert code == 1
    assert "talks/two.md:2" in err and "nothing was written" in err
    after = {p: p.read_bytes() for p in (site / "public").rglob("*") if p.is_file()}
    assert after == before


def test_pages_of_deleted_talks_are_gone_after_the_next_build(make_site: MakeSite,
                                                              run_cli) -> None:
    site = make_site({"talks/one.md": talk("One"), "talks/two.md": talk("Two")})
    run_cli("build", "-s", str(site), "--now", NOW_ARG)
    (site / "talks/two.md").unlink()
    assert run_cli("build", "-s", str(site), "--now", NOW_ARG)[0] == 0
    assert not (site / "public/two").exists()
    assert (site / "public/one/index.html").exists()


def test_refuses_to_replace_a_folder_it_did_not_create(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One"), "public/precious.txt": "keep me"})
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW_ARG)
    assert code == 1
    assert "did not create" in err
    assert (site / "public/precious.txt").read_text() == "keep me"


@pytest.mark.parametrize("target", [".", "talks"])
def test_refuses_the_site_or_talks_folder_as_output(make_site: MakeSite, run_cli,
                                                    target: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / target))
    assert code == 1
    assert "refusing" in err
    assert (site / "talks/one.md").exists()


def test_drafts_and_future_flags(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/draft.md": talk("Draft", extra="draft = true"),
                      "talks/later.md": talk("Later", extra="publishDate = 2099-01-01"),
                      "talks/now.md": talk("Now", "2099-05-01")})
    run_cli("build", "-s", str(site), "--now", NOW_ARG)
    site_folders = {"assets", "tags", "speakers", "years", "embed"}
    assert sorted(p.name for p in (site / "public").iterdir()
                  if p.is_dir() and p.name not in site_folders) == ["now"]
    run_cli("build", "-s", str(site), "--now", NOW_ARG, "--drafts", "--future")
    assert {"draft", "later", "now"} <= {p.name for p in (site / "public").iterdir()}


def test_same_input_and_now_give_identical_bytes(make_site: MakeSite, run_cli,
                                                 tmp_path: Path) -> None:
    site = make_site({"talks/one.md": talk("One"), "talks/two.md": talk("Two", "2030-01-01")})
    for out in ("a", "b"):
        run_cli("build", "-s", str(site), "-o", str(tmp_path / out), "--now", NOW_ARG)
    files_a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*")
               if p.is_file()}
    files_b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*")
               if p.is_file()}
    assert files_a == files_b


def test_source_date_epoch_fixes_now(make_site: MakeSite, run_cli,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({"talks/one.md": talk("One")})
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    run_cli("build", "-s", str(site))
    assert "DTSTAMP:20231114T221320Z" in (site / "public/calendar.ics").read_text()


def test_check_writes_nothing_and_reports_all_problems(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": "+++\ndate = 2019-01-01\n+++\n",
                      "talks/b.md": talk("B", extra='timezone = "Nowhere/City"'),
                      "talks/c.md": talk("C")})
    code, out, err = run_cli("check", "-s", str(site))
    assert code == 1
    assert "a.md:1:1: error: the talk has no title" in err
    assert "b.md:4:1: error: unknown time zone 'Nowhere/City'" in err
    assert "2 errors" in err
    assert not (site / "public").exists()


def test_check_passes_on_the_example_site(run_cli) -> None:
    code, out, err = run_cli("check", "-s", str(ROOT))
    assert code == 0, err
    assert "18 talks checked: no errors" in out


def test_help_and_version(run_cli) -> None:
    from talkpages import __version__

    assert run_cli("--version")[1].strip() == f"talkpages {__version__}"
    for command in ("build", "check"):
        code, out, _ = run_cli(command, "--help")
        assert code == 0 and "--source" in out
    code, out, _ = run_cli("build", "--help")
    assert all(flag in out for flag in ("--output", "--base-url", "--drafts", "--future", "--now"))


def test_bad_now_is_a_usage_error(run_cli) -> None:
    code, _, err = run_cli("build", "--now", "yesterday")
    assert code == 2 and "not an ISO date-time" in err


def test_missing_site_folder(run_cli, tmp_path: Path) -> None:
    code, _, err = run_cli("check", "-s", str(tmp_path / "nope"))
    assert code == 1 and "does not exist" in err and "Traceback" not in err


def test_python_dash_m_and_console_script(make_site: MakeSite, tmp_path: Path) -> None:
    import subprocess
    import sys

    site = make_site({"talks/one.md": talk("One")})
    done = subprocess.run([sys.executable, "-m", "talkpages", "check", "-s", str(site)],
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    assert "1 talks checked" in done.stdout or "1 talk" in done.stdout
