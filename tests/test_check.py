"""`talkpages check`: warnings a careful editor wants, --strict, grouping, --format json."""

from __future__ import annotations

import json
import time

import pytest

from talkpages.content import embedcheck, fields, lint
from talkpages.content.lint import edit_distance, suggest

from conftest import NOW, ROOT, MakeSite, talk

NOW_ARG = NOW.isoformat()  # 2026-11-21: 2019 talks are past, 2030 ones upcoming
PAST = "2019-05-22T14:50:00"
FUTURE = "2030-05-22T14:50:00"
MEDIA = 'url_slides = "https://example.org/s.pdf"'
EVENT = 'event = "Conf"\nevent_url = "https://conf.example.org/"'


def check(run_cli, site, *flags: str) -> tuple[int, str, str]:
    """`check` of a site as it is to be published (a base_url of this machine is a
    warning of its own: test_check_formats.py)."""
    return run_cli("check", "-s", str(site), "--now", NOW_ARG,
                   "--base-url", "https://talks.example.org/", *flags)


def test_a_clean_site_has_no_warnings(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", PAST, MEDIA),
                      "talks/b.md": talk("B", FUTURE, EVENT)})
    code, out, err = check(run_cli, site, "--strict")
    assert (code, err) == (0, "")
    assert "2 talks checked: no errors" in out and "warning" not in out


@pytest.mark.parametrize(("key", "known"), [
    ("date_ned", "date_end"), ("tittle", "title"), ("time_zone", "timezone"),
    ("Authors_", "authors"), ("tag", "tags"), ("url_slide", "url_slides"),
    ("evnet_url", "event_url"), ("author", "authors")])
def test_typo_of_a_known_key_is_a_warning_at_its_line(make_site: MakeSite, run_cli,
                                                      key: str, known: str) -> None:
    site = make_site({"talks/a.md": talk("A", PAST, f'{MEDIA}\n{key} = "x"')})
    code, _, err = check(run_cli, site)
    assert code == 0
    assert f"talks/a.md:5:1: warning: unknown key `{key}`: did you mean `{known}`?" in err


@pytest.mark.parametrize("key", ["header", "weight", "publication_types", "slides",
                                 "abstract_short", "location_url", "projects_extra", "images",
                                 "doi", "time_img"])
def test_keys_that_are_not_near_misses_are_not_reported(key: str) -> None:
    assert suggest(key, lint.known_keys()) is None


def test_typo_suggestions_follow_the_known_keys_of_the_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert suggest("sequnce", lint.known_keys()) in (None, "sequence")
    monkeypatch.setattr(fields, "KNOWN_KEYS", fields.KNOWN_KEYS | {"livestream"})
    assert suggest("livestrem", lint.known_keys()) == "livestream"


@pytest.mark.parametrize(("a", "b", "distance"), [
    ("date_ned", "date_end", 1), ("abc", "abc", 0), ("ab", "ba", 1), ("", "abc", 3),
    ("kitten", "sitting", 3)])
def test_edit_distance_counts_a_swap_as_one(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance


def test_past_talk_without_slides_or_video(make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/bare.md": talk("Bare", PAST),
        "talks/slides.md": talk("Slides", PAST, MEDIA),
        "talks/video.md": talk("Video", PAST, 'url_video = "https://youtu.be/x"'),
        "talks/custom.md": talk("Custom", PAST, '[[links]]\nname = "Recording"\n'
                                'url = "https://example.org/r"'),
        "talks/in-text.md": talk("In text", PAST, body="Download the [slides here]"
                                 "(https://example.org/files/talk.pdf)."),
        "talks/bare-link.md": talk("Bare link", PAST,
                                   body="Watch: https://www.youtube.com/watch?v=x"),
        "talks/other-link.md": talk("Other link", PAST,
                                    body="See [the paper](https://example.org/paper)."),
    })
    code, _, err = check(run_cli, site)
    assert code == 0
    assert "talks/bare.md:3:1: warning: past talk with no slides or video" in err
    assert "talks/other-link.md:3:1: warning: past talk with no slides or video" in err
    assert err.count("past talk with no slides or video") == 2  # the text's links count


