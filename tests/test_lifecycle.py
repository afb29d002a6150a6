"""A talk's life: the fields (registration, price, join and stream links, a recording
announced), each problem at its line, and the stage a talk is at, at each instant."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from talkpages.content.config import Config
from talkpages.content.lifecycle import stage_at
from talkpages.content.model import Talk
from test_model import make, ok, toml

UTC = timezone.utc
MADRID = ZoneInfo("Europe/Madrid")
TIMED = "date = 2030-05-22T18:00:00"


def warnings(text: str) -> list[str]:
    _, problems = make(text, Config(timezone="Europe/Madrid"))
    return [p.message for p in problems if not p.is_error]


def test_the_fields_are_read() -> None:
    talk = ok(toml('registration_url = "https://tickets.example.org/x"',
                   "registration_closes = 2030-05-20T12:00:00", 'price = "€10"',
                   'join_url = "https://meet.example.org/abc"',
                   'livestream_url = "https://stream.example.org/live"', 'recording = "Coming"',
                   date_line=TIMED), Config(timezone="Europe/Madrid"))
    assert talk.registration_url == "https://tickets.example.org/x"
    # naive: in the talk's zone, like its own times
    assert talk.registration_closes == datetime(2030, 5, 20, 12, tzinfo=MADRID)
    assert talk.price == "€10"
    assert talk.join_url == "https://meet.example.org/abc"
    assert talk.livestream_url == "https://stream.example.org/live"
    assert talk.recording == "coming"
    assert "price" not in talk.params and "join_url" not in talk.params


def test_a_closing_time_with_an_offset_or_a_day_alone() -> None:
    talk = ok(toml('registration_url = "https://t.example.org/"',
                   "registration_closes = 2030-05-20T12:00:00Z", date_line=TIMED))
    assert talk.registration_closes == datetime(2030, 5, 20, 12, tzinfo=UTC)
    talk = ok(toml('registration_url = "https://t.example.org/"', 'timezone = "Asia/Tokyo"',
                   "registration_closes = 2030-05-20", date_line=TIMED))
    assert talk.registration_closes == datetime(2030, 5, 20, tzinfo=ZoneInfo("Asia/Tokyo"))


@pytest.mark.parametrize(("written", "price"), [
    ('"free"', "free"), ('"Free"', "free"), ("0", "free"), ('"0"', "free"), ("0.0", "free"),
    ('"€10"', "€10"), ("12", "12"), ('"  10   EUR "', "10 EUR"), ('""', "")])
def test_a_price_is_text_or_free(written: str, price: str) -> None:
    assert ok(toml(f"price = {written}")).price == price


@pytest.mark.parametrize("written", ["true", "-5", "[1, 2]", '"' + "x" * 41 + '"'])
def test_a_price_that_is_no_price_is_an_error_at_its_line(written: str) -> None:
    _, problems = make(toml(f"price = {written}"))
    (problem,) = [p for p in problems if p.is_error]
    assert "`price`" in problem.message and problem.line == 4


@pytest.mark.parametrize("key", ["registration_url", "join_url", "livestream_url"])
@pytest.mark.parametrize("url", ["javascript:alert(1)", "/register/", "mailto:a@example.org",
                                 "https://", "ftp://example.org/x", "https://a b.org/"])
def test_links_must_be_full_http_addresses_with_the_error_at_their_line(key: str,
                                                                       url: str) -> None:
    _, problems = make(toml('title2 = "x"', f'{key} = "{url}"'))
    (problem,) = [p for p in problems if p.is_error]
    assert f"`{key}`" in problem.message and problem.line == 5


def test_a_link_that_is_not_text_is_an_error() -> None:
    _, problems = make(toml("join_url = 3"))
    assert [p.line for p in problems if p.is_error] == [4]


def test_recording_says_coming_or_nothing() -> None:
    _, problems = make(toml('recording = "https://youtu.be/x"'))
    (problem,) = [p for p in problems if p.is_error]
    assert problem.line == 4 and "url_video" in (problem.hint or "")


def test_a_closing_time_without_registration_is_a_warning() -> None:
    assert warnings(toml("registration_closes = 2030-05-20T12:00:00", date_line=TIMED)) == [
        "`registration_closes` without a `registration_url`: the page shows no registration"]


# --- The stage at each instant ------------------------------------------------------------

START = datetime(2030, 5, 22, 16, tzinfo=UTC)  # 18:00 in Madrid


def life(*lines: str, recurrence: str = "") -> Talk:
    extra = [f'recurrence = "{recurrence}"'] if recurrence else []
    return ok(toml('timezone = "Europe/Madrid"', "date_end = 2030-05-22T19:00:00", *lines,
                   *extra, date_line=TIMED))


WHOLE = ('registration_url = "https://t.example.org/"',
         "registration_closes = 2030-05-21T00:00:00", 'join_url = "https://meet.example.org/"',
         'recording = "coming"')


@pytest.mark.parametrize(("at", "stage"), [
    (START - timedelta(days=10), "register"),
    (START - timedelta(hours=17), "calendar"),  # closed at midnight in Madrid
    (START - timedelta(minutes=16), "calendar"),
    (START - timedelta(minutes=15), "live"),
    (START + timedelta(minutes=59), "live"),
    (START + timedelta(hours=1), "coming"),
])
def test_a_talk_walks_its_stages(at: datetime, stage: str) -> None:
    assert stage_at(life(*WHOLE), at, recorded=False) == stage


def test_registration_closes_at_the_start_when_it_does_not_say() -> None:
    talk = life('registration_url = "https://t.example.org/"')
    assert stage_at(talk, START - timedelta(seconds=1), False) == "register"
    assert stage_at(talk, START, False) == "calendar"


def test_after_the_talk_the_recording_else_over() -> None:
    later = START + timedelta(days=1)
    assert stage_at(life(*WHOLE), later, recorded=True) == "recording"
    assert stage_at(life(), later, recorded=False) == "over"


def test_a_cancelled_talk_is_neither_open_nor_live() -> None:
    talk = life(*WHOLE, 'status = "cancelled"')
    assert stage_at(talk, START - timedelta(days=10), False) == "calendar"
    assert stage_at(talk, START, False) == "calendar"


def test_a_series_is_read_by_its_next_occurrence() -> None:
    talk = life('join_url = "https://meet.example.org/"',
                'registration_url = "https://t.example.org/"', recurrence="FREQ=WEEKLY;COUNT=3")
    week = timedelta(days=7)
    assert stage_at(talk, START + timedelta(minutes=30), False) == "live"
    # the first over: registration for the second is open until it starts
    assert stage_at(talk, START + timedelta(hours=2), False) == "register"
    assert stage_at(talk, START + week - timedelta(minutes=5), False) == "live"
    assert stage_at(talk, START + 3 * week, False) == "over"
