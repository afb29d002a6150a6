"""A `recurrence` rule that every calendar reads the same way, or the reason it is not.

Calendars part ways where a rule strays from the plain cases: node-ical refuses a whole
feed for one INTERVAL=0, ical.js invents dates for a rule that has none (February
30th), and when a rule leaves out the talk's own date, recurring-ical-events counts
that date as the first occurrence where ical.js and node-ical do not. Legal RFC 5545
rules part them too: ical.js ignores BYHOUR in yearly rules and BYWEEKNO everywhere,
reads BYSETPOS of a yearly rule month by month, and node-ical misreads BYYEARDAY with
BYDAY; libical documents that it expands BYSETPOS in monthly and yearly rules only and
cannot count BYMONTHDAY from the end of the month in daily ones. So a rule is read
strictly: one RRULE value, each part once, every value in range, only the parts and
combinations that the clients were seen to read alike (`FOR`, and the checks in
`_combinations`), at least one date, and the talk's own date the first of them. The
feeds carry the rule as read here, in one spelling (FREQ first, as RFC 2445 readers
need).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dateutil import rrule

Parts = tuple[tuple[str, str], ...]

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
ORDER = ("FREQ", "UNTIL", "COUNT", "INTERVAL", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY",
         "BYYEARDAY", "BYMONTH", "BYSETPOS", "WKST")
# The BY parts each frequency may have (COUNT, UNTIL, INTERVAL and WKST go with all).
FOR = {"DAILY": ("BYMONTH", "BYMONTHDAY", "BYDAY", "BYHOUR", "BYMINUTE"),
       "WEEKLY": ("BYMONTH", "BYDAY", "BYHOUR", "BYMINUTE"),
       "MONTHLY": ("BYMONTH", "BYMONTHDAY", "BYDAY", "BYSETPOS"),
       "YEARLY": ("BYMONTH", "BYMONTHDAY", "BYDAY", "BYYEARDAY", "BYSETPOS")}
# Parts holding numbers: the smallest and the largest, and whether one may count from
# the end (BYMONTHDAY=-1: the last day of the month).
NUMBERS = {"BYMINUTE": (0, 59, False), "BYHOUR": (0, 23, False), "BYMONTHDAY": (1, 31, True),
           "BYYEARDAY": (1, 366, True), "BYMONTH": (1, 12, False), "BYSETPOS": (1, 366, True)}
MAX_NUMBER = 2**31 - 1  # what every client keeps in an int, as for `sequence`
EXAMPLE = 'for example: recurrence = "FREQ=WEEKLY;COUNT=10"'
# The Gregorian calendar repeats itself every 400 years, weekdays included: a rule that
# has no date in 400 years times its INTERVAL has none at all.
CYCLE_YEARS = 400
_BYDAY = re.compile(r"([+-]?)([0-9]{1,2})?(MO|TU|WE|TH|FR|SA|SU)")
_NUMBER = re.compile(r"[+-]?[0-9]{1,3}")
_WHOLE = re.compile(r"[0-9]{1,10}")


class RecurrenceError(ValueError):
    """What is wrong with a talk's `recurrence` (or `exdates`), for a message at its line."""

    def __init__(self, message: str, hint: str | None = EXAMPLE, field: str = "recurrence"):
        super().__init__(message)
        self.hint = hint
        self.field = field


