"""Content lines: escaping and folding."""

from __future__ import annotations

from datetime import timedelta

import pytest

from talkpages.output import ics


def test_text_escaping_and_no_property_injection() -> None:
    assert ics.text("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"
    assert ics.text("x\r\nSTATUS:CANCELLED") == "x\\nSTATUS:CANCELLED"
    assert "\r" not in ics.text("a\rb\x00c\x1b")


@pytest.mark.parametrize("value", ["a" * 200, "长" * 100, "é" * 99, "\\," * 80, "a\\" + "b" * 73,
                                   "x" * 74 + "\\n" + "y" * 10])
def test_folding_keeps_lines_short_and_characters_and_escapes_whole(value: str) -> None:
    folded = ics.fold("SUMMARY:" + value)
    assert folded.endswith(b"\r\n")
    lines = folded[:-2].split(b"\r\n")
    for number, line in enumerate(lines):
        assert len(line) <= 75
        line.decode("utf-8")
        if number:
            assert line.startswith(b" ")
    unfolded = b"".join([lines[0], *(line[1:] for line in lines[1:])])
    assert unfolded.decode() == "SUMMARY:" + value
    for line in lines[:-1]:  # no piece ends in the middle of an escape
        body = line.rstrip(b"\\")
        assert (len(line) - len(body)) % 2 == 0


def test_short_lines_are_not_folded() -> None:
    assert ics.fold("A:" + "b" * 73) == b"A:" + b"b" * 73 + b"\r\n"


def test_durations_and_offsets() -> None:
    assert ics.duration(timedelta(hours=12)) == "PT12H"
    assert ics.duration(timedelta(days=1, minutes=30)) == "P1DT30M"
    assert ics.duration(timedelta()) == "PT0S"
    assert ics.offset(timedelta(hours=-5)) == "-0500"
    assert ics.offset(timedelta(hours=5, minutes=45)) == "+0545"
    assert ics.offset(timedelta(seconds=-(17 * 60 + 30))) == "-001730"
    assert ics.param('Ada "the" Lovelace; Ltd') == "\"Ada 'the' Lovelace; Ltd\""
