"""Human-readable dates: CLDR's, in the site's language; always in the event's zone,
the zone named by a name CLDR vouches for in that language, else its city and offset."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from babel import Locale

from talkpages.content.times import Schedule
from talkpages.output import formatting
from talkpages.output.formatting import dates_for

MADRID = ZoneInfo("Europe/Madrid")
BRITISH = dates_for(Locale.parse("en_GB"))


def timed(start: datetime, end: datetime, zone: str | None = "Europe/Madrid") -> Schedule:
    return Schedule(start, end, False, zone)


MAY_22 = timed(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID),
               datetime(2019, 5, 22, 15, 25, tzinfo=MADRID))


@pytest.mark.parametrize(("schedule", "text"), [
    (MAY_22, "Wed, 22 May 2019, 14:50–15:25 CEST"),
    (timed(datetime(2019, 12, 2, 9, 0, tzinfo=MADRID), datetime(2019, 12, 3, 17, 0,
                                                                tzinfo=MADRID)),
     "Mon, 2 Dec 2019, 09:00 – Tue, 3 Dec 2019, 17:00 CET"),
    (timed(datetime(2019, 10, 27, 1, 30, tzinfo=MADRID),
           datetime(2019, 10, 27, 3, 30, tzinfo=MADRID)),
     "Sun, 27 Oct 2019, 01:30 CEST – 03:30 CET"),
    (timed(datetime(2024, 3, 1, 10, tzinfo=timezone(timedelta(hours=9))),
           datetime(2024, 3, 1, 11, tzinfo=timezone(timedelta(hours=9))), None),
     "Fri, 1 Mar 2024, 10:00–11:00 GMT+09:00"),
    (timed(datetime(2024, 3, 1, 10, tzinfo=ZoneInfo("Asia/Kathmandu")),
           datetime(2024, 3, 1, 11, tzinfo=ZoneInfo("Asia/Kathmandu")), "Asia/Kathmandu"),
     "Fri, 1 Mar 2024, 10:00–11:00 Kathmandu (GMT+05:45)"),
    (Schedule(date(2019, 5, 22), date(2019, 5, 22), True, "UTC"), "Wed, 22 May 2019"),
    (Schedule(date(2019, 12, 30), date(2020, 1, 2), True, "UTC"),
     "Mon, 30 Dec 2019\u2009–\u2009Thu, 2 Jan 2020"),
])
def test_when_in_british_english(schedule: Schedule, text: str) -> None:
    assert BRITISH.when(schedule) == text


@pytest.mark.parametrize(("language", "text"), [
    ("de", "Mi., 22. Mai 2019, 14:50–15:25 Uhr MESZ"),
    ("en", "Wed, May 22, 2019, 2:50\u2009–\u20093:25\u202fPM Madrid (GMT+02:00)"),
    ("fr", "mer. 22 mai 2019, 14:50\u2009–\u200915:25 Madrid (UTC+02:00)"),
    ("ja", "2019年5月22日(水) 14時50分～15時25分 マドリード（GMT+02:00）"),
    ("ar", "الأربعاء، 22 مايو 2019، 2:50–3:25 م مدريد (غرينتش+02:00)"),
])
def test_each_language_writes_the_date_time_and_zone_as_cldr_has_them(language: str,
                                                                       text: str) -> None:
    assert dates_for(Locale.parse(language)).when(MAY_22) == text


def test_a_zone_is_never_a_bare_abbreviation_cldr_does_not_vouch_for() -> None:
    """"CST" is China's and America's Central time: an American page names Chicago's
    zone by CLDR's short name, any other names Shanghai by its city and offset."""
    shanghai = ZoneInfo("Asia/Shanghai")
    moment = datetime(2027, 1, 14, 18, tzinfo=shanghai)
    for language in ("en", "en_GB", "de", "ja"):
        label = dates_for(Locale.parse(language)).zone(moment)
        assert "CST" not in label and "08:00" in label, (language, label)
    chicago = datetime(2027, 1, 14, 18, tzinfo=ZoneInfo("America/Chicago"))
    assert dates_for(Locale.parse("en")).zone(chicago) == "CST"
    assert dates_for(Locale.parse("de")).zone(chicago) == "Chicago (GMT-06:00)"
    # British English has no short name in use for it: Babel's long one is not said
    assert dates_for(Locale.parse("en_GB")).zone(chicago) == "Chicago (GMT-06:00)"


def test_short_when_and_zone_note() -> None:
    assert BRITISH.short_when(MAY_22) == "22 May 2019"
    assert BRITISH.zone_note(MAY_22) == "Europe/Madrid, Central European Summer Time"
    days = Schedule(date(2019, 5, 20), date(2019, 5, 23), True, "UTC")
    assert BRITISH.short_when(days) == "20\u2009–\u200923 May 2019"
    assert BRITISH.zone_note(days) == ""
    assert BRITISH.schedule_when(MAY_22) == "Wed, 22 May 2019 · 14:50 CEST"
    assert BRITISH.start_time(days) == ""


def test_machine_readable_times_carry_the_real_offset() -> None:
    assert formatting.machine(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID)) == \
        "2019-05-22T14:50+02:00"
    assert formatting.machine(datetime(2019, 1, 22, 14, 50, 30, tzinfo=MADRID)) == \
        "2019-01-22T14:50:30+01:00"
    assert formatting.machine(date(2019, 5, 22)) == "2019-05-22"


