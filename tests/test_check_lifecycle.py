"""`check` suggests the fields of a talk's life where a talk to come needs them: a
`join_url` for a talk held online, a `registration_url` for one whose text speaks of
registering; and says what `event_url` is for."""

from __future__ import annotations

from test_check import EVENT, FUTURE, PAST, check

from conftest import MakeSite, talk


def test_an_online_talk_without_a_join_link(make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/online.md": talk("Online", FUTURE, f'{EVENT}\nlocation = "Online"'),
        "talks/zoom.md": talk("Zoom", FUTURE, EVENT, body="Agenda.\n\nWe meet at "
                              "https://us02web.zoom.us/j/123?pwd=x tonight."),
        "talks/joined.md": talk("Joined", FUTURE, f'{EVENT}\nlocation = "Online"\n'
                                'join_url = "https://meet.jit.si/x"'),
        "talks/cancelled.md": talk("Cancelled", FUTURE, f'{EVENT}\nlocation = "Online"\n'
                                   'status = "cancelled"'),
        "talks/past.md": talk("Past", PAST, 'url_video = "https://v.example.org/1"\n'
                              'location = "Online"')})
    _, _, err = check(run_cli, site)
    assert "talks/online.md:6:1: warning: upcoming talk held online with no `join_url`" in err
    # in the body: at the line of the link, with the link in the hint
    assert "talks/zoom.md:9:1: warning: upcoming talk held online with no `join_url`" in err
    assert 'join_url = "https://us02web.zoom.us/j/123?pwd=x"' in err
    assert err.count("held online") == 2


def test_a_talk_that_speaks_of_registering(make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/words.md": talk("Words", FUTURE, EVENT, body="Seats are limited: please "
                               "RSVP by Friday."),
        "talks/done.md": talk("Done", FUTURE, f'{EVENT}\n'
                              'registration_url = "https://tickets.example.org/"',
                              body="Register below."),
        "talks/quiet.md": talk("Quiet", FUTURE, EVENT, body="A talk about registers.")})
    _, _, err = check(run_cli, site)
    assert ("talks/words.md:7:1: warning: upcoming talk that speaks of registering, with no "
            "`registration_url`") in err
    assert "done.md" not in err and "quiet.md" not in err


def test_the_event_link_is_the_event_s_page(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/soon.md": talk("Soon", FUTURE, 'event = "Conf"')})
    _, _, err = check(run_cli, site)
    assert "the event's own page" in err and "where people register" not in err.replace(
        "where people register is `registration_url`", "")
