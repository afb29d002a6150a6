"""Recurring talks: the rule, its dates on the wall clock, and the feed's RRULE."""

from __future__ import annotations

from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from talkpages.recurrence import occurrences, parse
from talkpages.times import Schedule

MADRID = ZoneInfo("Europe/Madrid")
UTC = timezone.utc


def weekly_madrid() -> Schedule:
    return Schedule(datetime(2024, 10, 9, 19, tzinfo=MADRID),
                    datetime(2024, 10, 9, 20, 30, tzinfo=MADRID), False, "Europe/Madrid")


def test_weekly_series_keeps_the_wall_clock_across_the_change_of_clocks() -> None:
    series = parse("FREQ=WEEKLY;COUNT=6", [datetime(2024, 10, 23, 19)], weekly_madrid())
    found = occurrences(weekly_madrid(), series)
    assert [o.start.astimezone(UTC).strftime("%m-%d %H:%M") for o in found] == [
        "10-09 17:00", "10-16 17:00", "10-30 18:00", "11-06 18:00", "11-13 18:00"]
    assert all(o.end_utc - o.start_utc == (o.end_utc - o.start_utc) for o in found)
    assert {(o.end_utc - o.start_utc).seconds for o in found} == {5400}


def test_until_as_a_day_means_the_end_of_that_day_and_is_written_in_utc() -> None:
    series = parse("FREQ=WEEKLY;UNTIL=20241023", None, weekly_madrid())
    assert len(occurrences(weekly_madrid(), series)) == 3
    assert series.rule() == "FREQ=WEEKLY;UNTIL=20241023T215959Z"


def test_until_given_in_utc_is_kept() -> None:
    series = parse("RRULE:FREQ=DAILY;UNTIL=20241011T170000Z", None, weekly_madrid())
    assert len(occurrences(weekly_madrid(), series)) == 3
    assert series.rule().endswith("UNTIL=20241011T170000Z")


def test_all_day_series_uses_dates() -> None:
    schedule = Schedule(date(2024, 1, 1), date(2024, 1, 2), True, "UTC")
    series = parse("FREQ=MONTHLY;UNTIL=20240401", [date(2024, 2, 1)], schedule)
    found = occurrences(schedule, series)
    assert [(o.start, o.end) for o in found] == [
        (date(2024, 1, 1), date(2024, 1, 2)), (date(2024, 3, 1), date(2024, 3, 2)),
        (date(2024, 4, 1), date(2024, 4, 2))]
    assert series.rule() == "FREQ=MONTHLY;UNTIL=20240401"


def test_an_endless_series_is_cut_short_for_the_page() -> None:
    series = parse("FREQ=DAILY", None, weekly_madrid())
    assert not series.bounded
    assert len(occurrences(weekly_madrid(), series, limit=50)) == 50


def test_an_exdate_as_a_day_excludes_that_days_occurrence() -> None:
    series = parse("FREQ=WEEKLY;COUNT=3", [date(2024, 10, 16)], weekly_madrid())
    assert [o.start.day for o in occurrences(weekly_madrid(), series)] == [9, 23]


@pytest.mark.parametrize(("rule", "message"), [
    ("FREQ=SECONDLY", "FREQ=DAILY, WEEKLY"),
    ("COUNT=3", "needs FREQ"),
    ("FREQ=WEEKLY;COUNT=3;UNTIL=20250101", "COUNT or UNTIL"),
    ("FREQ=WEEKLY;UNTIL=tomorrow", "UNTIL=TOMORROW"),
    ("FREQ=WEEKLY;FOO=1", "unsupported part"),
    ("FREQ=WEEKLY;BYDAY=XX", "BYDAY"),
])
def test_bad_rules_are_refused_with_a_reason(rule: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse(rule, None, weekly_madrid())


def test_a_rule_must_be_text() -> None:
    with pytest.raises(ValueError, match="RRULE written as text"):
        parse(["FREQ=WEEKLY"], None, weekly_madrid())
