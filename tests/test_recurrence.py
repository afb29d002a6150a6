"""Recurring talks: the rule, its dates on the wall clock, and the feed's RRULE."""

from __future__ import annotations

import re
import time
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from talkpages.content.recurrence import occurrences, parse
from talkpages.content.rulecheck import RecurrenceError
from talkpages.content.times import Schedule

from conftest import MakeSite, talk

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


# Rules that calendars cannot read alike are errors at the field's line --------------

UNREADABLE = {
    "interval-zero": "FREQ=WEEKLY;INTERVAL=0;COUNT=3",
    "never": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "two-rules": "RRULE:FREQ=WEEKLY;COUNT=3\\nRRULE:FREQ=DAILY;COUNT=2",
    "count-zero": "FREQ=DAILY;COUNT=0",
    "part-twice": "FREQ=WEEKLY;FREQ=DAILY",
    "out-of-range": "FREQ=MONTHLY;BYMONTHDAY=32",
    "until-not-a-date": "FREQ=WEEKLY;UNTIL=20241341",
    "until-before-start": "FREQ=WEEKLY;UNTIL=20240101",
}


def test_recurrences_no_client_can_read_are_errors_at_their_line(make_site: MakeSite,
                                                                 run_cli) -> None:
    files = {f"talks/{name}.md": talk(name, "2024-10-09T19:00:00",
                                      f'timezone = "Europe/Madrid"\nrecurrence = "{rule}"')
             for name, rule in UNREADABLE.items()}
    site = make_site(files)
    code, out, err = run_cli("build", "-s", str(site), "--now", "2024-10-01T00:00:00Z")
    assert code == 1, err
    assert "internal error" not in err and "Traceback" not in err
    for name in UNREADABLE:  # every one, in one build, at the line of `recurrence`
        assert re.search(rf"talks/{name}\.md:5:1: error: `recurrence` ", err), (name, err)
    assert f"build failed with {len(UNREADABLE)} errors" in err
    assert not (site / "public").exists()


@pytest.mark.parametrize(("rule", "message"), [
    ("FREQ=WEEKLY;INTERVAL=0", "INTERVAL=0 must be a whole number from 1"),
    ("FREQ=WEEKLY;INTERVAL=-1", "INTERVAL=-1 must be a whole number"),
    ("FREQ=WEEKLY;COUNT=99999999999", "from 1 to 2147483647"),
    ("FREQ=WEEKLY;COUNT=٣", "COUNT=٣ must be a whole number"),
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "gives no date at all"),
    ("FREQ=DAILY;INTERVAL=7;BYDAY=MO", "gives no date at all"),
    ("FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31", "gives no date at all"),
    ("RRULE:FREQ=WEEKLY;COUNT=3\nRRULE:FREQ=DAILY;COUNT=2", "more than one rule"),
    ("FREQ=WEEKLY;COUNT=3 RRULE:FREQ=DAILY", "more than one rule"),
    ("FREQ=WEEKLY\nCOUNT=3", "on one line"),
    ("FREQ=WEEKLY;COUNT=3;COUNT=4", "COUNT twice"),
    ("FREQ=WEEKLY;COUNT=", "COUNT with no value"),
    ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY has '0'"),
    ("FREQ=YEARLY;BYMONTH=13", "BYMONTH has '13'"),
    ("FREQ=DAILY;BYHOUR=24", "BYHOUR has '24'"),
    ("FREQ=DAILY;BYHOUR=-1", "BYHOUR has '-1'"),
    ("FREQ=YEARLY;BYWEEKNO=41;BYDAY=WE", "unsupported part 'BYWEEKNO=41'"),
    ("FREQ=YEARLY;BYYEARDAY=367", "BYYEARDAY has '367'"),
    ("FREQ=MONTHLY;BYDAY=WE;BYSETPOS=0", "BYSETPOS has '0'"),
    ("FREQ=MONTHLY;BYDAY=6WE", "from 1 to 5"),
    ("FREQ=YEARLY;BYMONTH=10;BYDAY=-6WE", "from 1 to 5"),
    ("FREQ=WEEKLY;BYDAY=2WE", "numbers a weekday in a WEEKLY rule"),
    ("FREQ=WEEKLY;WKST=XX", "WKST=XX is not a weekday"),
    ("FREQ=WEEKLY;BYMONTHDAY=9", "BYMONTHDAY cannot be used in a WEEKLY rule"),
    ("FREQ=YEARLY;BYMONTH=10;BYHOUR=19,20", "BYHOUR cannot be used in a YEARLY rule"),
    ("FREQ=MONTHLY;BYDAY=2WE;BYHOUR=19,20", "BYHOUR cannot be used in a MONTHLY rule"),
    ("FREQ=YEARLY;BYDAY=2WE", "needs BYMONTH with numbered weekdays"),
    ("FREQ=YEARLY;BYDAY=41WE", "numbered within a month"),
    ("FREQ=YEARLY;BYMONTHDAY=9", "needs BYMONTH with BYMONTHDAY"),
    ("FREQ=YEARLY;BYMONTH=10,12;BYDAY=WE;BYSETPOS=2", "in one month"),
    ("FREQ=MONTHLY;BYMONTHDAY=1,9;BYSETPOS=-1", "weekdays of BYDAY"),
    ("FREQ=YEARLY;BYYEARDAY=283;BYDAY=WE", "BYYEARDAY goes with no other BY part"),
    ("FREQ=DAILY;BYMONTHDAY=-1", "only in MONTHLY and YEARLY rules"),
    ("FREQ=DAILY;BYHOUR=19;BYSETPOS=1", "BYSETPOS cannot be used in a DAILY rule"),
    ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS picks among"),
    ("FREQ=YEARLY;BYYEARDAY=283;BYMONTH=10", "BYYEARDAY goes with no other"),
    ("FREQ=WEEKLY;UNTIL=20241341", "UNTIL=20241341 is not a real date"),
    ("FREQ=WEEKLY;UNTIL=20241009T250000", "UNTIL=20241009T250000 is not a real date"),
    ("FREQ=WEEKLY;UNTIL=20241001", "before the talk's own date"),
])
def test_rules_that_are_not_one_well_formed_rrule_with_dates_are_refused(
        rule: str, message: str) -> None:
    with pytest.raises(RecurrenceError, match=re.escape(message)) as caught:
        parse(rule, None, weekly_madrid())
    assert caught.value.field == "recurrence" and caught.value.hint


