"""`--now` at the ends of the calendar (the years 1 and 9999): a usage error that says
which end, or results that agree with each other."""

from __future__ import annotations

import pytest

from conftest import MakeSite, talk

SERIES = talk("Yearly", "9990-05-22T14:50:00", 'timezone = "Europe/Berlin"\n'
              'recurrence = "FREQ=YEARLY"')


@pytest.mark.parametrize("now", ["0001-01-01T00:00:00+14:00", "0001-01-01T13:59:59+14:00"])
def test_now_before_year_one_in_utc_is_not_called_after_year_9999(
        make_site: MakeSite, run_cli, now: str) -> None:
    site = make_site({"talks/one.md": talk("One")})
    for command in ("check", "build", "serve"):
        code, _, err = run_cli(command, "-s", str(site), "--now", now)
        assert code == 2, err
        assert f"argument --now: '{now}' is before the year 1 in UTC" in err
        assert "9999" not in err
    assert not (site / "public").exists()


def test_series_without_end_whose_dates_ran_out_by_now_is_past(
        make_site: MakeSite, run_cli) -> None:
    """A yearly series from 9990 has its last date in 9999: at the end of 9999 it is
    over, not upcoming (whose next date would be one already past)."""
    site = make_site({"talks/yearly.md": SERIES})
    code, _, err = run_cli("check", "-s", str(site), "--now", "9999-12-31T23:59:59")
    assert code == 0, err
    assert "past talk with no slides or video" in err and "upcoming talk" not in err
    code, _, err = run_cli("build", "-s", str(site), "--now", "9999-12-31T23:59:59")
    assert code == 0, err
    index = (site / "public/index.html").read_text(encoding="utf-8")
    upcoming, past = index.split('id="past"', 1)
    assert "Yearly" not in upcoming.split('id="upcoming"', 1)[1] and "Yearly" in past
    code, _, err = run_cli("check", "-s", str(site), "--now", "9999-05-01")
    assert code == 0 and "upcoming talk with no link" in err, err


@pytest.mark.parametrize("now", ["9999-12-31T23:59:59", "9999-12-31T23:59:59.999999Z",
                                 "0001-01-01", "0001-01-01T00:00:00-01:00"])
def test_check_and_build_at_the_ends_of_the_calendar(make_site: MakeSite, run_cli,
                                                     now: str) -> None:
    site = make_site({"talks/one.md": talk("One"), "talks/yearly.md": SERIES,
                      "talks/late.md": talk("Late", "9999-12-31T22:00:00",
                                            'timezone = "Pacific/Kiritimati"')})
    for command in ("check", "build"):
        code, _, err = run_cli(command, "-s", str(site), "--now", now)
        assert code == 0, err
        assert "internal error" not in err
