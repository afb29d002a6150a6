"""`talkpages announce`: the e-mail that announces a talk, printed and written as a whole
message (.eml) whose parts and calendar file mail and calendar clients read; the week's
digest; a site's own templates for them, in the sandbox and budget of every site
template."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Callable
from pathlib import Path

import pytest

import feedclients
from talkpages.output import budget

from conftest import MakeSite, require_tool, talk

RunCli = Callable[..., tuple[int, str, str]]
CONFIG = ('title = "Seminar"\nbase_url = "https://talks.example.org/"\n'
          'timezone = "Europe/Madrid"\n')
ABSTRACT = 'abstract = "Batch jobs on **Kubernetes**, [the slides](https://example.org/s)."'
NOW = "2030-05-01T00:00:00Z"


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({
        "talkpages.toml": CONFIG,
        "talks/batch.md": talk("Batch scheduling", "2030-05-22T14:50:00", f'''
            date_end = 2030-05-22T15:25:00
            authors = ["Kevin Wang", "Ana Silva"]
            location = "Room 101"
            event = "KubeCon"
            {ABSTRACT}'''),
        "talks/gone.md": talk("Gone talk", "2030-05-23T10:00:00", 'status = "cancelled"'),
    })


def announce(run_cli: RunCli, site: Path, *args: str) -> tuple[int, str, str]:
    return run_cli("announce", "-s", str(site), "--now", NOW, *args)


def test_the_text_is_the_subject_then_the_talk(run_cli: RunCli, site: Path) -> None:
    code, out, err = announce(run_cli, site, "batch")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Batch scheduling · May 22, 2030"
    assert lines[1] == ""
    assert "Speakers: Kevin Wang, Ana Silva" in lines
    # the date, time and zone in the words of the talk's page (formatting.py)
    assert "When: Wed, May 22, 2030, 2:50\u2009–\u20093:25\u202fPM" in out
    assert "Where: Room 101" in lines
    assert "Batch jobs on Kubernetes, the slides <https://example.org/s>." in lines
    assert "https://talks.example.org/batch/" in lines
    assert "Add to calendar (.ics): https://talks.example.org/batch/batch.ics" in lines


def test_a_cancelled_talk_is_announced_as_cancelled(run_cli: RunCli, site: Path,
                                                    tmp_path: Path) -> None:
    code, out, _ = announce(run_cli, site, "gone", "--eml", str(tmp_path / "gone.eml"))
    assert code == 0
    assert out.startswith("Cancelled: Gone talk")
    assert "This talk is cancelled." in out
    message = email.message_from_bytes((tmp_path / "gone.eml").read_bytes(),
                                       policy=email.policy.default)
    calendar = next(message.iter_attachments()).get_content()
    assert "STATUS:CANCELLED" in calendar


def test_the_eml_has_both_parts_and_the_talk_s_calendar_file(run_cli: RunCli, site: Path,
                                                             tmp_path: Path) -> None:
    import icalendar

    target = tmp_path / "out" / "batch.eml"
    code, out, err = announce(run_cli, site, "batch", "--eml", str(target),
                              "--html", str(tmp_path / "batch.html"))
    assert code == 0, err
    message = email.message_from_bytes(target.read_bytes(), policy=email.policy.default)
    assert message["Subject"] == "Batch scheduling · May 22, 2030"
    assert message["From"] is None and message["To"] is None  # left for the mail client
    assert message["X-Unsent"] == "1"  # which opens it as a draft
    assert message.get_content_type() == "multipart/mixed"
    text = message.get_body(("plain",))
    page = message.get_body(("html",))
    assert text is not None and page is not None
    # lines end in CRLF, as RFC 5322 has them
    assert text.get_content().replace("\r\n", "\n") == out
    assert page.get_content().replace("\r\n", "\n") == \
        (tmp_path / "batch.html").read_text(encoding="utf-8")
    assert '<a href="https://talks.example.org/batch/">Batch scheduling</a>' in \
        page.get_content()
    assert "<strong>Kubernetes</strong>" in page.get_content()
    attachments = list(message.iter_attachments())
    assert len(attachments) == 1
    ics = attachments[0]
    assert ics.get_content_type() == "text/calendar"
    assert ics.get_param("method") == "PUBLISH"
    assert ics.get_filename() == "batch.ics"
    data = ics.get_payload(decode=True)
    built = (site / "public").exists()
    assert not built  # nothing of the site was written
    calendar = icalendar.Calendar.from_ical(data)
    events = list(calendar.walk("VEVENT"))
    assert len(events) == 1
    assert str(events[0]["SUMMARY"]) == "Batch scheduling"
    assert events[0].decoded("DTSTART").isoformat() == "2030-05-22T14:50:00+02:00"


@pytest.mark.parametrize("name", list(feedclients.IMPLEMENTATIONS))
def test_each_calendar_client_reads_the_attached_file(name: str, run_cli: RunCli,
                                                      site: Path, tmp_path: Path) -> None:
    missing = feedclients.available()
    require_tool(missing[name] is None, f"{name}: {missing[name]}")
    announce(run_cli, site, "batch", "--eml", str(tmp_path / "batch.eml"))
    message = email.message_from_bytes((tmp_path / "batch.eml").read_bytes(),
                                       policy=email.policy.default)
    feed = tmp_path / "batch.ics"
    feed.write_bytes(next(message.iter_attachments()).get_payload(decode=True))
    rows = feedclients.IMPLEMENTATIONS[name](feed, "2030-01-01", "2031-01-01")
    assert len(rows) == 1
    assert "|2030-05-22T12:50:00Z|2030-05-22T13:25:00Z|" in rows[0]
    assert rows[0].endswith("Batch scheduling")


def test_from_and_to_are_set_when_given(run_cli: RunCli, site: Path, tmp_path: Path) -> None:
    code, _, _ = announce(run_cli, site, "batch", "--eml", str(tmp_path / "a.eml"),
                          "--from", "Seminar <seminar@example.org>",
                          "--to", "list@example.org", "--to", "dept@example.org")
    assert code == 0
    message = email.message_from_bytes((tmp_path / "a.eml").read_bytes(),
                                       policy=email.policy.default)
    assert message["From"] == "Seminar <seminar@example.org>"
    assert message["To"] == "list@example.org, dept@example.org"


def test_a_file_is_never_written_over_unless_asked(run_cli: RunCli, site: Path,
                                                   tmp_path: Path) -> None:
    target = tmp_path / "batch.eml"
    target.write_text("mine")
    code, _, err = announce(run_cli, site, "batch", "--eml", str(target))
    assert code == 1
    assert "exists" in err and "--replace" in err
    assert target.read_text() == "mine"
    code, _, _ = announce(run_cli, site, "batch", "--eml", str(target), "--replace")
    assert code == 0
    assert target.read_bytes().startswith(b"Subject: ")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_link_where_the_file_goes_is_refused(run_cli: RunCli, site: Path,
                                               tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("keep")
    (tmp_path / "batch.eml").symlink_to(tmp_path / "elsewhere")
    code, _, err = announce(run_cli, site, "batch", "--eml", str(tmp_path / "batch.eml"))
    assert code == 1
    assert "link" in err
    assert (tmp_path / "elsewhere").read_text() == "keep"


def test_an_unknown_slug_names_the_nearest(run_cli: RunCli, site: Path) -> None:
    code, out, err = announce(run_cli, site, "bach")
    assert (code, out) == (1, "")
    assert "no talk has the slug 'bach'" in err
    assert "did you mean 'batch'?" in err


@pytest.mark.parametrize("args", [(), ("batch", "--week"), ("--week", "--post", "bluesky"),
                                  ("batch", "--post", "bluesky", "--eml", "x.eml"),
                                  ("batch", "--eml", "x.eml", "--to", "nobody"),
                                  ("batch", "--eml", "x.eml", "--from", "a@b.org\nBcc: c@d.org")])
def test_a_wrong_command_line_is_exit_2(run_cli: RunCli, site: Path,
                                        args: tuple[str, ...]) -> None:
    code, out, _ = announce(run_cli, site, *args)
    assert (code, out) == (2, "")


def test_a_site_with_errors_announces_nothing(run_cli: RunCli, make_site: MakeSite) -> None:
    site = make_site({"talks/bad.md": "+++\ntitle = \n+++\n"})
    code, out, _ = announce(run_cli, site, "bad")
    assert (code, out) == (1, "")


def test_the_site_s_own_template_wins(run_cli: RunCli, make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": CONFIG,
                      "talks/batch.md": talk("Batch & more", "2030-05-22T14:50:00"),
                      "layouts/announce/email.txt":
                          "Come along: {{ talk.title }}\n\n{{ talk.url }}\n"})
    code, out, err = announce(run_cli, site, "batch")
    assert code == 0, err
    assert out == "Come along: Batch & more\n\nhttps://talks.example.org/batch/\n"
    code, out, _ = announce(run_cli, site, "batch", "--post", "mastodon")
    assert out.startswith("Batch & more\n")  # the built-in one: no other was given


def test_a_german_site_says_it_in_german(run_cli: RunCli, make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": CONFIG + 'language = "de"\n',
                      "talks/batch.md": talk("Batch", "2030-05-22T14:50:00",
                                             'location = "Raum 101"')})
    code, out, _ = announce(run_cli, site, "batch")
    assert code == 0
    assert "Wann: Mi., 22. Mai 2030, 14:50–15:50 Uhr MESZ" in out
    assert "Wo: Raum 101" in out


@pytest.mark.parametrize(("template", "expected"), [
    ("{{ ''.__class__.__mro__ }}", "sandbox"),
    ("{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}",
     "more than 1 seconds"),
])
def test_a_hostile_template_is_stopped(run_cli: RunCli, make_site: MakeSite,
                                       monkeypatch: pytest.MonkeyPatch, template: str,
                                       expected: str) -> None:
    monkeypatch.setattr(budget, "SECONDS", 1.0)
    site = make_site({"talks/batch.md": talk("Batch", "2030-05-22T14:50:00"),
                      "layouts/announce/email.txt": "Subject\n\n" + template + "\n"})
    code, out, err = announce(run_cli, site, "batch")
    assert (code, out) == (1, "")
    assert "layouts/announce/email.txt:3" in err
    assert expected in err


def week_site(make_site: MakeSite) -> Path:
    """Talks around the change to summer time in Berlin (29 March 2030, 02:00) and back
    (27 October 2030, 03:00)."""
    def at(name: str, when: str) -> tuple[str, str]:
        return f"talks/{name}.md", talk(name, when, 'timezone = "Europe/Berlin"')
    return make_site(dict([
        ("talkpages.toml", 'title = "S"\ntimezone = "Europe/Berlin"\n'),
        at("before-now", "2030-03-25T00:15:00"), at("monday", "2030-03-25T10:00:00"),
        at("sunday-late", "2030-03-31T23:30:00"), at("next-monday", "2030-04-01T00:15:00"),
        at("autumn-sunday", "2030-10-27T23:30:00"), at("autumn-monday", "2030-10-28T00:15:00"),
    ]))


@pytest.mark.parametrize(("now", "expected"), [
    # Monday 25 March 00:30 CET: the week ends at Monday 1 April 00:00 CEST (22:00 UTC),
    # 167 hours later; 168 would take in the talk at 00:15 on the Monday after.
    ("2030-03-24T23:30:00Z", ["monday", "sunday-late"]),
    # Monday 21 October 00:30 CEST: the week ends at Monday 28 October 00:00 CET (23:00
    # UTC), 169 hours later; 168 would leave out the talk at 23:30 on the Sunday.
    ("2030-10-20T22:30:00Z", ["autumn-sunday"]),
])
def test_the_week_is_seven_days_of_the_site_s_calendar(run_cli: RunCli, make_site: MakeSite,
                                                       now: str, expected: list[str]) -> None:
    site = week_site(make_site)
    code, out, err = run_cli("announce", "-s", str(site), "--now", now, "--week")
    assert code == 0, err
    shown = [line.rstrip("/").rsplit("/", 1)[-1] for line in out.splitlines()
             if line.startswith("http")]
    assert shown == expected


def test_a_week_without_talks_says_so(run_cli: RunCli, make_site: MakeSite) -> None:
    site = week_site(make_site)
    code, out, _ = run_cli("announce", "-s", str(site), "--now", "2031-01-06T08:00:00Z",
                           "--week")
    assert code == 0
    assert out == ("Talks from Mon, Jan 6, 2031 to Sun, Jan 12, 2031\n\n"
                   "No talks in these seven days.\n")


def test_a_site_in_several_languages_announces_in_the_one_asked(
        run_cli: RunCli, make_site: MakeSite) -> None:
    site = make_site({
        "talkpages.toml": CONFIG + '[languages.en]\nweight = 1\n[languages.de]\nweight = 2\n',
        "talks/batch.md": talk("Batch", "2030-05-22T14:50:00"),
        "talks/batch.de.md": talk("Stapelverarbeitung", "2030-05-22T14:50:00")})
    code, out, _ = announce(run_cli, site, "batch")
    assert code == 0 and out.startswith("Batch · May 22, 2030\n")
    code, out, _ = announce(run_cli, site, "batch", "--language", "de")
    assert code == 0 and out.startswith("Stapelverarbeitung · 22. Mai 2030\n")
    assert "https://talks.example.org/de/batch/" in out
    code, out, err = announce(run_cli, site, "batch", "--language", "fr")
    assert (code, out) == (1, "")
    assert "its languages: en, de" in err


def test_the_html_parts_are_valid_html(run_cli: RunCli, site: Path, tmp_path: Path) -> None:
    from test_html_valid import require_vnu, vnu

    require_vnu()
    folder = tmp_path / "mail"
    for name, args in (("talk", ("batch",)), ("gone", ("gone",)), ("week", ("--week",))):
        code, _, err = run_cli("announce", "-s", str(site), "--now", "2030-05-20T00:00:00Z",
                               *args, "--html", str(folder / f"{name}.html"))
        assert code == 0, err
    checked = vnu(folder)
    assert checked.returncode == 0, checked.stderr


def test_a_series_is_in_the_week_at_each_of_its_dates(run_cli: RunCli,
                                                      make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": CONFIG,
                      "talks/daily.md": talk("Stand-up", "2030-05-20T09:00:00",
                                             'recurrence = "FREQ=DAILY;COUNT=10"')})
    code, out, _ = run_cli("announce", "-s", str(site), "--now", "2030-05-21T12:00:00Z",
                           "--week")
    assert code == 0
    days = [line for line in out.splitlines() if line.startswith(("Wed", "Thu", "Fri", "Sat",
                                                                  "Sun", "Mon", "Tue"))]
    # from Tuesday noon (Madrid) to Monday night: Wednesday 22 to Monday 27, and the
    # series' tenth date is Wednesday 29
    assert [day.split(",")[1].strip() for day in days] == [
        f"May {n}" for n in range(22, 28)]


def test_the_week_s_eml_has_both_parts_and_no_attachment(run_cli: RunCli, site: Path,
                                                          tmp_path: Path) -> None:
    code, out, _ = run_cli("announce", "-s", str(site), "--now", "2030-05-20T00:00:00Z",
                           "--week", "--eml", str(tmp_path / "week.eml"))
    assert code == 0
    message = email.message_from_bytes((tmp_path / "week.eml").read_bytes(),
                                       policy=email.policy.default)
    assert message["Subject"] == "Talks from Mon, May 20, 2030 to Sun, May 26, 2030"
    assert message.get_content_type() == "multipart/alternative"
    assert message.get_body(("plain",)).get_content().replace("\r\n", "\n") == out
    assert "Cancelled: Gone talk" in message.get_body(("html",)).get_content()
    assert list(message.iter_attachments()) == []


def test_an_online_talk_s_announcement_gives_its_join_link(
        make_site: MakeSite, run_cli: RunCli) -> None:
    site = make_site({"talks/online.md": talk(
        "Online", "2030-06-01T10:00:00",
        extra='join_url = "https://meet.example.org/room-7"\n')})
    code, out, err = announce(run_cli, site, "online")
    assert code == 0, err
    assert "https://meet.example.org/room-7" in out