def test_a_rule_that_leaves_out_the_talks_own_date_is_refused_with_the_first_date() -> None:
    """recurring-ical-events counts the talk's date as an occurrence; ical.js and node-ical
    do not: the feed would say two things."""
    with pytest.raises(RecurrenceError, match="leaves out the talk's own date, Wed 09 Oct"
                       ) as caught:
        parse("FREQ=WEEKLY;BYDAY=MO;COUNT=3", None, weekly_madrid())
    assert "(Mon 14 Oct 2024)" in str(caught.value.hint)
    with pytest.raises(RecurrenceError, match="leaves out the talk's own date"):
        parse("FREQ=MONTHLY;BYDAY=WE;BYSETPOS=-1", None, weekly_madrid())  # 30 October


@pytest.mark.parametrize("rule", [
    "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=MONTHLY;BYDAY=2WE", "FREQ=MONTHLY;BYDAY=WE;BYSETPOS=2",
    "FREQ=MONTHLY;BYMONTHDAY=9,-1", "FREQ=YEARLY;BYMONTH=10;BYDAY=2WE",
    "FREQ=YEARLY;BYMONTH=10;BYDAY=WE;BYSETPOS=2", "FREQ=YEARLY;BYYEARDAY=283",
    "FREQ=DAILY;BYHOUR=19,21", "FREQ=WEEKLY;BYDAY=WE,FR;BYHOUR=19,20;BYMINUTE=0,30",
    "FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=WE,TH", "RRULE:freq=weekly;count=3;",
])
def test_rules_that_start_on_the_talks_date_are_accepted(rule: str) -> None:
    assert occurrences(weekly_madrid(), parse(rule, None, weekly_madrid()), limit=3)


def test_the_feed_carries_the_rule_in_one_spelling() -> None:
    series = parse(" byday = +2we,2WE ; interval=01;freq=monthly; COUNT=003 ", None,
                   weekly_madrid())
    assert series.rule() == "FREQ=MONTHLY;COUNT=3;INTERVAL=1;BYDAY=2WE"


def test_a_rule_with_no_date_is_refused_in_bounded_time() -> None:
    """The search for a first date stops by itself: half a second at worst, here a
    daily rule looked at every day of 400 years."""
    start = time.perf_counter()
    with pytest.raises(RecurrenceError, match="no date at all"):
        parse("FREQ=DAILY;BYHOUR=19,20;BYMINUTE=0,30;BYMONTH=2;BYMONTHDAY=30", None,
              weekly_madrid())
    assert time.perf_counter() - start < 5


def test_an_all_day_rule_cannot_name_hours() -> None:
    schedule = Schedule(date(2024, 1, 1), date(2024, 1, 1), True, "UTC")
    with pytest.raises(RecurrenceError, match="all-day talk"):
        parse("FREQ=DAILY;BYHOUR=10", None, schedule)


def test_exdates_that_leave_out_every_date_are_an_error_at_exdates() -> None:
    with pytest.raises(RecurrenceError, match="leave out every date") as caught:
        parse("FREQ=WEEKLY;COUNT=2", [date(2024, 10, 9), datetime(2024, 10, 16, 19)],
              weekly_madrid())
    assert caught.value.field == "exdates"
    with pytest.raises(RecurrenceError, match="leave out every date"):
        parse("FREQ=WEEKLY;UNTIL=20241016", [date(2024, 10, 9), date(2024, 10, 16)],
              weekly_madrid())
    assert parse("FREQ=WEEKLY;COUNT=2", [date(2024, 10, 9)], weekly_madrid()).exdates
    assert parse("FREQ=WEEKLY", [date(2024, 10, 9)], weekly_madrid()).exdates


def test_an_exdate_that_is_not_a_date_is_an_error_at_exdates(make_site: MakeSite,
                                                             run_cli) -> None:
    site = make_site({"talks/x.md": talk("X", "2024-10-09T19:00:00",
                                         'recurrence = "FREQ=WEEKLY;COUNT=3"\n'
                                         'exdates = ["next week"]')})
    code, _, err = run_cli("check", "-s", str(site), "--now", "2024-10-01T00:00:00Z")
    assert code == 1 and "talks/x.md:5:1: error: `exdates`: 'next week' is not a date" in err
