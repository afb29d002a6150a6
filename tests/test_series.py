"""Series declared once in talkpages.toml ([series.<key>]): the declaration, its errors
at their lines, its dates, and the talks that take its slot."""

from __future__ import annotations

from datetime import date, datetime, time, timezone
from pathlib import Path

import pytest

from talkpages.content.config import CONFIG_NAME, load_config
from talkpages.content.loader import LoadOptions, load_site
from talkpages.content.series import MAX_TERM_DAYS, Series

from conftest import MakeSite, talk

NOW = datetime(2027, 1, 1, tzinfo=timezone.utc)
COLLOQUIUM = """\
title = "Department"
base_url = "https://example.org/"
timezone = "Europe/Berlin"

[series.colloquium]
title = "Friday Colloquium"
weekday = "friday"
time = "15:30"
duration = 60
location = "Room 101"
starts = 2027-01-08
ends = 2027-03-12
breaks = [2027-02-12]
"""


def load(tmp_path: Path, text: str):
    (tmp_path / CONFIG_NAME).write_text(text, encoding="utf-8")
    return load_config(tmp_path)


def test_a_series_is_read_with_every_key(tmp_path):
    config, problems = load(tmp_path, COLLOQUIUM + 'timezone = "America/New_York"\n'
                            'description = "Talks for everyone."\n')
    assert problems == []
    series = config.series["colloquium"]
    assert (series.title, series.weekday, series.time, series.duration, series.location) \
        == ("Friday Colloquium", 4, time(15, 30), 60, "Room 101")
    assert series.timezone == "America/New_York"
    assert series.breaks == ((date(2027, 2, 12), date(2027, 2, 12)),)
    assert series.url == "series/colloquium/"


def test_the_term_s_dates_leave_out_the_breaks():
    series = Series("c", "C", weekday=4, starts=date(2027, 1, 6), ends=date(2027, 3, 12),
                    breaks=((date(2027, 2, 12), date(2027, 2, 12)),
                            (date(2027, 2, 25), date(2027, 3, 6))))
    days = list(series.dates())
    assert days[0] == date(2027, 1, 8) and days[-1] == date(2027, 3, 12)
    assert date(2027, 2, 12) not in days and date(2027, 3, 5) not in days
    assert len(days) == 10 - 3


def test_a_monthly_series_meets_on_its_week_of_the_month():
    first = Series("m", "M", weekday=4, frequency="monthly", week=1,
                   starts=date(2027, 1, 1), ends=date(2027, 4, 30))
    last = Series("m", "M", weekday=4, frequency="monthly", week=-1,
                  starts=date(2027, 1, 1), ends=date(2027, 4, 30))
    assert list(first.dates()) == [date(2027, 1, 1), date(2027, 2, 5), date(2027, 3, 5),
                                   date(2027, 4, 2)]
    assert list(last.dates()) == [date(2027, 1, 29), date(2027, 2, 26), date(2027, 3, 26),
                                  date(2027, 4, 30)]
    assert first.off_slot(date(2027, 1, 8)) == ("not a date of its slot (the first Friday "
                                                "of each month)")


def test_a_series_without_a_term_lists_no_dates():
    assert list(Series("c", "C", weekday=4).dates()) == []


CASES = [  # (lines after [series.colloquium], the key named, its line, words of the message)
    ('weekday = "fryday"\n', "series.colloquium.weekday", 7, "day of the week"),
    ('time = "25:00"\n', "series.colloquium.time", 7, "time of day"),
    ('duration = 0\n', "series.colloquium.duration", 7, "minutes"),
    ('timezone = "Europe/Berln"\n', "series.colloquium.timezone", 7, "Europe/Berlin"),
    ('frequency = "daily"\n', "series.colloquium.frequency", 7, "monthly"),
    ('week = 2\n', "series.colloquium.week", 7, "only a monthly"),
    ('starts = 2027-01-08\n', "series.colloquium.starts", 7, "`ends` is missing"),
    ('starts = 2027-03-08\nends = 2027-01-08\n', "series.colloquium.ends", 8, "before"),
    ('starts = 2027-01-08\nends = 2037-01-08\n', "series.colloquium.ends", 8,
     f"{MAX_TERM_DAYS} days"),
    ('breaks = ["soon"]\n', "series.colloquium.breaks", 7, "range"),
    ('join_url = "https://x"\n', "series.colloquium.join_url", 7, "not a key"),
]


