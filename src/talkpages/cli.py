"""The command line: `talkpages build`, `talkpages check`.

Turns diagnostics into messages on stderr and exit codes: 0 when the site is good,
1 when the input has errors, 2 for a wrong command line. No traceback reaches the
user for bad input; an unexpected failure prints one line asking for a report, and
the traceback only with TALKPAGES_DEBUG=1.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostic, display_path, sort_key
from .loader import LoadOptions

UTC = timezone.utc


def _now(text: str | None) -> datetime:
    """`--now`, else SOURCE_DATE_EPOCH, else the clock; naive values are UTC."""
    if text:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC).replace(microsecond=0)


def _iso_datetime(text: str) -> str:
    try:
        _now(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO date-time such as 2019-05-01T00:00:00Z") from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="talkpages",
        description="Turn a folder of talk files into a talks microsite with a calendar feed.")
    parser.add_argument("--version", action="version", version=f"talkpages {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def site_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("-s", "--source", metavar="SITE_DIR", type=Path, default=Path("."),
                             help="the site folder, holding talks/ (default: .)")
        command.add_argument("--drafts", action="store_true", help="include draft talks")
        command.add_argument("--future", action="store_true",
                             help="include talks whose publishDate is in the future")
        command.add_argument("--now", metavar="ISO-DATETIME", type=_iso_datetime,
                             help="the build time, for reproducible builds (default: "
                             "SOURCE_DATE_EPOCH, else the clock)")

    build = commands.add_parser("build", help="build the site",
                                description="Build the site into OUT_DIR.")
    site_options(build)
    build.add_argument("-o", "--output", metavar="OUT_DIR", type=Path,
                       help="where to write the site (default: SITE_DIR/public)")
    build.add_argument("--base-url", metavar="URL",
                       help="the address the site is published at (overrides the config)")
    build.add_argument("-q", "--quiet", action="store_true", help="print only problems")

    check = commands.add_parser("check", help="check the site, write nothing",
                                description="Load and validate every talk; print every "
                                "problem; exit 1 if there is an error.")
    site_options(check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "build":
            return _build(args)
        return _check(args)
    except KeyboardInterrupt:
        print("talkpages: interrupted; nothing was changed", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so plainly, in one line
        if os.environ.get("TALKPAGES_DEBUG"):
            traceback.print_exc()
        print(f"talkpages: internal error: {type(exc).__name__}: {exc}\n"
              "  hint: this is a bug in talkpages; run again with TALKPAGES_DEBUG=1 and "
              "report the output", file=sys.stderr)
        return 3


def _options(args: argparse.Namespace, overrides: dict[str, str] | None = None,
             ) -> LoadOptions:
    return LoadOptions(now=_now(args.now), drafts=args.drafts, future=args.future,
                       overrides=overrides)


def _report(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in sorted(diagnostics, key=sort_key):
        print(diagnostic.format(), file=sys.stderr)


def _count(diagnostics: list[Diagnostic]) -> str:
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    parts = [f"{errors} error{'s' * (errors != 1)}"]
    if warnings:
        parts.append(f"{warnings} warning{'s' * (warnings != 1)}")
    return " and ".join(parts)


def _build(args: argparse.Namespace) -> int:
    from .build import build

    overrides = {"base_url": args.base_url} if args.base_url else None
    out_dir = args.output or args.source / "public"
    result = build(args.source, out_dir, _options(args, overrides))
    _report(result.diagnostics)
    if not result.ok:
        print(f"talkpages: build failed with {_count(result.diagnostics)}; nothing was "
              "written", file=sys.stderr)
        return 1
    if not args.quiet and result.site is not None:
        pages = sum(o.path.endswith(".html") for o in result.outputs)
        feeds = sum(o.path.endswith(".ics") for o in result.outputs)
        print(f"Built {len(result.site.talks)} talks: {pages} pages, {feeds} calendar "
              f"feed{'s' * (feeds != 1)}, {len(result.outputs)} files in "
              f"{result.seconds * 1000:.0f} ms -> {display_path(out_dir)}")
    return 0


def _check(args: argparse.Namespace) -> int:
    from .build import render

    result = render(args.source, _options(args))
    _report(result.diagnostics)
    if not result.ok:
        print(f"talkpages: {_count(result.diagnostics)}", file=sys.stderr)
        return 1
    talks = len(result.site.talks) if result.site else 0
    warnings = len(result.diagnostics)
    print(f"{talks} talks checked: no errors"
          + (f", {warnings} warning{'s' * (warnings != 1)}" if warnings else ""))
    return 0
