"""Times written without their zone: how the import reads them, and what it suggests.

Hugo sites rarely set `timeZone`, and their authors write the venue's local time either
naive (`2019-05-22T14:50:00`) or with a `Z` that does not mean UTC. The import:

- counts, per talk, times that are naive or `Z` with no `timezone` of their own;
- reads naive times in the old site's zone, or in `--timezone ZONE`;
- with `--assume-local-z`, reads `Z` times as local times of that zone too, except one
  that was most likely real UTC: its clock as written is a night hour (before 07:00,
  or 23:00 and later) while the instant it names falls in the day (07:00-22:59) in the
  zone. `00:00Z` is a date written as a time, and always read as local midnight;
- offers a zone per talk from the file itself: an IANA name in the body (an
  add-to-calendar widget's `America/Santiago`), or a `location` one of whose
  comma-separated parts is a city of the table below, which has one zone, in English
  or as it is written there (`Новосибирск`, `東京`, `Zürich`, `г. Новосибирск`). It is
  applied only when asked (`--apply-suggested-zones`): the talk then gets that
  `timezone`, and its `Z` times are read as local times of it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from ...content import times
from ...content.config import check_timezone
from .convert import Adapted, Candidate

DAY = range(7, 23)  # hours at which a talk plausibly starts
TIME_KEYS = ("date", "date_end")
_IANA = re.compile(r"\b((?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|"
                   r"Pacific)/[A-Z][A-Za-z_+-]+(?:/[A-Z][A-Za-z_+-]+)?)\b")

# Well-known conference cities, each in one zone (lower case, as written in `location`).
CITIES = {
    "amsterdam": "Europe/Amsterdam", "athens": "Europe/Athens", "austin": "America/Chicago",
    "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata", "bangkok": "Asia/Bangkok",
    "barcelona": "Europe/Madrid", "beijing": "Asia/Shanghai", "berlin": "Europe/Berlin",
    "bogotá": "America/Bogota", "bogota": "America/Bogota", "boston": "America/New_York",
    "brussels": "Europe/Brussels", "budapest": "Europe/Budapest",
    "buenos aires": "America/Argentina/Buenos_Aires", "cape town": "Africa/Johannesburg",
    "chicago": "America/Chicago", "copenhagen": "Europe/Copenhagen", "dublin": "Europe/Dublin",
    "edinburgh": "Europe/London", "geneva": "Europe/Zurich", "hamburg": "Europe/Berlin",
    "helsinki": "Europe/Helsinki", "hong kong": "Asia/Hong_Kong", "istanbul": "Europe/Istanbul",
    "jakarta": "Asia/Jakarta", "kraków": "Europe/Warsaw", "krakow": "Europe/Warsaw",
    "kyiv": "Europe/Kyiv", "lima": "America/Lima", "lisbon": "Europe/Lisbon",
    "london": "Europe/London", "los angeles": "America/Los_Angeles", "lyon": "Europe/Paris",
    "madrid": "Europe/Madrid", "melbourne": "Australia/Melbourne",
    "mexico city": "America/Mexico_City", "milan": "Europe/Rome", "montreal":
    "America/Toronto", "montréal": "America/Toronto", "moscow": "Europe/Moscow",
    "mumbai": "Asia/Kolkata", "munich": "Europe/Berlin", "münchen": "Europe/Berlin",
    "nairobi": "Africa/Nairobi", "new york": "America/New_York", "oslo": "Europe/Oslo",
    "paris": "Europe/Paris", "porto": "Europe/Lisbon", "prague": "Europe/Prague",
    "rio de janeiro": "America/Sao_Paulo", "rome": "Europe/Rome", "saint petersburg":
    "Europe/Moscow", "st. petersburg": "Europe/Moscow", "san diego": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "santiago": "America/Santiago",
    "são paulo": "America/Sao_Paulo", "sao paulo": "America/Sao_Paulo",
    "seattle": "America/Los_Angeles", "seoul": "Asia/Seoul", "shanghai": "Asia/Shanghai",
    "singapore": "Asia/Singapore", "stockholm": "Europe/Stockholm", "sydney":
    "Australia/Sydney", "taipei": "Asia/Taipei", "tel aviv": "Asia/Jerusalem",
    "tokyo": "Asia/Tokyo", "toronto": "America/Toronto", "vancouver": "America/Vancouver",
    "vienna": "Europe/Vienna", "warsaw": "Europe/Warsaw", "washington": "America/New_York",
    "zurich": "Europe/Zurich", "zürich": "Europe/Zurich",
    # more cities, and the spellings of their own languages
    "novosibirsk": "Asia/Novosibirsk", "новосибирск": "Asia/Novosibirsk",
    "москва": "Europe/Moscow", "санкт-петербург": "Europe/Moscow", "казань": "Europe/Moscow",
    "kazan": "Europe/Moscow", "нижний новгород": "Europe/Moscow",
    "yekaterinburg": "Asia/Yekaterinburg", "екатеринбург": "Asia/Yekaterinburg",
    "omsk": "Asia/Omsk", "омск": "Asia/Omsk", "tomsk": "Asia/Tomsk", "томск": "Asia/Tomsk",
    "krasnoyarsk": "Asia/Krasnoyarsk", "красноярск": "Asia/Krasnoyarsk",
    "irkutsk": "Asia/Irkutsk", "иркутск": "Asia/Irkutsk",
    "vladivostok": "Asia/Vladivostok", "владивосток": "Asia/Vladivostok",
    "київ": "Europe/Kyiv", "киев": "Europe/Kyiv", "kiev": "Europe/Kyiv",
    "minsk": "Europe/Minsk", "минск": "Europe/Minsk", "almaty": "Asia/Almaty",
    "алматы": "Asia/Almaty", "東京": "Asia/Tokyo", "東京都": "Asia/Tokyo",
    "osaka": "Asia/Tokyo", "大阪": "Asia/Tokyo", "kyoto": "Asia/Tokyo", "京都": "Asia/Tokyo",
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "shenzhen": "Asia/Shanghai",
    "深圳": "Asia/Shanghai", "香港": "Asia/Hong_Kong", "台北": "Asia/Taipei",
    "서울": "Asia/Seoul", "köln": "Europe/Berlin", "cologne": "Europe/Berlin",
    "frankfurt": "Europe/Berlin", "düsseldorf": "Europe/Berlin", "wien": "Europe/Vienna",
    "genève": "Europe/Zurich", "praha": "Europe/Prague", "warszawa": "Europe/Warsaw",
    "lisboa": "Europe/Lisbon", "roma": "Europe/Rome", "milano": "Europe/Rome",
    "københavn": "Europe/Copenhagen", "bruxelles": "Europe/Brussels",
    "göteborg": "Europe/Stockholm", "ciudad de méxico": "America/Mexico_City",
    "cdmx": "America/Mexico_City", "medellín": "America/Bogota",
    "medellin": "America/Bogota", "valparaíso": "America/Santiago",
    "québec": "America/Toronto", "quebec": "America/Toronto",
}
# what stands before a city's name in an address: "г. Новосибирск", "City of London"
_CITY_PREFIX = re.compile(r"^(?:г\.|город|city of)\s*", re.IGNORECASE)


@dataclass
class ZoneNote:
    """How the times of one talk were read."""

    path: Path
    kind: str  # "naive" or "Z"
    read_as: str  # the zone they were read in: "UTC" for Z times kept
    hint: tuple[str, str] | None = None  # a zone the file suggests, and why
    applied: bool = False  # the talk got it (--apply-suggested-zones)


@dataclass
class ZoneReading:
    """The Adjuster for times: reads them as the options say, notes each talk."""

    zone: str  # of naive times: --timezone, or the old site's
    local_z: bool = False  # --assume-local-z
    apply: bool = False  # --apply-suggested-zones
    notes: list[ZoneNote] = field(default_factory=list)

    def __call__(self, candidate: Candidate, adapted: Adapted,
                 files: tuple[str, ...]) -> list[str]:
        data = adapted.data
        if any(k.lower() == "timezone" and v not in (None, "") for k, v in data.items()):
            return []
        keys = {k.lower(): k for k in data}
        start = _moment(data.get(keys.get("date", "")))
        if not isinstance(start, datetime):
            return []
        if start.tzinfo is None:
            note = ZoneNote(candidate.path, "naive", self.zone)
        elif start.utcoffset() == timedelta(0):
            local = self.local_z and self.zone != "UTC" and looks_local(start, self.zone)
            note = ZoneNote(candidate.path, "Z", self.zone if local else "UTC")
            if local:
                for key in TIME_KEYS:
                    value = _moment(data.get(keys.get(key, "")))
                    if isinstance(value, datetime) and value.utcoffset() == timedelta(0):
                        data[keys[key]] = value.replace(tzinfo=None)
        else:
            return []
        hint = suggest(data, candidate)
        if hint is not None and hint[0] != note.read_as:
            note.hint = hint
            if self.apply:
                self._apply(hint[0], data, keys, adapted)
                note.applied = True
        self.notes.append(note)
        return []

    def _apply(self, zone: str, data: dict[str, Any], keys: dict[str, str],
               adapted: Adapted) -> None:
        """The talk's times as local times of `zone`: its own `timezone`, no Z."""
        for key in TIME_KEYS:
            value = _moment(data.get(keys.get(key, "")))
            if isinstance(value, datetime) and value.utcoffset() == timedelta(0):
                data[keys[key]] = value.replace(tzinfo=None)
        data["timezone"] = zone
        adapted.changes.append(f"timezone = {zone!r}, the zone the file suggests "
                               "(--apply-suggested-zones)")


