"""The command line's words: every command and option, each value checked as it is
read, so that a wrong one is a usage error naming its option (exit 2) before any work.
Kept apart from the commands (cli.py), and light: what an option needs is imported
only when the option is given.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NoReturn

from .. import __version__
from ..diagnostics import printable

UTC = timezone.utc


def build_time(text: str | None) -> datetime:
    """`--now`, else SOURCE_DATE_EPOCH, else the clock; naive values are UTC. Raises
    ValueError (or OverflowError, for a time past year 9999) for a value that is not
    a time."""
    if text:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC).replace(microsecond=0)


def checked_time(args: argparse.Namespace) -> str | None:
    """What is wrong with the build time a command would take, if anything: `--now` is
    checked as it is read, but SOURCE_DATE_EPOCH comes from the environment."""
    try:
        build_time(getattr(args, "now", None))
    except (ValueError, OverflowError, OSError):
        epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
        return (f"SOURCE_DATE_EPOCH={epoch!r} is not a time: expected whole seconds since "
                "1970-01-01 UTC, such as 1558529400")
    return None


def _iso_datetime(text: str) -> str:
    try:
        build_time(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO date-time such as 2019-05-01T00:00:00Z") from None
    except OverflowError:
        year = datetime.fromisoformat(text.replace("Z", "+00:00")).year  # parsed above
        end = "before the year 1" if year == 1 else "after the year 9999"
        raise argparse.ArgumentTypeError(f"{text!r} is {end} in UTC") from None
    return text


def _instant(text: str) -> str:
    """`next-change --since`: an ISO date-time as `--now` takes it, or an iCalendar UTC
    time (`20190522T125000Z`, a feed's DTSTAMP: when the published site was built)."""
    if re.fullmatch(r"\d{8}T\d{6}Z", text.strip()):
        t = text.strip()
        text = f"{t[:4]}-{t[4:6]}-{t[6:8]}T{t[9:11]}:{t[11:13]}:{t[13:15]}Z"
    return _iso_datetime(text)


def _answer(key: str) -> Callable[[str], str]:
    """An argparse type for an `init` flag, checked as its prompt checks the answer."""
    def convert(text: str) -> str:
        from .init import check_answer

        try:
            return check_answer(key, text)
        except ValueError as exc:
            hint = getattr(exc, "hint", None)
            raise argparse.ArgumentTypeError(str(exc) + (f" ({hint})" if hint else "")
                                             ) from None
    convert.__name__ = key.replace("_", " ")
    return convert


def _base_url(text: str) -> str:
    """`--base-url`, checked by the config's own rule, so that a wrong value is blamed on
    the option, not on a talkpages.toml that may not exist."""
    from ..content.config import OPTIONS

    try:
        OPTIONS["base_url"](text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    return text


def _zone(text: str) -> str:
    """`import --timezone`: an IANA name, checked as the config checks its own."""
    from ..content.config import check_timezone

    try:
        check_timezone(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a port: expected a number from 0 to 65535 (0 for any free one)")
    return port


def _checked(name: str) -> Callable[[str], Any]:
    """An argparse type from `scaffold.<name>`, a parser raising ValueError with a message
    for people; scaffold is imported only when `new` uses it (it is slow to import)."""
    def convert(text: str) -> Any:
        from . import scaffold

        try:
            return getattr(scaffold, name)(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = name.replace("parse_", "")
    return convert


class _Parser(argparse.ArgumentParser):
    """argparse quotes the words it refuses as they were typed (`unrecognized arguments:
    …`), and a word can be a file name holding ESC: its usage errors are printed with
    control characters escaped, as every other message is. Subcommands' parsers are of
    this class too (argparse makes them of the parser's own class)."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(message))


def parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="talkpages",
        description="Turn a folder of talk files into a talks microsite with a calendar feed.")
    parser.add_argument("--version", action="version", version=f"talkpages {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def source(command: argparse.ArgumentParser) -> None:
        command.add_argument("-s", "--source", metavar="SITE_DIR", type=Path, default=Path("."),
                             help="the site folder, holding talks/ (default: .)")

    def site_options(command: argparse.ArgumentParser) -> None:
        source(command)
        command.add_argument("--drafts", action="store_true", help="include draft talks")
        command.add_argument("--future", action="store_true",
                             help="include talks whose publishDate is in the future")
        command.add_argument("--now", metavar="ISO-DATETIME", type=_iso_datetime,
                             help="the build time, for reproducible builds (default: "
                             "SOURCE_DATE_EPOCH, else the clock)")

    def output_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("-q", "--quiet", action="store_true", help="print only problems")
        command.add_argument("-v", "--verbose", action="store_true", help="print more detail")

    build = commands.add_parser("build", help="build the site",
                                description="Build the site into OUT_DIR.")
    site_options(build)
    build.add_argument("-o", "--output", metavar="OUT_DIR", type=Path,
                       help="where to write the site (default: SITE_DIR/public)")
    build.add_argument("--base-url", metavar="URL", type=_base_url,
                       help="the address the site is published at (overrides the config)")
    output_options(build)

    check = commands.add_parser(
        "check", help="check the site, write nothing",
        description="Load and validate every talk; print every error and warning, grouped "
        "by file; exit 1 if there is an error (or a warning, with --strict).")
    site_options(check)
    check.add_argument("--strict", action="store_true",
                       help="fail on warnings too (a base_url of this machine is one)")
    check.add_argument("--base-url", metavar="URL", type=_base_url,
                       help="the address the site is to be published at, as build takes it")
    check.add_argument("--format", choices=("text", "json", "github"), default="text",
                       help="json: one JSON document on stdout, for editors and CI; github: "
                       "GitHub Actions annotations on the files, on stdout")

    new = commands.add_parser(
        "new", help="create a talk file",
        description="Write talks/<slug>.md (or talks/<slug>/index.md with --bundle) with "
        "TOML front matter. In a terminal, asks for what the options do not give.")
    new.add_argument("title", nargs="?", help="the talk's title")
    source(new)
    new.add_argument("--date", type=_checked("parse_start"), metavar="DATETIME",
                     help="start, local time at the venue: 2019-05-22T14:50, or a day "
                     "(default: today)")
    new.add_argument("--end", type=_checked("parse_end"), metavar="TIME",
                     help="end: a time on the same day (15:25), a date-time or a last day")
    new.add_argument("--timezone", type=_checked("parse_zone"), metavar="ZONE",
                     help="IANA name of the venue's zone, such as Europe/Madrid")
    new.add_argument("--event", default="", help="the event's name")
    new.add_argument("--event-url", default="", metavar="URL", help="the event's site")
    new.add_argument("--location", default="", help="such as \"Barcelona, Spain\"")
    new.add_argument("--author", action="append", default=[], metavar="NAME",
                     help="a speaker (repeat for several; default: the site's author)")
    new.add_argument("--slug", type=_checked("parse_slug"),
                     help="the page's address (default: from the title)")
    new.add_argument("--bundle", action="store_true",
                     help="a page bundle, talks/<slug>/index.md, for slides and images")

    serve = commands.add_parser(
        "serve", help="serve the site, rebuilding and reloading on change",
        description="Build the site in memory, serve it, watch talks/, layouts/, assets/ "
        "and the config, rebuild on change and reload open browser tabs. Writes nothing.")
    site_options(serve)
    serve.add_argument("--port", type=_port, default=1313, help="default: 1313; 0 for any free")
    serve.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                       help="default: 127.0.0.1 (this computer only)")
    output_options(serve)

    init = commands.add_parser(
        "init", help="start a new site: settings, a first talk, the host's files",
        description="Write a new site into DIRECTORY: talkpages.toml, a first talk, "
        "speakers.toml, .gitignore, a README and the files that publish it on its host. "
        "In a terminal, asks for what the options do not give. Never overwrites a file: "
        "in a folder that has some of them, adds only the others.")
    init.add_argument("directory", nargs="?", default=".", metavar="DIRECTORY",
                      help="the new site's folder (default: .)")
    init.add_argument("--title", type=_answer("title"), help="the site's title")
    init.add_argument("--base-url", type=_answer("base_url"), metavar="URL",
                      help="the address it is published at")
    init.add_argument("--timezone", type=_answer("timezone"), metavar="ZONE",
                      help="the zone of its talks, such as Europe/Madrid (default: this "
                      "computer's)")
    init.add_argument("--language", type=_answer("language"), metavar="TAG",
                      help="the language of its pages, such as en or pt-BR (default: en)")
    init.add_argument("--host", type=_answer("host"),
                      metavar="{github,gitlab,netlify,cloudflare,none}",
                      help="where it is published: writes that host's files")

    next_change = commands.add_parser(
        "next-change", help="when the built site next changes by itself",
        description="Print when the built site next changes by itself (a talk starts or "
        "ends, a publishDate passes) as a UTC instant, or never. With --since: exit 0 when "
        "it changed since then, and a rebuild is due; 1 when not.")
    site_options(next_change)
    next_change.add_argument("--since", metavar="ISO-DATETIME", type=_instant,
                             help="the time of the last build (also as a feed's DTSTAMP, "
                             "20190522T125000Z)")

    announce = commands.add_parser(
        "announce", help="print the e-mail or post that announces a talk",
        description="Print the e-mail that announces a talk (its subject line, then its "
        "text), from the site's templates (layouts/announce/); or the digest of the "
        "talks of the next seven days; or a post for Mastodon or Bluesky. Writes a file "
        "only where asked, never over another unless --replace.")
    announce.add_argument("slug", nargs="?", metavar="SLUG", help="the talk's slug")
    site_options(announce)
    announce.add_argument("--week", action="store_true",
                          help="the talks of the seven days from --now instead")
    announce.add_argument("--post", choices=("mastodon", "bluesky"),
                          help="print a post within the network's limit instead")
    announce.add_argument("--html", metavar="FILE", type=Path,
                          help="also write the e-mail's HTML part to FILE")
    announce.add_argument("--eml", metavar="FILE", type=Path,
                          help="also write the whole e-mail to FILE: text, HTML and the "
                          "talk's .ics attached (opens as a draft in mail clients)")
    announce.add_argument("--from", dest="sender", default="", metavar="ADDRESS",
                          help="the e-mail's From (default: left for the mail client)")
    announce.add_argument("--to", action="append", default=[], metavar="ADDRESS",
                          help="a recipient (repeat for several; default: none)")
    announce.add_argument("--replace", action="store_true",
                          help="write --html and --eml over files that exist")
    announce.add_argument("--base-url", metavar="URL", type=_base_url,
                          help="the address the site is published at (overrides the config)")
    announce.add_argument("--language", metavar="TAG",
                          help="a site in several languages: the language to announce in "
                          "(default: its first)")

    imports = commands.add_parser(
        "import", help="import the talks of a Hugo or academicpages site, or a calendar",
        description="Convert the talk files of another site, or the events of an iCalendar "
        "file, into talks/ of SITE_DIR. Never overwrites; safe to run again.")
    imports.add_argument("kind", choices=("hugo", "academicpages", "ics"),
                         help="the kind of site, or ics for a calendar file (pretalx, Indico…)")
    imports.add_argument("path", type=Path, metavar="PATH",
                         help="the site's folder (or a folder of its talk files); for ics, "
                         "the .ics file")
    imports.add_argument("--timezone", type=_zone, metavar="ZONE",
                         help="the zone of times written without one (naive), such as "
                         "America/Santiago; default: the old site's timeZone")
    imports.add_argument("--assume-local-z", action="store_true",
                         help="read times written with Z as local times of that zone too, "
                         "but those that look like real UTC (see the documentation, "
                         "Importing a site)")
    imports.add_argument("--unsafe-html", action="store_true",
                         help="the site is your own: let raw HTML of its bodies through "
                         "(unsafe_html = true in a new talkpages.toml)")
    imports.add_argument("--replace", action="store_true",
                         help="import again over an earlier import, with these options: "
                         "its talk files (and a talkpages.toml it wrote) are written again")
    imports.add_argument("--apply-suggested-zones", action="store_true",
                         help="give each talk the zone its own file suggests (its city, "
                         "a zone named in its text), as the report lists them")
    source(imports)
    output_options(imports)
    return parser
