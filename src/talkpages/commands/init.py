"""`talkpages init`: a new site that builds, passes `check --strict` and publishes on its
host as it is written.

It asks for the site's title, address, time zone, language and host (or takes them as
flags, and never asks in scripts or CI), each answer checked by the validator the
config reads it with, and writes `talkpages.toml`, a first talk dated a few weeks ahead
(so the new site has an upcoming talk), `speakers.toml`, `.gitignore`, an empty
`sequence.lock` (content/sequencelock.py: the site's builds keep it, and it is
committed), a README for the site and the host's files (hosting.py). The texts are
templates in `starter/`.

It never writes over anything: each file is created by safefile.create_new, which
refuses a file that exists and a link on the way, so `init` in a folder that has some
of these files adds only the others and says which it left. A folder with a
`talkpages.toml` keeps it, and its settings are the ones the new files use.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from datetime import datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import tomli_w

from ..content.config import CONFIG_NAME, OPTIONS, Config, check_timezone, load_config
from ..content.loader import TALKS_DIR, find_talk_files
from ..content.sequencelock import LOCK_NAME, lock_text
from ..content.speakers import SPEAKERS_NAME
from ..diagnostics import Diagnostic, display_path, has_errors
from . import hosting
from .console import Console, plural
from .safefile import Refused, create_new
from .scaffold import NewTalk, NewTalkError, create, interactive

SETTINGS = ("title", "base_url", "timezone", "language")
QUESTIONS = {"title": "Title of the site",
             "base_url": "Address it is published at",
             "timezone": "Time zone of its talks (an IANA name such as Europe/Madrid)",
             "language": "Language of its pages (a tag such as en, de or pt-BR)",
             "host": "Host: " + ", ".join(hosting.HOSTS)}
FIRST_TALK = "Your first talk"
FIRST_TALK_WEEKS = 4  # how far ahead the first talk is: upcoming for a while
PLACEHOLDER_EVENT_URL = "https://example.org/"  # a talk to come links its event (lint.py)


def check_answer(key: str, text: str) -> str:
    """The clean value of one answer (or flag), by the rule the config reads it with;
    ValueError (with a `hint` perhaps) for a wrong one."""
    text = text.strip()
    if key == "host":
        if text.lower() not in hosting.HOSTS:
            raise ValueError(f"{text!r} is not a host talkpages knows: expected one of "
                             f"{', '.join(hosting.HOSTS)}")
        return text.lower()
    if key == "title" and not text:
        raise ValueError("the site needs a title")
    return str(OPTIONS[key](text))


def machine_zone() -> str:
    """This computer's IANA zone: `TZ`, else the zone /etc/localtime links to, else
    /etc/timezone (Debian's); UTC when none of them names one."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        target = os.readlink("/etc/localtime")
        name = target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else ""
        candidates.append(name.removeprefix("posix/").removeprefix("right/"))
    except OSError:
        pass
    try:
        with open("/etc/timezone", encoding="utf-8") as handle:
            candidates.append(handle.read(200).strip())
    except OSError:
        pass
    for name in candidates:
        try:
            check_timezone(name)
        except ValueError:
            continue
        return name
    return "UTC"


Ask = Callable[[str], str]


def prompt(answers: dict[str, str], keys: tuple[str, ...], ask: Ask,
           say: Callable[[str], None]) -> None:
    """Ask for each of `keys`, the default in brackets (an empty answer keeps it), and
    again after a wrong answer. Raises EOFError when the input ends."""
    for key in keys:
        while True:
            answer = ask(f"{QUESTIONS[key]} [{answers[key]}]: ").strip() or answers[key]
            try:
                answers[key] = check_answer(key, answer)
                break
            except ValueError as exc:
                hint = getattr(exc, "hint", None)
                say(f"  {exc}" + (f" ({hint})" if hint else ""))


def run(args: argparse.Namespace) -> int:
    """The command: 0 when files were added, 1 when none could be (or one failed)."""
    console = Console()
    site = Path(os.path.abspath(args.directory))
    if site.exists() and not site.is_dir():
        console.error(f"talkpages: {display_path(site)} is a file, not a folder; "
                      "nothing was written")
        return 1
    given = {key: getattr(args, key) for key in (*SETTINGS, "host")
             if getattr(args, key) is not None}
    kept_config = os.path.lexists(site / CONFIG_NAME)
    answers, config = _defaults(site, kept_config)
    if config is None:
        return _config_broken(console, site)
    asked = ("host",) if kept_config else (*SETTINGS, "host")
    answers.update({key: value for key, value in given.items() if key in asked})
    if interactive() and any(key not in given for key in asked):
        try:
            prompt(answers, tuple(key for key in asked if key not in given), input,
                   console.info)
        except EOFError:
            console.error("\ntalkpages: no answer; nothing was written")
            return 1
    if not kept_config:
        console.info("Settings: " + ", ".join(f"{key} {answers[key]!r}" for key in SETTINGS)
                     + f"; host {answers['host']}")
    else:
        unused = [f"--{key.replace('_', '-')}" for key in SETTINGS if key in given]
        console.info(f"{CONFIG_NAME} is there already: kept, and its settings used"
                     + (f" instead of {', '.join(unused)}" if unused else ""))
    created, kept, problems = _write_files(site, answers)
    _first_talk(site, created, kept, problems)
    from_remote = "base_url" not in given and not kept_config \
        and answers["base_url"] == hosting.pages_url(site)
    return _report(console, site, answers, from_remote, (created, kept, problems))


def _defaults(site: Path, kept_config: bool) -> tuple[dict[str, str], Config | None]:
    """The answers' defaults: the settings of a talkpages.toml that is there, else the
    config's defaults, this computer's zone, and the GitHub Pages address and host of
    the folder's git remote when it has one. None for a talkpages.toml with errors."""
    config = Config()
    if kept_config:
        loaded, problems = load_config(site)
        if has_errors(problems):
            return {}, None
        config = loaded
    answers = {"title": config.title, "base_url": config.base_url,
               "timezone": config.timezone, "language": config.language,
               "host": hosting.remote_host(site) or "none"}
    if not kept_config:
        answers["timezone"] = machine_zone()
        answers["base_url"] = hosting.pages_url(site) or config.base_url
    return answers, config


def _config_broken(console: Console, site: Path) -> int:
    console.diagnostics(load_config(site)[1])
    console.error(f"talkpages: fix {CONFIG_NAME} first; nothing was written")
    return 1


def _texts(answers: dict[str, str]) -> dict[str, str]:
    """Every file of the new site but its first talk, by path in the site folder."""
    values = hosting.fields(answers["title"], answers["base_url"], answers["timezone"])
    values.update({key: _toml_value(answers[key]) for key in SETTINGS})
    host = answers["host"]
    return {CONFIG_NAME: hosting.render("talkpages.toml", values),
            SPEAKERS_NAME: hosting.render("speakers.toml", values),
            ".gitignore": hosting.render("gitignore", values),
            LOCK_NAME: lock_text({}),
            "README.md": hosting.readme(host, values),
            **hosting.host_files(host, values)}


def _toml_value(text: str) -> str:
    """`text` as a TOML string, as tomli-w writes it."""
    return tomli_w.dumps({"v": text}).split("=", 1)[1].strip()


def _write_files(site: Path, answers: dict[str, str],
                 ) -> tuple[list[Path], list[Path], list[Diagnostic]]:
    created: list[Path] = []
    kept: list[Path] = []
    problems: list[Diagnostic] = []
    for name, text in _texts(answers).items():
        path = site.joinpath(*name.split("/"))
        try:
            create_new(site, path, text.encode("utf-8"))
            created.append(path)
        except Refused as exc:
            problems.append(exc.diagnostic())
        except FileExistsError:
            kept.append(path)
        except OSError as exc:
            problems.append(Diagnostic(path, f"cannot write this file: "
                                       f"{exc.strerror or exc}"))
    return created, kept, problems


def _first_talk(site: Path, created: list[Path], kept: list[Path],
                problems: list[Diagnostic]) -> None:
    """A talk a few weeks ahead, at 18:00 in the site's zone, unless talks/ has talks."""
    talks = site / TALKS_DIR
    try:
        if talks.is_dir() and find_talk_files(talks, []):
            kept.append(talks)
            return
    except OSError:
        pass
    config, found = load_config(site)
    if has_errors(found):
        problems += found
        return
    day = datetime.now(ZoneInfo(config.timezone)).date() + timedelta(weeks=FIRST_TALK_WEEKS)
    talk = NewTalk(title=FIRST_TALK, start=datetime.combine(day, time(18)), end=time(19),
                   event="Your event", event_url=PLACEHOLDER_EVENT_URL,
                   authors=[config.author] if config.author else [], draft=False)
    try:
        created.append(create(site, talk, config))
    except NewTalkError as exc:
        problems += exc.diagnostics or [Diagnostic(talks, exc.message, hint=exc.hint)]
    except OSError as exc:
        problems.append(Diagnostic(talks, f"cannot write the first talk: "
                                   f"{exc.strerror or exc}"))


def _report(console: Console, site: Path, answers: dict[str, str], from_remote: bool,
            done: tuple[list[Path], list[Path], list[Diagnostic]]) -> int:
    created, kept, problems = done
    for path in created:
        console.info(f"Created {display_path(path)}")
    for path in kept:
        what = "it has talks" if path.name == TALKS_DIR and path.is_dir() else "it exists"
        console.info(f"Kept {display_path(path)}: {what}, and was left as it is")
    console.diagnostics(problems)
    if problems:
        console.error(f"talkpages: {plural(len(problems), 'file')} could not be written"
                      + ("; the others were" if created else "; nothing was written"))
        return 1
    if not created:
        console.error(f"talkpages: nothing to add: {display_path(site)} has every file of "
                      "a new site already")
        return 1
    console.info(f"Added {plural(len(created), 'file')}"
                 + (f", kept {len(kept)} that were there" if kept else "") + ".")
    for line in _next_steps(site, answers, from_remote):
        console.info(line)
    return 0


def _next_steps(site: Path, answers: dict[str, str], from_remote: bool) -> list[str]:
    host, base_url = answers["host"], answers["base_url"]
    local = base_url == Config.base_url
    where = display_path(site)
    lines = [f"Next: `talkpages serve -s {where}` to see it, and `talkpages new` to add a "
             "talk."]
    if host == "github":
        lines.append("Push it to GitHub and set Settings > Pages > Source to GitHub Actions; "
                     "README.md says how it deploys.")
        if local:
            lines.append(f"base_url is {base_url}, the address of this computer: the "
                         "workflow builds with the GitHub Pages address (--base-url), so "
                         "the published site is right; set base_url when you know it.")
        elif from_remote:
            lines.append(f"base_url is {base_url}, the GitHub Pages address of the git "
                         "remote.")
    elif host in ("gitlab", "netlify"):
        lines.append(f"The build on {host.capitalize()} passes the site's own address "
                     "(--base-url); README.md says how it deploys.")
    elif host == "cloudflare" or local:
        lines.append(f"Set base_url in {CONFIG_NAME} to the site's address before it is "
                     "published: `talkpages check --strict` fails while it is this "
                     "computer's.")
    return lines