def test_zone_note_never_says_utc_twice() -> None:
    """A UTC site's pages read "10:00–11:00 UTC", not "10:00–11:00 UTC (UTC, UTC)"."""
    utc = ZoneInfo("UTC")
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=utc), datetime(2019, 5, 22, 11, tzinfo=utc),
                 False, "UTC")
    assert BRITISH.when(s) == "Wed, 22 May 2019, 10:00–11:00 UTC"
    assert BRITISH.zone_note(s) == ""
    offset = timezone(timedelta(hours=9))
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=offset),
                 datetime(2019, 5, 22, 11, tzinfo=offset), False, None)
    assert BRITISH.zone_note(s) == ""  # "GMT+09:00" is in the time's label already
    tokyo = ZoneInfo("Asia/Tokyo")
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=tokyo),
                 datetime(2019, 5, 22, 11, tzinfo=tokyo), False, "Asia/Tokyo")
    assert BRITISH.zone_note(s) == "Asia/Tokyo, Japan Standard Time"


def test_the_same_text_whatever_the_machine_s_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    import locale
    before = locale.setlocale(locale.LC_ALL)
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    with contextlib.suppress(locale.Error):  # a machine without it: C, which proves less
        locale.setlocale(locale.LC_ALL, "")
    try:
        assert formatting.Dates(Locale.parse("en_GB")).when(MAY_22) == \
            "Wed, 22 May 2019, 14:50–15:25 CEST"
    finally:
        locale.setlocale(locale.LC_ALL, before)  # the worker's, for the tests after this


@pytest.mark.parametrize("language", ["en", "en_GB", "de", "fr", "ja", "ar", "zh_Hant", "ko",
                                      "ru", "he", "tr", "pt_BR", "lt", "fa"])
def test_a_day_is_written_as_babel_writes_cldr_s_pattern(language: str) -> None:
    """The day's pattern is matched once and applied with the locale's names looked up
    (formatting._DayPattern): the same text as Babel's own `format_skeleton`."""
    from babel.dates import format_skeleton

    locale = Locale.parse(language)
    dates = formatting.Dates(locale)
    for day in (date(2019, 5, 22), date(2027, 1, 3), date(999, 12, 31), date(2024, 2, 29)):
        midnight = datetime(day.year, day.month, day.day)
        assert dates.day(day) == format_skeleton("yMMMEd", midnight, locale=locale)
        assert dates.short_day(day) == format_skeleton("yMMMd", midnight, locale=locale)


@pytest.mark.parametrize("language", ["en", "de", "ja", "ar", "ko", "fr", "hi", "zh_Hans"])
def test_the_hours_of_a_day_are_written_as_babel_writes_cldr_s_interval(language: str) -> None:
    """The interval's halves are parsed once and applied with the hour, minute and
    period looked up (formatting._HoursPattern): the text of Babel's `format_interval`."""
    from datetime import time

    from babel.dates import format_interval

    locale = Locale.parse(language)
    dates = formatting.Dates(locale)
    skeleton = f"{dates.hour}m"
    for first, last in ((time(9, 0), time(9, 30)), (time(9, 50), time(10, 5)),
                        (time(11, 30), time(12, 15)), (time(0, 0), time(23, 59)),
                        (time(14, 50), time(15, 25)), (time(12, 0), time(12, 0))):
        start = datetime(2019, 5, 22, first.hour, first.minute, tzinfo=MADRID)
        end = datetime(2019, 5, 22, last.hour, last.minute, tzinfo=MADRID)
        assert dates.clocks(start, end) == format_interval(first, last, skeleton,
                                                           locale=locale)


def test_traditional_chinese_hours_are_written_though_babel_cannot_read_their_pattern() -> None:
    """Regression: zh-Hant's times carry CLDR's flexible day period (`Bh:mm`), which
    Babel's format_interval cannot compare and raised on: CLDR's fallback is used."""
    dates = formatting.Dates(Locale.parse("zh_Hant"))
    assert dates.when(MAY_22) == \
        "2019年5月22日週三 下午2:50\u2009–\u2009下午3:25 馬德里（GMT+02:00）"


@pytest.mark.parametrize("locale", ["en", "en_GB", "de", "fr", "ja", "ar", "he", "zh_Hant",
                                    "ko", "ru", "it", "pt_BR"])
def test_a_range_of_days_reads_as_babel_writes_it(locale: str) -> None:
    """The interval's halves parsed once (_DaysPattern) write what Babel's
    format_interval does, across days, months and years."""
    from babel import Locale
    from babel.dates import format_interval

    from talkpages.output.formatting import _DaysPattern

    cldr = Locale.parse(locale)
    for skeleton in ("yMMMEd", "yMMMd"):
        ranges = _DaysPattern(cldr, skeleton)
        for first, last in ((date(2027, 3, 4), date(2027, 3, 6)),
                            (date(2027, 3, 30), date(2027, 4, 2)),
                            (date(2027, 12, 30), date(2028, 1, 2))):
            assert ranges(first, last) == format_interval(first, last, skeleton,
                                                          locale=cldr), (skeleton, first)


def test_a_schedule_on_a_page_keeps_its_separator_with_the_day() -> None:
    """A narrow date column breaks after " · ", never before it (a lone "·" at a line's
    start); the tests in the browser measure it, this pins the text."""
    assert formatting.glued("Thu, Jan 14, 2027 \u00b7 6:00 PM EST") == \
        "Thu, Jan 14, 2027\u00a0\u00b7 6:00 PM EST"
    assert formatting.glued("Jan 14 \u2013 16, 2027") == "Jan 14 \u2013 16, 2027"
