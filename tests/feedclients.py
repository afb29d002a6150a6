"""Five independent calendar implementations, each asked for a feed's occurrences.

Every function returns sorted lines `UID|START|END|STATUS|SUMMARY`: timed values in UTC
(`2019-05-22T12:50:00Z`), all-day values as dates with an exclusive end. The tools
come from npm (ical.js, node-ical: tests/node), PyPI (icalendar +
recurring-ical-events) and Debian (libical's GObject binding, khal, vdirsyncer);
`available()` says which are missing so that tests can skip with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
NODE_DIR = HERE / "node"
SYSTEM_PYTHON = "/usr/bin/python3"
UTC = timezone.utc


def available() -> dict[str, str | None]:
    """Implementation name -> None when usable, else why not."""
    node_modules = NODE_DIR / "node_modules"
    node = shutil.which("node")
    missing: dict[str, str | None] = {
        "ical.js": None if node and (node_modules / "ical.js").is_dir()
        else "node or tests/node/node_modules/ical.js missing (cd tests/node && npm ci)",
        "node-ical": None if node and (node_modules / "node-ical").is_dir()
        else "node or tests/node/node_modules/node-ical missing (cd tests/node && npm ci)",
        "recurring-ical-events": None,
        "libical": None if _has_libical()
        else "Debian's gir1.2-ical-3.0 and python3-gi are missing",
        "khal": None if shutil.which("khal") else "Debian's khal is missing",
    }
    try:
        import recurring_ical_events  # noqa: F401
    except ImportError:
        missing["recurring-ical-events"] = "pip install recurring-ical-events"
    return missing


def _has_libical() -> bool:
    if not Path(SYSTEM_PYTHON).exists():
        return False
    done = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('ICalGLib', "
                           "'3.0'); from gi.repository import ICalGLib"], capture_output=True)
    return done.returncode == 0


def _run(command: list[str], cwd: Path | None = None) -> list[str]:
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=300)
    if done.returncode != 0 or done.stderr.strip():
        raise AssertionError(f"{command[:2]} failed ({done.returncode}):\n{done.stderr}")
    return sorted(line for line in done.stdout.splitlines() if line)


def icaljs(feed: Path, start: str, end: str) -> list[str]:
    return _run(["node", "icaljs.mjs", str(feed), start, end], cwd=NODE_DIR)


def nodeical(feed: Path, start: str, end: str) -> list[str]:
    return _run(["node", "nodeical.cjs", str(feed), start, end], cwd=NODE_DIR)


def libical(feed: Path, start: str, end: str) -> list[str]:
    return _run([SYSTEM_PYTHON, str(HERE / "clients" / "libical_occurrences.py"), str(feed),
                 start, end])


def python(feed: Path, start: str, end: str) -> list[str]:
    import icalendar
    import recurring_ical_events

    calendar = icalendar.Calendar.from_ical(feed.read_bytes())
    rows = []
    window = [date.fromisoformat(start), date.fromisoformat(end)]
    for event in recurring_ical_events.of(calendar).between(*window):
        first, last = event.decoded("DTSTART"), event.decoded("DTEND")
        rows.append("|".join([str(event["UID"]), _show(first), _show(last),
                              str(event.get("STATUS", "")), str(event["SUMMARY"])]))
    return sorted(rows)


def _show(value: date) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.isoformat() + "(floating)"
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


KHAL_CONFIG = """[calendars]
[[feed]]
path = {vdir}
type = calendar
[locale]
local_timezone = UTC
default_timezone = UTC
timeformat = %H:%M:%S
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%dT%H:%M:%S
longdatetimeformat = %Y-%m-%dT%H:%M:%S
[sqlite]
path = {db}
"""


def khal_list(vdir: Path, start: str, end: str, work: Path) -> list[str]:
    """khal's listing of a vdir, in the common format. khal shows UTC here (its
    configured zone), all-day ends inclusive, and a multi-day event once per day."""
    config = work / "khal.conf"
    config.write_text(KHAL_CONFIG.format(vdir=vdir, db=work / "khal.db"))
    done = subprocess.run(
        ["khal", "-c", str(config), "list", "--day-format", "",
         "--format", "{uid}|{start}|{end}|{status}|{title}", start, end],
        capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or done.stderr.strip():
        raise AssertionError(f"khal list failed:\n{done.stderr}")
    rows = []
    for line in filter(None, done.stdout.splitlines()):
        uid, first, last, status, title = line.split("|", 4)
        if "T" in first:
            first, last = first + "Z", last + "Z"
        else:
            last = (date.fromisoformat(last) + timedelta(days=1)).isoformat()
        rows.append("|".join([uid, first, last, status.strip(), title]))
    return sorted(set(rows))


def khal(feed: Path, start: str, end: str) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        vdir = work / "vdir"
        vdir.mkdir()
        config = work / "khal.conf"
        config.write_text(KHAL_CONFIG.format(vdir=vdir, db=work / "khal.db"))
        done = subprocess.run(["khal", "-c", str(config), "import", "--batch", "-a", "feed",
                               str(feed)], capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0 or done.stderr.strip():
            raise AssertionError(f"khal import failed:\n{done.stderr}")
        return khal_list(vdir, start, end, work)


IMPLEMENTATIONS: dict[str, Callable[[Path, str, str], list[str]]] = {
    "ical.js": icaljs, "node-ical": nodeical, "recurring-ical-events": python,
    "libical": libical, "khal": khal,
}
