"""`talkpages check` on sites moved from elsewhere: times that look local but are read
as UTC, HTML that will be escaped, talks longer than a month."""

from __future__ import annotations

import pytest

from conftest import NOW, MakeSite, talk

MEDIA = 'url_slides = "https://example.org/s.pdf"'


def check(run_cli, site) -> tuple[int, str, str]:
    return run_cli("check", "-s", str(site), "--now", NOW.isoformat())


UTC_ROUND = "all 3 timed talks start at whole hours of UTC, in 2 places"


def test_a_site_of_utc_round_hours_in_several_cities_is_warned(make_site: MakeSite,
                                                                run_cli) -> None:
    site = make_site({
        "talks/a.md": talk("A", "2019-05-22T10:00:00", f'location = "Tokyo"\n{MEDIA}'),
        "talks/b.md": talk("B", "2019-06-22T14:00:00Z", f'location = "Lima"\n{MEDIA}'),
        "talks/c.md": talk("C", "2019-07-22T09:00:00", f'location = "Tokyo"\n{MEDIA}'),
        "talks/d.md": talk("D", "2019-08-01", f'location = "Oslo"\n{MEDIA}'),  # all day
    })
    code, _, err = check(run_cli, site)
    assert code == 0
    assert f"talks/a.md:3:1: warning: {UTC_ROUND} (Lima, Tokyo)" in err
    assert err.count("whole hours of UTC") == 1


@pytest.mark.parametrize("change", [
    ("talks/c.md", talk("C", "2019-07-22T09:30:00", f'location = "Tokyo"\n{MEDIA}')),
    ("talks/c.md", talk("C", "2019-07-22T09:00:00",
                        f'location = "Tokyo"\ntimezone = "Asia/Tokyo"\n{MEDIA}')),
    ("talks/b.md", talk("B", "2019-06-22T14:00:00Z", f'location = "Tokyo"\n{MEDIA}')),
    ("talkpages.toml", 'timezone = "Asia/Tokyo"\n'),
])
def test_one_place_a_zone_or_a_time_off_the_hour_is_not_warned(
        make_site: MakeSite, run_cli, change: tuple[str, str]) -> None:
    files = {
        "talks/a.md": talk("A", "2019-05-22T10:00:00", f'location = "Tokyo"\n{MEDIA}'),
        "talks/b.md": talk("B", "2019-06-22T14:00:00Z", f'location = "Lima"\n{MEDIA}'),
        "talks/c.md": talk("C", "2019-07-22T09:00:00", f'location = "Tokyo"\n{MEDIA}'),
    }
    files[change[0]] = change[1]
    code, _, err = check(run_cli, make_site(files))
    assert code == 0 and "whole hours of UTC" not in err


def test_raw_html_that_will_be_escaped_is_warned(make_site: MakeSite, run_cli) -> None:
    body = ('Intro.\n\n<p align="center"><img src="x.png"></p>\n\n'
            '<iframe src="https://example.org/embed"></iframe>\n\n'
            "Code is fine: `<div>` and\n\n```\n<table>\n```\n\n<https://example.org> too.\n")
    site = make_site({
        "talks/html.md": talk("HTML", "2019-05-22T14:00:00", MEDIA, body),
        "talks/clean.md": talk("Clean", "2019-05-23T14:00:00", MEDIA,
                               "`<b>` x < y, {{< youtube abc >}}, <a@b.org>"),
        "talks/abstract.md": talk("Abs", "2019-05-24T14:00:00",
                                  f'{MEDIA}\nabstract = "A <br> B"'),
    })
    code, _, err = check(run_cli, site)
    assert code == 0
    assert ("talks/html.md:8:1: warning: the body has raw HTML (<p>, <img>, <iframe>), "
            "which the site shows as text") in err
    assert "talks/abstract.md:5:1: warning: `abstract` has raw HTML (<br>)" in err
    assert "clean.md" not in err
    (site / "talkpages.toml").write_text("unsafe_html = true\n")
    code, _, err = check(run_cli, site)
    assert "raw HTML" not in err


def test_a_talk_longer_than_a_month_is_warned_unless_marked(make_site: MakeSite,
                                                            run_cli) -> None:
    site = make_site({
        "talks/typo.md": talk("Typo", "2019-05-22T10:00:00",
                              f'date_end = 2020-05-22T11:00:00\n{MEDIA}'),
        "talks/school.md": talk("School", "2019-06-01",
                                f'date_end = 2019-08-31\nmulti_day = true\n{MEDIA}'),
        "talks/month.md": talk("Month", "2019-07-01", f'date_end = 2019-07-31\n{MEDIA}'),
    })
    code, _, err = check(run_cli, site)
    assert code == 0
    assert ("talks/typo.md:4:1: warning: the talk lasts 367 days (2019-05-22 to "
            "2020-05-22): is its end right?") in err
    assert "school.md" not in err and "month.md" not in err