def test_upcoming_talk_without_an_event_link(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/soon.md": talk("Soon", FUTURE, 'event = "Conf"'),
                      "talks/linked.md": talk("Linked", FUTURE, EVENT)})
    code, _, err = check(run_cli, site)
    assert "talks/soon.md:4:1: warning: upcoming talk with no link to its event" in err
    assert "linked.md" not in err


def test_location_without_timezone_on_a_multi_zone_site(make_site: MakeSite, run_cli) -> None:
    files = {"talks/madrid.md": talk("Madrid", PAST, f'{MEDIA}\ntimezone = "Europe/Madrid"\n'
                                     'location = "Madrid"'),
             "talks/nowhere.md": talk("Nowhere", PAST, f'{MEDIA}\nlocation = "Barcelona"')}
    site = make_site(files)
    code, _, err = check(run_cli, site)
    assert ("talks/nowhere.md:5:1: warning: `location` without `timezone` on a site with "
            "talks in 2 zones (Europe/Madrid, UTC)") in err
    assert "madrid.md" not in err


def test_one_zone_site_needs_no_timezones(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", PAST, f'{MEDIA}\nlocation = "Paris"'),
                      "talks/b.md": talk("B", PAST, f'{MEDIA}\nlocation = "Lyon"')})
    assert check(run_cli, site)[2] == ""


def test_relative_link_to_a_missing_bundle_file(make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/bundle/index.md": talk("Bundle", PAST, 'url_slides = "slides.pdf"\n'
                                      'url_pdf = "./paper%20v2.pdf"\nurl_code = "code.zip"'),
        "talks/bundle/code.zip": b"PK",
        "talks/bundle/paper v2.pdf": b"%PDF",
        "talks/flat.md": talk("Flat", PAST, 'url_slides = "slides.pdf"'),
        "talks/absolute.md": talk("Absolute", PAST, 'url_slides = "/files/s.pdf"'),
    })
    code, _, err = check(run_cli, site)
    assert ("talks/bundle/index.md:4:1: warning: `url_slides` points at `slides.pdf`, which "
            "is not in the talk's folder") in err
    assert ("talks/flat.md:4:1: warning: `url_slides` is a relative link (`slides.pdf`), but "
            "the talk is a single file") in err
    assert "url_pdf" not in err and "url_code" not in err and "absolute.md" not in err


def test_messages_are_grouped_by_file(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", PAST, 'tittle = "x"'),
                      "talks/b.md": talk("B", PAST, 'tittle = "x"')})
    _, _, err = check(run_cli, site)
    blocks = err.strip().split("\n\n")
    assert len(blocks) == 2
    for block, name in zip(blocks, ("a.md", "b.md"), strict=True):
        lines = block.splitlines()
        assert len(lines) == 4  # two warnings, each with its hint
        assert all(line.startswith((str(site / "talks" / name), "  hint")) for line in lines)