def looks_local(moment: datetime, zone: str) -> bool:
    """A `Z` time that was most likely the local time of `zone` (the rule above)."""
    if (moment.hour, moment.minute, moment.second) == (0, 0, 0):
        return True
    as_utc = moment.astimezone(timezone.utc).astimezone(ZoneInfo(zone))
    return not (moment.hour not in DAY and as_utc.hour in DAY)


def suggest(data: dict[str, Any], candidate: Candidate) -> tuple[str, str] | None:
    """A zone the talk's own file names: in its body, or by its location's city."""
    body = candidate.path.read_text(encoding="utf-8", errors="replace")
    for name in _IANA.findall(body):
        try:
            check_timezone(name)
        except ValueError:
            continue
        return name, f"the file names {name}"
    location = next((v for k, v in data.items() if k.lower() == "location"), None)
    if isinstance(location, str):
        for part in re.split(r"[,;()|/、，]", location):  # a whole part: "Santiago de
            zone = CITIES.get(city_key(part))  # Compostela" is not Santiago
            if zone is not None:
                return zone, f"its location, {location.strip()!r}, is in {zone}"
    return None


def city_key(part: str) -> str:
    """A part of a location as the table writes cities: composed, lower case, without
    a word for "city" before it."""
    text = unicodedata.normalize("NFC", part).strip().casefold()
    return _CITY_PREFIX.sub("", text).strip()


def _moment(value: Any) -> Any:
    try:
        return times.parse_moment(value)
    except ValueError:
        return None
