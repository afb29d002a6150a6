"""Parsing the dates authors write, and resolving them into a Schedule with a time zone."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from talkpages.content.times import ScheduleError, parse_moment, resolve, utc_offset, zone_label

UTC = timezone.utc
PLUS2 = timezone(timedelta(hours=2))
MADRID = ZoneInfo("Europe/Madrid")
HOUR = timedelta(minutes=60)


def schedule(start, end=None, *, all_day=False, zone=None, default_zone="UTC",
             default_length=HOUR, **fields):
    return resolve(start, end, all_day=all_day, zone=zone, default_zone=default_zone,
                   default_length=default_length, **fields)


# --- parse_moment -----------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    datetime(2019, 5, 22, 14, 50),
    datetime(2019, 5, 22, 14, 50, tzinfo=PLUS2),
    date(2019, 5, 22),
    time(14, 50),
])
def test_parse_moment_passes_toml_values_through(value):
    assert parse_moment(value) == value
    assert type(parse_moment(value)) is type(value)


@pytest.mark.parametrize("value", [None, "", "   "])
def test_parse_moment_of_an_empty_value_is_none(value):
    assert parse_moment(value) is None


def test_parse_moment_iso_with_z_is_utc():
    parsed = parse_moment("2019-05-22T14:50:00Z")
    assert parsed == datetime(2019, 5, 22, 14, 50, tzinfo=UTC)
    assert parsed.utcoffset() == timedelta(0)


def test_parse_moment_iso_with_offset_keeps_the_offset():
    parsed = parse_moment("2019-05-22T14:50:00+02:00")
    assert parsed.utcoffset() == timedelta(hours=2)
    assert (parsed.hour, parsed.minute) == (14, 50)


def test_parse_moment_naive_iso_stays_naive():
    parsed = parse_moment("2019-05-22T14:50:00")
    assert parsed == datetime(2019, 5, 22, 14, 50)
    assert parsed.tzinfo is None


def test_parse_moment_space_separated_datetime():
    assert parse_moment("2019-05-22 14:50:00") == datetime(2019, 5, 22, 14, 50)


def test_parse_moment_date_only_is_a_date():
    parsed = parse_moment("2019-05-22")
    assert parsed == date(2019, 5, 22)
    assert not isinstance(parsed, datetime)


def test_parse_moment_accepts_a_date_without_zero_padding():
    assert parse_moment("2019-5-2") == date(2019, 5, 2)


def test_parse_moment_strips_surrounding_spaces():
    assert parse_moment("  2019-05-22  ") == date(2019, 5, 22)


def test_parse_moment_jekyll_style_datetime_with_compact_offset():
    parsed = parse_moment("2019-05-22 14:50:00 +0200")
    assert parsed.replace(tzinfo=None) == datetime(2019, 5, 22, 14, 50)
    assert parsed.utcoffset() == timedelta(hours=2)


def test_parse_moment_negative_offset():
    parsed = parse_moment("2019-05-22T09:00:00-05:00")
    assert parsed.utcoffset() == timedelta(hours=-5)


def test_parse_moment_time_only():
    assert parse_moment("15:25") == time(15, 25)
    assert parse_moment("15:25:30") == time(15, 25, 30)


@pytest.mark.parametrize("text", [
    "14:325:00",
    "25:00",
    "2019-12.19T14:58:00+02:00",
    "2019-05-22T14:50:00-30:00",
    "2019-05-22T14:50:00+25:00",
    "2019-13-01",
    "2019-02-30",
    "2019-05-22T25:00:00",
    "next tuesday",
    "22/05/2019",
])
def test_parse_moment_rejects_invalid_text_with_value_error(text):
    with pytest.raises(ValueError) as info:
        parse_moment(text)
    assert str(info.value)


@pytest.mark.filterwarnings("ignore:tzname")
def test_parse_moment_refuses_a_zone_abbreviation_instead_of_dropping_it():
    # "CEST" cannot be honoured (abbreviations are ambiguous); reading the time as naive
    # would put the talk in the site's zone, two hours off, without a word.
    with pytest.raises(ValueError):
        parse_moment("2019-05-22 14:50:00 CEST")


def test_parse_moment_out_of_range_offset_says_so():
    with pytest.raises(ValueError, match="offset"):
        parse_moment("2019-05-22T14:50:00-30:00")


def test_parse_moment_error_quotes_what_was_written():
    with pytest.raises(ValueError, match="2019-12.19"):
        parse_moment("2019-12.19T14:58:00+02:00")


@pytest.mark.parametrize("value", [20190522, 3.5, ["2019-05-22"], {"a": 1}, True])
def test_parse_moment_rejects_non_text_values(value):
    with pytest.raises(ValueError):
        parse_moment(value)


# --- resolve: zones ---------------------------------------------------------------------

def test_naive_start_is_wall_clock_in_the_talk_zone():
    s = schedule(datetime(2019, 5, 22, 14, 50), zone="Europe/Madrid", default_zone="Asia/Tokyo")
    assert s.start.utcoffset() == timedelta(hours=2)
    assert s.start_utc == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)
    assert s.zone == "Europe/Madrid"


def test_naive_start_without_talk_zone_uses_the_site_zone():
    s = schedule(datetime(2019, 5, 22, 14, 50), default_zone="Europe/Madrid")
    assert s.start_utc == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)
    assert s.zone == "Europe/Madrid"


def test_naive_start_with_default_utc():
    s = schedule(datetime(2019, 5, 22, 14, 50))
    assert s.start_utc == datetime(2019, 5, 22, 14, 50, tzinfo=UTC)


def test_offset_is_kept_when_the_talk_names_no_zone():
    s = schedule(datetime(2019, 5, 22, 14, 50, tzinfo=PLUS2), default_zone="Asia/Tokyo")
    assert s.zone is None
    assert s.start.utcoffset() == timedelta(hours=2)
    assert (s.start.hour, s.start.minute) == (14, 50)
    assert s.start_utc == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)


def test_offset_is_converted_into_the_zone_the_talk_names():
    s = schedule(datetime(2019, 5, 22, 12, 50, tzinfo=UTC), zone="Europe/Madrid")
    assert s.zone == "Europe/Madrid"
    assert (s.start.hour, s.start.minute) == (14, 50)
    assert s.start.utcoffset() == timedelta(hours=2)
    assert s.start_utc == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)


def test_nonexistent_local_time_is_a_schedule_error_with_a_hint():
    with pytest.raises(ScheduleError) as info:
        schedule(datetime(2019, 3, 31, 2, 30), zone="Europe/Madrid")
    err = info.value
    assert err.field == "date"
    assert "does not exist" in str(err)
    assert err.hint and "03:30" in err.hint


def test_nonexistent_local_time_in_the_end_names_the_end_field():
    with pytest.raises(ScheduleError) as info:
        schedule(datetime(2019, 3, 31, 1, 0), datetime(2019, 3, 31, 2, 30),
                 zone="Europe/Madrid", end_field="date_end")
    assert info.value.field == "date_end"


def test_nonexistent_local_time_in_the_site_zone_is_also_reported():
    with pytest.raises(ScheduleError):
        schedule(datetime(2019, 3, 31, 2, 30), default_zone="Europe/Madrid")


def test_ambiguous_local_time_is_the_first_occurrence():
    s = schedule(datetime(2019, 10, 27, 2, 30), zone="Europe/Madrid")
    assert s.start.utcoffset() == timedelta(hours=2)
    assert s.start_utc == datetime(2019, 10, 27, 0, 30, tzinfo=UTC)


# --- resolve: lengths and ends ----------------------------------------------------------

def test_no_end_gives_the_default_length():
    s = schedule(datetime(2019, 5, 22, 14, 50), default_length=timedelta(minutes=45))
    assert s.end_utc - s.start_utc == timedelta(minutes=45)
    assert s.all_day is False


def test_default_length_is_real_time_across_the_clocks_going_back():
    # 02:00 CEST on 27 October 2019 is 00:00 UTC; one hour later is 01:00 UTC (02:00 CET).
    s = schedule(datetime(2019, 10, 27, 2, 0), zone="Europe/Madrid")
    assert s.end_utc - s.start_utc == HOUR


def test_end_on_the_same_day_as_a_date_gives_the_default_length():
    s = schedule(datetime(2019, 5, 22, 14, 50), date(2019, 5, 22))
    assert s.all_day is False
    assert s.end_utc - s.start_utc == HOUR


def test_datetime_end_is_used():
    s = schedule(datetime(2019, 5, 22, 14, 50), datetime(2019, 5, 22, 15, 25),
                 zone="Europe/Madrid")
    assert s.end.isoformat() == "2019-05-22T15:25:00+02:00"
    assert s.end_utc - s.start_utc == timedelta(minutes=35)


def test_time_only_end_is_on_the_start_day_in_the_talk_zone():
    s = schedule(datetime(2019, 5, 22, 14, 50), time(15, 25), zone="Europe/Madrid")
    assert s.end.isoformat() == "2019-05-22T15:25:00+02:00"


def test_time_only_end_after_an_offset_start_uses_the_same_offset():
    # `date = 2019-05-22T14:50:00+02:00` and `date_end = "15:25"`: 35 minutes, not 2h35.
    s = schedule(datetime(2019, 5, 22, 14, 50, tzinfo=PLUS2), time(15, 25))
    assert s.end_utc == datetime(2019, 5, 22, 13, 25, tzinfo=UTC)


def test_end_equal_to_start_is_allowed():
    start = datetime(2019, 5, 22, 14, 50)
    s = schedule(start, start)
    assert s.end_utc == s.start_utc


def test_end_before_start_is_a_schedule_error_naming_the_end_field():
    with pytest.raises(ScheduleError) as info:
        schedule(datetime(2019, 5, 22, 14, 50), datetime(2019, 5, 22, 14, 0),
                 start_field="time_start", end_field="time_end")
    err = info.value
    assert err.field == "time_end"
    assert "time_end" in str(err) and "time_start" in str(err)
    assert err.hint


def test_time_only_end_before_start_is_a_schedule_error():
    with pytest.raises(ScheduleError) as info:
        schedule(datetime(2019, 5, 22, 14, 50), time(9, 0), end_field="date_end")
    assert info.value.field == "date_end"


def test_end_before_start_compares_instants_not_wall_clocks():
    # 15:00 in Madrid is 13:00 UTC, before 14:00 UTC.
    with pytest.raises(ScheduleError):
        schedule(datetime(2019, 5, 22, 14, 0, tzinfo=UTC),
                 datetime(2019, 5, 22, 15, 0, tzinfo=PLUS2))


def test_start_with_only_a_time_is_an_error():
    with pytest.raises(ScheduleError) as info:
        schedule(time(14, 50), start_field="date")
    assert info.value.field == "date"


def test_timed_start_with_a_later_end_day_is_a_multi_day_event():
    s = schedule(datetime(2019, 5, 20, 9, 0), date(2019, 5, 23), zone="Europe/Madrid")
    assert s.all_day is True
    assert (s.start, s.end) == (date(2019, 5, 20), date(2019, 5, 23))
    assert s.multi_day


# --- resolve: all-day -------------------------------------------------------------------

def test_a_date_makes_an_all_day_event():
    s = schedule(date(2019, 5, 22), zone="Europe/Madrid")
    assert s.all_day is True
    assert s.start == s.end == date(2019, 5, 22)
    assert not s.multi_day


def test_all_day_flag_with_a_datetime_keeps_the_written_date():
    # Midnight UTC is still 4 March in New York; the author wrote 5 March.
    s = schedule(datetime(2020, 3, 5, 0, 0, tzinfo=UTC), all_day=True, zone="America/New_York")
    assert s.all_day is True
    assert s.start == date(2020, 3, 5)
    assert s.end == date(2020, 3, 5)


def test_multi_day_all_day_end_is_inclusive():
    s = schedule(date(2019, 5, 20), date(2019, 5, 23), zone="Europe/Madrid")
    assert (s.start, s.end) == (date(2019, 5, 20), date(2019, 5, 23))
    assert s.multi_day
    assert s.end_utc == datetime(2019, 5, 23, 22, 0, tzinfo=UTC)  # midnight 24 May, CEST


def test_all_day_end_before_the_first_day_is_an_error():
    with pytest.raises(ScheduleError) as info:
        schedule(date(2019, 5, 22), date(2019, 5, 21), end_field="date_end")
    assert info.value.field == "date_end"


def test_all_day_without_a_talk_zone_uses_the_site_zone():
    s = schedule(date(2019, 5, 22), default_zone="Europe/Madrid")
    assert s.zone == "Europe/Madrid"


def test_start_utc_and_end_utc_of_an_all_day_talk_are_midnights_in_its_zone():
    s = schedule(date(2020, 3, 5), zone="America/New_York")
    assert s.start_utc == datetime(2020, 3, 5, 5, 0, tzinfo=UTC)
    assert s.end_utc == datetime(2020, 3, 6, 5, 0, tzinfo=UTC)


def test_all_day_on_the_day_clocks_go_forward_lasts_23_hours():
    s = schedule(date(2020, 3, 8), zone="America/New_York")
    assert s.start_utc == datetime(2020, 3, 8, 5, 0, tzinfo=UTC)
    assert s.end_utc == datetime(2020, 3, 9, 4, 0, tzinfo=UTC)


def test_utc_properties_of_a_timed_talk_are_utc():
    s = schedule(datetime(2019, 5, 22, 14, 50), zone="Europe/Madrid")
    assert s.start_utc.utcoffset() == timedelta(0)
    assert s.end_utc.utcoffset() == timedelta(0)


# --- labels -----------------------------------------------------------------------------

def test_zone_label_is_the_abbreviation():
    assert zone_label(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID)) == "CEST"
    assert zone_label(datetime(2019, 1, 22, 14, 50, tzinfo=MADRID)) == "CET"


def test_zone_label_of_a_zone_without_an_abbreviation_is_an_offset():
    kathmandu = datetime(2019, 5, 22, 14, 50, tzinfo=ZoneInfo("Asia/Kathmandu"))
    assert zone_label(kathmandu) == "UTC+05:45"


def test_zone_label_of_a_fixed_offset():
    assert zone_label(datetime(2019, 5, 22, 14, 50, tzinfo=PLUS2)) == "UTC+02:00"


def test_zone_label_of_utc():
    assert zone_label(datetime(2019, 5, 22, 14, 50, tzinfo=UTC)) == "UTC"


def test_utc_offset_negative_has_a_minus_sign():
    label = utc_offset(datetime(2019, 5, 22, tzinfo=timezone(timedelta(hours=-4, minutes=-30))))
    assert label in ("UTC-04:30", "UTC\u221204:30")


def test_utc_offset_positive():
    assert utc_offset(datetime(2019, 5, 22, tzinfo=timezone(timedelta(hours=5, minutes=30)))) \
        == "UTC+05:30"
