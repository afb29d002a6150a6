"""`talkpages next-change`: when the built site next changes by itself, and whether it
did since a time (content/changes.py), as serve's site in memory asks it too."""

from __future__ import annotations

from datetime import datetime, timezone

from talkpages.content import changes
from talkpages.content.loader import LoadOptions, load_site
from talkpages.engine import live

from conftest import MakeSite, talk

UTC = timezone.utc


def test_an_upcoming_talk_changes_the_site_when_it_starts(make_site: MakeSite,
                                                          run_cli) -> None:
    site = make_site({"talks/a.md": talk("Soon", "2030-05-22T14:50:00")})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2030-05-22T14:50:00Z\n")
    assert "talks/a.md" in err and "'Soon' starts" in err


def test_a_talk_under_way_changes_the_site_when_it_ends(make_site: MakeSite,
                                                        run_cli) -> None:
    site = make_site({"talks/a.md": talk("Now", "2030-05-22T14:50:00",
                                         "date_end = 2030-05-22T15:25:00")})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-05-22T15:00:00Z")
    assert (code, out) == (0, "2030-05-22T15:25:00Z\n")
    assert "'Now' ends" in err


def test_the_time_is_the_venue_s_in_utc(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Madrid", "2030-05-22T14:50:00",
                                         'timezone = "Europe/Madrid"')})
    code, out, _ = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2030-05-22T12:50:00Z\n")  # CEST is UTC+2


def test_a_publish_date_to_come_is_the_next_change(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Later", "2031-05-22T14:50:00",
                                         "publishDate = 2030-03-01T09:00:00Z")})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2030-03-01T09:00:00Z\n")
    assert "'Later' is published" in err


def test_with_future_a_publish_date_changes_nothing(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Later", "2031-05-22T14:50:00",
                                         "publishDate = 2030-03-01T09:00:00Z")})
    code, out, _ = run_cli("next-change", "-s", str(site), "--future",
                           "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2031-05-22T14:50:00Z\n")


def test_a_talk_not_yet_published_changes_nothing_before_it_is(make_site: MakeSite,
                                                               run_cli) -> None:
    """It starts before its page is published: only its publishing date counts."""
    site = make_site({"talks/a.md": talk("Late page", "2030-02-01T10:00:00",
                                         "publishDate = 2030-03-01T00:00:00Z")})
    code, out, _ = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2030-03-01T00:00:00Z\n")


def test_drafts_count_only_with_drafts(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Draft", "2030-05-22T14:50:00", "draft = true"),
                      "talks/b.md": talk("Past", "2019-05-22T14:50:00")})
    now = ("--now", "2030-01-01T00:00:00Z")
    assert run_cli("next-change", "-s", str(site), *now)[:2] == (0, "never\n")
    assert run_cli("next-change", "-s", str(site), "--drafts", *now)[:2] == (
        0, "2030-05-22T14:50:00Z\n")


def test_a_site_of_past_talks_never_changes(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Old", "2019-05-22T14:50:00")})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out, err) == (0, "never\n", "")


def test_a_recurring_talk_changes_the_site_at_each_date(make_site: MakeSite,
                                                        run_cli) -> None:
    site = make_site({"talks/a.md": talk("Weekly", "2030-01-07T18:00:00",
                                         'recurrence = "FREQ=WEEKLY;COUNT=3"')})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-01-08T00:00:00Z")
    assert (code, out) == (0, "2030-01-14T18:00:00Z\n")
    assert "(its date 2) starts" in err


def test_since_before_a_talk_ended_is_a_rebuild(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Ended", "2030-05-22T14:50:00",
                                         "date_end = 2030-05-22T15:25:00")})
    code, out, _ = run_cli("next-change", "-s", str(site), "--since", "2030-05-22T15:00:00Z",
                           "--now", "2030-05-23T04:00:00Z")
    assert code == 0
    assert "changed by itself since 2030-05-22T15:00:00Z" in out
    assert "2030-05-22T15:25:00Z  talks/a.md: 'Ended' ends" in out


