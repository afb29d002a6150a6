"""The files that publish a new site on its host (`talkpages init --host`), and the time
of its daily rebuild in UTC.

The files' texts are templates in `starter/`, shipped in the package: plain files with
`%%name%%` fields, which need no escaping in YAML, TOML, shell or GitHub's `${{ }}`
(Jinja's `{{` would clash with the workflows' own). Every field of a template must be
given, and nothing else is replaced.

GitHub reads a workflow's cron lines in UTC. A daily rebuild at 04:00 in a zone with
summer time is two lines, one for each offset the zone has at 04:00 in the coming
year (Europe/Berlin: 03:00 UTC at UTC+01:00, 02:00 UTC at UTC+02:00); the workflow
keeps the run whose line is the one for the zone's offset that day.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from pathlib import Path
from textwrap import fill
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from .. import __version__

HOSTS = ("github", "gitlab", "netlify", "cloudflare", "none")
DAILY_HOUR = 4  # the local hour of the daily rebuild: after the evening's talks
PYTHON = "3.12"  # the Python of the hosts' builds
STARTER = Path(__file__).resolve().parent / "starter"
_FIELD = re.compile(r"%%([a-z_]+)%%")

# A published file of each host, by the template it is made from.
HOST_FILES = {
    "github": {".github/workflows/deploy.yml": "github-deploy.yml",
               ".github/workflows/daily.yml": "github-daily.yml"},
    "gitlab": {".gitlab-ci.yml": "gitlab-ci.yml"},
    "netlify": {"netlify.toml": "netlify.toml", "static/_headers": "headers"},
    "cloudflare": {"static/_headers": "headers"},
    "none": {},
}
_HOOKS = {"netlify": ("Netlify", "Site configuration > Build & deploy > Build hooks"),
          "cloudflare": ("Cloudflare Pages", "the project's Settings > Builds > Deploy "
                         "hooks")}


def render(name: str, values: Mapping[str, str]) -> str:
    """The template `starter/<name>` with its fields filled in."""
    text = (STARTER / name).read_text(encoding="utf-8")
    return _FIELD.sub(lambda match: values[match.group(1)], text)


# The daily rebuild's time --------------------------------------------------------------

def daily_offsets(zone: str, hour: int = DAILY_HOUR,
                  start: date | None = None) -> list[timedelta]:
    """The offsets from UTC `zone` has at `hour`:00 over the year from `start` (today),
    smallest first: one for a zone without summer time, two for most with it."""
    tz = ZoneInfo(zone)
    first = start or date.today()
    offsets = set()
    for day in range(366):
        moment = datetime.combine(first + timedelta(days=day), time(hour), tzinfo=tz)
        offset = moment.utcoffset()
        if offset is not None:
            offsets.add(offset)
    return sorted(offsets)


def utc_cron(offset: timedelta, hour: int = DAILY_HOUR) -> str:
    """The cron line, in UTC, of `hour`:00 local at `offset`: "0 3 * * *"."""
    minutes = (hour * 60 - int(offset.total_seconds()) // 60) % (24 * 60)
    return f"{minutes % 60} {minutes // 60} * * *"


def utc_name(offset: timedelta) -> str:
    """`offset` as people write it: "UTC+01:00", "UTC-03:30"."""
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def _date_offset(offset: timedelta) -> str:
    """`offset` as `date +%z` prints it: "+0100"."""
    return utc_name(offset)[3:].replace(":", "")


def daily_fields(zone: str, hour: int = DAILY_HOUR,
                 start: date | None = None) -> dict[str, str]:
    """The fields of the daily workflow and the hook recipe for `zone`."""
    offsets = daily_offsets(zone, hour, start)
    local = f"{hour:02d}:00"
    crons = [utc_cron(offset, hour) for offset in offsets]
    lines = [f'    - cron: "{cron}"  # {local} in {zone} at {utc_name(offset)}'
             for cron, offset in zip(crons, offsets, strict=True)]
    at = [f"{_clock(cron)} UTC at {utc_name(offset)}"
          for cron, offset in zip(crons, offsets, strict=True)]
    note = f"Its time: GitHub reads cron lines in UTC. {local} in {zone} is " + (
        f"{_clock(crons[0])} UTC all year." if len(offsets) == 1 else
        f"{' and '.join(at)}: a cron line for each, and the case below keeps the run "
        "whose line is the one for the day's offset.")
    return {
        "hour": local, "zone": zone, "crons": "\n".join(lines),
        "zone_note": fill(note, 88, initial_indent="# ", subsequent_indent="# "),
        "due_patterns": "".join(f'|"{cron}/{_date_offset(offset)}"'
                                for cron, offset in zip(crons, offsets, strict=True)),
        "hook_cron": crons[0],
        "hook_note": f"{local} in {zone} at {utc_name(offsets[0])}: GitHub reads it in UTC",
    }


def _clock(cron: str) -> str:
    minute, hour = cron.split()[:2]
    return f"{int(hour):02d}:{int(minute):02d}"


# What a host publishes -----------------------------------------------------------------

def host_files(host: str, given: Mapping[str, str]) -> dict[str, str]:
    """The host's own files, by their path in the site folder."""
    return {path: render(template, given) for path, template in HOST_FILES[host].items()}