@pytest.mark.parametrize(("lines", "key", "line", "words"), CASES)
def test_each_problem_is_an_error_at_its_key_s_line(tmp_path, lines, key, line, words):
    text = ('title = "Dept"\n\n[series.colloquium]\ntitle = "Friday Colloquium"\n'
            'weekday = "friday"\ntime = "15:30"\n' + lines)
    for given in ("weekday", "time"):
        if lines.startswith(given + " "):
            text = text.replace(f'{given} = "{"friday" if given == "weekday" else "15:30"}"\n',
                                "")
            line -= 1
    _, problems = load(tmp_path, text)
    assert len(problems) == 1, [p.format() for p in problems]
    problem = problems[0]
    assert problem.is_error and problem.line == line, problem.format()
    assert f"config value {key!r}" in problem.message and words in problem.format()


def test_every_problem_of_every_series_is_reported(tmp_path):
    _, problems = load(tmp_path, '[series.a]\nweekday = 3\n\n[series.Bad]\ntitle = "x"\n'
                       '[series.d]\ntitle = "D"\nduration = "long"\n')
    said = sorted((p.line, p.message) for p in problems)
    assert [line for line, _ in said] == [1, 2, 4, 8]
    assert "needs a `title`" in said[0][1] and "day of the week" in said[1][1]
    assert "not usable in an address" in said[2][1]


def site_with(make_site: MakeSite, *talks: tuple[str, str]) -> Path:
    return make_site({CONFIG_NAME: COLLOQUIUM, **{f"talks/{name}.md": text
                                                  for name, text in talks}})


def test_a_date_only_talk_takes_the_slot_s_time_zone_length_and_room(make_site):
    site_dir = site_with(make_site, ("graphs", talk("Graphs", "2027-01-08",
                                                    'series = "colloquium"')))
    site, problems = load_site(site_dir, LoadOptions(now=NOW))
    assert site is not None and problems == []
    only = site.talks[0]
    assert only.series == "colloquium" and only.location == "Room 101"
    assert only.schedule.start == datetime(2027, 1, 8, 15, 30, tzinfo=only.schedule.tz)
    assert only.schedule.zone == "Europe/Berlin"
    assert only.schedule.end_utc == datetime(2027, 1, 8, 15, 30, tzinfo=timezone.utc)


def test_what_the_talk_says_wins_over_the_slot(make_site):
    site_dir = site_with(make_site, ("late", talk(
        "Late", "2027-01-15T17:00:00", 'series = "colloquium"\nlocation = "Aula"\n'
        'date_end = 2027-01-15T19:00:00\ntimezone = "Europe/London"')),
        ("allday", talk("All day", "2027-01-22", 'series = "colloquium"\nall_day = true')))
    site, problems = load_site(site_dir, LoadOptions(now=NOW))
    assert site is not None, [p.format() for p in problems]
    late, allday = site.talks
    assert late.location == "Aula" and late.schedule.zone == "Europe/London"
    assert (late.schedule.start.hour, late.schedule.end.hour) == (17, 19)
    assert allday.schedule.all_day


def test_an_unknown_series_is_an_error_that_names_the_known_ones(make_site):
    site_dir = site_with(make_site, ("x", talk("X", "2027-01-08", 'series = "colloqium"')))
    site, problems = load_site(site_dir, LoadOptions(now=NOW))
    assert site is None
    problem = next(p for p in problems if p.is_error)
    assert problem.line == 4 and "unknown series 'colloqium'" in problem.message
    assert "'colloquium'" in (problem.hint or "")


def test_hugo_s_series_taxonomy_is_no_series_here(make_site):
    site_dir = site_with(make_site, ("x", talk("X", "2027-01-08", 'series = ["Deep dives"]')))
    site, problems = load_site(site_dir, LoadOptions(now=NOW))
    assert site is not None and problems == []
    assert site.talks[0].series == "" and site.talks[0].params["series"] == ["Deep dives"]


def test_a_series_that_is_neither_a_key_nor_a_list_is_an_error(make_site):
    site_dir = site_with(make_site, ("x", talk("X", "2027-01-08", "series = 3")))
    site, problems = load_site(site_dir, LoadOptions(now=NOW))
    assert site is None and problems[0].line == 4 and "key of a series" in problems[0].message
