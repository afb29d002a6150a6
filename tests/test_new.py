"""`talkpages new`: slugs, the file it writes, prompts, and the new -> build round trip."""

from __future__ import annotations

import io
from datetime import date, datetime, time
from pathlib import Path

import pytest

from talkpages.commands import scaffold
from talkpages.commands.scaffold import NewTalk, ascii_slug, slug_for
from talkpages.content.config import Config

from conftest import NOW, MakeSite, talk

NOW_ARG = NOW.isoformat()


@pytest.mark.parametrize(("title", "slug"), [
    ("Intro: Kubernetes Batch Scheduling", "intro-kubernetes-batch-scheduling"),
    ("Déjà vu à Zürich", "deja-vu-a-zurich"),
    ("Straße, Ærø & Łódź", "strasse-aero-and-lodz"),
    ("Привет, мир", "privet-mir"),
    ("Αθήνα", "athina"),
    ("ＦＵＬＬ width", "full-width"),
    ("Volcano 在 Kubernetes 中运行高性能作业实践", "volcano-kubernetes"),
    ("  --Spaces & dashes--  ", "spaces-and-dashes"),
])
def test_slug_is_ascii_transliteration(title: str, slug: str) -> None:
    assert slug_for(title, date(2019, 5, 22)) == slug


@pytest.mark.parametrize("title", ["华为云原生之路：开源加速", "東京での講演", "!!!", ""])
def test_slug_of_a_title_without_ascii_falls_back_to_the_date(title: str) -> None:
    assert slug_for(title, datetime(2019, 5, 22, 14, 50)) == "talk-2019-05-22"


def test_slug_is_short_and_never_reserved() -> None:
    long = ascii_slug("word " * 40)
    assert 0 < len(long) <= scaffold.MAX_SLUG and not long.endswith("-")
    assert slug_for("Assets", None) == "assets-talk"
    assert slug_for("日本", None) == "talk"


def test_transliteration_tables_are_whole() -> None:
    # zip(strict=True) at import would have raised; each letter has a spelling
    assert all(scaffold._GREEK.values()) and len(scaffold._CYRILLIC) == 37


def test_new_writes_toml_that_loads_with_every_field(make_site: MakeSite, run_cli) -> None:
    site = make_site({})
    code, out, err = run_cli(
        "new", "Intro: Kubernetes \"Batch\" Scheduling", "-s", str(site),
        "--date", "2019-05-22T14:50", "--end", "15:25", "--timezone", "Europe/Madrid",
        "--event", "KubeCon Europe", "--location", "Barcelona, Spain",
        "--author", "Klaus Ma", "--author", "Kevin Wang")
    assert code == 0, err
    path = site / "talks/intro-kubernetes-batch-scheduling.md"
    assert f"Created {path}" in out or "Created talks/" in out
    text = path.read_text()
    assert text.startswith("+++\ntitle = \"Intro: Kubernetes \\\"Batch\\\" Scheduling\"\n")
    assert "date = 2019-05-22T14:50:00\n" in text
    assert "date_end = 2019-05-22T15:25:00\n" in text
    assert 'timezone = "Europe/Madrid"' in text
    assert "## Outline" in text

    from talkpages.content.loader import load_talk
    loaded, problems = load_talk(path, "intro-kubernetes-batch-scheduling", Config())
    assert loaded is not None and not [p for p in problems if p.is_error]
    assert loaded.title == 'Intro: Kubernetes "Batch" Scheduling'
    assert loaded.schedule.zone == "Europe/Madrid"
    assert loaded.schedule.start.isoformat() == "2019-05-22T14:50:00+02:00"
    assert loaded.schedule.end.isoformat() == "2019-05-22T15:25:00+02:00"
    assert loaded.authors == ("Klaus Ma", "Kevin Wang")
    assert (loaded.event, loaded.location) == ("KubeCon Europe", "Barcelona, Spain")


def test_new_then_build_round_trip(make_site: MakeSite, run_cli) -> None:
    site = make_site({})
    assert run_cli("new", "Plain talk", "-s", str(site), "--date", "2019-05-22T14:50")[0] == 0
    assert run_cli("new", "华为云原生之路", "-s", str(site), "--date", "2019-10-26",
                   "--bundle")[0] == 0
    (site / "talks/talk-2019-10-26/slides.pdf").write_bytes(b"%PDF-1.4")
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW_ARG)
    assert code == 0 and "Built 0 talks" in out, err  # drafts until their authors say
    for path in (site / "talks/plain-talk.md", site / "talks/talk-2019-10-26/index.md"):
        path.write_text(path.read_text().replace("draft = true\n", ""))
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW_ARG)
    assert code == 0, err
    assert "Built 2 talks" in out
    public = site / "public"
    assert "Plain talk" in (public / "plain-talk/index.html").read_text()
    assert "华为云原生之路" in (public / "talk-2019-10-26/index.html").read_text()
    assert (public / "talk-2019-10-26/slides.pdf").is_file()
    assert "SUMMARY:Plain talk" in (public / "calendar.ics").read_text()