def test_since_after_the_talk_ended_is_no_rebuild(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("Ended", "2030-05-22T14:50:00",
                                         "date_end = 2030-05-22T15:25:00"),
                      "talks/b.md": talk("Next", "2030-06-01T10:00:00")})
    code, out, _ = run_cli("next-change", "-s", str(site), "--since", "2030-05-22T15:25:00Z",
                           "--now", "2030-05-23T04:00:00Z")
    assert code == 1
    assert "No change since 2030-05-22T15:25:00Z" in out
    assert "Next change: 2030-06-01T10:00:00Z, talks/b.md: 'Next' starts" in out


def test_since_takes_a_feed_s_dtstamp(make_site: MakeSite, run_cli) -> None:
    """The published feed's DTSTAMP is the time of the build that made it."""
    site = make_site({"talks/a.md": talk("Ended", "2030-05-22T14:50:00")})
    code, out, _ = run_cli("next-change", "-s", str(site), "--since", "20300522T150000Z",
                           "--now", "2030-05-23T04:00:00Z")
    assert code == 0 and "'Ended' ends" in out


def test_since_after_now_is_a_usage_error(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk()})
    code, _, err = run_cli("next-change", "-s", str(site), "--since", "2030-01-02T00:00:00Z",
                           "--now", "2030-01-01T00:00:00Z")
    assert code == 2 and "is after the build time" in err
    code, _, err = run_cli("next-change", "-s", str(site), "--since", "yesterday")
    assert code == 2 and "--since" in err


def test_a_site_with_errors_is_not_an_answer(make_site: MakeSite, run_cli) -> None:
    """With --since, 1 means "no change": a site that cannot be built is 2 there."""
    site = make_site({"talks/a.md": '+++\ntitle = "x"\n+++\n'})  # no date
    assert run_cli("next-change", "-s", str(site))[0] == 1
    code, out, err = run_cli("next-change", "-s", str(site), "--since", "2019-01-01T00:00:00Z")
    assert code == 2 and out == "" and "talks/a.md" in err


def test_a_talk_to_come_with_errors_leaves_the_rest_counted(make_site: MakeSite,
                                                            run_cli) -> None:
    site = make_site({"talks/a.md": talk("Soon", "2030-05-22T14:50:00"),
                      "talks/b.md": talk("Same slug", "2031-01-01T10:00:00",
                                         'slug = "a"\npublishDate = 2030-12-01T00:00:00Z')})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-01-01T00:00:00Z")
    assert (code, out) == (0, "2030-05-22T14:50:00Z\n")
    assert "their publishing dates are not counted" in err


def test_changes_between_is_half_open(make_site: MakeSite) -> None:
    """A change at the build time is in that build; one at `until` is not in it yet."""
    site_dir = make_site({"talks/a.md": talk("A", "2030-05-22T14:50:00")})
    site, _ = load_site(site_dir, LoadOptions(now=datetime(2030, 1, 1, tzinfo=UTC)))
    assert site is not None
    start = datetime(2030, 5, 22, 14, 50, tzinfo=UTC)
    assert changes.changes_between(site.talks, start, start) == []
    found = changes.changes_between(site.talks, datetime(2030, 1, 1, tzinfo=UTC), start)
    assert [(c.at, c.what) for c in found] == [(start, changes.STARTS)]


def test_serve_asks_the_same_question() -> None:
    assert live._next_change is changes.next_change


def test_a_registration_closing_and_a_talk_going_live_change_the_site(
        make_site: MakeSite, run_cli) -> None:
    """The page leads with Register until then, with Join from 15 minutes before."""
    site = make_site({"talks/a.md": talk("Meetup", "2030-05-22T14:50:00", '''
        registration_url = "https://t.example.org/"
        registration_closes = 2030-05-20T12:00:00Z
        join_url = "https://meet.example.org/x"
    ''')})
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-05-01T00:00:00Z")
    assert (code, out) == (0, "2030-05-20T12:00:00Z\n")
    assert "'Meetup' closes its registration" in err
    code, out, err = run_cli("next-change", "-s", str(site), "--now", "2030-05-21T00:00:00Z")
    assert (code, out) == (0, "2030-05-22T14:35:00Z\n")
    assert "'Meetup' goes live" in err
    loaded, _ = load_site(site, LoadOptions(now=datetime(2030, 5, 21, tzinfo=UTC)))
    assert loaded is not None
    assert changes.next_change(loaded.talks, datetime(2030, 5, 21, tzinfo=UTC)) == \
        datetime(2030, 5, 22, 14, 35, tzinfo=UTC)
