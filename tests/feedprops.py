"""What each of the five calendar implementations of feedclients.py reads of a feed's
events beyond their times: the page (URL), the meetings (CONFERENCE, RFC 7986) and the
DESCRIPTION. Each function returns sorted lines `UID|URL|CONFERENCE…|DESCRIPTION`, the
CONFERENCE values space-separated ("" for a client that reads none), the description's
line breaks as a backslash and an n.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import feedclients
from feedclients import HERE, KHAL_CONFIG, NODE_DIR, SYSTEM_PYTHON, _run


def icaljs(feed: Path) -> list[str]:
    return _run(["node", "icaljs_props.mjs", str(feed)], cwd=NODE_DIR)


def nodeical(feed: Path) -> list[str]:
    return _run(["node", "nodeical_props.cjs", str(feed)], cwd=NODE_DIR)


def libical(feed: Path) -> list[str]:
    return _run([SYSTEM_PYTHON, str(HERE / "clients" / "libical_props.py"), str(feed)])


def python(feed: Path) -> list[str]:
    import icalendar

    rows = []
    for event in icalendar.Calendar.from_ical(feed.read_bytes()).walk("VEVENT"):
        found = event.get("CONFERENCE", [])
        found = found if isinstance(found, list) else [found]
        rows.append("|".join([str(event["UID"]), str(event.get("URL", "")),
                              " ".join(str(c) for c in found),
                              str(event.get("DESCRIPTION", "")).replace("\n", "\\n")]))
    return sorted(rows)


def khal(feed: Path) -> list[str]:
    """khal shows no CONFERENCE. Its list is read for a feed of one event in 2030 (a
    description spans lines; khal lists day by day)."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "vdir").mkdir()
        config = work / "khal.conf"
        config.write_text(KHAL_CONFIG.format(vdir=work / "vdir", db=work / "khal.db"))
        for command in (["import", "--batch", "-a", "feed", str(feed)],
                        ["list", "--day-format", "", "--format", "{uid}|{url}||{description}",
                         "2030-01-01", "2031-01-01"]):
            done = subprocess.run(["khal", "-c", str(config), *command], capture_output=True,
                                  text=True, timeout=300, stdin=subprocess.DEVNULL)
            if done.returncode != 0 or done.stderr.strip():
                raise AssertionError(f"khal {command[0]} failed:\n{done.stderr}")
        return [done.stdout.rstrip("\n").replace("\n", "\\n")]


PROPERTIES: dict[str, Callable[[Path], list[str]]] = {
    "ical.js": icaljs, "node-ical": nodeical, "recurring-ical-events": python,
    "libical": libical, "khal": khal,
}
assert PROPERTIES.keys() == feedclients.IMPLEMENTATIONS.keys()