def test_new_writes_a_draft_and_check_names_its_placeholder_text(make_site: MakeSite,
                                                                  run_cli) -> None:
    site = make_site({"talkpages.toml": 'language = "de"\n'})
    assert run_cli("new", "Vortrag", "-s", str(site), "--date", "2019-05-22T14:50")[0] == 0
    text = (site / "talks/vortrag.md").read_text()
    assert "draft = true" in text
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW_ARG, "--drafts")
    assert code == 0
    lines = text.split("\n")
    said = [line for line in err.splitlines() if "placeholder text" in line]
    assert len(said) == 5, err
    first = lines.index("1. Das Problem") + 1  # in the site's language, at its line
    assert any(f"vortrag.md:{first}:" in line for line in said), said
    assert all("talks/vortrag.md:" in line for line in said)


def test_new_never_overwrites_and_names_the_file(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/my-talk.md": talk("Mine", extra='slug = "taken"')})
    before = (site / "talks/my-talk.md").read_bytes()
    code, _, err = run_cli("new", "My talk", "-s", str(site), "--date", "2020-01-01")
    assert code == 1
    assert "talks/my-talk.md" in err and "--slug" in err
    code, _, err = run_cli("new", "Taken", "-s", str(site), "--date", "2020-01-01")
    assert code == 1 and "talks/my-talk.md" in err  # its own `slug` key has it
    code, _, err = run_cli("new", "My talk", "-s", str(site), "--date", "2020-01-01",
                           "--bundle")
    assert code == 1 and "exists already" in err
    assert (site / "talks/my-talk.md").read_bytes() == before
    assert not (site / "talks/my-talk").exists()


def test_new_refuses_what_would_not_build(make_site: MakeSite, run_cli) -> None:
    site = make_site({})
    code, _, err = run_cli("new", "Gap", "-s", str(site), "--date", "2019-03-31T02:30",
                           "--timezone", "Europe/Madrid")
    assert code == 1
    assert "does not exist in Europe/Madrid" in err and "2019-03-31T03:30:00" in err
    code, _, err = run_cli("new", "Backwards", "-s", str(site), "--date", "2019-05-22T14:50",
                           "--end", "13:00")
    assert code == 1 and "is before" in err
    code, _, err = run_cli("new", "Day", "-s", str(site), "--date", "2019-05-22",
                           "--end", "15:00")
    assert code == 1 and "needs a start time" in err
    assert list((site / "talks").iterdir()) == []


@pytest.mark.parametrize("slug", ["../../x", "../x", "a/b", "..", "ABSOLUTE", "tags",
                                  "Calendar.ics", "s" * 252, ".hidden", ""])
def test_new_slug_outside_talks_is_refused(tmp_path: Path, run_cli, slug: str) -> None:
    site = tmp_path / "one/two/site"
    (site / "talks").mkdir(parents=True)
    slug = slug.replace("ABSOLUTE", str(tmp_path / "absolute"))
    code, _, err = run_cli("new", "T", "-s", str(site), "--date", "2019-05-22", "--slug", slug)
    assert code == 2 and "--slug" in err and "slug" in err.split("--slug", 1)[1]
    for bundle in (False, True):  # called without the command line, it refuses too
        with pytest.raises(scaffold.NewTalkError):
            scaffold.create(site, NewTalk("T", date(2019, 5, 22), slug=slug or "/",
                                          bundle=bundle), Config())
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_new_slug_outside_talks_is_refused_but_any_usable_slug_is_taken(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({})
    code, _, err = run_cli("new", "T", "-s", str(site), "--date", "2019-05-22",
                           "--slug", "云原生-2019.v2")
    assert code == 0, err
    assert (site / "talks/云原生-2019.v2.md").is_file()


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--timezone", "Europe/Madird", "did you mean 'Europe/Madrid'"),
    ("--date", "22/05/2019", "is not a date"),
    ("--date", "14:50", "has no day"),
])
def test_bad_values_are_usage_errors(make_site: MakeSite, run_cli, flag: str, value: str,
                                     message: str) -> None:
    site = make_site({})
    code, _, err = run_cli("new", "T", "-s", str(site), flag, value)
    assert code == 2 and message in err