def read(value: str, all_day: bool) -> tuple[Parts, str | None]:
    """The rule's parts, checked and spelled one way, and its UNTIL as written (read in
    the talk's zone by the caller)."""
    text = value.strip()
    if text[:6].upper() == "RRULE:":
        text = text[6:]
    if "RRULE" in text.upper():
        raise RecurrenceError("`recurrence` holds more than one rule",
                              "a talk has one rule; a series with another pattern is a talk "
                              "of its own")
    if any(ord(c) < 32 or c == "\x7f" for c in text):
        raise RecurrenceError("`recurrence` must be one RRULE value on one line, with no "
                              "line break or control character")
    found: dict[str, str] = {}
    for piece in filter(str.strip, text.split(";")):
        name, equals, part = piece.partition("=")
        name, part = name.strip().upper(), part.strip().upper()
        if name not in ORDER:
            raise RecurrenceError(f"`recurrence` has an unsupported part {piece.strip()!r}",
                                  "use FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, "
                                  "BYMONTH, BYSETPOS, BYYEARDAY, BYHOUR, BYMINUTE, WKST: "
                                  "the parts every calendar reads alike")
        if not equals or not part:
            raise RecurrenceError(f"`recurrence` has {name} with no value")
        if name in found:
            raise RecurrenceError(f"`recurrence` has {name} twice", "give each part once")
        found[name] = part
    freq = found.get("FREQ", "")
    if freq not in FOR:
        raise RecurrenceError("`recurrence` needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
    if "UNTIL" in found and "COUNT" in found:
        raise RecurrenceError("`recurrence` may have COUNT or UNTIL, not both")
    parts = tuple((name, _value(name, found[name], freq))
                  for name in ORDER if name in found and name != "UNTIL")
    _combinations(dict(parts), all_day)
    return parts, found.get("UNTIL")


def _value(name: str, value: str, freq: str) -> str:
    if name == "FREQ":
        return value
    if name in ("COUNT", "INTERVAL"):
        if not _WHOLE.fullmatch(value) or not 1 <= int(value) <= MAX_NUMBER:
            raise RecurrenceError(f"`recurrence` {name}={value} must be a whole number from 1 "
                                  f"to {MAX_NUMBER}", "INTERVAL=2 is every other week (or "
                                  "day, month, year); COUNT=10 is ten dates")
        return str(int(value))
    if name == "WKST":
        if value not in WEEKDAYS:
            raise RecurrenceError(f"`recurrence` WKST={value} is not a weekday",
                                  "write MO, TU, WE, TH, FR, SA or SU")
        return value
    items = [item.strip() for item in value.split(",")]
    spelled = [_weekday(item, freq) if name == "BYDAY" else _number(name, item)
               for item in items]
    return ",".join(dict.fromkeys(spelled))


def _weekday(item: str, freq: str) -> str:
    match = _BYDAY.fullmatch(item)
    if not match:
        raise RecurrenceError(f"`recurrence` BYDAY has {item!r}, which is not a weekday",
                              "write MO, TU, WE, TH, FR, SA or SU, numbered in monthly and "
                              "yearly rules: 1MO (the first Monday), -1FR (the last Friday)")
    sign, number, day = match.groups()
    if number is None:
        return day
    if freq not in ("MONTHLY", "YEARLY"):
        raise RecurrenceError(f"`recurrence` BYDAY={item} numbers a weekday in a {freq} rule",
                              "numbered weekdays (1MO, -1FR) are for MONTHLY and YEARLY "
                              "rules; write the weekday alone")
    if not 1 <= int(number) <= 5:
        raise RecurrenceError(f"`recurrence` BYDAY={item}: weekdays are numbered within a "
                              "month, from 1 to 5 (or -5 to -1)")
    return f"{'-' if sign == '-' else ''}{int(number)}{day}"


def _number(name: str, item: str) -> str:
    low, high, from_end = NUMBERS[name]
    if _NUMBER.fullmatch(item):
        number = int(item)
        if low <= number <= high or (from_end and -high <= number <= -1):
            return str(number)
    span = f"{low} to {high}" + (f" or -{high} to -1" if from_end else "")
    raise RecurrenceError(f"`recurrence` {name} has {item!r}: it takes numbers from {span}")


def _combinations(parts: dict[str, str], all_day: bool) -> None:
    freq = parts["FREQ"]
    for name in parts:
        if name.startswith("BY") and name not in FOR[freq]:
            raise RecurrenceError(f"`recurrence` {name} cannot be used in a {freq} rule",
                                  "calendars do not read it alike there; a {} rule may have "
                                  "{}".format(freq, ", ".join(FOR[freq])))
    months = parts.get("BYMONTH", "").split(",")
    numbered = any(c.isdigit() for c in parts.get("BYDAY", ""))
    if freq == "YEARLY" and "BYMONTH" not in parts and (numbered or "BYMONTHDAY" in parts):
        raise RecurrenceError("`recurrence` of a YEARLY rule needs BYMONTH with "
                              + ("numbered weekdays" if numbered else "BYMONTHDAY"),
                              'for example: "FREQ=YEARLY;BYMONTH=10;BYDAY=2WE" (the second '
                              "Wednesday of October), or a MONTHLY rule")
    if "BYSETPOS" in parts and ("BYDAY" not in parts or "BYMONTHDAY" in parts
                                or (freq == "YEARLY" and len(months) != 1)):
        raise RecurrenceError("`recurrence` BYSETPOS picks among the weekdays of BYDAY, in "
                              "one month: calendars read other uses of it differently",
                              'for example: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" '
                              "(the last weekday of each month)")
    if "BYYEARDAY" in parts and len([n for n in parts if n.startswith("BY")]) > 1:
        raise RecurrenceError("`recurrence` BYYEARDAY goes with no other BY part: calendars "
                              "read such combinations differently")
    if freq == "DAILY" and "-" in parts.get("BYMONTHDAY", ""):
        raise RecurrenceError("`recurrence` BYMONTHDAY counts from the end of the month only "
                              "in MONTHLY and YEARLY rules", 'for example: '
                              '"FREQ=MONTHLY;BYMONTHDAY=-1" (the last day of each month)')
    if all_day and ("BYHOUR" in parts or "BYMINUTE" in parts):
        raise RecurrenceError("`recurrence` of an all-day talk cannot have BYHOUR or BYMINUTE",
                              "give the talk a time, or leave them out")


def check_dates(parts: Parts, start: datetime, until: datetime | None) -> None:
    """Raise RecurrenceError unless the series has dates and the talk's own is the first.

    `start` and `until` are wall-clock times (naive): the rule follows the wall clock.
    The search is bounded: the rule is moved by whole 400-year cycles of the calendar
    (which change no weekday) to end at the year 9999, where dateutil stops, and BYSETPOS
    keeps only the position nearest to the edge of a period, which gives a date in the
    same periods and only dates the full rule gives."""
    if until is not None and until < start:
        raise RecurrenceError(f"`recurrence` ends (UNTIL) on {until:%Y-%m-%d}, before the "
                              f"talk's own date, {start:%Y-%m-%d}",
                              "give UNTIL the last date of the series")
    values = dict(parts)
    years = CYCLE_YEARS * int(values.get("INTERVAL", "1")) + 1
    shift = max(0, (9999 - years - start.year) // CYCLE_YEARS) * CYCLE_YEARS
    moved = start.replace(year=start.year + shift)
    moved_until = None
    if until is not None and until.year + shift <= 9999:
        moved_until = until.replace(year=until.year + shift)
    positions = [int(p) for p in values.get("BYSETPOS", "").split(",") if p]
    full = _rule(parts, moved, moved_until)
    nearest = full.replace(bysetpos=min(positions, key=abs)) if positions else full
    first = next(iter(nearest), None)
    if first is None:
        late = until is not None and next(iter(nearest.replace(until=None)), None)
        raise RecurrenceError("`recurrence` gives no date at all: "
                              + ("its first date is after UNTIL" if late else
                                 "no day matches all of its parts (such as February 30th)"),
                              "check the rule against a calendar")
    if first == moved or (_same_period(first, moved, values)
                          and moved in full.replace(until=first)):
        return
    shown = "%a %d %b %Y" + (" %H:%M" if first.time() != start.time() else "")
    known = f" ({first.replace(year=first.year - shift).strftime(shown)})" \
        if len(positions) <= 1 else ""
    raise RecurrenceError(f"`recurrence` leaves out the talk's own date, {start:%a %d %b %Y}: "
                          "calendars disagree on whether the series begins there",
                          f"set `date` to the first date of the series{known}, or make the "
                          "rule include the talk's date")


def _rule(parts: Parts, start: datetime, until: datetime | None) -> rrule.rrule:
    from dateutil import rrule  # only for talks that recur

    try:
        rule = rrule.rrulestr(";".join(f"{k}={v}" for k, v in parts if k != "COUNT"),
                              dtstart=start)
    except (ValueError, TypeError) as exc:
        raise RecurrenceError(f"`recurrence` cannot be read: {exc}") from None
    assert isinstance(rule, rrule.rrule)  # one rule: read() lets no second one through
    return rule.replace(until=until) if until is not None else rule


def _same_period(a: datetime, b: datetime, values: dict[str, str]) -> bool:
    freq = values["FREQ"]
    if freq == "YEARLY":
        return a.year == b.year
    if freq == "MONTHLY":
        return (a.year, a.month) == (b.year, b.month)
    if freq == "DAILY":
        return a.date() == b.date()
    first_day = WEEKDAYS.index(values.get("WKST", "MO"))
    return len({d.toordinal() - (d.weekday() - first_day) % 7 for d in (a, b)}) == 1