def readme(host: str, given: Mapping[str, str]) -> str:
    """The site's README.md, with how the site is published on `host`."""
    values = dict(given)
    if host in _HOOKS:
        values["host_name"], values["hook_where"] = _HOOKS[host]
        values["hooks"] = render("readme-hooks.md", values).rstrip("\n")
    values["deploy"] = render(f"readme-{host}.md", values).rstrip("\n")
    return render("README.md", values)


def fields(title: str, base_url: str, zone: str) -> dict[str, str]:
    """The values every template may use, but the settings' own (init.py adds them)."""
    local = urlsplit(base_url).hostname in ("localhost", "127.0.0.1", "::1")
    feed = "https://your.site/calendar.ics" if local else base_url + "calendar.ics"
    return {"title_text": " ".join(title.split()) or "Talks", "version": __version__,
            "python": PYTHON, "feed": feed, **daily_fields(zone)}


# Where the site's repository is --------------------------------------------------------

_GITHUB = re.compile(r"github\.com[:/]+([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/"
                     r"([A-Za-z0-9._-]+?)(?:\.git)?/*$")
_SECTION = re.compile(r'^\s*\[\s*remote\s+"([^"]*)"\s*\]')
_URL = re.compile(r"^\s*url\s*=\s*(\S+)")


def remotes(site_dir: Path) -> dict[str, str]:
    """The URLs of the git remotes of the repository `site_dir` is the top of, by name,
    read from its `.git/config` (git is not run: nothing of a stranger's repository is
    executed); none when it is not the top of one."""
    config = site_dir / ".git" / "config"
    try:
        if not (site_dir / ".git").is_dir() or config.is_symlink():
            return {}
        text = config.read_text(encoding="utf-8", errors="replace")[:1_000_000]
    except OSError:
        return {}
    found: dict[str, str] = {}
    name = None
    for line in text.splitlines():
        if line.lstrip().startswith("["):
            section = _SECTION.match(line)
            name = section.group(1) if section else None
        elif name is not None and (url := _URL.match(line)):
            found.setdefault(name, url.group(1))
    return found


def _remote(site_dir: Path) -> str:
    found = remotes(site_dir)
    return found.get("origin") or next(iter(found.values()), "")


def pages_url(site_dir: Path) -> str | None:
    """The GitHub Pages address of the site's repository, when its remote is GitHub's:
    `https://<owner>.github.io/<repo>/`, or the owner's own site for `<owner>.github.io`."""
    match = _GITHUB.search(_remote(site_dir))
    if match is None:
        return None
    owner, repo = match.group(1).lower(), match.group(2)
    if repo.lower() == f"{owner}.github.io":
        return f"https://{owner}.github.io/"
    return f"https://{owner}.github.io/{repo}/"


def remote_host(site_dir: Path) -> str | None:
    """"github" or "gitlab" when the repository's remote is on github.com or gitlab.com."""
    url = _remote(site_dir).lower()
    return next((host for host in ("github", "gitlab") if f"{host}.com" in url), None)