def test_without_a_terminal_a_title_is_required(make_site: MakeSite, run_cli) -> None:
    code, _, err = run_cli("new", "-s", str(make_site({})))
    assert code == 2 and "a title is needed" in err


def test_without_a_date_the_talk_is_today(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talkpages.toml": 'timezone = "Asia/Tokyo"\nauthor = "Ada"\n'})
    code, out, _ = run_cli("new", "Soon", "-s", str(site))
    assert code == 0 and "today" in out
    text = (site / "talks/soon.md").read_text()
    assert "date = 20" in text and 'authors = [\n    "Ada",\n]' in text


def test_prompts_ask_for_missing_fields_and_retry_bad_answers(
        make_site: MakeSite, run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({})
    answers = iter(["", "My prompted talk", "yesterday", "2019-05-22T14:50", "15:25",
                    "Europe/Madird", "Europe/Madrid", "KubeCon", ""])
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    monkeypatch.setattr(scaffold, "interactive", lambda: True)
    monkeypatch.setattr("builtins.input", ask)
    code, out, err = run_cli("new", "-s", str(site))
    assert code == 0, err
    assert asked[0].startswith("Title") and asked[1].startswith("Title")  # empty: again
    assert "a value is needed" in out and "is not a date" in out
    assert "did you mean 'Europe/Madrid'" in out
    text = (site / "talks/my-prompted-talk.md").read_text()
    assert 'timezone = "Europe/Madrid"' in text and "date_end = 2019-05-22T15:25:00" in text
    assert 'event = "KubeCon"' in text and 'location = ""' in text


def test_prompts_end_cleanly_on_end_of_input(make_site: MakeSite, run_cli,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def ask(question: str) -> str:
        raise EOFError

    monkeypatch.setattr(scaffold, "interactive", lambda: True)
    monkeypatch.setattr("builtins.input", ask)
    site = make_site({})
    code, _, err = run_cli("new", "-s", str(site))
    assert code == 1 and "nothing was written" in err
    assert list((site / "talks").iterdir()) == []


def test_no_prompts_when_the_flags_give_title_and_date(monkeypatch: pytest.MonkeyPatch,
                                                       make_site: MakeSite, run_cli) -> None:
    monkeypatch.setattr(scaffold, "interactive", lambda: True)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    site = make_site({})
    assert run_cli("new", "Given", "-s", str(site), "--date", "2020-02-02")[0] == 0


def test_front_matter_of_an_end_time_with_an_offset_start() -> None:
    start = scaffold.parse_start("2019-05-22T14:50:00+02:00")
    data = NewTalk("T", start, time(15, 25)).front_matter()
    assert data["date_end"].isoformat() == "2019-05-22T15:25:00+02:00"
    assert scaffold.toml({"date": start}) == "date = 2019-05-22T14:50:00+02:00\n"


def test_interactive_is_false_without_a_terminal(tmp_path: Path) -> None:
    assert scaffold.interactive() is False  # pytest captures stdin


def test_new_refuses_a_talks_folder_that_is_a_link_out_of_the_site(tmp_path: Path,
                                                                   run_cli) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    site.mkdir()
    (site / "talks").symlink_to(outside)
    for bundle in ([], ["--bundle"]):
        code, _, err = run_cli("new", "My talk", "-s", str(site), "--date", "2020-01-01",
                               *bundle)
        assert code == 1, err
        assert "talks" in err and "link" in err and "internal error" not in err
    assert list(outside.iterdir()) == []


def test_new_refuses_a_bundle_folder_that_is_a_link(tmp_path: Path, run_cli) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    (site / "talks" / "my-talk").symlink_to(outside / "made")  # to nothing yet
    code, _, err = run_cli("new", "My talk", "-s", str(site), "--date", "2020-01-01",
                           "--bundle")
    assert code == 1, err
    assert "talks/my-talk" in err and "internal error" not in err
    assert list(outside.iterdir()) == []


def test_new_never_writes_through_a_link_at_the_new_files_name(tmp_path: Path,
                                                               run_cli) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    (site / "talks" / "my-talk.md").symlink_to(outside / "made.md")  # to nothing yet
    code, _, err = run_cli("new", "My talk", "-s", str(site), "--date", "2020-01-01")
    assert code == 1, err
    assert "talks/my-talk.md" in err and "internal error" not in err
    assert list(outside.iterdir()) == []
