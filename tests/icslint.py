"""An RFC 5545 framing lint for the feeds talkpages writes (stdlib only).

Checks what a strict parser rejects or a lenient one silently gets wrong: CRLF line
ends, no BOM, lines folded at 75 octets without splitting a UTF-8 character, TEXT
escaping, dates with four-digit years, balanced BEGIN/END, the required properties, a
VTIMEZONE for every TZID and a TZID for every VTIMEZONE (RFC 5545 3.6.5), and DTEND
never together with DURATION.
Returns the problems as strings.
"""

from __future__ import annotations

import re

TEXT_PROPERTIES = {"SUMMARY", "DESCRIPTION", "LOCATION", "NAME", "X-WR-CALNAME",
                   "X-WR-CALDESC", "COMMENT", "TZNAME"}
_ESCAPE = re.compile(r"\\(.?)", re.DOTALL)
DATE_PROPERTIES = {"DTSTART", "DTEND", "EXDATE", "DTSTAMP", "LAST-MODIFIED", "RDATE"}
_STAMP = re.compile(r"[0-9]{8}(T[0-9]{6}Z?)?")
_UNTIL = re.compile(r"(?:^|;)UNTIL=([^;]*)")


def lint(data: bytes) -> list[str]:
    problems: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        problems.append("starts with a byte order mark")
    if not data.endswith(b"\r\n"):
        problems.append("does not end with CRLF")
    physical = data.split(b"\r\n")[:-1]
    for number, raw in enumerate(physical, 1):
        if b"\n" in raw or b"\r" in raw:
            problems.append(f"line {number}: bare CR or LF")
        if len(raw) > 75:
            problems.append(f"line {number}: {len(raw)} octets, more than 75")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"line {number}: not whole UTF-8 (a fold splits a character?)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return problems + ["not UTF-8"]
    lines = text.replace("\r\n ", "").replace("\r\n\t", "").split("\r\n")[:-1]
    stack: list[str] = []
    seen: dict[str, set[str]] = {}
    zones_defined: set[str] = set()
    zones_used: set[str] = set()
    for line in lines:
        name_part, _, value = line.partition(":")
        name, *params = name_part.split(";")
        name = name.upper()
        if name == "BEGIN":
            stack.append(value)
            seen[value] = set()
            continue
        if name == "END":
            if not stack or stack[-1] != value:
                problems.append(f"END:{value} does not close {stack[-1:] or 'anything'}")
                continue
            component = stack.pop()
            problems += _required(component, seen.pop(component, set()))
            continue
        if stack:
            seen.setdefault(stack[-1], set()).add(name)
        for param in params:
            if param.upper().startswith("TZID="):
                zones_used.add(param[5:])
        if name == "TZID" and stack and stack[-1] == "VTIMEZONE":
            zones_defined.add(value)
        if name in DATE_PROPERTIES or name == "RRULE":
            stamps = value.split(",") if name != "RRULE" else _UNTIL.findall(value)
            problems += [f"{name}: {stamp!r} is not a date or date-time of RFC 5545"
                         for stamp in stamps if not _STAMP.fullmatch(stamp)]
        if name in TEXT_PROPERTIES:
            if any(m.group(1) not in ("\\", ";", ",", "n", "N") for m in _ESCAPE.finditer(value)):
                problems.append(f"{name}: a backslash escapes nothing: {value[:60]!r}")
            if re.search(r"[;,]", _ESCAPE.sub("", value)):
                problems.append(f"{name}: unescaped ; or , in TEXT: {value[:60]!r}")
    if stack:
        problems.append(f"components left open: {stack}")
    for zone in sorted(zones_used - zones_defined):
        problems.append(f"TZID={zone} has no VTIMEZONE")
    for zone in sorted(zones_defined - zones_used):
        problems.append(f"VTIMEZONE {zone} is used by no TZID")
    return problems


def _required(component: str, names: set[str]) -> list[str]:
    needed = {"VCALENDAR": {"VERSION", "PRODID"}, "VEVENT": {"UID", "DTSTAMP", "DTSTART"},
              "VTIMEZONE": {"TZID"}, "STANDARD": {"DTSTART", "TZOFFSETFROM", "TZOFFSETTO"},
              "DAYLIGHT": {"DTSTART", "TZOFFSETFROM", "TZOFFSETTO"}}.get(component, set())
    problems = [f"{component} has no {name}" for name in sorted(needed - names)]
    if component == "VEVENT" and {"DTEND", "DURATION"} <= names:
        problems.append("VEVENT has both DTEND and DURATION")
    if component == "VCALENDAR" and "METHOD" in names:
        problems.append("a published feed carries no METHOD")
    return problems