def test_strict_fails_on_warnings(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", PAST)})
    assert check(run_cli, site)[0] == 0
    code, _, err = check(run_cli, site, "--strict")
    assert code == 1 and "--strict fails on warnings" in err


def test_json_format(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", PAST, 'date_ned = 2019-05-22T15:00:00'),
                      "talks/b.md": talk("B", PAST, MEDIA)})
    code, out, err = check(run_cli, site, "--format", "json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert (report["ok"], report["talks"], report["errors"], report["warnings"]) == \
        (True, 2, 0, 2)
    (entry,) = report["files"]
    assert entry["path"].endswith("talks/a.md") and entry["warnings"] == 2
    messages = {d["message"]: d for d in entry["diagnostics"]}
    typo = messages["unknown key `date_ned`: did you mean `date_end`?"]
    assert (typo["line"], typo["severity"]) == (4, "warning")
    code, out, _ = check(run_cli, site, "--format", "json", "--strict")
    assert code == 1 and json.loads(out)["ok"] is False


def test_json_format_with_errors(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": "+++\ndate = 2019-01-01\n+++\n"})
    code, out, err = check(run_cli, site, "--format", "json")
    report = json.loads(out)
    assert code == 1 and err == "" and report["errors"] == 1
    assert report["files"][0]["diagnostics"][0]["message"] == "the talk has no title"


def test_example_site_checks_without_errors(run_cli) -> None:
    code, out, err = run_cli("check", "-s", str(ROOT), "--now", NOW_ARG)
    assert code == 0, err
    assert "18 talks checked: no errors" in out


def test_raw_html_in_a_body_of_backtick_runs_is_found_in_linear_time() -> None:
    # runs of 1 to 119 backticks, none closed: 55 s for `check` with a regular
    # expression that looked for each run's closer at every character after it
    body = " ".join("`" * n for n in range(1, 120)) + "\n<iframe src=x>\n"
    start = time.perf_counter()
    # each run of the second body closes the run of its length in the first: the
    # first two <iframe>s are code, the third, on line 5, is not
    assert embedcheck.raw_html(body * 3) == (["<iframe>"], 5)
    assert time.perf_counter() - start < 2
    fence = "```" + "`" * 100_000  # one line, no newline after it: not a fence
    start = time.perf_counter()
    assert embedcheck.raw_html(fence + "<b>") == (["<b>"], 0)
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("text, found", [
    ("`<b>` <i>", (["<i>"], 0)),
    ("`` <b> ` ``\n<i>", (["<i>"], 1)),
    ("``<b>`", (["<b>"], 0)),
    ("\\`<b>`", (["<b>"], 0)),
    ("`<b>\n\n` <i>", (["<b>", "<i>"], 0)),
    ("```\n<b>\n```\n<i>\n", (["<i>"], 3)),
    ("  ~~~~ py\n<b>\n~~~\n~~~~  \n\n<i>", (["<i>"], 5)),  # a shorter fence closes none
    ("```\n<b>\n", ([], 0)),  # open to the end
    ("    ```\n<b>\n```\n", (["<b>"], 1)),  # four spaces: no fence
])
def test_raw_html_outside_code_spans_and_fences(text: str, found: tuple[list[str], int]) -> None:
    assert embedcheck.raw_html(text) == found


def test_looking_for_slides_in_a_talk_s_text_takes_linear_time() -> None:
    """A text of a million `[` (or of long link texts) is read at once: no link text
    holds a `[`, so each one fails where it starts."""
    import time

    from talkpages.content.lint import _body_media

    started = time.process_time()
    for body in ("[" * 1_000_000, ("[" + "x" * 299) * 3000, "[a](" * 200_000):
        assert not _body_media(body)
    assert time.process_time() - started < 2


def test_a_warning_said_of_many_files_alike_is_shown_for_a_few_then_counted(
        make_site: MakeSite, run_cli) -> None:
    """44 imported talks "with no slides or video" read as three warnings and one line
    with the count and the other files; errors are never folded."""
    site = make_site({f"talks/t{n:02d}.md": talk(f"T{n}", PAST) for n in range(8)})
    code, _, err = check(run_cli, site)
    assert code == 0
    err = err.replace(f"{site}/", "")  # the places as the site names them
    lines = [line for line in err.splitlines() if "no slides or video" in line]
    assert len(lines) == 4, err
    assert lines[0].startswith("talks/t00.md:3:1: warning: past talk with no slides")
    assert lines[3] == ("5 more files: warning: past talk with no slides or video "
                        "(talks/t03.md, talks/t04.md, talks/t05.md, talks/t06.md, "
                        "talks/t07.md)")
    strict, _, _ = check(run_cli, site, "--strict")
    assert strict == 1  # every warning still counts
